/*
 * when.h - times for people: a moment as compact local time ("05:31"
 * today, "Dec 01 17:02" within a week, "2026-11-02" further), with seconds
 * and its age for a detail pane ("05:31:11 (3m ago)"), and the text of a
 * time column as the console and the text table show it.
 */
#ifndef SQ_WHEN_H
#define SQ_WHEN_H

#include <stddef.h>
#include <stdint.h>

#include "core/model/view.h"

/* Compact local time of epoch t seen at now; NULL (nothing written) for
 * SQ_NONE, 0 or a negative t. */
const char *sq_when_short(int64_t t, int64_t now, char *buf, size_t n);
/* Local time with seconds and how long ago (or in how long) it is. */
const char *sq_when_long(int64_t t, int64_t now, char *buf, size_t n);
/* An age: "45s", "3m", "5h", "2d". */
const char *sq_when_age(int64_t secs, char *buf, size_t n);
/* Text of column c of rec for people: a SQ_COL_TIME column compact (long
 * with its age when full), any other as its text(). */
const char *sq_when_cell(const struct sq_column *c, const void *rec, int full,
			 char *buf, size_t n);

#endif
