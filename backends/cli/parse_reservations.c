/*
 * parse_reservations.c - reservations from `scontrol -o show
 * reservation` (one Key=Value line each). "No reservations in the
 * system" gives no rows; unknown keys are ignored.
 */
#include <string.h>

#include "backends/cli/cli_admin.h"
#include "core/base/parse.h"

static const char *
str(struct sq_snapshot *s, const char *v)
{
	return sq_is_none(v) ? "" : sq_snapshot_str(s, v);
}

int
sq_parse_reservations(char *text, struct sq_snapshot *s, struct sq_err *err)
{
	char *pos = text, *line, *key, *val, *kp;
	int lineno = 0;

	while ((line = sq_next_line(&pos)) != NULL) {
		struct sq_reservation *r;
		int bad = 0;

		lineno++;
		if (*line == '\0' || strncmp(line, "No reservations", 15) == 0)
			continue;
		if (strncmp(line, "ReservationName=", 16) != 0)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: not a "
					  "reservation",
					  lineno);
		r = sq_snapshot_add(s);
		if (r == NULL)
			return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		r->name = r->state = r->nodes = r->features = r->partition =
		    r->flags = r->tres = r->users = r->groups = r->accounts =
			r->licenses = r->burst_buffer = r->max_start_delay = "";
		r->start_time = r->end_time = r->duration = SQ_NONE;
		r->node_cnt = r->core_cnt = SQ_NONE;
		kp = line;
		while (sq_kv_next(&kp, &key, &val)) {
			if (strcmp(key, "ReservationName") == 0)
				r->name = str(s, val);
			else if (strcmp(key, "StartTime") == 0)
				bad |= sq_parse_time(val, &r->start_time);
			else if (strcmp(key, "EndTime") == 0)
				bad |= sq_parse_time(val, &r->end_time);
			else if (strcmp(key, "Duration") == 0)
				bad |= sq_admin_seconds(val, &r->duration);
			else if (strcmp(key, "Nodes") == 0)
				r->nodes = str(s, val);
			else if (strcmp(key, "NodeCnt") == 0)
				bad |= sq_parse_int(val, &r->node_cnt);
			else if (strcmp(key, "CoreCnt") == 0)
				bad |= sq_parse_int(val, &r->core_cnt);
			else if (strcmp(key, "Features") == 0)
				r->features = str(s, val);
			else if (strcmp(key, "PartitionName") == 0)
				r->partition = str(s, val);
			else if (strcmp(key, "Flags") == 0)
				r->flags = str(s, val);
			else if (strcmp(key, "TRES") == 0)
				r->tres = str(s, val);
			else if (strcmp(key, "Users") == 0)
				r->users = str(s, val);
			else if (strcmp(key, "Groups") == 0)
				r->groups = str(s, val);
			else if (strcmp(key, "Accounts") == 0)
				r->accounts = str(s, val);
			else if (strcmp(key, "Licenses") == 0)
				r->licenses = str(s, val);
			else if (strcmp(key, "State") == 0)
				r->state = str(s, val);
			else if (strcmp(key, "BurstBuffer") == 0)
				r->burst_buffer = str(s, val);
			else if (strcmp(key, "MaxStartDelay") == 0)
				r->max_start_delay = str(s, val);
		}
		if (r->name[0] == '\0' || bad)
			return sq_err_set(err, SQ_ERR_PARSE,
					  "scontrol line %d: malformed "
					  "reservation",
					  lineno);
	}
	return 0;
}
