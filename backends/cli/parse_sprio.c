/*
 * parse_sprio.c - sprio factors from `sprio -h -o <sq_cli_sprio_fmt>` and
 * the weights from `sprio -w -h -o <same>`.
 *
 * sq_parse_sprio_norm reads the normalized factors of
 * `sprio -n -h -o <sq_cli_sprio_norm_fmt>` into WHATIF rows.
 *
 * sprio lists pending, non-held jobs only, one line per job and partition.
 * Factors are the weighted values (as sprio -l shows them); the TRES
 * factor is a list and comes last.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/base/parse.h"
#include "core/base/strtab.h"
#include "core/analysis/whatif.h"

enum {
	F_ID,
	F_USER,
	F_PART,
	F_PRIO,
	F_SITE,
	F_AGE,
	F_FS,
	F_JOBSIZE,
	F_PARTPRIO,
	F_QOS,
	F_ASSOC,
	F_NICE,
	F_TRES,
	F_COUNT
};

/* sprio prints integers, but be lenient with a decimal point. */
static int
factor(const char *s, int64_t *v)
{
	const char *p = s + (*s == '-');
	char *end;
	double d;
	int64_t i = 0;

	/* the common case, digits only, without strtod (9 factors a line,
	 * 100,000 lines) */
	if (*p >= '0' && *p <= '9' && strlen(p) < 18) {
		while (*p >= '0' && *p <= '9')
			i = i * 10 + (*p++ - '0');
		if (*p == '\0') {
			*v = *s == '-' ? -i : i;
			return 0;
		}
	}
	if (sq_is_none(s)) {
		*v = 0;
		return 0;
	}
	d = strtod(s, &end);
	/* llround() of 1e37 or NaN gives garbage (INT64_MIN): refuse */
	if (end == s || *end != '\0' || !(d > -1e18 && d < 1e18))
		return -1;
	*v = (int64_t)llround(d);
	return 0;
}

static int
factors(char **f, int64_t *site, int64_t *age, int64_t *fs, int64_t *js,
	int64_t *pp, int64_t *qos, int64_t *assoc, int64_t *nice)
{
	return factor(f[F_SITE], site) | factor(f[F_AGE], age) |
	       factor(f[F_FS], fs) | factor(f[F_JOBSIZE], js) |
	       factor(f[F_PARTPRIO], pp) | factor(f[F_QOS], qos) |
	       factor(f[F_ASSOC], assoc) | factor(f[F_NICE], nice);
}

int
sq_parse_sprio(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[F_COUNT], *end;
	struct sq_strtab st;
	int lineno = 0, rc = -1;

	/* one allocation for the rows; user, partition and TRES stored
	 * once each (see parse_squeue.c) */
	sq_snapshot_reserve(s, sq_count_lines(text));
	sq_strtab_init(&st, &s->arena, 0);
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_prio *p;
		unsigned long id;

		lineno++;
		if (*line == '\0')
			continue;
		if (sq_split(line, '|', f, F_COUNT) != F_COUNT) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sprio line %d: too few fields", lineno);
			goto out;
		}
		id = strtoul(f[F_ID], &end, 10);
		if (end == f[F_ID] || *end != '\0' || id == 0) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sprio line %d: bad job id", lineno);
			goto out;
		}
		p = sq_snapshot_add(s);
		if (p == NULL) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		p->job_id = (uint32_t)id;
		p->user = sq_strtab_str(&st, f[F_USER]);
		p->partition = sq_strtab_str(&st, f[F_PART]);
		p->tres =
		    sq_is_none(f[F_TRES]) ? "" : sq_strtab_str(&st, f[F_TRES]);
		if (factor(f[F_PRIO], &p->priority) != 0 ||
		    factors(f, &p->site, &p->age, &p->fairshare, &p->jobsize,
			    &p->partition_prio, &p->qos, &p->assoc,
			    &p->nice) != 0) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sprio line %d: malformed factor", lineno);
			goto out;
		}
	}
	rc = 0;
out:
	sq_strtab_free(&st);
	return rc;
}

int
sq_parse_sprio_weights(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[F_COUNT];
	int64_t prio;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_prio_weights *w;

		if (sq_split(line, '|', f, F_COUNT) != F_COUNT)
			continue;
		w = sq_snapshot_add(s);
		if (w == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		w->tres =
		    sq_is_none(f[F_TRES]) ? "" : sq_snapshot_str(s, f[F_TRES]);
		if (factors(f, &w->site, &w->age, &w->fairshare, &w->jobsize,
			    &w->partition, &w->qos, &w->assoc, &w->nice) != 0)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "sprio -w: malformed weight");
		(void)prio;
		return 0;
	}
	return sq_err_set(err, SQ_ERR_PARSE, "sprio -w printed no weights");
}

/* sprio -n -o sq_cli_sprio_norm_fmt: id user partition priority site nice,
 * the weighted factors (age fairshare jobsize partition qos assoc), the
 * normalized ones, then the weighted and normalized TRES lists */
enum { N_WEIGHTED = 6, N_NORM = 12, N_TRES_W = 18, N_TRES_N, N_COUNT };

/* A normalized factor: a plain decimal number (sprio prints %.7f). */
static int
norm(const char *s, double *v)
{
	char *end;

	if (sq_is_none(s)) {
		*v = 0;
		return 0;
	}
	*v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(*v) || *v < -1e9 || *v > 1e9)
		return -1;
	return 0;
}

int
sq_parse_sprio_norm(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[N_COUNT], *end;
	struct sq_strtab st;
	int lineno = 0, rc = -1, i;

	sq_snapshot_reserve(s, sq_count_lines(text));
	sq_strtab_init(&st, &s->arena, 0);
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_whatif *r;
		unsigned long id;
		int bad = 0;

		lineno++;
		if (*line == '\0')
			continue;
		if (sq_split(line, '|', f, N_COUNT) != N_COUNT) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sprio -n line %d: too few fields", lineno);
			goto out;
		}
		id = strtoul(f[F_ID], &end, 10);
		if (end == f[F_ID] || *end != '\0' || id == 0 ||
		    id > UINT32_MAX) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sprio -n line %d: bad job id", lineno);
			goto out;
		}
		r = sq_snapshot_add(s);
		if (r == NULL) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		r->job_id = (uint32_t)id;
		r->user = sq_strtab_str(&st, f[F_USER]);
		r->partition = sq_strtab_str(&st, f[2]);
		r->account = "";
		bad |= factor(f[3], &r->priority) | factor(f[4], &r->site) |
		       factor(f[5], &r->nice);
		for (i = 0; i < SQ_WF_COUNT; i++)
			bad |= factor(f[N_WEIGHTED + i], &r->weighted[i]) |
			       norm(f[N_NORM + i], &r->norm[i]);
		r->tres_w = sq_is_none(f[N_TRES_W])
				? ""
				: sq_strtab_str(&st, f[N_TRES_W]);
		r->tres_n = sq_is_none(f[N_TRES_N])
				? ""
				: sq_strtab_str(&st, f[N_TRES_N]);
		if (bad) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sprio -n line %d: malformed factor",
				   lineno);
			goto out;
		}
	}
	rc = 0;
out:
	sq_strtab_free(&st);
	return rc;
}
