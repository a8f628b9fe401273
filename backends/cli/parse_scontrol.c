/*
 * parse_scontrol.c - partitions from `scontrol -o show partition`.
 *
 * One partition per line of Key=Value pairs. Unknown keys are ignored so
 * newer Slurm releases that add keys still parse.
 */
#include <string.h>

#include "backends/cli/cli.h"
#include "core/base/parse.h"

static int
minutes(const char *v, int64_t *out)
{
	int64_t sec;

	if (sq_parse_duration(v, &sec) == -1)
		return -1;
	*out = sec >= 0 ? sec / 60 : sec;
	return 0;
}

int
sq_parse_scontrol_partitions(char *text, struct sq_snapshot *s,
			     struct sq_err *err)
{
	char *pos = text, *line, *key, *val, *kp;
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_partition *p;
		int bad = 0;

		lineno++;
		if (*line == '\0')
			continue;
		if (strncmp(line, "PartitionName=", 14) != 0)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: not a partition",
					  lineno);
		p = sq_snapshot_add(s);
		if (p == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		p->state = p->nodelist = p->preempt_mode = p->qos = p->tres =
		    "";
		p->max_time = p->default_time = SQ_NONE;
		kp = line;
		while (sq_kv_next(&kp, &key, &val)) {
			if (strcmp(key, "PartitionName") == 0)
				p->name = sq_snapshot_str(s, val);
			else if (strcmp(key, "Default") == 0)
				p->is_default = strcmp(val, "YES") == 0;
			else if (strcmp(key, "State") == 0)
				p->state = sq_snapshot_str(s, val);
			else if (strcmp(key, "Nodes") == 0)
				p->nodelist = sq_is_none(val)
						  ? ""
						  : sq_snapshot_str(s, val);
			else if (strcmp(key, "TotalNodes") == 0)
				bad |= sq_parse_int(val, &p->nodes_total);
			else if (strcmp(key, "TotalCPUs") == 0)
				bad |= sq_parse_int(val, &p->cpus_total);
			else if (strcmp(key, "PriorityTier") == 0)
				bad |= sq_parse_int(val, &p->priority_tier);
			else if (strcmp(key, "PriorityJobFactor") == 0)
				bad |=
				    sq_parse_int(val, &p->priority_job_factor);
			else if (strcmp(key, "PreemptMode") == 0)
				p->preempt_mode = sq_snapshot_str(s, val);
			else if (strcmp(key, "MaxTime") == 0)
				bad |= minutes(val, &p->max_time);
			else if (strcmp(key, "DefaultTime") == 0)
				bad |= minutes(val, &p->default_time);
			else if (strcmp(key, "QoS") == 0)
				p->qos = sq_is_none(val)
					     ? ""
					     : sq_snapshot_str(s, val);
			else if (strcmp(key, "TRES") == 0)
				p->tres = sq_snapshot_str(s, val);
		}
		if (p->name == NULL || bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: malformed "
					  "partition",
					  lineno);
	}
	return 0;
}
