/*
 * overview_ctld.c - the overview's controller lines (core/analysis/overview.c
 * builds the rest): where the figures come from (metrics or commands),
 * the controller in control, slurmctld's health from sdiag or its
 * metrics, a user above `rpc-user-share` percent of the RPCs, and the
 * jobs stuck COMPLETING. Pure: reads snapshots, adds rows; no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis/completing.h"
#include "core/model/model_admin.h"
#include "core/analysis/overview.h"
#include "core/analysis/overview_om.h"
#include "core/analysis/overview_rows.h"
#include "core/analysis/rpc_share.h"

/* slurmctld health from the sdiag rows (section, label as sdiag prints
 * it, our key, unit). Times are microseconds. */
static const struct {
	const char *section, *label, *key, *fmt;
} diag_keys[] = {
	{ "general", "Server thread count", "server threads", "%lld" },
	{ "general", "Agent queue size", "agent queue", "%lld" },
	{ "general", "DBD Agent queue size", "dbd agent queue", "%lld" },
	{ "main", "Last cycle", "sched cycle", "%lld us" },
	{ "main", "Mean cycle", "sched cycle mean", "%lld us" },
	{ "main", "Cycles per minute", "sched cycles/min", "%lld" },
	{ "backfill", "Last cycle", "backfill cycle", "%lld us" },
	{ "backfill", "Last depth cycle", "backfill depth", "%lld" },
	{ "backfill", "Total backfilled jobs (since last slurm start)",
	  "backfilled jobs", "%lld" },
};

/* The value of diag key k: from sdiag's rows, else from the metrics
 * (/metrics/scheduler has no cycles per minute). 0 or -1. */
static int
diag_value(const struct sq_ov_input *in, size_t k, int64_t *v)
{
	size_t i;

	for (i = 0; in->diag != NULL && i < in->diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(in->diag, i);
		char *end;

		if (strcmp(kv->section, diag_keys[k].section) != 0 ||
		    strcmp(kv->key, diag_keys[k].label) != 0)
			continue;
		*v = strtoll(kv->value, &end, 10);
		return end == kv->value ? -1 : 0;
	}
	if (in->diag != NULL || in->om_sched == NULL)
		return -1;
	return sq_ov_om_ctld(in->om_sched, diag_keys[k].key, v);
}

static void
diag_rows(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	size_t k;

	for (k = 0; k < sizeof(diag_keys) / sizeof(diag_keys[0]); k++) {
		const char *sect = diag_keys[k].section;
		struct sq_ov_row *r;
		int64_t v;

		if (diag_value(in, k, &v) == -1)
			continue;
		r = sq_ov_row_add(s, "ctld", diag_keys[k].key,
				  strlen(diag_keys[k].key), SQ_KIND_DIAG);
		if (r == NULL)
			return;
		r->num = v;
		sq_ov_row_value(s, r, diag_keys[k].fmt, v, 0);
		sq_ov_row_link(s, r, "diag", "section", sect, strlen(sect));
	}
}

/* The controller in control (core/analysis/ctld_track.h): "vm-backup (backup)
 * since 09:22:39" once a change was seen; its number is 1 while a backup
 * is in control (the sparkline shows takeovers) */
static void
ctld_row(struct sq_snapshot *s, const struct sq_snapshot *diag)
{
	const char *who = NULL, *since = NULL;
	char buf[240], when[16] = "";
	struct sq_ov_row *r;
	size_t i;

	for (i = 0; i < diag->nrows; i++) {
		const struct sq_kv *kv = sq_snapshot_row(diag, i);

		if (strcmp(kv->section, "controller") != 0)
			continue;
		if (strcmp(kv->key, "in control") == 0)
			who = kv->value;
		else if (strcmp(kv->key, "in control since") == 0)
			since = kv->value;
	}
	if (who == NULL)
		return;
	if (since != NULL) {
		time_t t = (time_t)strtoll(since, NULL, 10);
		struct tm tm;

		if (t > 0 && localtime_r(&t, &tm) != NULL)
			strftime(when, sizeof(when), " since %H:%M:%S", &tm);
	}
	r = sq_ov_row_add(s, "ctld", "controller", strlen("controller"),
			  SQ_KIND_DIAG);
	if (r == NULL)
		return;
	r->num = strstr(who, "(primary)") == NULL;
	snprintf(buf, sizeof(buf), "%s%s", who, when);
	r->value = sq_snapshot_str(s, buf);
	sq_ov_row_link(s, r, "diag", "section", "controller",
		       strlen("controller"));
}

/* Where the figures come from: slurmctld's metrics, or the commands
 * (REST calls) and why not the metrics. */
void
sq_ov_source_row(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	struct sq_ov_row *r =
	    sq_ov_row_add(s, "source", "metrics", 7, SQ_KIND_NODES);
	char buf[200];

	if (r == NULL)
		return;
	if (in->om_nodes != NULL) {
		r->value = "slurmctld /metrics";
		s->source = "slurmctld /metrics, jobs";
		return;
	}
	snprintf(buf, sizeof(buf), "not used: %s", in->metrics_note);
	r->value = sq_snapshot_str(s, buf);
}

/* One user above `rpc-user-share` percent of slurmctld's RPCs (sdiag's
 * by-user counts since its statistics began): a controller line naming
 * the user and the share; Enter opens rpc-users on that user. */
static void
rpc_share_row(struct sq_snapshot *s, const struct sq_snapshot *diag)
{
	int pct = sq_rpc_user_share_get();
	long long top, total;
	char user[128], key[48], val[200];
	struct sq_ov_row *r;

	if (pct <= 0 ||
	    sq_rpc_top_user(diag, user, sizeof(user), &top, &total) == -1 ||
	    total <= 0 || top * 100 <= (long long)pct * total)
		return;
	snprintf(key, sizeof(key), "rpc user > %d%%", pct);
	r = sq_ov_row_add(s, "ctld", key, strlen(key), SQ_KIND_DIAG);
	if (r == NULL)
		return;
	r->num = top * 100 / total;
	snprintf(val, sizeof(val), "%.100s %lld%% of %lld RPCs", user,
		 (long long)r->num, total);
	r->value = sq_snapshot_str(s, val);
	sq_ov_row_link(s, r, "rpc-users", "name", user, strlen(user));
}

/* Jobs COMPLETING for longer than `completing-stuck` minutes: how many
 * and the first ids; the jobs view filtered to COMPLETING on Enter (the
 * nodes view flags their nodes). */
void
sq_ov_stuck_rows(struct sq_snapshot *s, const struct sq_snapshot *jobs,
		 time_t now)
{
	int min = sq_completing_stuck_get();
	char ids[128], val[192], key[64];
	size_t i, o = 0;
	long long n = 0;
	struct sq_ov_row *r;

	if (min <= 0)
		return;
	ids[0] = '\0';
	for (i = 0; i < jobs->nrows; i++) {
		const struct sq_job *j = sq_snapshot_row(jobs, i);
		int w;

		if (!sq_job_stuck_completing(j, now))
			continue;
		n++;
		if (o + 1 >= sizeof(ids) - 24)
			continue;
		w = snprintf(ids + o, sizeof(ids) - o, " %s", j->id);
		if (w > 0 && (size_t)w < sizeof(ids) - o)
			o += (size_t)w;
	}
	snprintf(key, sizeof(key), "completing > %d min", min);
	r = sq_ov_row_add(s, "stuck", key, strlen(key), SQ_KIND_JOBS);
	if (r == NULL)
		return;
	r->num = n;
	snprintf(val, sizeof(val), n ? "%lld stuck:%s" : "%lld", n, ids);
	r->value = sq_snapshot_str(s, val);
	sq_ov_row_link(s, r, "jobs", "state", "COMPLETING", 10);
}

void
sq_ov_ctld_rows(struct sq_snapshot *s, const struct sq_ov_input *in)
{
	if (in->diag != NULL)
		ctld_row(s, in->diag);
	if (in->diag != NULL || in->om_sched != NULL)
		diag_rows(s, in);
	if (in->diag != NULL)
		rpc_share_row(s, in->diag);
}
