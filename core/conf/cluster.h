/*
 * cluster.h - how to reach one cluster: the settings of a `cluster` line
 * in the config file or of the command line. Plain data; no I/O here.
 */
#ifndef SQ_CLUSTER_H
#define SQ_CLUSTER_H

struct sq_cluster_cfg {
	char name[64];
	char backend[16];     /* local, ssh, rest, replay */
	char host[256];       /* ssh */
	int port;             /* ssh port (0: default) */
	char user[64];        /* ssh or rest user name */
	char url[512];        /* rest */
	char token_file[512]; /* rest */
	char ca_file[512];    /* rest: CA bundle for https, "": the system's */
	char replay_dir[512]; /* replay */
	char record_dir[512]; /* --record: keep raw outputs here */
	char slurm_bindir[256]; /* absolute path of the Slurm binaries, or "" */
	char spec[512];         /* cluster spec file (spec view) */
	/* history window (core/analysis/history.h); "": 24h */
	char history_since[64];
	char identity[512];    /* ssh: extra private key file, or "" */
	char known_hosts[512]; /* ssh: user known_hosts file, or "" */
	char ssh_config[512];  /* ssh: config file instead of ~/.ssh/config */
	/* what-if weights (core/analysis/whatif.h), "spec" or "" */
	char weights[512];
	int readonly;
	int refresh;             /* seconds between queue refreshes */
	int timeout;             /* seconds per command or request */
	int max_output;          /* MiB one command may print (max-output) */
	int accept_new_host_key; /* ssh: batch-mode consent */
	int insecure_http;       /* rest: allow http:// off loopback */
};

/* What one command may print by default, MiB (`set max-output`). */
#define SQ_MAX_OUTPUT_DEFAULT 4096

/* Defaults: backend local, refresh 10 s, timeout 30 s, max-output. */
void sq_cluster_defaults(struct sq_cluster_cfg *cfg);

#endif
