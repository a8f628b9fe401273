/*
 * model.c - names of kinds and small helpers over the records.
 */
#include <stdlib.h>
#include <string.h>

#include "core/model/model.h"

static const char *const kind_names[] = {
#define SQ_KIND_NAME(e, n, d) n,
	SQ_KINDS(SQ_KIND_NAME)
#undef SQ_KIND_NAME
};

const char *
sq_kind_name(enum sq_kind kind)
{
	if ((unsigned)kind >= SQ_KIND_COUNT)
		return "?";
	return kind_names[kind];
}

int
sq_kind_from_name(const char *name)
{
	int i;

	for (i = 0; i < SQ_KIND_COUNT; i++) {
		if (strcmp(kind_names[i], name) == 0)
			return i;
	}
	return -1;
}

int
sq_job_is_pending(const struct sq_job *job)
{
	return strcmp(job->state, "PENDING") == 0 ||
	       strcmp(job->state_compact, "PD") == 0;
}

/* Is task in a task list as squeue prints it: "4", "5-20", "[1-3,7,9-12%2]"
 * (after '%' the throttle)? */
static int
task_in(const char *list, unsigned long task)
{
	const char *p = list + (*list == '[');
	char *end;

	while (*p >= '0' && *p <= '9') {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (task >= lo && task <= hi)
			return 1;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return 0;
}

int
sq_job_has_task(const struct sq_job *j, const char *arg)
{
	char *end;
	unsigned long id = strtoul(arg, &end, 10), task;

	if (end == arg || *end != '_' || end[1] < '0' || end[1] > '9' ||
	    j->array_job_id == 0 || j->array_job_id != id ||
	    j->array_task == NULL)
		return 0;
	task = strtoul(end + 1, &end, 10);
	return *end == '\0' && task_in(j->array_task, task);
}

const struct sq_job_more sq_job_more_none = { "", "", 0, NULL, NULL };

const char *
sq_job_tres_alloc(const struct sq_job *j)
{
	return j->more != NULL ? j->more->tres_alloc : NULL;
}

const char *
sq_job_prio_by_part(const struct sq_job *j)
{
	return j->more != NULL ? j->more->prio_by_part : NULL;
}

int32_t
sq_job_restarts(const struct sq_job *j)
{
	return j->more != NULL ? j->more->restart_cnt : 0;
}

int32_t
sq_i32(int64_t v)
{
	return v > INT32_MAX   ? INT32_MAX
	       : v < INT32_MIN ? (int32_t)SQ_NONE
			       : (int32_t)v;
}
