/*
 * name_index.h - a snapshot's rows by name, while a parser adds them:
 * outputs with several lines per record (sinfo -N: a line per node and
 * partition; sacctmgr show user/account: a line per coordinator) find the
 * record of a line in constant time, not by a scan of every earlier row
 * (quadratic at 50,000 nodes or 100,000 users). Open addressing; the
 * name is read from the row at a given offset (a const char * member).
 */
#ifndef SQ_NAME_INDEX_H
#define SQ_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "core/model/snapshot.h"

struct sq_name_index {
	uint32_t *slot; /* row + 1, 0 empty */
	size_t mask;
	size_t name_off; /* offset of the row's name member */
};

/* Room for up to rows rows named at name_off; -1 without memory. */
int sq_name_index_init(struct sq_name_index *x, size_t rows, size_t name_off);
void sq_name_index_free(struct sq_name_index *x);

/* The row of s named name, or -1; *at: its slot, or the free slot for a
 * row of that name (sq_name_index_put). */
long sq_name_index_find(const struct sq_name_index *x,
			const struct sq_snapshot *s, const char *name,
			size_t *at);

/* Row (an index of s) is the one named as at's search was; -1 when the
 * index is full (more rows than it was made for). */
int sq_name_index_put(struct sq_name_index *x, size_t at, size_t row);

#endif
