/*
 * spec_live.c - the SPEC and NODESETS snapshots of a cluster: load the
 * spec file, fetch nodes, partitions and config through the backend,
 * read slurm.conf NodeSet=/NodeName= lines when the cluster is local,
 * and hand everything to the pure core (spec_compare.c, nodeset.c).
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

int
sq_spec_fetch(struct sq_backend *b, enum sq_kind kind, struct sq_snapshot **out,
	      struct sq_err *err)
{
	struct sq_snapshot *nodes = NULL, *parts = NULL, *config = NULL;
	struct sq_snapshot *s = NULL;
	struct sq_spec spec;
	struct conf_sets cs;
	struct sq_err cerr;
	int have_spec = 0, rc = -1;

	*out = NULL;
	memset(&cs, 0, sizeof(cs));
	sq_spec_init(&spec);
	sq_arena_init(&cs.arena);
	if (b->cfg.spec[0] != '\0') {
		if (sq_spec_load(b->cfg.spec, &spec, err) == -1)
			goto out;
		have_spec = 1;
	} else if (kind == SQ_KIND_SPEC) {
		sq_err_set(err, SQ_ERR_USAGE,
			   "no cluster spec: give --spec FILE, or spec=FILE "
			   "on the cluster line");
		goto out;
	}
	if (sq_backend_fetch_kind(b, SQ_KIND_NODES, &nodes, err) == -1)
		goto out;
	if (kind == SQ_KIND_SPEC) {
		if (sq_backend_fetch_kind(b, SQ_KIND_PARTITIONS, &parts, err) ==
		    -1)
			goto out;
		/* config is optional: its rows become unknown without it */
		sq_err_clear(&cerr);
		if (sq_backend_fetch_kind(b, SQ_KIND_CONFIG, &config, &cerr) ==
		    -1)
			config = NULL;
	}
	read_conf(b, config, &cs);
	if (kind == SQ_KIND_SPEC) {
		struct sq_spec_live live;

		memset(&live, 0, sizeof(live));
		live.partitions = parts;
		live.nodes = nodes;
		live.config = config;
		live.config_error = config ? NULL : cerr.msg;
		live.conf_sets = cs.defs;
		live.nconf_sets = cs.ndefs;
		live.features = cs.feats;
		live.nfeatures = cs.nfeats;
		s = sq_snapshot_new(SQ_KIND_SPEC, sizeof(struct sq_spec_row));
		if (s == NULL || sq_spec_compare(&spec, &live, s) == -1) {
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		s->source = "spec file vs scontrol show partition/config, "
			    "sinfo";
	} else {
		struct sq_nodeset_def *defs = NULL;
		size_t ndefs = 0;

		s = sq_snapshot_new(SQ_KIND_NODESETS,
				    sizeof(struct sq_nodeset));
		if (s == NULL ||
		    sq_spec_nodeset_defs(have_spec ? &spec : NULL, cs.defs,
					 cs.ndefs, &defs, &ndefs) == -1 ||
		    sq_nodeset_group(defs, ndefs, cs.feats, cs.nfeats, nodes,
				     s) == -1) {
			free(defs);
			sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
			goto out;
		}
		free(defs);
		s->source = cs.ndefs    ? "slurm.conf NodeSet= lines, sinfo"
			    : have_spec ? "spec file, sinfo"
			    : cs.nfeats ? "slurm.conf node features, sinfo"
					: "sinfo";
	}
	*out = s;
	s = NULL;
	rc = 0;
out:
	sq_snapshot_unref(s);
	sq_snapshot_unref(nodes);
	sq_snapshot_unref(parts);
	sq_snapshot_unref(config);
	free_conf(&cs);
	sq_spec_free(&spec);
	return rc;
}
