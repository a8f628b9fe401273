/*
 * fuzz_spec.c - libFuzzer harness for what squall reads from files an
 * admin may have been handed: "json", a cluster spec or the Slinky
 * operator's resources (spec_load.c), compared with the recorded
 * cluster; "slurmconf", the NodeSet=/NodeName= lines of a slurm.conf
 * (core/spec/nodeset.c) grouping the recorded nodes; "replay", the index.tsv
 * of a --record directory served through the replay backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "backends/backend.h"
#include "backends/cli/cli.h"
#include "backends/cli/cli_admin.h"
#include "core/conf/cluster.h"
#include "core/spec/nodeset.h"
#include "core/spec/spec.h"
#include "spec/spec_load.h"
#include "tests/fuzz/fuzz.h"

#ifndef SQ_FUZZ_NAME
#error "build with -DSQ_FUZZ_NAME=\"json\" (see tests/fuzz/run)"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sq_snapshot *ref_parts, *ref_nodes, *ref_config;
static char dir[64];

static void
write_file(const char *name, const void *data, size_t size)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	SQ_FUZZ_CHECK(fp != NULL);
	SQ_FUZZ_CHECK(size == 0 || fwrite(data, 1, size, fp) == size);
	SQ_FUZZ_CHECK(fclose(fp) == 0);
}

static void
cleanup(void)
{
	static const char *const names[] = { "index.tsv", "0001.out",
					     "0002.out", "0003.out", NULL };
	char path[128];
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *v;

	(void)argc;
	(void)argv;
	ref_parts = sq_fuzz_parse_fixture(SQ_KIND_PARTITIONS,
					  sq_parse_scontrol_partitions,
					  "cli/22.05/scontrol_partition.txt");
	ref_nodes = sq_fuzz_parse_fixture(SQ_KIND_NODES, sq_parse_sinfo_nodes,
					  "cli/22.05/sinfo_nodes.txt");
	ref_config = sq_fuzz_parse_fixture(SQ_KIND_CONFIG, sq_parse_config,
					   "cli/22.05/scontrol_config.txt");
	if (strcmp(SQ_FUZZ_NAME, "replay") == 0) {
		sq_fuzz_tmpdir(dir, sizeof(dir), "replay");
		atexit(cleanup);
		/* outputs the index may name */
		v = sq_fuzz_fixture("cli/22.05/sinfo_V.txt", NULL);
		write_file("0001.out", v, strlen(v));
		free(v);
		v = sq_fuzz_fixture("cli/22.05/squeue.txt", NULL);
		write_file("0002.out", v, strlen(v));
		free(v);
		v = sq_fuzz_fixture("cli/22.05/sinfo_nodes.txt", NULL);
		write_file("0003.out", v, strlen(v));
		free(v);
	}
	return 0;
}

static void
render_spec(const struct sq_spec *spec, const struct sq_nodeset_def *conf,
	    size_t nconf, const struct sq_kv *feats, size_t nfeats)
{
	struct sq_spec_live live;
	struct sq_snapshot *out = sq_snapshot_new(SQ_KIND_SPEC, 0);
	struct sq_snapshot *sets = sq_snapshot_new(SQ_KIND_NODESETS, 0);
	struct sq_nodeset_def *defs = NULL;
	size_t ndefs = 0;

	SQ_FUZZ_CHECK(out != NULL && sets != NULL);
	memset(&live, 0, sizeof(live));
	live.partitions = ref_parts;
	live.nodes = ref_nodes;
	live.config = ref_config;
	live.conf_sets = conf;
	live.nconf_sets = nconf;
	live.features = feats;
	live.nfeatures = nfeats;
	SQ_FUZZ_CHECK(sq_spec_compare(spec, &live, out) == 0);
	sq_fuzz_render(out);
	SQ_FUZZ_CHECK(sq_spec_nodeset_defs(spec, conf, nconf, &defs, &ndefs) ==
		      0);
	SQ_FUZZ_CHECK(
	    sq_nodeset_group(defs, ndefs, feats, nfeats, ref_nodes, sets) == 0);
	sq_fuzz_render(sets);
	free(defs);
	sq_snapshot_unref(sets);
	sq_snapshot_unref(out);
}

static void
fuzz_json(const uint8_t *data, size_t size)
{
	struct sq_spec spec;
	struct sq_err err;
	char *text;

	if (sq_fuzz_range_names(data, size) > SQ_FUZZ_MAX_ROW_NAMES)
		return;
	text = malloc(size ? size : 1);
	SQ_FUZZ_CHECK(text != NULL);
	if (size > 0)
		memcpy(text, data, size);
	sq_spec_init(&spec);
	sq_err_clear(&err);
	if (sq_spec_parse(text, size, "fuzz.json", &spec, &err) == 0)
		render_spec(&spec, NULL, 0, NULL, 0);
	else
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
	sq_fuzz_check_display(err.msg);
	sq_spec_free(&spec);
	free(text);
}

static void
fuzz_slurmconf(const uint8_t *data, size_t size)
{
	struct sq_arena arena;
	struct sq_nodeset_def *defs = NULL;
	struct sq_kv *feats = NULL;
	size_t ndefs = 0, nfeats = 0;
	struct sq_snapshot *sets = sq_snapshot_new(SQ_KIND_NODESETS, 0);
	struct sq_spec spec;
	char *text;

	SQ_FUZZ_CHECK(sets != NULL);
	if (sq_fuzz_conf_names(data, size) > SQ_FUZZ_MAX_NAMES) {
		sq_snapshot_unref(sets);
		return;
	}
	text = sq_fuzz_str(data, size);
	sq_arena_init(&arena);
	SQ_FUZZ_CHECK(sq_nodeset_parse_conf(text, &arena, &defs, &ndefs, &feats,
					    &nfeats) == 0);
	SQ_FUZZ_CHECK(
	    sq_nodeset_group(defs, ndefs, feats, nfeats, ref_nodes, sets) == 0);
	sq_fuzz_render(sets);
	/* the empty spec compares through the same definitions */
	sq_spec_init(&spec);
	render_spec(&spec, defs, ndefs, feats, nfeats);
	sq_spec_free(&spec);
	free(defs);
	free(feats);
	sq_arena_free(&arena);
	sq_snapshot_unref(sets);
	free(text);
}

/* the input is index.tsv: STATUS\tFILE\tKEY... lines (see replay.c) */
static void
fuzz_replay(const uint8_t *data, size_t size)
{
	static const enum sq_kind kinds[] = { SQ_KIND_JOBS, SQ_KIND_NODES };
	struct sq_cluster_cfg cfg;
	struct sq_backend *b;
	struct sq_err err;
	size_t i;

	write_file("index.tsv", data, size);
	sq_cluster_defaults(&cfg);
	snprintf(cfg.backend, sizeof(cfg.backend), "replay");
	snprintf(cfg.replay_dir, sizeof(cfg.replay_dir), "%s", dir);
	sq_err_clear(&err);
	b = sq_backend_open(&cfg, &err);
	if (b == NULL) {
		SQ_FUZZ_CHECK(err.msg[0] != '\0');
		sq_fuzz_check_display(err.msg);
		return;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct sq_snapshot *s = NULL;

		if (b->ops->fetch(b, kinds[i], &s, &err) == 0) {
			sq_fuzz_render(s);
			sq_snapshot_unref(s);
		} else {
			sq_fuzz_check_display(err.msg);
		}
	}
	sq_backend_close(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (strcmp(SQ_FUZZ_NAME, "json") == 0)
		fuzz_json(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "slurmconf") == 0)
		fuzz_slurmconf(data, size);
	else if (strcmp(SQ_FUZZ_NAME, "replay") == 0)
		fuzz_replay(data, size);
	else
		SQ_FUZZ_CHECK(!"unknown harness");
	return 0;
}
