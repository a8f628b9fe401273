/*
 * cluster.c - defaults of a cluster's connection settings.
 */
#include <string.h>

#include "core/conf/cluster.h"

void
sq_cluster_defaults(struct sq_cluster_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->name, "default");
	strcpy(cfg->backend, "local");
	cfg->refresh = 10;
	cfg->timeout = 30;
	cfg->max_output = SQ_MAX_OUTPUT_DEFAULT;
}
