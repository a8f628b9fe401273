/*
 * gpus.c - accelerator counts per node, partition, user and account.
 * Node rows come straight from Gres/GresUsed; partition rows sum their
 * nodes; user and account rows sum the jobs' allocated TRES by type
 * (a job's "gres/gpu=2,gres/gpu:a100=2" is two A100s, not four; an
 * untyped "gres/gpu=2" is of the type its nodes have).
 */
#include <stdlib.h>
#include <string.h>

#include "core/analysis/gpus.h"
#include "core/base/gres.h"
#include "core/base/hostlist.h"
#include "core/base/parse.h"

#define MAX_ITEMS 64

static struct sq_gpu *
new_row(struct sq_snapshot *s, enum sq_gpu_scope scope, const char *name,
	const char *type)
{
	struct sq_gpu *g = sq_snapshot_add(s);

	if (g == NULL)
		return NULL;
	g->scope = scope;
	g->node = g->partition = g->user = g->account = "";
	g->name = sq_snapshot_str(s, name);
	g->type = sq_snapshot_str(s, type);
	g->total = g->alloc = g->idle = SQ_NONE;
	g->util = SQ_NONE;
	g->util_note = "";
	g->pend_gpus = g->pend_jobs = 0;
	g->pend_since = g->pend_wait = SQ_NONE;
	g->pend_note = "";
	return g;
}

/* Count of (name, type) in items; typed counts never include untyped. */
static int64_t
count_of(const struct sq_gres_item *it, int n, const char *name,
	 const char *type)
{
	int64_t c = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(it[i].name, name) == 0 &&
		    strcmp(it[i].type, type) == 0)
			c += it[i].count;
	}
	return c;
}

int
sq_gpus_add_node(struct sq_snapshot *s, const char *node,
		 const char *partitions, const char *gres,
		 const char *gres_used)
{
	struct sq_gres_item cfg[MAX_ITEMS], used[MAX_ITEMS];
	int nc, nu, i;

	nc = sq_gres_parse(gres, cfg, MAX_ITEMS);
	nu = sq_gres_parse(gres_used, used, MAX_ITEMS);
	if (nc < 0)
		nc = 0;
	if (nu < 0)
		nu = 0;
	for (i = 0; i < nc; i++) {
		struct sq_gpu *g;
		int j, dup = 0;

		if (!sq_gres_is_accel(cfg[i].name))
			continue;
		for (j = 0; j < i; j++) {
			if (strcmp(cfg[j].name, cfg[i].name) == 0 &&
			    strcmp(cfg[j].type, cfg[i].type) == 0)
				dup = 1;
		}
		if (dup)
			continue;
		g = new_row(s, SQ_GPU_NODE, cfg[i].name, cfg[i].type);
		if (g == NULL)
			return -1;
		g->node = sq_snapshot_str(s, node);
		g->partition = sq_snapshot_str(s, partitions);
		g->total = count_of(cfg, nc, cfg[i].name, cfg[i].type);
		g->alloc = count_of(used, nu, cfg[i].name, cfg[i].type);
		/* untyped configuration, typed use: count the typed use */
		if (cfg[i].type[0] == '\0' && g->alloc == 0) {
			for (j = 0; j < nu; j++) {
				if (strcmp(used[j].name, cfg[i].name) == 0)
					g->alloc += used[j].count;
			}
		}
		g->jobs = 0;
	}
	return 0;
}

int
sq_gpus_add_job(struct sq_snapshot *s, const char *user, const char *account,
		const char *partition, const char *tres_alloc)
{
	return sq_gpus_add_job_on(s, user, account, partition, "", tres_alloc);
}

int
sq_gpus_add_job_on(struct sq_snapshot *s, const char *user, const char *account,
		   const char *partition, const char *nodes,
		   const char *tres_alloc)
{
	struct sq_gres_item it[MAX_ITEMS];
	int n, i, j;

	n = sq_gres_parse(tres_alloc, it, MAX_ITEMS);
	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		int64_t typed = 0, c;
		int seen = 0;

		if (!sq_gres_is_accel(it[i].name))
			continue;
		for (j = 0; j < i; j++) {
			if (strcmp(it[j].name, it[i].name) == 0 &&
			    strcmp(it[j].type, it[i].type) == 0)
				seen = 1;
		}
		if (seen)
			continue;
		c = count_of(it, n, it[i].name, it[i].type);
		if (it[i].type[0] == '\0') {
			/* untyped total: only what the types do not cover */
			for (j = 0; j < n; j++) {
				if (strcmp(it[j].name, it[i].name) == 0 &&
				    it[j].type[0] != '\0')
					typed += it[j].count;
			}
			c -= typed;
		}
		if (c <= 0)
			continue;
		{
			struct sq_gpu *g =
			    new_row(s, SQ_GPU_USER, it[i].name, it[i].type);

			if (g == NULL)
				return -1;
			g->user = sq_snapshot_str(s, user);
			g->account = sq_snapshot_str(s, account);
			g->partition = sq_snapshot_str(s, partition);
			/* its nodes, until sq_gpus_finish() types it */
			if (it[i].type[0] == '\0' && nodes != NULL)
				g->node = sq_snapshot_str(s, nodes);
			g->alloc = c;
			g->jobs = 1;
		}
	}
	return 0;
}

/* A job's GPUs stay under this (a request past it is garbage), so the
 * sums over jobs stay far from INT64_MAX. */
#define MAX_DEMAND 1000000000000LL

/* a * b for a, b >= 0, saturated at MAX_DEMAND */
static int64_t
times(int64_t a, int64_t b)
{
	if (a <= 0 || b <= 0)
		return 0;
	if (a > MAX_DEMAND / b)
		return MAX_DEMAND;
	return a * b;
}

/* Add the accelerators of request str, each times mult, to acc (n in
 * use of max); a request that does not parse adds nothing. */
static void
acc_request(struct sq_gres_item *acc, int *n, int max, const char *str,
	    int64_t mult)
{
	struct sq_gres_item it[MAX_ITEMS];
	int k, i, j;

	k = sq_gres_parse(str, it, MAX_ITEMS);
	for (i = 0; i < k; i++) {
		if (!sq_gres_is_accel(it[i].name) || it[i].count <= 0)
			continue;
		for (j = 0; j < *n; j++) {
			if (strcmp(acc[j].name, it[i].name) == 0 &&
			    strcmp(acc[j].type, it[i].type) == 0)
				break;
		}
		if (j == *n) {
			if (*n >= max)
				continue;
			acc[j] = it[i];
			acc[j].count = 0;
			(*n)++;
		}
		acc[j].count =
		    times(acc[j].count + times(it[i].count, mult), 1);
	}
}

static int
asks(const char *s)
{
	return s != NULL && !sq_is_none(s);
}

int
sq_gpus_add_pending(struct sq_snapshot *s, const struct sq_gpu_pend *p)
{
	struct sq_gres_item acc[MAX_ITEMS];
	int n = 0, i;
	int64_t nodes = p->nodes > 0 ? p->nodes : 1;
	int64_t tasks = p->tasks > 0 ? p->tasks : 1;
	int64_t copies = p->copies > 0 ? times(p->copies, 1) : 1;

	if (asks(p->per_job))
		acc_request(acc, &n, MAX_ITEMS, p->per_job, 1);
	else if (asks(p->per_node))
		acc_request(acc, &n, MAX_ITEMS, p->per_node, nodes);
	else if (asks(p->per_task))
		acc_request(acc, &n, MAX_ITEMS, p->per_task, tasks);
	for (i = 0; i < n; i++) {
		struct sq_gpu *g =
		    new_row(s, SQ_GPU_USER, acc[i].name, acc[i].type);

		if (g == NULL)
			return -1;
		g->user = sq_snapshot_str(s, p->user);
		g->account = sq_snapshot_str(s, p->account);
		g->partition = sq_snapshot_str(s, p->partition);
		g->alloc = 0;
		g->jobs = 0;
		g->pend_gpus = times(acc[i].count, copies);
		g->pend_jobs = copies;
		g->pend_since = p->submit;
		if (p->submit != SQ_NONE && p->now >= p->submit)
			g->pend_wait = p->now - p->submit;
	}
	return 0;
}

void
sq_gpus_pending_unknown(struct sq_snapshot *s, const char *why)
{
	size_t i;

	for (i = 0; i < s->nrows; i++) {
		struct sq_gpu *g = sq_snapshot_row(s, i);

		g->pend_gpus = g->pend_jobs = SQ_NONE;
		g->pend_since = g->pend_wait = SQ_NONE;
		g->pend_note = why;
	}
}

/* A node's partition list without sinfo's default mark ('*'). */
static const char *
unmarked(struct sq_snapshot *s, const char *list)
{
	char buf[1024];
	size_t i, o = 0;

	if (strchr(list, '*') == NULL)
		return list;
	for (i = 0; list[i] != '\0' && o + 1 < sizeof(buf); i++) {
		if (list[i] != '*')
			buf[o++] = list[i];
	}
	buf[o] = '\0';
	return sq_snapshot_str(s, buf);
}

static int
holds_resources(const char *state)
{
	return strcmp(state, "RUNNING") == 0 ||
	       strcmp(state, "SUSPENDED") == 0 ||
	       strcmp(state, "COMPLETING") == 0;
}

/* Tasks of a pending array row's list ("[5-20%2]", "1,3-4"): 1 when
 * not an array or unreadable. */
static int64_t
task_count(const char *list)
{
	const char *p = list != NULL ? list + (*list == '[') : "";
	int64_t c = 0;
	char *end;

	while (*p >= '0' && *p <= '9') {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi >= lo && hi - lo < 100000000UL)
			c += (int64_t)(hi - lo) + 1;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return c > 0 ? c : 1;
}

/* A pending JOBS record: its TRES per node (the only request it
 * keeps) times its nodes, once per array task. */
static int
add_pending_job(struct sq_snapshot *s, const struct sq_job *j, int64_t now)
{
	struct sq_gpu_pend p;
	int64_t tasks = j->array_job_id != 0 ? task_count(j->array_task) : 1;

	if (!asks(j->gres))
		return 0;
	memset(&p, 0, sizeof(p));
	p.user = j->user;
	p.account = j->account;
	p.partition = j->partition;
	p.nodes = j->nodes > 0 ? j->nodes : 1;
	p.tasks = 1;
	p.per_node = j->gres;
	p.per_job = p.per_task = "";
	p.submit = j->submit_time;
	p.now = now;
	p.copies = tasks;
	return sq_gpus_add_pending(s, &p);
}

int
sq_gpus_add_records(struct sq_snapshot *s, const struct sq_snapshot *nodes,
		    const struct sq_snapshot *jobs)
{
	size_t i;

	for (i = 0; nodes != NULL && i < nodes->nrows; i++) {
		const struct sq_node *n = sq_snapshot_row(nodes, i);

		if (sq_gpus_add_node(s, n->name, unmarked(s, n->partitions),
				     n->gres, n->gres_used) == -1)
			return -1;
	}
	for (i = 0; jobs != NULL && i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (sq_job_is_pending(j)) {
			if (add_pending_job(s, j, jobs->fetched) == -1)
				return -1;
			continue;
		}
		if (!holds_resources(j->state) || sq_job_tres_alloc(j) == NULL)
			continue;
		if (sq_gpus_add_job_on(s, j->user, j->account, j->partition,
				       j->nodelist != NULL ? j->nodelist : "",
				       sq_job_tres_alloc(j)) == -1)
			return -1;
	}
	return 0;
}

static const char *
key_of(const struct sq_gpu *g)
{
	switch (g->scope) {
	case SQ_GPU_NODE:
		return g->node;
	case SQ_GPU_PARTITION:
		return g->partition;
	case SQ_GPU_USER:
		return g->user;
	case SQ_GPU_ACCOUNT:
		return g->account;
	}
	return "";
}

static int
cmp_rows(const void *a_, const void *b_)
{
	const struct sq_gpu *a = a_, *b = b_;
	int c;

	if (a->scope != b->scope)
		return (int)a->scope - (int)b->scope;
	if ((c = strcmp(key_of(a), key_of(b))) != 0)
		return c;
	if (a->scope == SQ_GPU_USER &&
	    (c = strcmp(a->account, b->account)) != 0)
		return c;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	return strcmp(a->type, b->type);
}

/* Merge b into a when they are the same key (sorted input). */
static int
same(const struct sq_gpu *a, const struct sq_gpu *b)
{
	return a->scope == b->scope && strcmp(key_of(a), key_of(b)) == 0 &&
	       (a->scope != SQ_GPU_USER ||
		strcmp(a->account, b->account) == 0) &&
	       strcmp(a->name, b->name) == 0 && strcmp(a->type, b->type) == 0;
}

static int64_t
add64(int64_t a, int64_t b)
{
	if (a == SQ_NONE)
		return b;
	if (b == SQ_NONE)
		return a;
	return a + b;
}

/* Whether node row g may hold the GPUs of untyped job row u: on the
 * job's nodes when known, else in its partition. */
static int
may_hold(const struct sq_gpu *g, const struct sq_gpu *u)
{
	const char *p = g->partition;
	size_t l = strlen(u->partition);

	if (g->scope != SQ_GPU_NODE || strcmp(g->name, u->name) != 0)
		return 0;
	if (u->node[0] != '\0')
		return sq_hostlist_contains(u->node, g->node) == 1;
	while (l > 0 && (p = strstr(p, u->partition)) != NULL) {
		if ((p == g->partition || p[-1] == ',') &&
		    (p[l] == '\0' || p[l] == ',' || p[l] == '*'))
			return 1;
		p += l;
	}
	return 0;
}

/* The one type of the nodes that may hold u's GPUs (in use there, when
 * they have several), or NULL: unknown, untyped or several. */
static const char *
type_of(const struct sq_snapshot *s, size_t nrows, const struct sq_gpu *u)
{
	const char *t = NULL;
	size_t i;
	int used;

	for (used = 0; used < 2; used++) {
		int several = 0;

		t = NULL;
		for (i = 0; i < nrows && !several; i++) {
			const struct sq_gpu *g = sq_snapshot_row(s, i);

			if (!may_hold(g, u) || (used && g->alloc <= 0))
				continue;
			if (g->type[0] == '\0')
				return NULL; /* untyped there: stay so */
			if (t != NULL && strcmp(t, g->type) != 0)
				several = 1;
			t = g->type;
		}
		if (t != NULL && !several)
			return t;
	}
	return NULL;
}

/*
 * A job that asked for gpu:N without a type (allocated TRES without
 * the typed item, when AccountingStorageTRES lists gres/gpu only) is
 * counted on the type its GPUs are of: the nodes' GresUsed.
 */
static void
type_untyped(struct sq_snapshot *s)
{
	size_t n = s->nrows, i;

	for (i = 0; i < n; i++) {
		struct sq_gpu *u = sq_snapshot_row(s, i);
		const char *t;

		if (u->scope != SQ_GPU_USER)
			continue;
		if (u->type[0] == '\0' && (t = type_of(s, n, u)) != NULL)
			u->type = t;
		u->node = "";
	}
}

/* The demand of b added to a's: sums, the oldest submit, the longest
 * wait. */
static void
merge_pending(struct sq_gpu *a, const struct sq_gpu *b)
{
	a->pend_gpus = add64(a->pend_gpus, b->pend_gpus);
	a->pend_jobs = add64(a->pend_jobs, b->pend_jobs);
	if (b->pend_since != SQ_NONE &&
	    (a->pend_since == SQ_NONE || b->pend_since < a->pend_since))
		a->pend_since = b->pend_since;
	if (b->pend_wait != SQ_NONE &&
	    (a->pend_wait == SQ_NONE || b->pend_wait > a->pend_wait))
		a->pend_wait = b->pend_wait;
}

/* How many commas in p, plus one. */
static size_t
count_items(const char *p)
{
	size_t k = 1;

	while ((p = strchr(p, ',')) != NULL) {
		k++;
		p++;
	}
	return k;
}

/* How many rows sq_gpus_finish derives from s's: one per node row and
 * partition, one account row per user row (and one per partition its
 * pending jobs name). */
static size_t
count_derived(const struct sq_snapshot *s)
{
	size_t i, extra = 0;

	for (i = 0; i < s->nrows; i++) {
		const struct sq_gpu *g = sq_snapshot_row(s, i);

		if (g->scope == SQ_GPU_NODE)
			extra += count_items(g->partition);
		else if (g->scope == SQ_GPU_USER)
			/* a pending job may name several */
			extra += 1 + count_items(g->partition);
	}
	return extra;
}

/* Node row g: one partition row per partition of its list, into tmp
 * from m on. Returns the new m. */
static size_t
derive_node(struct sq_snapshot *s, const struct sq_gpu *g, struct sq_gpu *tmp,
	    size_t m)
{
	const char *p = g->partition;

	while (*p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		struct sq_gpu pr = *g;

		/* sinfo marks the default partition '*' */
		pr.scope = SQ_GPU_PARTITION;
		pr.node = "";
		pr.partition = sq_snapshot_strn(
		    s, p, l > 0 && p[l - 1] == '*' ? l - 1 : l);
		pr.jobs = 0;
		tmp[m++] = pr;
		p = e ? e + 1 : p + l;
	}
	return m;
}

/* User row g, copied at tmp[m - 1]: its account row and one partition
 * row per partition of its jobs, into tmp from m on; the user row's
 * partition emptied. Returns the new m. */
static size_t
derive_user(struct sq_snapshot *s, const struct sq_gpu *g, struct sq_gpu *tmp,
	    size_t m)
{
	struct sq_gpu ar = *g;
	const char *p = g->partition;
	size_t u = m - 1;

	ar.scope = SQ_GPU_ACCOUNT;
	ar.user = ar.partition = "";
	tmp[m++] = ar;
	/* the job's partitions: count its jobs and demand */
	while (*p != '\0') {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		struct sq_gpu pj = *g;

		pj.scope = SQ_GPU_PARTITION;
		pj.user = pj.account = "";
		pj.total = pj.alloc = SQ_NONE;
		pj.partition = sq_snapshot_strn(s, p, l);
		tmp[m++] = pj;
		p = e ? e + 1 : p + l;
	}
	tmp[u].partition = "";
	return m;
}

/* The m sorted rows of tmp back into s, the rows that are the same
 * merged into one. */
static int
merge_rows(struct sq_snapshot *s, const struct sq_gpu *tmp, size_t m)
{
	size_t i;

	s->nrows = 0;
	for (i = 0; i < m; i++) {
		struct sq_gpu *last =
		    s->nrows ? sq_snapshot_row(s, s->nrows - 1) : NULL;

		if (last != NULL && same(last, &tmp[i])) {
			last->total = add64(last->total, tmp[i].total);
			last->alloc = add64(last->alloc, tmp[i].alloc);
			last->jobs += tmp[i].jobs;
			merge_pending(last, &tmp[i]);
			continue;
		}
		last = sq_snapshot_add(s);
		if (last == NULL)
			return -1;
		*last = tmp[i];
	}
	return 0;
}

int
sq_gpus_finish(struct sq_snapshot *s, const char *util_note)
{
	struct sq_gpu *tmp;
	size_t n = s->nrows, i, m = 0;

	type_untyped(s);
	tmp = calloc(n + count_derived(s) + 1, sizeof(*tmp));
	if (tmp == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		const struct sq_gpu *g = sq_snapshot_row(s, i);

		tmp[m++] = *g;
		if (g->scope == SQ_GPU_NODE)
			m = derive_node(s, g, tmp, m);
		else if (g->scope == SQ_GPU_USER)
			m = derive_user(s, g, tmp, m);
	}
	qsort(tmp, m, sizeof(*tmp), cmp_rows);
	if (merge_rows(s, tmp, m) == -1) {
		free(tmp);
		return -1;
	}
	free(tmp);
	for (i = 0; i < s->nrows; i++) {
		struct sq_gpu *g = sq_snapshot_row(s, i);

		if (g->total != SQ_NONE && g->alloc != SQ_NONE)
			g->idle = g->total - g->alloc;
		g->util = SQ_NONE;
		g->util_note = util_note != NULL ? util_note : "";
	}
	return 0;
}

void
sq_gpus_keep(struct sq_snapshot *s, enum sq_gpu_scope scope)
{
	size_t i, m = 0;

	for (i = 0; i < s->nrows; i++) {
		struct sq_gpu *g = sq_snapshot_row(s, i);

		if (g->scope != scope)
			continue;
		if (m != i)
			memcpy(sq_snapshot_row(s, m), g, sizeof(*g));
		m++;
	}
	s->nrows = m;
}

int
sq_gpus_build(struct sq_snapshot *s, const struct sq_snapshot *nodes,
	      const struct sq_snapshot *jobs, const char *util_note)
{
	if (sq_gpus_add_records(s, nodes, jobs) == -1)
		return -1;
	return sq_gpus_finish(s, util_note);
}
