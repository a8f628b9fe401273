/*
 * openmetrics.h - the OpenMetrics / Prometheus text format as slurmctld
 * 25.11+ serves it (MetricsType=metrics/openmetrics, GET /metrics/nodes,
 * /metrics/partitions, /metrics/scheduler ...): `# HELP`, `# TYPE`,
 * `# UNIT` and `# EOF` lines, samples `name{key="value",...} value
 * [timestamp]`. Parsed into a table of samples that the overview reads by
 * name and label. Pure: no I/O.
 */
#ifndef SQ_OPENMETRICS_H
#define SQ_OPENMETRICS_H

#include <stddef.h>

#define SQ_OM_MAX_LABELS 8
/* a body larger than this is refused (slurmctld's per-user endpoint is
 * the largest: a few hundred bytes a user) */
#define SQ_OM_MAX_BYTES (64u << 20)

struct sq_om_label {
	const char *key, *val; /* unescaped, NUL-terminated */
};

struct sq_om_sample {
	const char *name;
	struct sq_om_label label[SQ_OM_MAX_LABELS];
	int nlabels;
	double value; /* NaN and +-Inf as the text says */
};

struct sq_om {
	struct sq_om_sample *v;
	size_t n, cap;
	char *text; /* the parsed copy the strings point into */
	int eof;    /* a "# EOF" line was there (OpenMetrics ends with it;
		       slurmctld 26.05 does not write it) */
};

/*
 * Parse len bytes of text into om (zeroed by the caller, or freed and
 * reused). 0, or -1 with a one-line reason in err ("line 3: no value")
 * and om empty. An empty text is 0 with no samples: the caller decides
 * what an empty answer means (slurmctld without MetricsType).
 */
int sq_om_parse(const char *text, size_t len, struct sq_om *om, char *err,
		size_t errlen);
void sq_om_free(struct sq_om *om);

/* The label value of key in s, or NULL. */
const char *sq_om_label(const struct sq_om_sample *s, const char *key);

/*
 * The value of the first sample named name whose label key is val (key
 * NULL: a sample without labels). 0 and *out, or -1 when there is none.
 */
int sq_om_get(const struct sq_om *om, const char *name, const char *key,
	      const char *val, double *out);

#endif
