/*
 * submit.h - `:submit` over slurmrestd (submit.c): the JSON body of POST
 * /slurm/vX/job/submit from a parsed submit action, the preview with the
 * script abbreviated, and act() with the new job read back. Private to
 * backends/rest/.
 */
#ifndef SQ_REST_SUBMIT_H
#define SQ_REST_SUBMIT_H

#include "backends/backend.h"
#include "core/action/action.h"
#include "core/base/err.h"

/*
 * The body for API version v (38: environment as an object; 40+: "K=V"
 * strings, *_no_val numbers) for user (whose home is the default working
 * directory when this host knows it). abbreviate: the script replaced by
 * its path, size, SHA-256 and first line. malloc'd, or NULL with err
 * (SQ_ERR_UNSUPPORTED names an option REST cannot express).
 */
char *sq_rest_submit_body(const struct sq_action *a, int v, const char *user,
			  int abbreviate, struct sq_err *err);
int sq_rest_submit_describe(struct sq_backend *b, const struct sq_action *a,
			    char *buf, size_t len);
int sq_rest_submit_act(struct sq_backend *b, const struct sq_action *a,
		       struct sq_result *res, struct sq_err *err);

#endif
