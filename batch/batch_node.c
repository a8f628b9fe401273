/*
 * batch_node.c - `squall --once --node NAME`: one node's GPUs one by one
 * (core/analysis/gpumap.h), as its detail pane in the console shows them:
 * index, type, the job holding it, its user, its use or why there is none. One
 * scontrol -d show job a GPU job on the node (job_gres) and one GPU use read
 * (squeue + one sstat) beside the nodes and the queue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "backends/backend.h"
#include "batch/batch.h"
#include "core/query/filter.h"
#include "core/analysis/gpumap.h"
#include "core/base/gres.h"
#include "core/base/sanitize.h"
#include "session/plan.h"

#define MAX_JOBS 64

struct node_jobs {
	size_t n;
	struct sq_gpumap_job job[MAX_JOBS];
	char gres[MAX_JOBS][256], why[MAX_JOBS][200];
};

static int
holds_gpus(const struct sq_job *j)
{
	const char *t = sq_job_tres_alloc(j);

	return (t != NULL && sq_gres_count(t, "gpu") > 0) ||
	       strstr(j->gres, "gpu") != NULL;
}

/* The running GPU jobs on node with the indices each holds. */
static void
read_jobs(struct sq_backend *b, const struct sq_snapshot *jobs,
	  const char *node, struct node_jobs *nj)
{
	size_t i;

	for (i = 0; i < jobs->nrows && nj->n < MAX_JOBS; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);
		struct sq_gpumap_job *m = &nj->job[nj->n];
		struct sq_err err;

		if (j->state == NULL || strcmp(j->state, "RUNNING") != 0 ||
		    j->nodelist[0] == '\0' ||
		    !sq_list_overlap(node, j->nodelist) || !holds_gpus(j))
			continue;
		m->id = j->id;
		m->user = j->user;
		m->gres = NULL;
		m->why = nj->why[nj->n];
		sq_err_clear(&err);
		if (b->ops->job_gres == NULL)
			snprintf(nj->why[nj->n], sizeof(nj->why[0]),
				 "the %s backend does not say which GPU a job "
				 "holds (use local or ssh)",
				 b->ops->name);
		else if (b->ops->job_gres(b, j->id, nj->gres[nj->n],
					  sizeof(nj->gres[0]), &err) == -1)
			snprintf(nj->why[nj->n], sizeof(nj->why[0]),
				 "scontrol -d show job %s: %.120s", j->id,
				 err.msg);
		else
			m->gres = nj->gres[nj->n];
		nj->n++;
	}
}

/* NULL stays null; bytes that are not UTF-8 become U+FFFD (as batch.c) */
static json_object *
jstr(const char *s)
{
	char *u;
	json_object *o;

	if (s == NULL)
		return NULL;
	u = sq_utf8_dup(s);
	o = json_object_new_string(u != NULL ? u : "");
	free(u);
	return o;
}

static void
print_json(const struct sq_gpumap_gpu *g, int n)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "gpu",
				       json_object_new_int(g[i].index));
		json_object_object_add(o, "type", jstr(g[i].type));
		json_object_object_add(o, "job", jstr(g[i].job));
		json_object_object_add(o, "user", jstr(g[i].user));
		json_object_object_add(o, "util",
				       g[i].util == SQ_NONE
					   ? NULL
					   : json_object_new_int64(g[i].util));
		json_object_object_add(
		    o, "job_gpus",
		    g[i].job_gpus == SQ_NONE
			? NULL
			: json_object_new_int64(g[i].job_gpus));
		json_object_object_add(o, "note",
				       g[i].note[0] ? jstr(g[i].note) : NULL);
		json_object_array_add(a, o);
	}
	fputs(json_object_to_json_string_ext(
		  a, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE),
	      stdout);
	fputc('\n', stdout);
	json_object_put(a);
}

static void
line_out(void *arg, const char *line)
{
	char safe[1024];

	(void)arg;
	sq_sanitize(line, safe, sizeof(safe));
	printf("%s\n", safe);
}

static void
print_map(const struct sq_node *nd, const struct sq_gpumap_gpu *g, int n,
	  enum sq_format fmt)
{
	char a[256], b[256];
	int i;

	if (fmt == SQ_FMT_JSON) {
		print_json(g, n);
		return;
	}
	if (fmt == SQ_FMT_TSV) {
		printf("gpu\ttype\tjob\tuser\tutil\tnote\n");
		for (i = 0; i < n; i++) {
			char u[32] = "";

			if (g[i].util != SQ_NONE)
				snprintf(u, sizeof(u), "%lld%%",
					 (long long)g[i].util);
			sq_sanitize(g[i].note, a, sizeof(a));
			printf("%d\t%s\t%s\t%s\t%s\t%s\n", g[i].index,
			       g[i].type, g[i].job ? g[i].job : "",
			       g[i].user ? g[i].user : "", u, a);
		}
		return;
	}
	printf("node %s: Gres %s", sq_sanitize(nd->name, a, sizeof(a)),
	       nd->gres[0] ? sq_sanitize(nd->gres, b, sizeof(b)) : "(none)");
	printf(", GresUsed %s\n", nd->gres_used && nd->gres_used[0]
				      ? sq_sanitize(nd->gres_used, a, sizeof(a))
				      : "(none)");
	if (n == 0)
		printf("no GPU\n");
	else
		sq_gpumap_lines(g, n, line_out, NULL);
}

static const struct sq_node *
find_node(const struct sq_snapshot *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_node *nd = sq_snapshot_row(s, i);

		if (strcmp(nd->name, name) == 0)
			return nd;
	}
	return NULL;
}

int
sq_batch_node(const struct sq_cluster_cfg *cfg, const char *node,
	      enum sq_format fmt)
{
	static struct sq_gpumap_gpu g[SQ_GPUMAP_MAX];
	struct sq_snapshot *nodes = NULL, *jobs = NULL, *use = NULL;
	struct node_jobs *nj = calloc(1, sizeof(*nj));
	const struct sq_node *nd;
	struct sq_backend *b;
	struct sq_err err;
	int rc = 1, n;

	sq_err_clear(&err);
	b = nj ? sq_backend_open(cfg, &err) : NULL;
	if (b == NULL) {
		fprintf(stderr, "squall: %s: %s\n", cfg->name,
			nj ? err.msg : "out of memory");
		free(nj);
		return err.code == SQ_ERR_USAGE ? 2 : 1;
	}
	if (sq_plan_fetch_served(b, SQ_KIND_NODES, &nodes, &err) == -1 ||
	    sq_plan_fetch_served(b, SQ_KIND_JOBS, &jobs, &err) == -1) {
		fprintf(stderr, "squall: %s\n", err.msg);
		goto out;
	}
	nd = find_node(nodes, node);
	if (nd == NULL) {
		fprintf(stderr, "squall: no node called '%s'\n", node);
		goto out;
	}
	if (sq_gres_count(nd->gres, "gpu") > 0) {
		read_jobs(b, jobs, nd->name, nj);
		/* GPU use: its rows say why when it has none */
		if (sq_plan_fetch_served(b, SQ_KIND_GPUUSE, &use, &err) == -1) {
			fprintf(stderr, "squall: GPU use: %s\n", err.msg);
			use = NULL;
		}
	}
	n = sq_gpumap_build(nd->name, nd->gres, nd->gres_used, nj->job, nj->n,
			    use, g, SQ_GPUMAP_MAX);
	print_map(nd, g, n, fmt);
	rc = fflush(stdout) != 0;
out:
	free(nj);
	sq_snapshot_unref(use);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(nodes);
	sq_backend_close(b);
	return rc;
}
