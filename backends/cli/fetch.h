/*
 * fetch.h - what the CLI backends fetch: the capabilities of the
 * detected Slurm version, one kind's fetch (one or more commands,
 * parsed), and the backend ops made of them (fetch.c).
 */
#ifndef SQ_CLI_FETCH_H
#define SQ_CLI_FETCH_H

#include "core/base/err.h"
#include "core/model/model.h"
#include "core/model/snapshot.h"

struct sq_backend;
struct sq_cli;

/* Capabilities of the CLI backends for the detected version. */
unsigned sq_cli_caps(const struct sq_cli *cli);

/* Fetch one kind (runs one or more commands, parses): its row of the
 * CLI's fetch table (sq_cli_fetch_read, cli_admin.c). */
int sq_cli_fetch(struct sq_cli *cli, enum sq_kind kind,
		 struct sq_snapshot **out, struct sq_err *err);

/* Ops shared by every backend made of the CLI layer (b->priv is a
 * struct sq_cli): caps and fetch. */
unsigned sq_cli_backend_caps(struct sq_backend *b);
int sq_cli_backend_fetch(struct sq_backend *b, enum sq_kind kind,
			 struct sq_snapshot **out, struct sq_err *err);

#endif
