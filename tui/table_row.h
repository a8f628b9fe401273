/*
 * table_row.h - a shown row of the table widget (an index into the
 * snapshot, its tree depth and fold flags) and the widget's limits: what
 * table.h and the rebuild cache of table_int.h both need.
 */
#ifndef SQ_TUI_TABLE_ROW_H
#define SQ_TUI_TABLE_ROW_H

#include <stdint.h>

#define SQ_TABLE_MAX_COLS 64
#define SQ_TABLE_CELL 512 /* bytes of one cell's text */

/* sq_table_row.flags */
#define SQ_ROW_HASKIDS 0x1 /* a tree node or an array with members */
#define SQ_ROW_FOLDED 0x2  /* its members are hidden */

struct sq_table_row {
	uint32_t rec;         /* row index in the snapshot */
	unsigned short depth; /* tree depth, 0 at the top */
	unsigned char flags;  /* SQ_ROW_* */
	unsigned hidden;      /* members hidden under a folded row */
};

#endif
