/*
 * test_sj_diag.c - slurmctld's statistics from JSON
 * (backends/slurmjson/sj_diag.c) on the recorded /diag answers of
 * v0.0.38 (22.05), v0.0.40-42 (24.11) and v0.0.43-45 (26.05): sdiag's
 * labels and sections, the exit reasons as the text parser files them,
 * the RPC rows busiest first.
 */
#include <stdio.h>
#include <string.h>

#include "backends/slurmjson/slurmjson.h"
#include "tests/unit/sj_test_util.h"
#include "tests/unit/test_util.h"

static void
test_diag(void **state)
{
	static const char *const files[] = {
		"rest/v0.0.38/slurm_diag.json",
		"rest/v0.0.40/slurm_diag.json",
		"rest/v0.0.41/slurm_diag.json",
		"rest/v0.0.42/slurm_diag.json",
		LIVE_2605 "rest/v0.0.43/slurm_diag.json",
		LIVE_2605 "rest/v0.0.44/slurm_diag.json",
		LIVE_2605 "rest/v0.0.45/slurm_diag.json",
		NULL
	};
	int i;

	(void)state;
	for (i = 0; files[i] != NULL; i++) {
		struct sq_snapshot *s =
		    sq_test_sj_parse(SQ_KIND_DIAG, files[i], NULL);
		const struct sq_kv *kv;
		size_t k, rpc = 0;
		long long last = 1LL << 62;

		/* the labels and sections of sdiag's text */
		kv = sq_test_sj_kv(s, "general", "Jobs submitted");
		assert_non_null(kv);
		assert_true(sq_test_sj_num(kv->value) >= 0);
		assert_non_null(sq_test_sj_kv(s, "backfill", "Total cycles"));
		assert_non_null(sq_test_sj_kv(s, "main", "Last cycle"));
		kv = sq_test_sj_kv(s, "general",
				   "Latency for 1000 calls to gettimeofday()");
		assert_non_null(kv);
		assert_non_null(strstr(kv->value, " microseconds"));
		/* v0.0.40+: the exit reasons as the text parser files them
		 * (issue 41, defect 13) */
		if (strstr(files[i], "v0.0.38") == NULL) {
			kv = sq_test_sj_kv(s, "main", "exit: End of job queue");
			assert_non_null(kv);
			assert_true(sq_test_sj_num(kv->value) >= 0);
			assert_non_null(sq_test_sj_kv(
			    s, "backfill", "exit: Hit bf_max_job_test"));
		}
		for (k = 0; k < s->nrows; k++) {
			const struct sq_kv *r = sq_snapshot_row(s, k);

			if (strcmp(r->section, "rpc_type") == 0) {
				long long cnt;

				assert_int_equal(
				    sscanf(r->value, "count=%lld", &cnt), 1);
				assert_non_null(strstr(r->value, " ave_time="));
				/* busiest first, as sdiag sorts them */
				assert_true(cnt <= last);
				last = cnt;
				rpc++;
			}
		}
		assert_true(rpc > 0);
		sq_snapshot_unref(s);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
