/*
 * live.h - the live usage of a running job: one row per running step as
 * `sstat -a -n -P` reports it (CPU time, memory high-water marks, disk),
 * or a one-line note saying why there is none (not permitted, the backend
 * has no sstat). Filled by a backend's job_live() (backends/backend.h) on
 * the worker thread; shown by the jobs view's detail pane and
 * `squall --once --job`.
 */
#ifndef SQ_LIVE_H
#define SQ_LIVE_H

#include <stddef.h>

#define SQ_LIVE_MAX_STEPS 64

/* As sstat prints them (sizes like "14140K", times like "00:01:02"). */
struct sq_live_step {
	char step[64]; /* JobID column: "123.batch", "123.0", "123_4.0" */
	char ave_cpu[32];
	char max_rss[32];
	char max_rss_node[64];
	char ave_rss[32];
	char max_vmsize[32];
	char ntasks[16];
	char min_cpu[32];
	char max_disk_read[32];
	char max_disk_write[32];
};

struct sq_live {
	char jobid[64];
	size_t n; /* rows in step[] */
	struct sq_live_step step[SQ_LIVE_MAX_STEPS];
	char note[256]; /* "" or why there are no rows */
	/* the GPUs it holds per node, as `scontrol -d show job` gives them
	 * ("n3 gpu:a100:2(IDX:0-1)"), or "" */
	char gpus[256];
};

/* The sstat -o field list, in struct sq_live_step order. */
extern const char sq_live_sstat_fields[];

/* "14140K" -> "13.8M": a size as sstat prints it, shortened; s as it is
 * when it is not a size. */
void sq_live_size(const char *s, char *buf, size_t n);

/*
 * Lines describing l for a text pane or stdout: a header and one line per
 * step, or the note. Calls fn(arg, line) for each; returns the count.
 */
int sq_live_lines(const struct sq_live *l,
		  void (*fn)(void *arg, const char *line), void *arg);

#endif
