/*
 * limits.c - limits in force from associations and QOS, with their use
 * counted from the queue the way slurmctld's assoc_mgr counts it: a
 * user association holds its own jobs, an account association the jobs
 * of its subtree; running jobs for GrpJobs/MaxJobs and TRES, running
 * and pending ones (each array task) for the submit limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/limits.h"
#include "core/model/model_admin.h"

/* Deepest account tree walked (a loop in bad data ends here). */
#define MAX_DEPTH 64

enum use_kind { USE_NONE, USE_RUN, USE_SUBMIT, USE_TRES, USE_RUN_MINS };

/* Which jobs a row counts: of an association, or of a QOS (and of one
 * user or account of it). */
struct scope {
	const struct sq_snapshot *assocs;
	const struct sq_assoc *assoc; /* or NULL */
	const char *qos;              /* QOS name, or NULL */
	const char *user, *account;   /* per-user / per-account, or NULL */
};

static int
is_running(const struct sq_job *j)
{
	return strcmp(j->state, "RUNNING") == 0 ||
	       strcmp(j->state, "SUSPENDED") == 0;
}

/* Tasks a pending array record stands for ("4-20", "[5-20%2]",
 * "[1,3-4]"); 1 for any other job. */
static int64_t
tasks(const struct sq_job *j)
{
	const char *p = j->array_task;
	int64_t n = 0;

	if (p == NULL || j->array_job_id == 0)
		return 1;
	if (*p == '[')
		p++;
	while (*p != '\0' && *p != ']' && *p != '%') {
		char *e;
		long a = strtol(p, &e, 10), b = a;

		if (e == p)
			break;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		n += b >= a ? b - a + 1 : 1;
		p = *e == ',' ? e + 1 : e;
	}
	return n > 0 ? n : 1;
}

int64_t
sq_limits_tres(const char *list, const char *name)
{
	size_t nl = strlen(name);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, nl) == 0 && p[nl] == '=') {
			char *e;
			long long v = strtoll(p + nl + 1, &e, 10);

			if (*e == 'K')
				v /= 1024;
			else if (*e == 'G')
				v *= 1024;
			else if (*e == 'T')
				v *= 1024 * 1024;
			return v;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* The account association of an account (partition ""), or NULL. */
static const struct sq_assoc *
account_assoc(const struct sq_snapshot *assocs, const char *account)
{
	size_t i;

	for (i = 0; i < assocs->nrows; i++) {
		const struct sq_assoc *a = sq_snapshot_row(assocs, i);

		if (a->user[0] == '\0' && a->partition[0] == '\0' &&
		    strcmp(a->account, account) == 0)
			return a;
	}
	return NULL;
}

/* Is account below (or equal to) top in the account tree? */
static int
under(const struct sq_snapshot *assocs, const char *account, const char *top)
{
	int d;

	for (d = 0; d < MAX_DEPTH && account[0] != '\0'; d++) {
		const struct sq_assoc *a;

		if (strcmp(account, top) == 0)
			return 1;
		a = account_assoc(assocs, account);
		if (a == NULL)
			return 0;
		account = a->parent;
	}
	return 0;
}

/* Has user a partition association of account for partition? */
static int
has_part_assoc(const struct sq_snapshot *assocs, const struct sq_job *j)
{
	size_t i;

	for (i = 0; i < assocs->nrows; i++) {
		const struct sq_assoc *a = sq_snapshot_row(assocs, i);

		if (a->partition[0] != '\0' && strcmp(a->user, j->user) == 0 &&
		    strcmp(a->account, j->account) == 0 &&
		    strcmp(a->partition, j->partition) == 0)
			return 1;
	}
	return 0;
}

static int
in_scope(const struct scope *sc, const struct sq_job *j)
{
	const struct sq_assoc *a = sc->assoc;

	if (sc->qos != NULL)
		return strcmp(j->qos, sc->qos) == 0 &&
		       (sc->user == NULL || strcmp(j->user, sc->user) == 0) &&
		       (sc->account == NULL ||
			strcmp(j->account, sc->account) == 0);
	if (a->user[0] == '\0')
		return under(sc->assocs, j->account, a->account);
	if (strcmp(j->user, a->user) != 0 ||
	    strcmp(j->account, a->account) != 0)
		return 0;
	if (a->partition[0] != '\0')
		return strcmp(j->partition, a->partition) == 0;
	return !has_part_assoc(sc->assocs, j);
}

/* One job's part of a use. */
static int64_t
job_use(const struct sq_job *j, enum use_kind k, const char *tres)
{
	int64_t left;

	switch (k) {
	case USE_RUN:
		return is_running(j);
	case USE_SUBMIT:
		return is_running(j) || strcmp(j->state, "PENDING") == 0
			   ? tasks(j)
			   : 0;
	case USE_TRES:
		return is_running(j)
			   ? sq_limits_tres(sq_job_tres_alloc(j), tres)
			   : 0;
	case USE_RUN_MINS:
		if (!is_running(j) || j->time_limit < 0 || j->time_used < 0)
			return 0;
		left = j->time_limit - j->time_used;
		return left > 0 ? sq_limits_tres(sq_job_tres_alloc(j), tres) *
				      (left / 60)
				: 0;
	case USE_NONE:
		break;
	}
	return 0;
}

static int64_t
use_of(const struct scope *sc, const struct sq_snapshot *jobs, enum use_kind k,
       const char *tres)
{
	int64_t n = 0;
	size_t i;

	if (k == USE_NONE || jobs == NULL)
		return SQ_NONE;
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (sq_job_tres_alloc(j) != NULL && in_scope(sc, j))
			n += job_use(j, k, tres);
	}
	return n;
}

/* Where new rows go, and what they describe. */
struct out {
	struct sq_snapshot *s;
	const struct sq_snapshot *jobs;
	struct scope sc;
	struct sq_limit proto; /* scope, names, id */
};

static int
emit(struct out *o, const char *limit, const char *tres, int64_t value,
     enum use_kind k)
{
	struct sq_limit *l;

	if (value < 0)
		return 0; /* not set, or unlimited */
	l = sq_snapshot_add(o->s);
	if (l == NULL)
		return -1;
	*l = o->proto;
	/* the names live in the inputs' arenas: copy them */
	l->cluster = sq_snapshot_str(o->s, l->cluster);
	l->account = sq_snapshot_str(o->s, l->account);
	l->user = sq_snapshot_str(o->s, l->user);
	l->partition = sq_snapshot_str(o->s, l->partition);
	l->parent = sq_snapshot_str(o->s, l->parent);
	l->qos = sq_snapshot_str(o->s, l->qos);
	l->limit = limit;
	l->tres = sq_snapshot_str(o->s, tres);
	l->value = value;
	l->used = use_of(&o->sc, o->jobs, k, tres);
	return 0;
}

/* A TRES list limit: a row per TRES. */
static int
emit_tres(struct out *o, const char *limit, const char *list, enum use_kind k)
{
	const char *p = list;

	while (p != NULL && *p != '\0') {
		size_t l = strcspn(p, "=,");
		char name[128];

		if (p[l] == '=' && l < sizeof(name)) {
			memcpy(name, p, l);
			name[l] = '\0';
			if (emit(o, limit, name, sq_limits_tres(p, name), k) ==
			    -1)
				return -1;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

static void
set_proto(struct out *o, const char *scope, const char *account,
	  const char *user, const char *qos, int64_t id)
{
	struct sq_limit *l = &o->proto;

	l->scope = scope;
	l->cluster = l->partition = l->parent = l->limit = l->tres = "";
	l->account = account;
	l->user = user;
	l->qos = qos;
	l->id = id;
	l->value = l->used = SQ_NONE;
}

static int64_t
minutes(int64_t seconds)
{
	return seconds < 0 ? seconds : seconds / 60;
}

static int
assoc_rows(struct out *o, const struct sq_assoc *a)
{
	set_proto(o, "assoc", a->account, a->user, "", a->id);
	o->proto.cluster = a->cluster;
	o->proto.partition = a->partition;
	o->proto.parent = a->user[0] ? "" : a->parent;
	o->sc.assoc = a;
	o->sc.qos = o->sc.user = o->sc.account = NULL;
	return emit(o, "GrpJobs", "", a->grp_jobs, USE_RUN) |
	       emit(o, "GrpJobsAccrue", "", a->grp_jobs_accrue, USE_NONE) |
	       emit(o, "GrpSubmitJobs", "", a->grp_submit, USE_SUBMIT) |
	       emit(o, "GrpWall", "", minutes(a->grp_wall), USE_NONE) |
	       emit_tres(o, "GrpTRES", a->grp_tres, USE_TRES) |
	       emit_tres(o, "GrpTRESMins", a->grp_tres_mins, USE_NONE) |
	       emit_tres(o, "GrpTRESRunMins", a->grp_tres_run_mins,
			 USE_RUN_MINS) |
	       emit(o, "MaxJobs", "", a->max_jobs, USE_RUN) |
	       emit(o, "MaxJobsAccrue", "", a->max_jobs_accrue, USE_NONE) |
	       emit(o, "MaxSubmitJobs", "", a->max_submit, USE_SUBMIT) |
	       emit(o, "MaxWallPJ", "", minutes(a->max_wall), USE_NONE) |
	       emit_tres(o, "MaxTRESPJ", a->max_tres, USE_NONE) |
	       emit_tres(o, "MaxTRESPN", a->max_tres_per_node, USE_NONE) |
	       emit_tres(o, "MaxTRESMinsPJ", a->max_tres_mins, USE_NONE);
}

static int
qos_rows(struct out *o, const struct sq_qos *q)
{
	set_proto(o, "qos", "", "", q->name, q->id);
	o->sc.assoc = NULL;
	o->sc.qos = q->name;
	o->sc.user = o->sc.account = NULL;
	return emit(o, "GrpJobs", "", q->grp_jobs, USE_RUN) |
	       emit(o, "GrpJobsAccrue", "", q->grp_jobs_accrue, USE_NONE) |
	       emit(o, "GrpSubmitJobs", "", q->grp_submit, USE_SUBMIT) |
	       emit(o, "GrpWall", "", minutes(q->grp_wall), USE_NONE) |
	       emit_tres(o, "GrpTRES", q->grp_tres, USE_TRES) |
	       emit_tres(o, "GrpTRESMins", q->grp_tres_mins, USE_NONE) |
	       emit_tres(o, "GrpTRESRunMins", q->grp_tres_run_mins,
			 USE_RUN_MINS) |
	       emit(o, "MaxWallPJ", "", minutes(q->max_wall), USE_NONE) |
	       emit_tres(o, "MaxTRESPJ", q->max_tres, USE_NONE) |
	       emit_tres(o, "MaxTRESPN", q->max_tres_per_node, USE_NONE) |
	       emit_tres(o, "MaxTRESMinsPJ", q->max_tres_mins, USE_NONE) |
	       emit_tres(o, "MinTRESPJ", q->min_tres, USE_NONE);
}

/* Per-user (who = 0) or per-account limits of q, for each user or
 * account with jobs in it (assoc_mgr lists those it has counted). */
static int
qos_per_rows(struct out *o, const struct sq_qos *q, int acct)
{
	size_t i, k;

	if (acct ? q->max_jobs_pa < 0 && q->max_submit_pa < 0 &&
		       q->max_tres_pa[0] == '\0'
		 : q->max_jobs_pu < 0 && q->max_submit_pu < 0 &&
		       q->max_tres_pu[0] == '\0')
		return 0;
	for (i = 0; o->jobs != NULL && i < o->jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(o->jobs, i);
		const char *who = acct ? j->account : j->user;
		int seen = 0;

		if (strcmp(j->qos, q->name) != 0)
			continue;
		for (k = 0; k < i && !seen; k++) {
			const struct sq_job *e = sq_snapshot_row(o->jobs, k);

			seen = strcmp(e->qos, q->name) == 0 &&
			       strcmp(acct ? e->account : e->user, who) == 0;
		}
		if (seen)
			continue;
		set_proto(o, "qos", acct ? who : "", acct ? "" : who, q->name,
			  q->id);
		o->sc.assoc = NULL;
		o->sc.qos = q->name;
		o->sc.user = acct ? NULL : who;
		o->sc.account = acct ? who : NULL;
		if ((acct ? emit(o, "MaxJobsPA", "", q->max_jobs_pa, USE_RUN) |
				emit(o, "MaxSubmitJobsPA", "", q->max_submit_pa,
				     USE_SUBMIT) |
				emit_tres(o, "MaxTRESPA", q->max_tres_pa,
					  USE_TRES)
			  : emit(o, "MaxJobsPU", "", q->max_jobs_pu, USE_RUN) |
				emit(o, "MaxSubmitJobsPU", "", q->max_submit_pu,
				     USE_SUBMIT) |
				emit_tres(o, "MaxTRESPU", q->max_tres_pu,
					  USE_TRES)) != 0)
			return -1;
	}
	return 0;
}

int
sq_limits_build(struct sq_snapshot *limits, const struct sq_snapshot *assocs,
		const struct sq_snapshot *qos, const struct sq_snapshot *jobs)
{
	struct out o;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.s = limits;
	o.jobs = jobs;
	o.sc.assocs = assocs;
	for (i = 0; assocs != NULL && i < assocs->nrows; i++) {
		if (assoc_rows(&o, sq_snapshot_row(assocs, i)) != 0)
			return -1;
	}
	for (i = 0; qos != NULL && i < qos->nrows; i++) {
		const struct sq_qos *q = sq_snapshot_row(qos, i);

		if (qos_rows(&o, q) != 0 || qos_per_rows(&o, q, 0) != 0 ||
		    qos_per_rows(&o, q, 1) != 0)
			return -1;
	}
	return 0;
}
