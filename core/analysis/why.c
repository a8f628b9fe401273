/*
 * why.c - explain a pending job from the snapshots already fetched: rank
 * and the job ahead (sprio's priorities in Slurm's order), the meaning of its
 * Reason, and the limits of its association chain or QOS that a limit reason
 * refers to, with assoc_mgr's usage. Never guesses: what no snapshot says stays
 * unknown.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/gres.h"
#include "core/base/util.h"
#include "core/query/when.h"
#include "core/analysis/why.h"

static const struct {
	const char *reason;
	const char *meaning;
} meanings[] = {
	{ "Priority", "jobs of higher priority are ahead of it in the "
		      "partition" },
	{ "Resources", "waits for resources to free up" },
	{ "BeginTime", "not eligible before its begin time (a requeued or "
		       "preempted job waits here for a while)" },
	{ "Dependency", "waits for the jobs it depends on" },
	{ "DependencyNeverSatisfied", "a dependency can never be satisfied: "
				      "it will not start" },
	{ "JobHeldUser", "held by its owner (scontrol release)" },
	{ "JobHeldAdmin", "held by an administrator (scontrol release)" },
	{ "ReqNodeNotAvail", "a node it needs is down, drained or reserved" },
	{ "PartitionDown", "its partition is down" },
	{ "PartitionInactive", "its partition is inactive" },
	{ "PartitionTimeLimit", "its time limit exceeds the partition's "
				"MaxTime" },
	{ "PartitionNodeLimit", "its node count is outside the partition's "
				"limits" },
	{ "Reservation", "waits for its reservation to start" },
	{ "Licenses", "waits for licenses" },
	{ "QOSNotAllowed", "its QOS is not allowed on this partition or "
			   "association" },
	{ "InvalidQOS", "its QOS is not valid for its association" },
	{ "InvalidAccount", "its account is not valid" },
	{ "AccountNotAllowed", "its account may not use the partition" },
	{ "Nodes required for job are DOWN, DRAINED or reserved for jobs in "
	  "higher priority partitions",
	  "its nodes are held back for a higher-priority partition's job" },
	{ "None", "not yet evaluated by the scheduler" },
};

/* Resource words of limit reasons and their TRES names. */
static const struct {
	const char *word;
	const char *tres;
} resources[] = {
	{ "Cpu", "cpu" },          { "CPU", "cpu" },
	{ "Mem", "mem" },          { "Node", "node" },
	{ "BB", "bb/" },           { "GRES", "gres/" },
	{ "Billing", "billing" },  { "Energy", "energy" },
	{ "License", "license/" }, { "Unk", "" },
};

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The limit key of a job count or wall time r (the reason after its
 * scope and kind, "Limit" taken off: "JobsPerUser", "Wall"); -1 if r is
 * none of those. */
static int
count_key(const char *r, const char *kind, char *key, size_t nk)
{
	if (strcmp(r, "Jobs") == 0) {
		snprintf(key, nk, "%sJobs", kind);
		return 0;
	}
	if (strcmp(r, "SubmitJobs") == 0 || strcmp(r, "SubmitJob") == 0) {
		snprintf(key, nk, "%sSubmitJobs", kind);
		return 0;
	}
	if (strcmp(r, "JobsAccrue") == 0) {
		snprintf(key, nk, "%sJobsAccrue", kind);
		return 0;
	}
	if (starts(r, "JobsPer") || starts(r, "SubmitJobsPer") ||
	    starts(r, "SubmitJobPer") || starts(r, "JobsAccruePer")) {
		const char *per = strstr(r, "Per") + 3;

		snprintf(key, nk, "Max%s%s",
			 starts(r, "Submit")       ? "SubmitJobs"
			 : starts(r, "JobsAccrue") ? "JobsAccrue"
						   : "Jobs",
			 strcmp(per, "User") == 0 ? "PU" : "PA");
		return 0;
	}
	if (strcmp(r, "Wall") == 0) {
		sq_util_copy(key, nk, "GrpWall");
		return 0;
	}
	if (starts(r, "WallDurationPerJob")) {
		sq_util_copy(key, nk, "MaxWallPJ");
		return 0;
	}
	return -1;
}

/* The limit key and TRES of a resource limit r ("GRESPerJob",
 * "CpuRunMinutesPerUser"); -1 if not one. */
static int
tres_key(const char *r, const char *kind, char *key, size_t nk, char *tres,
	 size_t nt)
{
	size_t i;

	for (i = 0; i < sizeof(resources) / sizeof(resources[0]); i++) {
		const char *w = resources[i].word, *tail;

		if (!starts(r, w))
			continue;
		tail = r + strlen(w);
		sq_util_copy(tres, nt, resources[i].tres);
		if (strcmp(kind, "Grp") == 0) {
			if (*tail == '\0')
				sq_util_copy(key, nk, "GrpTRES");
			else if (strcmp(tail, "Minutes") == 0)
				sq_util_copy(key, nk, "GrpTRESMins");
			else if (strcmp(tail, "RunMinutes") == 0)
				sq_util_copy(key, nk, "GrpTRESRunMins");
			else
				return -1;
			return 0;
		}
		if (strcmp(kind, "Min") == 0) {
			sq_util_copy(key, nk, "MinTRESPJ");
			return 0;
		}
		if (strcmp(tail, "PerJob") == 0)
			sq_util_copy(key, nk, "MaxTRESPJ");
		else if (strcmp(tail, "PerNode") == 0)
			sq_util_copy(key, nk, "MaxTRESPN");
		else if (strcmp(tail, "PerUser") == 0)
			sq_util_copy(key, nk, "MaxTRESPU");
		else if (strcmp(tail, "PerAccount") == 0)
			sq_util_copy(key, nk, "MaxTRESPA");
		else if (strcmp(tail, "MinutesPerJob") == 0)
			sq_util_copy(key, nk, "MaxTRESMinsPJ");
		else if (starts(tail, "RunMinutesPer"))
			snprintf(key, nk, "MaxTRESRunMins%s",
				 strcmp(tail + 13, "User") == 0 ? "PU" : "PA");
		else
			return -1;
		return 0;
	}
	return -1;
}

int
sq_why_limit_of(const char *reason, char *scope, size_t ns, char *key,
		size_t nk, char *tres, size_t nt)
{
	char r[64];
	const char *p, *kind;
	size_t l;

	if (starts(reason, "Assoc")) {
		sq_util_copy(scope, ns, "assoc");
		p = reason + 5;
	} else if (starts(reason, "QOS") && !starts(reason, "QOSNotAllowed")) {
		sq_util_copy(scope, ns, "qos");
		p = reason + 3;
	} else {
		return -1;
	}
	if (starts(p, "Grp"))
		kind = "Grp";
	else if (starts(p, "Max"))
		kind = "Max";
	else if (starts(p, "Min"))
		kind = "Min";
	else
		return -1;
	sq_util_copy(r, sizeof(r), p + 3);
	l = strlen(r);
	if (l > 5 && strcmp(r + l - 5, "Limit") == 0)
		r[l - 5] = '\0';
	sq_util_copy(tres, nt, "");
	if (count_key(r, kind, key, nk) == 0)
		return 0;
	return tres_key(r, kind, key, nk, tres, nt);
}

/* Parent account of an account, from the assoc tree or the limits. */
static const char *
parent_of(const char *account, const struct sq_snapshot *assocs,
	  const struct sq_snapshot *limits)
{
	size_t i;

	for (i = 0; assocs != NULL && i < assocs->nrows; i++) {
		const struct sq_assoc *a = sq_snapshot_row(assocs, i);

		if (a->user[0] == '\0' && strcmp(a->account, account) == 0)
			return a->parent;
	}
	for (i = 0; limits != NULL && i < limits->nrows; i++) {
		const struct sq_limit *l = sq_snapshot_row(limits, i);

		if (strcmp(l->scope, "assoc") == 0 && l->user[0] == '\0' &&
		    strcmp(l->account, account) == 0 && l->parent[0] != '\0')
			return l->parent;
	}
	return "";
}

/* Is anc the account itself or one of its ancestors? */
static int
in_lineage(const char *anc, const char *account,
	   const struct sq_snapshot *assocs, const struct sq_snapshot *limits)
{
	const char *a = account;
	int depth;

	for (depth = 0; a != NULL && a[0] != '\0' && depth < 64; depth++) {
		if (strcmp(a, anc) == 0)
			return 1;
		a = parent_of(a, assocs, limits);
	}
	return 0;
}

static int
applies(const struct sq_limit *l, const struct sq_job *job,
	const struct sq_snapshot *assocs, const struct sq_snapshot *limits)
{
	if (strcmp(l->scope, "qos") == 0) {
		if (strcmp(l->qos, job->qos) != 0)
			return 0;
		if (l->user[0] != '\0')
			return strcmp(l->user, job->user) == 0;
		if (l->account[0] != '\0')
			return strcmp(l->account, job->account) == 0;
		return 1;
	}
	if (l->user[0] != '\0')
		return strcmp(l->user, job->user) == 0 &&
		       strcmp(l->account, job->account) == 0 &&
		       (l->partition[0] == '\0' ||
			strcmp(l->partition, job->partition) == 0);
	return in_lineage(l->account, job->account, assocs, limits);
}

static int
tres_matches(const char *want, const char *have)
{
	size_t n = strlen(want);

	if (n == 0)
		return have[0] == '\0';
	if (want[n - 1] == '/')
		return strncmp(have, want, n) == 0;
	return strcmp(have, want) == 0;
}

/*
 * What the job would add to a limit's usage: one job for the job-count
 * limits, its CPUs, nodes or GRES for TRES limits (GRES from its
 * TRES-per-node times its nodes); SQ_NONE when not known.
 */
static int64_t
request_of(const struct sq_job *job, const struct sq_limit *l)
{
	if (strstr(l->limit, "Jobs") != NULL)
		return 1;
	if (strstr(l->limit, "TRES") == NULL || strstr(l->limit, "Mins"))
		return SQ_NONE;
	if (strcmp(l->tres, "cpu") == 0)
		return job->cpus >= 0 ? job->cpus : SQ_NONE;
	if (strcmp(l->tres, "node") == 0)
		return job->nodes >= 0 ? job->nodes : SQ_NONE;
	if (strncmp(l->tres, "gres/", 5) == 0) {
		struct sq_gres_item it[32];
		const char *want = l->tres + 5, *colon = strchr(want, ':');
		size_t nl = colon ? (size_t)(colon - want) : strlen(want);
		int64_t sum = 0, per_node = strcmp(l->limit, "MaxTRESPN") == 0;
		int n, i;

		n = sq_gres_parse(job->gres, it, 32);
		if (n < 0)
			return SQ_NONE;
		for (i = 0; i < n; i++) {
			if (strlen(it[i].name) != nl ||
			    strncmp(it[i].name, want, nl) != 0)
				continue;
			if (colon != NULL && strcmp(it[i].type, colon + 1) != 0)
				continue;
			sum += it[i].count;
		}
		if (!per_node && job->nodes > 1)
			sum *= job->nodes;
		return sum;
	}
	return SQ_NONE;
}

static void
find_limits(const struct sq_job *job, const struct sq_snapshot *limits,
	    const struct sq_snapshot *assocs, struct sq_why *w)
{
	size_t i;
	int pass;

	/* at-limit rows first, then the others that apply */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < limits->nrows; i++) {
			const struct sq_limit *l = sq_snapshot_row(limits, i);
			struct sq_why_limit *o;
			int64_t req;
			int at;

			if (strcmp(l->scope, w->limit_scope) != 0 ||
			    strcmp(l->limit, w->limit_key) != 0 ||
			    !tres_matches(w->limit_tres, l->tres) ||
			    !applies(l, job, assocs, limits))
				continue;
			req = request_of(job, l);
			at = l->used != SQ_NONE && l->value >= 0 &&
			     (l->used >= l->value ||
			      (req != SQ_NONE && l->used + req > l->value));
			if (at != (pass == 0))
				continue;
			if (w->nlimits >= SQ_WHY_MAX_LIMITS)
				return;
			o = &w->limits[w->nlimits++];
			sq_util_copy(o->scope, sizeof(o->scope), l->scope);
			if (strcmp(l->scope, "qos") == 0) {
				if (l->user[0] != '\0')
					snprintf(o->owner, sizeof(o->owner),
						 "%s user=%s", l->qos, l->user);
				else if (l->account[0] != '\0')
					snprintf(o->owner, sizeof(o->owner),
						 "%s account=%s", l->qos,
						 l->account);
				else
					sq_util_copy(o->owner, sizeof(o->owner),
						     l->qos);
			} else {
				snprintf(
				    o->owner, sizeof(o->owner), "%s%s%s%s%s",
				    l->account, l->user[0] ? "/" : "", l->user,
				    l->partition[0] ? "/" : "", l->partition);
			}
			sq_util_copy(o->limit, sizeof(o->limit), l->limit);
			sq_util_copy(o->tres, sizeof(o->tres), l->tres);
			o->value = l->value;
			o->used = l->used;
			o->request = req;
			o->at_limit = at;
		}
	}
}

/* Sum of the values of a sprio TRES list ("cpu=17,mem=0,gres/gpu=125"). */
/* a - b and a + b, saturated: the numbers come from the cluster and may
 * be anything int64_t holds */
static int64_t
sat_sub(int64_t a, int64_t b)
{
	if (b < 0 && a > INT64_MAX + b)
		return INT64_MAX;
	if (b > 0 && a < INT64_MIN + b)
		return INT64_MIN;
	return a - b;
}

static int64_t
sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static int64_t
tres_sum(const char *s)
{
	int64_t sum = 0;
	const char *p = s;

	while (p != NULL && *p != '\0') {
		const char *eq = strchr(p, '=');

		if (eq == NULL)
			break;
		sum = sat_add(sum, strtoll(eq + 1, NULL, 10));
		p = strchr(eq, ',');
		if (p != NULL)
			p++;
	}
	return sum;
}

static void
separate(const struct sq_prio *me, const struct sq_prio *ah, struct sq_why *w)
{
	struct {
		const char *name;
		int64_t me, ah;
	} f[] = {
		{ "age", me->age, ah->age },
		{ "fairshare", me->fairshare, ah->fairshare },
		{ "jobsize", me->jobsize, ah->jobsize },
		{ "partition", me->partition_prio, ah->partition_prio },
		{ "qos", me->qos, ah->qos },
		{ "assoc", me->assoc, ah->assoc },
		{ "site", me->site, ah->site },
		{ "tres", tres_sum(me->tres), tres_sum(ah->tres) },
		/* nice lowers the priority: the values stay as sprio prints
		 * them, the lead is this job's nice minus the other's */
		{ "nice", me->nice, ah->nice },
	};
	size_t i, best = 0;
	int64_t lead = 0;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		int nice = strcmp(f[i].name, "nice") == 0;
		int64_t d;

		if (!nice && (f[i].me < 0 || f[i].ah < 0))
			continue; /* SQ_NONE */
		d = nice ? sat_sub(f[i].me, f[i].ah)
			 : sat_sub(f[i].ah, f[i].me);
		if (d > lead) {
			lead = d;
			best = i;
		}
	}
	if (lead <= 0)
		return;
	sq_util_copy(w->factor, sizeof(w->factor), f[best].name);
	w->factor_self = f[best].me;
	w->factor_ahead = f[best].ah;
}

/* The id Slurm sorts a job by: an array task's array job id. */
static uint32_t
sort_id(const struct sq_job *j)
{
	return j->array_job_id != 0 ? j->array_job_id : j->job_id;
}

/*
 * Slurm's order of two pending jobs of one partition (sort_job_queue2,
 * src/slurmctld/job_scheduler.c, the same from 22.05 to 26.05, for the
 * main and the backfill scheduler): the higher priority first; on equal
 * priority the earlier submit time (a requeue sets it anew), then the
 * lower job id (an array task: its array job id), then the lower task
 * id. < 0 when a goes first. An unknown submit time is not compared.
 */
static int
slurm_order(const struct sq_job *a, const struct sq_job *b)
{
	int64_t ta = a->submit_time, tb = b->submit_time;

	if (a->prio->priority != b->prio->priority)
		return a->prio->priority > b->prio->priority ? -1 : 1;
	if (ta > 0 && tb > 0 && ta != tb)
		return ta < tb ? -1 : 1;
	if (sort_id(a) != sort_id(b))
		return sort_id(a) < sort_id(b) ? -1 : 1;
	return a->job_id < b->job_id ? -1 : a->job_id > b->job_id;
}

/* The job's place among the ranked pending jobs of its partition in
 * Slurm's order, and the job right ahead of it. */
static void
rank(const struct sq_job *job, const struct sq_snapshot *jobs, struct sq_why *w)
{
	const struct sq_prio *me = job->prio;
	const struct sq_job *ahead = NULL;
	size_t i;

	if (me == NULL || me->rank == 0)
		return;
	w->priority = me->priority; /* in this partition */
	w->rank = 1;
	for (i = 0; jobs != NULL && i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);

		if (j == job || j->prio == NULL ||
		    strcmp(j->prio->partition, me->partition) != 0)
			continue;
		if (j->prio->rank > w->ranked)
			w->ranked = j->prio->rank;
		if (slurm_order(j, job) >= 0)
			continue;
		w->rank++;
		if (ahead == NULL || slurm_order(j, ahead) > 0)
			ahead = j;
	}
	if (w->ranked < w->rank)
		w->ranked = w->rank;
	if (ahead == NULL)
		return;
	w->ahead_job = ahead->job_id;
	w->ahead_priority = ahead->prio->priority;
	w->submit_self = job->submit_time;
	w->submit_ahead = ahead->submit_time;
	separate(me, ahead->prio, w);
}

int
sq_why_compute(const struct sq_job *job, const struct sq_snapshot *jobs,
	       const struct sq_snapshot *limits,
	       const struct sq_snapshot *assocs, struct sq_why *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->priority = job->priority;
	w->ahead_priority = SQ_NONE;
	w->factor_self = w->factor_ahead = SQ_NONE;
	w->submit_self = w->submit_ahead = SQ_NONE;
	w->pending = sq_job_is_pending(job);
	sq_util_copy(w->reason, sizeof(w->reason), job->reason);
	if (!w->pending)
		return 0;
	for (i = 0; i < sizeof(meanings) / sizeof(meanings[0]); i++) {
		if (strcmp(job->reason, meanings[i].reason) == 0 ||
		    (strcmp(meanings[i].reason, "ReqNodeNotAvail") == 0 &&
		     starts(job->reason, "ReqNodeNotAvail")))
			sq_util_copy(w->meaning, sizeof(w->meaning),
				     meanings[i].meaning);
	}
	rank(job, jobs, w);
	/* the sprio data may be older than the row (read at another
	 * moment): say so rather than assert */
	w->prio_age = SQ_NONE;
	if (jobs != NULL && jobs->dep != NULL) {
		w->prio_age =
		    jobs->fetched > jobs->dep->fetched
			? (int64_t)(jobs->fetched - jobs->dep->fetched)
			: 0;
		w->prio_before_submit =
		    job->submit_time != SQ_NONE && job->submit_time > 0 &&
		    job->submit_time > (int64_t)jobs->dep->fetched;
	}
	if (strcmp(job->reason, "Resources") == 0 && w->rank == 1)
		sq_util_copy(w->meaning, sizeof(w->meaning),
			     "it is at the front of its partition (rank 1 "
			     "in Slurm's order) and waits for resources to "
			     "free up");
	else if (strcmp(job->reason, "Resources") == 0 && w->rank > 1)
		snprintf(
		    w->meaning, sizeof(w->meaning),
		    "waits for resources to free up (Slurm's order ranks it %u "
		    "of %u in its partition: not at the front)",
		    w->rank, w->ranked);
	if (sq_why_limit_of(job->reason, w->limit_scope, sizeof(w->limit_scope),
			    w->limit_key, sizeof(w->limit_key), w->limit_tres,
			    sizeof(w->limit_tres)) == 0) {
		w->limit_reason = 1;
		snprintf(w->meaning, sizeof(w->meaning),
			 "held by the %s limit%s%s%s of its %s", w->limit_key,
			 w->limit_tres[0] ? " (" : "", w->limit_tres,
			 w->limit_tres[0] ? ")" : "",
			 strcmp(w->limit_scope, "qos") == 0
			     ? "QOS"
			     : "association or a parent account");
		if (limits != NULL) {
			w->limits_known = 1;
			find_limits(job, limits, assocs, w);
		}
	}
	return 0;
}

/* Append printf output to buf at *off, tracking the needed length. */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t n, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(*off < n ? buf + *off : NULL, *off < n ? n - *off : 0,
		      fmt, ap);
	va_end(ap);
	if (r > 0)
		*off += (size_t)r;
}

static const char *
num(int64_t v, char *b, size_t n)
{
	if (v == SQ_NONE)
		return "?";
	if (v == SQ_INFINITE)
		return "UNLIMITED";
	snprintf(b, n, "%lld", (long long)v);
	return b;
}

/* Equal priority: what Slurm goes by then (slurm_order). */
static void
tie(const struct sq_why *w, char *buf, size_t n, size_t *off)
{
	char age[16];

	if (w->submit_self <= 0 || w->submit_ahead <= 0)
		put(buf, n, off,
		    "separated by: not priority (equal); Slurm then starts "
		    "the earlier submitted job, and the submit times are "
		    "not known here\n");
	else if (w->submit_ahead < w->submit_self)
		put(buf, n, off,
		    "separated by: submit time (equal priority: Slurm starts "
		    "the earlier submitted job first; job %u was submitted "
		    "or requeued %s before this one)\n",
		    w->ahead_job,
		    sq_when_age(w->submit_self - w->submit_ahead, age,
				sizeof(age)));
	else
		put(buf, n, off,
		    "separated by: job id (equal priority and submit time: "
		    "Slurm starts the lower job id first)\n");
}

size_t
sq_why_format(const struct sq_why *w, char *buf, size_t n)
{
	size_t off = 0;
	int i;
	char a[32], b[32];

	if (n > 0)
		buf[0] = '\0';
	if (!w->pending) {
		put(buf, n, &off, "why: not pending\n");
		return off;
	}
	put(buf, n, &off, "reason: %s%s%s\n", w->reason,
	    w->meaning[0] ? " - " : "", w->meaning);
	if (w->rank > 0) {
		put(buf, n, &off,
		    "rank: %u of %u ranked pending jobs in its "
		    "partition\n",
		    w->rank, w->ranked);
		if (w->ahead_job != 0) {
			put(buf, n, &off,
			    "ahead: job %u, priority %s vs %s (%+lld)\n",
			    w->ahead_job, num(w->ahead_priority, a, sizeof(a)),
			    num(w->priority, b, sizeof(b)),
			    (long long)sat_sub(w->ahead_priority, w->priority));
			if (strcmp(w->factor, "nice") == 0)
				put(buf, n, &off,
				    "separated by: nice %lld on this job vs "
				    "%lld (lowers it by %lld)\n",
				    (long long)w->factor_self,
				    (long long)w->factor_ahead,
				    (long long)sat_sub(w->factor_self,
						       w->factor_ahead));
			else if (w->ahead_priority == w->priority)
				tie(w, buf, n, &off);
			else if (w->factor[0] != '\0')
				put(buf, n, &off,
				    "separated by: %s %lld vs %lld (%+lld)\n",
				    w->factor, (long long)w->factor_ahead,
				    (long long)w->factor_self,
				    (long long)sat_sub(w->factor_ahead,
						       w->factor_self));
		} else {
			put(buf, n, &off, "ahead: none (first in line)\n");
		}
	} else if (w->prio_age == SQ_NONE) {
		put(buf, n, &off, "rank: unknown (no sprio data)\n");
	} else if (w->prio_before_submit) {
		put(buf, n, &off,
		    "rank: not known yet (sprio was read before this job "
		    "was submitted)\n");
	} else {
		put(buf, n, &off,
		    "rank: not ranked (sprio does not list it%s)\n",
		    strncmp(w->reason, "JobHeld", 7) == 0 ? ": it is held"
		    : strcmp(w->reason, "BeginTime") == 0 ||
			    strcmp(w->reason, "Dependency") == 0
			? ": not yet eligible"
			: "");
	}
	if (w->prio_age != SQ_NONE && w->prio_age > 0)
		put(buf, n, &off,
		    "note: sprio was read %llds before this row; the rank "
		    "may have changed\n",
		    (long long)w->prio_age);
	if (!w->limit_reason)
		return off;
	if (!w->limits_known) {
		put(buf, n, &off,
		    "limit: %s %s%s%s (usage unknown: scontrol "
		    "show assoc_mgr is not readable)\n",
		    w->limit_scope, w->limit_key, w->limit_tres[0] ? " " : "",
		    w->limit_tres);
		return off;
	}
	if (w->nlimits == 0)
		put(buf, n, &off,
		    "limit: no %s limit %s%s%s applies to this job in "
		    "assoc_mgr (changed since?)\n",
		    w->limit_scope, w->limit_key, w->limit_tres[0] ? " " : "",
		    w->limit_tres);
	for (i = 0; i < w->nlimits; i++) {
		const struct sq_why_limit *l = &w->limits[i];
		char c[32];

		put(buf, n, &off, "limit: %s %s %s%s%s = %s, in use %s%s%s%s\n",
		    strcmp(l->scope, "qos") == 0 ? "qos" : "association",
		    l->owner, l->limit, l->tres[0] ? " " : "", l->tres,
		    num(l->value, a, sizeof(a)), num(l->used, b, sizeof(b)),
		    l->request != SQ_NONE ? ", this job adds " : "",
		    l->request != SQ_NONE ? num(l->request, c, sizeof(c)) : "",
		    l->at_limit ? " (holds it)" : "");
	}
	return off;
}
