/*
 * cost.c - what one slurmrestd request costs the cluster: the slurmctld
 * RPCs slurmrestd makes for it (as sdiag counts them) and the slurmdbd
 * queries, for the console's queries-per-minute figure. Measured on
 * slurmrestd 22.05.8 with sdiag's per-user counters; a path not listed
 * counts one RPC.
 */
#include <string.h>

#include "backends/rest/rest.h"

/* The endpoint of "/slurm/v0.0.38/nodes?x=1": "nodes". */
static const char *
endpoint(const char *path, size_t *len)
{
	const char *p = path;
	int slashes = 0;

	while (*p != '\0' && slashes < 3) {
		if (*p++ == '/')
			slashes++;
	}
	*len = strcspn(p, "/?");
	return p;
}

void
sq_rest_cost(const char *method, const char *path, unsigned *ctld,
	     unsigned *dbd)
{
	const char *e;
	size_t n;

	(void)method;
	*ctld = *dbd = 0;
	/* API discovery is answered by slurmrestd itself */
	if (strncmp(path, "/openapi", 8) == 0)
		return;
	if (strncmp(path, "/slurmdb/", 9) == 0) {
		*dbd = 1;
		return;
	}
	e = endpoint(path, &n);
	/* REQUEST_NODE_INFO + REQUEST_PARTITION_INFO; ping asks both
	 * controllers' state */
	if ((n == 5 && strncmp(e, "nodes", 5) == 0) ||
	    (n == 4 && strncmp(e, "ping", 4) == 0))
		*ctld = 2;
	else
		*ctld = 1;
}
