/*
 * parse_sinfo.c - nodes from `sinfo -h -N -O <sq_cli_sinfo_fmt>`, and the
 * Slurm version from `sinfo -V`.
 *
 * sinfo -N prints one line per node and partition; lines of the same node
 * are merged and their partitions joined with ','. The default partition
 * keeps sinfo's '*' mark. Who set the reason and when (User, TimeStamp:
 * "Unknown" when none) come before it; lines without them (recorded
 * before squall asked) are read too.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cli/cli.h"
#include "core/base/gres.h"
#include "core/model/name_index.h"
#include "core/base/parse.h"
#include "core/base/strtab.h"

enum {
	F_NODE,
	F_STATE,
	F_PART,
	F_CPUS,
	F_MEM,
	F_ALLOCMEM,
	F_GRES,
	F_GRESUSED,
	F_USER,
	F_STAMP,
	F_REASON,
	F_COUNT,
	F_OLD_COUNT = F_COUNT - 2 /* no User, TimeStamp */
};

int
sq_parse_version(const char *text, char *version, size_t n, int *major,
		 int *minor)
{
	int a, b, c = 0;
	const char *p = text;

	while (*p == ' ')
		p++;
	if (strncmp(p, "slurm ", 6) == 0)
		p += 6;
	else if (strncmp(p, "slurm-wlm ", 10) == 0)
		p += 10;
	if (sscanf(p, "%d.%d.%d", &a, &b, &c) < 2 || a < 1 || b < 0)
		return -1;
	snprintf(version, n, "%d.%02d.%d", a, b, c);
	*major = a;
	*minor = b;
	return 0;
}

/* Order of partitions in a node's list: the default ('*') first, then by
 * name, so the list does not change with sinfo's internal order. */
static int
part_before(const char *a, size_t al, const char *b, size_t bl)
{
	int ad = al > 0 && a[al - 1] == '*', bd = bl > 0 && b[bl - 1] == '*';
	size_t n = al < bl ? al : bl;
	int c;

	if (ad != bd)
		return ad;
	c = strncmp(a, b, n);
	return c < 0 || (c == 0 && al < bl);
}

/* Write list (comma-separated, sorted) with part inserted into out. */
void
sq_cli_parts_join(char *out, size_t n, const char *list, const char *part)
{
	size_t pl = strlen(part), o = 0;
	int done = 0;
	const char *s = list;

	out[0] = '\0';
	while (*s != '\0' || !done) {
		size_t l = strcspn(s, ",");
		const char *tok = s;

		if (!done && (*s == '\0' || part_before(part, pl, tok, l))) {
			tok = part;
			l = pl;
			done = 1;
		} else {
			s += l;
			if (*s == ',')
				s++;
		}
		if (o + l + 2 > n)
			break;
		if (o > 0)
			out[o++] = ',';
		memcpy(out + o, tok, l);
		o += l;
		out[o] = '\0';
	}
}

/* Who set nd's reason and when: sinfo prints "Unknown" for neither; the
 * time is epoch seconds (SLURM_TIME_FORMAT=%s). */
void
sq_cli_reason_by_at(struct sq_snapshot *s, struct sq_node *nd, const char *user,
		    const char *stamp)
{
	char *end;
	long long t = strtoll(stamp, &end, 10);

	nd->reason_by = nd->reason[0] == '\0' || sq_is_none(user) ||
				strcmp(user, "Unknown") == 0
			    ? ""
			    : sq_snapshot_str(s, user);
	nd->reason_at =
	    nd->reason[0] != '\0' && end != stamp && *end == '\0' && t > 0
		? t
		: SQ_NONE;
}

/* A further line of a node: its partition joined into the node's list. */
static int
add_partition(struct sq_snapshot *s, struct sq_node *nd, const char *part,
	      struct sq_err *err)
{
	size_t l = strlen(nd->partitions) + strlen(part) + 2;
	char *joined = sq_arena_alloc(&s->arena, l);

	if (joined == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_cli_parts_join(joined, l, nd->partitions, part);
	nd->partitions = joined;
	return 0;
}

int
sq_parse_sinfo_nodes(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *f[F_COUNT];
	int lineno = 0, rc = -1;
	struct sq_name_index x;
	struct sq_strtab st;

	/* sinfo -N gives a line per node and partition, a node's lines
	 * together but not in an order strcmp knows (n2 before n10) */
	if (sq_name_index_init(&x, sq_count_lines(text),
			       offsetof(struct sq_node, name)) == -1) {
		sq_name_index_free(&x);
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	}
	/* states, partitions, GRES and reasons repeat over thousands of
	 * nodes: stored once */
	sq_strtab_init(&st, &s->arena, 0);
	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_node *nd;
		long idx;
		size_t at;
		int64_t a, i, o, t;
		int n;

		lineno++;
		if (*line == '\0')
			continue;
		n = sq_split(line, '|', f, F_COUNT);
		if (n == F_OLD_COUNT) {
			/* the reason was the last field */
			f[F_REASON] = f[F_USER];
			f[F_USER] = f[F_STAMP] = "";
		}
		if ((n != F_COUNT && n != F_OLD_COUNT) ||
		    f[F_NODE][0] == '\0') {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sinfo line %d: %d fields, expected "
				   "%d (truncated output?)",
				   lineno, n, F_COUNT);
			goto out;
		}
		idx = sq_name_index_find(&x, s, f[F_NODE], &at);
		if (idx >= 0) {
			if (add_partition(s, sq_snapshot_row(s, (size_t)idx),
					  f[F_PART], err) == -1)
				goto out;
			continue;
		}
		nd = sq_snapshot_add(s);
		if (nd == NULL || sq_name_index_put(&x, at, s->nrows - 1)) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		nd->name = sq_snapshot_str(s, f[F_NODE]);
		nd->state = sq_strtab_str(&st, f[F_STATE]);
		nd->partitions = sq_strtab_str(&st, f[F_PART]);
		if (sscanf(f[F_CPUS], "%ld/%ld/%ld/%ld", &a, &i, &o, &t) != 4) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sinfo line %d: bad CPU counts '%s'", lineno,
				   f[F_CPUS]);
			goto out;
		}
		nd->cpus_alloc = a;
		nd->cpus_idle = i;
		nd->cpus_total = t;
		if (sq_parse_mem_mb(f[F_MEM], &nd->mem_total) == -1 ||
		    sq_parse_mem_mb(f[F_ALLOCMEM], &nd->mem_alloc) == -1) {
			sq_err_set(err, SQ_ERR_PARSE,
				   "sinfo line %d: bad memory size", lineno);
			goto out;
		}
		nd->gres =
		    sq_is_none(f[F_GRES]) ? "" : sq_strtab_str(&st, f[F_GRES]);
		nd->gres_used = sq_is_none(f[F_GRESUSED])
				    ? ""
				    : sq_strtab_str(&st, f[F_GRESUSED]);
		nd->gpus_total = sq_gres_count(nd->gres, "gpu");
		nd->gpus_alloc = sq_gres_count(nd->gres_used, "gpu");
		nd->reason = (sq_is_none(f[F_REASON]) ||
			      strcmp(f[F_REASON], "none") == 0)
				 ? ""
				 : sq_strtab_str(&st, f[F_REASON]);
		sq_cli_reason_by_at(s, nd, f[F_USER], f[F_STAMP]);
	}
	rc = 0;
out:
	sq_strtab_free(&st);
	sq_name_index_free(&x);
	return rc;
}
