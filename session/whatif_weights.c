/*
 * whatif_weights.c - the what-if's weights to try (a given text, or a
 * cluster spec's config map) and its summary lines. The WHATIF snapshot
 * is its plan row's build (session/plan.c: sprio -n, sprio -w, the queue,
 * the config) by core/analysis/whatif_build.c; the model itself is
 * core/analysis/whatif.c; nothing here computes a priority.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/spec/spec.h"
#include "session/whatif_weights.h"
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
