/*
 * actions_resv.c - reservations through the Slurm CLI: read the targets
 * (`scontrol -o show reservation`, parsed as the reservations view
 * parses it) into records; whether a reserve, reserve-update or
 * reserve-delete shows and its inverse are core/action/resv_check.c's, on the
 * records read as reservations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backends/cli/actions.h"
#include "backends/cli/cli_admin.h"
#include "core/model/model_admin.h"
#include "core/action/resv.h"
#include "core/base/util.h"

static void
put(struct sq_cli_rec *r, const char *key, const char *val)
{
	if (r->n >= SQ_CLI_REC_MAX)
		return;
	sq_util_copy(r->key[r->n], sizeof(r->key[0]), key);
	r->val[r->n++] = strdup(val ? val : "");
}

static void
put_num(struct sq_cli_rec *r, const char *key, int64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%lld", (long long)v);
	put(r, key, b);
}

static void
fill(struct sq_cli_rec *r, const struct sq_reservation *v)
{
	r->found = 1;
	put(r, "State", v->state);
	put_num(r, "StartTime", v->start_time);
	put_num(r, "EndTime", v->end_time);
	put_num(r, "Duration", v->duration);
	put(r, "Nodes", v->nodes);
	put(r, "PartitionName", v->partition);
	put(r, "Users", v->users);
	put(r, "Accounts", v->accounts);
	put(r, "Flags", v->flags);
}

int
sq_cli_read_resv(struct sq_cli *cli, const struct sq_action *a,
		 struct sq_cli_state *st, struct sq_err *err)
{
	static const char *const argv[] = { "scontrol", "-o", "show",
					    "reservation", NULL };
	struct sq_snapshot *s;
	struct sq_buf out;
	char none[1] = "";
	size_t i, k;
	int rc = -1;

	s = sq_snapshot_new(SQ_KIND_RESERVATIONS,
			    sizeof(struct sq_reservation));
	if (s == NULL)
		return sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
	sq_buf_init(&out, 0);
	if (sq_cli_run(cli, argv, &out, err) == 0 &&
	    sq_parse_reservations(out.data ? out.data : none, s, err) == 0) {
		for (i = 0; i < a->ntargets; i++) {
			for (k = 0; k < s->nrows; k++) {
				const struct sq_reservation *v =
				    sq_snapshot_row(s, k);

				if (strcmp(v->name, a->targets[i]) == 0)
					fill(&st->rec[i], v);
			}
		}
		rc = 0;
	}
	sq_buf_free(&out);
	sq_snapshot_unref(s);
	return rc;
}

static int64_t
num(const struct sq_cli_rec *r, const char *key)
{
	const char *v = sq_cli_rec_get(r, key);

	return v != NULL && *v != '\0' ? strtoll(v, NULL, 10) : SQ_NONE;
}

/* The record read as the reservation it is (strings in r). */
static void
to_resv(const struct sq_cli_rec *r, struct sq_reservation *v)
{
	memset(v, 0, sizeof(*v));
	v->name = "";
	v->state = sq_cli_rec_get(r, "State");
	v->start_time = num(r, "StartTime");
	v->end_time = num(r, "EndTime");
	v->duration = num(r, "Duration");
	v->nodes = sq_cli_rec_get(r, "Nodes");
	v->partition = sq_cli_rec_get(r, "PartitionName");
	v->users = sq_cli_rec_get(r, "Users");
	v->accounts = sq_cli_rec_get(r, "Accounts");
	v->flags = sq_cli_rec_get(r, "Flags");
}

int
sq_cli_verify_resv(const struct sq_action *a, const struct sq_cli_rec *after,
		   char *msg, size_t n)
{
	struct sq_reservation v;

	to_resv(after, &v);
	return sq_resv_verify(a, after->found ? &v : NULL, time(NULL), msg, n);
}

int
sq_cli_resv_inverse(const struct sq_action *a,
		    const struct sq_cli_state *before, char *buf, size_t n)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < a->ntargets; i++) {
		struct sq_reservation v;
		char line[1024];
		int have = before != NULL && before->ok && i < before->n &&
			   before->rec[i].found;

		if (have)
			to_resv(&before->rec[i], &v);
		if (sq_resv_inverse(a, a->targets[i], have ? &v : NULL,
				    time(NULL), line, sizeof(line)) == -1 ||
		    line[0] == '\0' || off + strlen(line) + 2 >= n)
			continue;
		off += (size_t)snprintf(buf + off, n - off, "%s%s",
					off ? "\n" : "", line);
	}
	return 0;
}
