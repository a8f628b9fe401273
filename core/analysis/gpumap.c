/*
 * gpumap.c - a node's GPUs one by one (core/analysis/gpumap.h): indices from
 * the node's Gres (counts per type, in order) and GresUsed (IDX), holders from
 * the jobs' per-node GRES (IDX), use from the GPUUSE rows.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/gpumap.h"
#include "core/analysis/gpuuse.h"
#include "core/base/gres.h"

#define MAX_ITEMS 32

/* "0-1,3" up to ')' into mark; the count set, or -1. */
static int
idx_list(const char *p, unsigned char *mark, char (*types)[64],
	 const char *type, int max)
{
	int set = 0;

	if (strncmp(p, "N/A", 3) == 0)
		return 0;
	while (*p != ')' && *p != '\0') {
		char *end;
		long a = strtol(p, &end, 10), b = a, i;

		if (end == p || a < 0)
			return -1;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -1;
			p = end;
		}
		for (i = a; i <= b && i < max; i++) {
			if (!mark[i])
				set++;
			mark[i] = 1;
			if (types != NULL)
				snprintf(types[i], 64, "%s", type);
		}
		if (*p == ',')
			p++;
		else if (*p != ')')
			return -1;
	}
	return set;
}

int
sq_gpumap_idx(const char *gres, const char *name, unsigned char *mark,
	      char (*types)[64], int max)
{
	const char *p = gres;
	int total = 0;

	while (p != NULL && *p != '\0') {
		const char *e = p, *paren, *colon;
		char type[64] = "";
		size_t nl = strlen(name);
		int depth = 0, k;

		/* the item: up to a ',' outside parentheses */
		while (*e != '\0' && (*e != ',' || depth > 0)) {
			depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
			e++;
		}
		paren = memchr(p, '(', (size_t)(e - p));
		if (strncmp(p, name, nl) == 0 &&
		    (p[nl] == ':' || p[nl] == '(') && paren != NULL &&
		    strncmp(paren, "(IDX:", 5) == 0) {
			/* gpu:a100:2(...) has a type; gpu:2(...) has none */
			colon =
			    memchr(p + nl + 1, ':', (size_t)(paren - p - nl));
			if (p[nl] == ':' && colon != NULL) {
				size_t tl = (size_t)(colon - p - nl - 1);

				snprintf(type, sizeof(type), "%.*s",
					 (int)(tl < 63 ? tl : 63), p + nl + 1);
			}
			k = idx_list(paren + 5, mark, types, type, max);
			if (k < 0)
				return -1;
			total += k;
		}
		p = *e == ',' ? e + 1 : NULL;
	}
	return total;
}

int
sq_gpumap_node_gres(const char *list, const char *node, char *out, size_t n)
{
	const char *p = list;
	size_t nl = strlen(node);

	while (p != NULL && *p != '\0') {
		const char *e = strstr(p, "; ");
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l > nl && strncmp(p, node, nl) == 0 && p[nl] == ' ') {
			snprintf(out, n, "%.*s", (int)(l - nl - 1), p + nl + 1);
			return 0;
		}
		p = e ? e + 2 : NULL;
	}
	return -1;
}

/* The node's GPUs from its configured Gres: count per type, in order
 * (Slurm numbers a node's GPUs over its types in that order). */
static int
configured(const char *gres, struct sq_gpumap_gpu *out, int max)
{
	struct sq_gres_item it[MAX_ITEMS];
	int n = sq_gres_parse(gres, it, MAX_ITEMS), i, k = 0;

	for (i = 0; i < n; i++) {
		int64_t c;

		if (strcmp(it[i].name, "gpu") != 0)
			continue;
		for (c = 0; c < it[i].count && k < max; c++, k++) {
			memset(&out[k], 0, sizeof(out[k]));
			out[k].index = k;
			snprintf(out[k].type, sizeof(out[k].type), "%s",
				 it[i].type);
		}
	}
	return k;
}

/* The use cell of a GPU held by job id. */
static void
use_of(struct sq_gpumap_gpu *g, const struct sq_snapshot *use)
{
	const struct sq_gpuuse *u;

	g->util = SQ_NONE;
	if (use == NULL) {
		g->note = "GPU use not read yet";
		return;
	}
	u = sq_gpuuse_find(use, g->job);
	if (u == NULL) {
		g->note = use->note != NULL ? use->note
					    : "no GPU use reported for it "
					      "(sstat)";
		return;
	}
	g->job_gpus = u->gpus;
	g->util = u->util;
	g->note = u->util == SQ_NONE ? u->note : "";
}

int
sq_gpumap_build(const char *node, const char *gres, const char *gres_used,
		const struct sq_gpumap_job *jobs, size_t njobs,
		const struct sq_snapshot *use, struct sq_gpumap_gpu *out,
		int max)
{
	unsigned char used[SQ_GPUMAP_MAX], mine[SQ_GPUMAP_MAX];
	char types[SQ_GPUMAP_MAX][64];
	int n, i;
	size_t k;

	if (max > SQ_GPUMAP_MAX)
		max = SQ_GPUMAP_MAX;
	n = configured(gres != NULL ? gres : "", out, max);
	memset(used, 0, sizeof(used));
	memset(types, 0, sizeof(types));
	if (gres_used != NULL &&
	    sq_gpumap_idx(gres_used, "gpu", used, types, max) < 0)
		memset(used, 0, sizeof(used));
	for (i = 0; i < max; i++) {
		if (!used[i])
			continue;
		if (i >= n) { /* GresUsed names more than Gres counts */
			memset(&out[i], 0, sizeof(out[i]));
			out[i].index = i;
			n = i + 1;
		}
		out[i].used = 1;
		if (types[i][0] != '\0') {
			memcpy(out[i].type, types[i], sizeof(out[i].type));
			out[i].type[sizeof(out[i].type) - 1] = '\0';
		}
	}
	for (i = 0; i < n; i++) {
		out[i].util = SQ_NONE;
		out[i].job_gpus = SQ_NONE;
		out[i].note = out[i].used ? "held by a job not read" : "free";
	}
	for (k = 0; k < njobs; k++) {
		char mygres[256];

		if (jobs[k].gres == NULL ||
		    sq_gpumap_node_gres(jobs[k].gres, node, mygres,
					sizeof(mygres)) != 0)
			continue;
		memset(mine, 0, sizeof(mine));
		if (sq_gpumap_idx(mygres, "gpu", mine, NULL, n) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (!mine[i])
				continue;
			if (out[i].job != NULL) {
				out[i].more++;
				continue;
			}
			out[i].job = jobs[k].id;
			out[i].user = jobs[k].user;
			use_of(&out[i], use);
		}
	}
	/* a used GPU no job was read for: say which jobs could not be */
	for (i = 0; i < n; i++) {
		if (out[i].job != NULL || !out[i].used)
			continue;
		for (k = 0; k < njobs; k++) {
			if (jobs[k].gres == NULL && jobs[k].why != NULL) {
				out[i].note = jobs[k].why;
				break;
			}
		}
	}
	return n;
}

int
sq_gpumap_lines(const struct sq_gpumap_gpu *g, int n,
		void (*fn)(void *arg, const char *line), void *arg)
{
	char line[512], use[200];
	int i;

	snprintf(line, sizeof(line), "%-4s %-10s %-12s %-10s %s", "GPU", "type",
		 "job", "user", "use");
	fn(arg, line);
	for (i = 0; i < n; i++) {
		const struct sq_gpumap_gpu *x = &g[i];

		if (x->util != SQ_NONE && x->job_gpus > 1)
			snprintf(use, sizeof(use),
				 "%lld%% (the job's mean over its %lld GPUs: "
				 "Slurm measures no GPU alone)",
				 (long long)x->util, (long long)x->job_gpus);
		else if (x->util != SQ_NONE)
			snprintf(use, sizeof(use), "%lld%%",
				 (long long)x->util);
		else
			snprintf(use, sizeof(use), "- (%s)",
				 x->note[0] ? x->note : "no figure");
		if (x->more > 0) {
			size_t l = strlen(use);

			snprintf(use + l, sizeof(use) - l,
				 "; shared with %d more job%s", x->more,
				 x->more > 1 ? "s" : "");
		}
		snprintf(line, sizeof(line), "%-4d %-10s %-12s %-10s %s",
			 x->index, x->type[0] ? x->type : "-",
			 x->job ? x->job : "-", x->user ? x->user : "-", use);
		fn(arg, line);
	}
	return n + 1;
}
