/*
 * overview_rows.h - the overview's rows as its two files build them
 * (core/analysis/overview.c, core/analysis/overview_ctld.c): not for other
 * modules.
 */
#ifndef SQ_OVERVIEW_ROWS_H
#define SQ_OVERVIEW_ROWS_H

#include <stddef.h>
#include <time.h>

#include "core/model/snapshot.h"

struct sq_ov_row;
struct sq_ov_input;

/* A row of section, key (kn bytes, cut at 24) from source kind src. */
struct sq_ov_row *sq_ov_row_add(struct sq_snapshot *s, const char *section,
				const char *key, size_t kn, int src);
/* Its value from fmt with a and b. */
void sq_ov_row_value(struct sq_snapshot *s, struct sq_ov_row *r,
		     const char *fmt, long long a, long long b);
/* Enter opens view filtered to "@col=value" (n bytes of v). */
void sq_ov_row_link(struct sq_snapshot *s, struct sq_ov_row *r,
		    const char *view, const char *col, const char *v, size_t n);

/* overview_ctld.c: the source line, the stuck COMPLETING jobs, and the
 * controller's lines (in control, health, a user above the share). */
void sq_ov_source_row(struct sq_snapshot *s, const struct sq_ov_input *in);
void sq_ov_stuck_rows(struct sq_snapshot *s, const struct sq_snapshot *jobs,
		      time_t now);
void sq_ov_ctld_rows(struct sq_snapshot *s, const struct sq_ov_input *in);

#endif
