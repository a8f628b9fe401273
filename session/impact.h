/*
 * impact.h - what a node action will hit, read on the worker thread (or
 * in batch mode) with the backend: the queue and the reservations are
 * fetched, then core/action/impact.c formats them. Used by the preview (TUI and
 * --exec) and by the audit intent line.
 */
#ifndef SQ_SESSION_IMPACT_H
#define SQ_SESSION_IMPACT_H

#include <stddef.h>

#include "backends/backend.h"
#include "core/action/action.h"
#include "core/base/buf.h"

/*
 * For a node drain, down or reboot: the preview lines appended to text
 * (may be NULL) and the audit summary into summary. Returns the number
 * of running jobs on the targets, or -1 when a is another action.
 */
int sq_impact_fetch(struct sq_backend *b, const struct sq_action *a,
		    struct sq_buf *text, char *summary, size_t n);

#endif
