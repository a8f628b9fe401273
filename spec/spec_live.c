/*
 * spec_live.c - the SPEC and NODESETS snapshots of a cluster, built by
 * their plan rows (session/plan.c) from the nodes, partitions and config
 * the plan fetched: load the spec file, read slurm.conf NodeSet=/NodeName=
 * lines when the cluster is local, and hand everything to the pure core
 * (spec_compare.c, nodeset.c). Nothing here fetches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/spec/nodeset.h"
#include "core/spec/spec.h"
#include "spec/spec_live.h"
#include "spec/spec_load.h"

#define CONF_MAX (4u << 20)

/* What the local slurm.conf says about node sets and features. */
struct conf_sets {
	struct sq_arena arena;
	struct sq_nodeset_def *defs;
	size_t ndefs;
	struct sq_kv *feats;
	size_t nfeats;
};

/*
 * Read the slurm.conf the local cluster runs (path from `scontrol show
 * config` when fetched, else SLURM_CONF, else /etc/slurm/slurm.conf).
 * Only for the local backend: over ssh or REST the file is on another
 * machine. A missing or unreadable file just means no NodeSet lines.
 */
static void
read_conf(const struct sq_backend *b, const struct sq_snapshot *config,
	  struct conf_sets *cs)
{
	const char *path = NULL;
	struct stat st;
	FILE *fp;
	char *text;
	size_t n;

	if (strcmp(b->ops->name, "local") != 0)
		return;
	if (config != NULL)
		path = sq_spec_config_value(config, "SLURM_CONF");
	if (path == NULL || path[0] != '/')
		path = getenv("SLURM_CONF");
	if (path == NULL || path[0] != '/')
		path = "/etc/slurm/slurm.conf";
	fp = fopen(path, "r");
	if (fp == NULL)
		return;
	if (fstat(fileno(fp), &st) == -1 || !S_ISREG(st.st_mode) ||
	    (unsigned long long)st.st_size > CONF_MAX) {
		fclose(fp);
		return;
	}
	text = malloc((size_t)st.st_size + 1);
	if (text != NULL) {
		n = fread(text, 1, (size_t)st.st_size, fp);
		text[n] = '\0';
		if (sq_nodeset_parse_conf(text, &cs->arena, &cs->defs,
					  &cs->ndefs, &cs->feats,
					  &cs->nfeats) == -1) {
			cs->ndefs = cs->nfeats = 0;
		}
		free(text);
	}
	fclose(fp);
}

static void
free_conf(struct conf_sets *cs)
{
	free(cs->defs);
	free(cs->feats);
	sq_arena_free(&cs->arena);
}

/* The spec file of b's cluster into spec (*have: one was given); a
 * SPEC needs one. 0, or -1 with err. */
static int
load(const struct sq_backend *b, enum sq_kind kind, struct sq_spec *spec,
     int *have, struct sq_err *err)
{
	*have = 0;
	if (b->cfg.spec[0] != '\0') {
		if (sq_spec_load(b->cfg.spec, spec, err) == -1)
			return -1;
		*have = 1;
	} else if (kind == SQ_KIND_SPEC) {
		return sq_err_set(err, SQ_ERR_USAGE,
				  "no cluster spec: give --spec FILE, or "
				  "spec=FILE on the cluster line");
	}
	return 0;
}

int
sq_spec_ready(const struct sq_backend *b, enum sq_kind kind, struct sq_err *err)
{
	struct sq_spec spec;
	int have, rc;

	sq_spec_init(&spec);
	rc = load(b, kind, &spec, &have, err);
	sq_spec_free(&spec);
	return rc;
}

/* The spec against the live cluster into s. */
static int
build_spec(const struct sq_spec *spec, const struct conf_sets *cs,
	   const struct sq_snapshot *nodes, const struct sq_snapshot *parts,
	   const struct sq_snapshot *config, const char *config_why,
	   struct sq_snapshot *s)
{
	struct sq_spec_live live;

	memset(&live, 0, sizeof(live));
	live.partitions = parts;
	live.nodes = nodes;
	live.config = config;
	live.config_error = config ? NULL : config_why;
	live.conf_sets = cs->defs;
	live.nconf_sets = cs->ndefs;
	live.features = cs->feats;
	live.nfeatures = cs->nfeats;
	if (sq_spec_compare(spec, &live, s) == -1)
		return -1;
	s->source = "spec file vs scontrol show partition/config, sinfo";
	return 0;
}

/* The nodes grouped by node set into s (spec: NULL where none given). */
static int
build_nodesets(const struct sq_spec *spec, const struct conf_sets *cs,
	       const struct sq_snapshot *nodes, struct sq_snapshot *s)
{
	struct sq_nodeset_def *defs = NULL;
	size_t ndefs = 0;
	int rc = -1;

	if (sq_spec_nodeset_defs(spec, cs->defs, cs->ndefs, &defs, &ndefs) ==
		0 &&
	    sq_nodeset_group(defs, ndefs, cs->feats, cs->nfeats, nodes, s) == 0)
		rc = 0;
	free(defs);
	s->source = cs->ndefs    ? "slurm.conf NodeSet= lines, sinfo"
		    : spec       ? "spec file, sinfo"
		    : cs->nfeats ? "slurm.conf node features, sinfo"
				 : "sinfo";
	return rc;
}

int
sq_spec_build(const struct sq_backend *b, struct sq_snapshot *s,
	      const struct sq_snapshot *nodes, const struct sq_snapshot *parts,
	      const struct sq_snapshot *config, const char *config_why,
	      struct sq_err *err)
{
	struct sq_spec spec;
	struct conf_sets cs;
	int have, rc = -1;

	memset(&cs, 0, sizeof(cs));
	sq_spec_init(&spec);
	sq_arena_init(&cs.arena);
	if (load(b, s->kind, &spec, &have, err) == -1)
		goto out;
	read_conf(b, config, &cs);
	if (s->kind == SQ_KIND_SPEC)
		rc =
		    build_spec(&spec, &cs, nodes, parts, config, config_why, s);
	else
		rc = build_nodesets(have ? &spec : NULL, &cs, nodes, s);
	if (rc == -1)
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
out:
	free_conf(&cs);
	sq_spec_free(&spec);
	return rc;
}
