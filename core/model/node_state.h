/*
 * node_state.h - a node's state as `sinfo -O StateLong` prints it
 * ("idle~", "drained*", "mixed-", "allocated", "down*", "draining"), from
 * Slurm's base state and flags as scontrol prints them (State=IDLE+CLOUD+
 * DRAIN+POWERED_DOWN) or slurmrestd lists them (["IDLE","DRAIN"], or
 * v0.0.38's "idle" with state_flags). One mapping for the CLI and REST
 * backends, in the order of Slurm's node_state_string().
 */
#ifndef SQ_NODE_STATE_H
#define SQ_NODE_STATE_H

#include <stddef.h>

enum sq_node_base {
	SQ_NB_UNKNOWN,
	SQ_NB_DOWN,
	SQ_NB_IDLE,
	SQ_NB_ALLOCATED,
	SQ_NB_ERROR,
	SQ_NB_MIXED,
	SQ_NB_FUTURE
};

enum sq_node_flag {
	SQ_NF_DRAIN = 1u << 0,
	SQ_NF_COMPLETING = 1u << 1,
	SQ_NF_NO_RESP = 1u << 2,
	SQ_NF_POWERED_DOWN = 1u << 3,
	SQ_NF_POWERING_DOWN = 1u << 4,
	SQ_NF_POWER_DOWN = 1u << 5,
	SQ_NF_POWERING_UP = 1u << 6,
	SQ_NF_MAINT = 1u << 7,
	SQ_NF_REBOOT_REQ = 1u << 8,
	SQ_NF_REBOOT_ISSUED = 1u << 9,
	SQ_NF_FAIL = 1u << 10,
	SQ_NF_PLANNED = 1u << 11,
	SQ_NF_INVALID_REG = 1u << 12,
	SQ_NF_RESERVED = 1u << 13,
	SQ_NF_PERFCTRS = 1u << 14
};

/* A node's state as read: base -1 when none was recognised (other then
 * holds the first word as given, or NULL). */
struct sq_node_state {
	int base;
	unsigned flags;
	const char *other;
	/* sinfo marks a mixed node with the PLANNED flag (Slurm 23.02+)
	 * "mixed-" (24.11.5 and 26.05.5 do; the CLI sets it); the REST
	 * backend has kept "mixed" (tests/unit/test_slurmjson.c): 0 until
	 * the caller says */
	int planned_mark;
};

void sq_node_state_init(struct sq_node_state *st);

/* Count one word (case-insensitive): a base state ("IDLE", "mixed") or a
 * flag ("DRAIN", "NOT_RESPONDING"); unknown flags are ignored, an
 * unknown first word is kept as other. */
void sq_node_state_word(struct sq_node_state *st, const char *w, size_t n);

/* scontrol's State= value: words joined with '+'. */
void sq_node_state_parse(struct sq_node_state *st, const char *s);

/* The long state, lowercase, into buf. */
void sq_node_state_long(const struct sq_node_state *st, char *buf, size_t n);

/* Whether sinfo counts the node's free CPUs as "other", not idle (its
 * CPUsState A/I/O/T): drained or draining, or down. */
int sq_node_state_cpus_other(const struct sq_node_state *st);

#endif
