/*
 * bench_rng.h - the generators' random numbers (gen_*.c): xorshift64*,
 * fast, good enough, the same sequence everywhere, so a generator's N
 * gives the same bytes on every machine. Each generator keeps its own
 * state (its seed).
 */
#ifndef SQ_BENCH_RNG_H
#define SQ_BENCH_RNG_H

#include <stdint.h>

/* The next number in 0 .. n-1 from *state. */
static inline uint32_t
bench_rnd(uint64_t *state, uint32_t n)
{
	uint64_t r = *state;

	r ^= r >> 12;
	r ^= r << 25;
	r ^= r >> 27;
	*state = r;
	return (uint32_t)((r * 2685821657736338717ULL) >> 33) % n;
}

#endif
