/*
 * spec_load.h - reading a cluster spec file (JSON, with json-c) into
 * struct sq_spec, and building the SPEC and NODESETS snapshots of a
 * cluster from it. It may use json-c and the backends; core/ stays
 * pure. The live side (sq_spec_build) is spec_live.h.
 */
#ifndef SQ_SPEC_LOAD_H
#define SQ_SPEC_LOAD_H

#include <stddef.h>

#include "backends/backend.h"
#include "core/base/err.h"
#include "core/spec/spec.h"

/* Largest spec file read (bytes). */
#define SQ_SPEC_MAX_BYTES (16u << 20)

/*
 * Parse a spec held in text (len bytes; need not be NUL-terminated):
 * a cluster spec (the whole document with orchestratorSpec.slurmSpec, or
 * the slurmSpec object; snake_case or camelCase names), or the Slinky
 * operator's resources as `kubectl get ... -o json` prints them (kind
 * List with items[], or one resource). name is the file name used in
 * messages. spec must be sq_spec_init()ed; on -1 err says
 * "NAME: JSON.PATH: what is wrong" (code SQ_ERR_USAGE) and spec holds
 * whatever was read before the error (free it either way).
 */
int sq_spec_parse(const char *text, size_t len, const char *name,
		  struct sq_spec *spec, struct sq_err *err);

/* Read and parse the file at path (see sq_spec_parse). */
int sq_spec_load(const char *path, struct sq_spec *spec, struct sq_err *err);

#endif
