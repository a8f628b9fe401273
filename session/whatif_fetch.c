/*
 * whatif_fetch.c - builds the WHATIF snapshot from four fetches through
 * the backend (sprio -n, sprio -w, the queue, the config) and the weights
 * to try (given text or a cluster spec's config map). The model itself
 * is core/analysis/whatif.c; nothing here computes a priority.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/base/parse.h"
#include "core/spec/spec.h"
#include "session/whatif_fetch.h"
#include "spec/spec_load.h"

/* The Priority* keys of a spec's config map as one KEY=VALUE text. */
static int
spec_text(const char *path, char *buf, size_t n, struct sq_err *err)
{
	struct sq_spec spec;
	size_t i, l = 0;
	int rc = -1;

	buf[0] = '\0';
	if (path == NULL || path[0] == '\0')
		return sq_err_set(err, SQ_ERR_USAGE,
				  "weights 'spec' need a cluster spec: give "
				  "--spec FILE, or spec=FILE on the cluster "
				  "line");
	sq_spec_init(&spec);
	if (sq_spec_load(path, &spec, err) == -1)
		goto out;
	for (i = 0; i < spec.nconfig; i++) {
		const struct sq_spec_param *p = &spec.config[i];

		if (strncasecmp(p->key, "Priority", 8) != 0)
			continue;
		l += (size_t)snprintf(buf + l, l < n ? n - l : 0, "%s%s=%s",
				      l ? " " : "", p->key, p->value);
		if (l >= n) {
			sq_err_set(err, SQ_ERR_USAGE,
				   "%s: the Priority* settings are too long",
				   path);
			goto out;
		}
	}
	if (l == 0) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "%s: the config map has no Priority* setting", path);
		goto out;
	}
	rc = 0;
out:
	sq_spec_free(&spec);
	return rc;
}

int
sq_whatif_weights_read(const char *text, const char *spec_path,
		       struct sq_whatif_weights *w, char *shown, size_t n,
		       struct sq_err *err)
{
	char buf[1024];

	sq_whatif_weights_init(w);
	if (n > 0)
		shown[0] = '\0';
	if (text == NULL || text[0] == '\0')
		return 0;
	if (strcmp(text, "spec") == 0) {
		if (spec_text(spec_path, buf, sizeof(buf), err) == -1)
			return -1;
		text = buf;
	}
	if (sq_whatif_parse(text, w, err) == -1)
		return -1;
	if (n > 0)
		snprintf(shown, n, "%s", text);
	return 0;
}

/* PriorityMaxAge (seconds, SQ_NONE) and PriorityFlags of the config. */
static void
config_values(const struct sq_snapshot *config, int64_t *max_age, char *flags,
	      size_t n)
{
	const char *v;

	*max_age = SQ_NONE;
	flags[0] = '\0';
	if (config == NULL)
		return;
	v = sq_spec_config_value(config, "PriorityMaxAge");
	if (v == NULL || sq_parse_duration(v, max_age) == -1 || *max_age <= 0)
		*max_age = SQ_NONE;
	v = sq_spec_config_value(config, "PriorityFlags");
	if (v != NULL && !sq_is_none(v) && strcmp(v, "0") != 0)
		snprintf(flags, n, "%s", v);
}

int
sq_whatif_fetch(struct sq_backend *b, struct sq_snapshot **out,
		struct sq_err *err)
{
	struct sq_snapshot *s = NULL, *wsnap = NULL, *jobs = NULL;
	struct sq_snapshot *config = NULL;
	struct sq_whatif_weights old, given;
	struct sq_err ignore;
	char shown[1024], flags[128];
	int64_t max_age;
	int rc = -1;

	*out = NULL;
	if (sq_whatif_weights_read(b->cfg.weights, b->cfg.spec, &given, shown,
				   sizeof(shown), err) == -1)
		return -1;
	/* the plan checked the capability of this kind; where the backend
	 * lacks it, the plan calls here for the backend's own reason (no
	 * sprio -n in slurmrestd), which the generic check would hide */
	if (b->ops->fetch(b, SQ_KIND_WHATIF, &s, err) == -1)
		goto out;
	if (sq_backend_fetch_kind(b, SQ_KIND_PRIO_WEIGHTS, &wsnap, err) == -1)
		goto out;
	if (wsnap->nrows == 0) {
		sq_err_set(err, SQ_ERR_PARSE, "sprio -w printed no weights");
		goto out;
	}
	sq_whatif_weights_from_sprio(sq_snapshot_row(wsnap, 0), &old);
	sq_err_clear(&ignore);
	if (sq_backend_fetch_kind(b, SQ_KIND_JOBS, &jobs, &ignore) == -1)
		jobs = NULL;
	if (sq_backend_fetch_kind(b, SQ_KIND_CONFIG, &config, &ignore) == -1)
		config = NULL;
	config_values(config, &max_age, flags, sizeof(flags));
	sq_whatif_join_jobs(s, jobs);
	if (sq_whatif_apply(s, &old, &given, shown, max_age, flags,
			    SQ_WHATIF_TOP_N) == -1) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	/* the account strings live in the queue's arena */
	s->dep = jobs;
	jobs = NULL;
	*out = s;
	s = NULL;
	rc = 0;
out:
	sq_snapshot_unref(s);
	sq_snapshot_unref(wsnap);
	sq_snapshot_unref(jobs);
	sq_snapshot_unref(config);
	return rc;
}

void
sq_whatif_weights_text(const struct sq_whatif_info *in, int new, char *buf,
		       size_t n)
{
	const struct sq_whatif_weights *w = new ? &in->new : &in->old;
	size_t l = 0, i;

	buf[0] = '\0';
	for (i = 0; i < SQ_WF_COUNT && l < n; i++)
		l += (size_t)snprintf(buf + l, n - l, "%s%s=%.0f", i ? " " : "",
				      sq_whatif_factor_name((enum sq_wf)i),
				      w->w[i]);
	for (i = 0; i < w->ntres && l < n; i++)
		l += (size_t)snprintf(buf + l, n - l, "%s%s=%g",
				      i ? "," : " tres=", w->tres[i].name,
				      w->tres[i].v);
	if (new && w->max_age != SQ_NONE && l < n)
		snprintf(buf + l, n - l, " maxage=%llds",
			 (long long)w->max_age);
}

void
sq_whatif_print_summary(FILE *fp, const struct sq_snapshot *s)
{
	const struct sq_whatif_info *in = sq_whatif_info(s);
	char buf[1024];

	if (in == NULL) {
		fprintf(fp, "# whatif: no pending job with priority factors "
			    "(sprio lists none)\n");
		return;
	}
	sq_whatif_weights_text(in, 0, buf, sizeof(buf));
	fprintf(fp, "# today:  %s\n", buf);
	sq_whatif_weights_text(in, 1, buf, sizeof(buf));
	fprintf(fp, "# tried:  %s\n", buf);
	fprintf(fp, "# %s\n", in->summary);
	fprintf(fp,
		"# model check: %zu of %zu priorities as sprio's with "
		"today's weights, largest difference %lld\n",
		in->model_exact, in->jobs, (long long)in->model_maxdev);
	if (in->age_bound > 0)
		fprintf(fp,
			"# %zu job(s) older than today's PriorityMaxAge: "
			"their new age factor is a lower bound\n",
			in->age_bound);
	if (in->notes[0] != '\0')
		fprintf(fp, "# not modelled: %s\n", in->notes);
}
