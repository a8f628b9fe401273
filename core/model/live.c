/*
 * live.c - formatting the live usage of a running job (core/model/live.h): the
 * field list sstat is asked for and the lines the detail pane and
 * `--once --job` print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/live.h"

const char sq_live_sstat_fields[] = "JobID,AveCPU,MaxRSS,MaxRSSNode,AveRSS,"
				    "MaxVMSize,NTasks,MinCPU,MaxDiskRead,"
				    "MaxDiskWrite";

void
sq_live_size(const char *s, char *buf, size_t n)
{
	static const char units[] = "KMGTP";
	char *end;
	double v = strtod(s, &end);
	const char *u;
	int k;

	if (end == s ||
	    (*end != '\0' && (end[1] != '\0' || strchr(units, *end) == NULL))) {
		snprintf(buf, n, "%s", s);
		return;
	}
	k = *end == '\0' ? -1 : (int)(strchr(units, *end) - units);
	/* bytes (no unit: disk counters) to K first */
	if (k < 0) {
		v /= 1024.0;
		k = 0;
	}
	while (v >= 1024.0 && units[k + 1] != '\0') {
		v /= 1024.0;
		k++;
	}
	u = &units[k];
	snprintf(buf, n, v < 10 ? "%.1f%c" : "%.0f%c", v, *u);
}

int
sq_live_lines(const struct sq_live *l, void (*fn)(void *arg, const char *line),
	      void *arg)
{
	char line[512], a[5][24];
	size_t i;
	int extra = 0;

	if (l->gpus[0] != '\0') {
		snprintf(line, sizeof(line), "GPUs held: %s", l->gpus);
		fn(arg, line);
		extra = 1;
	}
	if (l->n == 0) {
		snprintf(line, sizeof(line), "%s",
			 l->note[0] ? l->note : "no running steps");
		fn(arg, line);
		return 1 + extra;
	}
	snprintf(line, sizeof(line), "%-16s %6s %11s %11s %8s %8s %8s %-10s",
		 "step", "tasks", "ave cpu", "min cpu", "ave rss", "max rss",
		 "max vm", "on node");
	fn(arg, line);
	for (i = 0; i < l->n; i++) {
		const struct sq_live_step *s = &l->step[i];

		sq_live_size(s->ave_rss, a[0], sizeof(a[0]));
		sq_live_size(s->max_rss, a[1], sizeof(a[1]));
		sq_live_size(s->max_vmsize, a[2], sizeof(a[2]));
		sq_live_size(s->max_disk_read, a[3], sizeof(a[3]));
		sq_live_size(s->max_disk_write, a[4], sizeof(a[4]));
		snprintf(line, sizeof(line),
			 "%-16s %6s %11s %11s %8s %8s %8s %-10s disk r %s w %s",
			 s->step, s->ntasks, s->ave_cpu, s->min_cpu, a[0], a[1],
			 a[2], s->max_rss_node, a[3], a[4]);
		fn(arg, line);
	}
	return (int)l->n + 1 + extra;
}
