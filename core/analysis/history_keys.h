/*
 * history_keys.h - the distinct keys of a history summary's scope,
 * numbered 0, 1, 2 ... as first seen (core/analysis/history_sum.c).
 */
#ifndef SQ_HISTORY_KEYS_H
#define SQ_HISTORY_KEYS_H

#include <stddef.h>
#include <stdint.h>

#define SQ_HIST_KEYS_CACHE 4096

/* Zeroed: empty. k[id] is key id (not a copy: the caller's strings). */
struct sq_hist_keys {
	const char **k; /* by id */
	size_t n, cap;
	uint32_t *slot; /* id + 1, 0 empty; at most half full */
	size_t scap;
	const char *pk[SQ_HIST_KEYS_CACHE]; /* a key's pointer -> its id */
	uint32_t pg[SQ_HIST_KEYS_CACHE];
};

/* The id of key k (a new one for a string not seen); -1 on ENOMEM. */
int64_t sq_hist_keys_id(struct sq_hist_keys *g, const char *k);
void sq_hist_keys_free(struct sq_hist_keys *g);

#endif
