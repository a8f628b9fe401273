/*
 * fuzz_json.c - libFuzzer harness for the JSON mapping (backends/
 * slurmjson): slurmrestd answers and `squeue/sinfo --json`, v0.0.38 and
 * the v0.0.39+ family alike. SQ_FUZZ_NAME picks the kind ("jobs",
 * "nodes" ...) or "check" (the envelope alone); accounts and users are
 * then joined with recorded associations, as the rest backend does.
 */
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/slurmjson.h"
#include "core/join.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"jobs\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int kind = -1; /* -1: "check" */
static struct sq_snapshot *ref_assocs;
static char *users_body;
static size_t users_len;

/* recorded users joined with the associations of the input */
static void
join_users(const struct sq_snapshot *assocs)
{
	struct sq_snapshot *u = sq_snapshot_new(SQ_KIND_USERS, 0);
	struct sq_err err;

	SQ_FUZZ_CHECK(u != NULL);
	SQ_FUZZ_CHECK(sq_slurmjson_parse(SQ_KIND_USERS, users_body, users_len,
					 0, u, NULL, &err) == 0);
	SQ_FUZZ_CHECK(sq_slurmjson_users_join(u, assocs) == 0);
	sq_fuzz_render(u);
	sq_snapshot_unref(u);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t len;
	char *body;
	struct sq_err err;

	(void)argc;
	(void)argv;
	if (strcmp(SQ_FUZZ_NAME, "check") != 0) {
		/* json_shares: the kind is called "fairshare" */
		kind = sq_kind_from_name(strcmp(SQ_FUZZ_NAME, "shares") == 0
					     ? "fairshare"
					     : SQ_FUZZ_NAME);
		SQ_FUZZ_CHECK(kind >= 0 &&
			      sq_slurmjson_supports((enum sq_kind)kind));
	}
	body = sq_fuzz_fixture("rest/v0.0.41/slurmdb_associations.json", &len);
	ref_assocs = sq_snapshot_new(SQ_KIND_ASSOCS, 0);
	SQ_FUZZ_CHECK(ref_assocs != NULL);
	SQ_FUZZ_CHECK(sq_slurmjson_parse(SQ_KIND_ASSOCS, body, len, 0,
					 ref_assocs, NULL, &err) == 0);
	free(body);
	users_body =
	    sq_fuzz_fixture("rest/v0.0.38/slurmdb_users.json", &users_len);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sq_sj_info info;
	struct sq_err err;
	struct sq_snapshot *s;
	/* the body is not NUL-terminated: a copy of exactly size bytes
	 * lets ASan catch a read past its end */
	char *body = malloc(size ? size : 1);

	SQ_FUZZ_CHECK(body != NULL);
	if (size > 0)
		memcpy(body, data, size);
	sq_err_clear(&err);
	if (kind < 0) {
		if (sq_slurmjson_check(body, size, &info, &err) == -1)
			SQ_FUZZ_CHECK(err.msg[0] != '\0');
		sq_fuzz_check_display(err.msg);
		sq_fuzz_check_display(info.warning);
		free(body);
		return 0;
	}
	s = sq_snapshot_new((enum sq_kind)kind, 0);
	SQ_FUZZ_CHECK(s != NULL);
	if (sq_slurmjson_parse((enum sq_kind)kind, body, size, 1795986600, s,
			       &info, &err) == 0) {
		if (kind == SQ_KIND_ACCOUNTS)
			SQ_FUZZ_CHECK(
			    sq_slurmjson_accounts_join(s, ref_assocs) == 0);
		else if (kind == SQ_KIND_USERS)
			SQ_FUZZ_CHECK(sq_slurmjson_users_join(s, ref_assocs) ==
				      0);
		else if (kind == SQ_KIND_ASSOCS)
			join_users(s);
		sq_fuzz_render(s);
	} else {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
	}
	sq_fuzz_check_display(err.msg);
	sq_snapshot_unref(s);
	free(body);
	return 0;
}
