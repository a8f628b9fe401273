/*
 * view_spec.h - the views of the cluster spec issue: spec (declared
 * against live) and nodesets (nodes grouped by node set). Registered in
 * view.c; rows come from the SPEC and NODESETS kinds (core/spec/spec.h,
 * core/spec/nodeset.h).
 */
#ifndef SQ_VIEW_SPEC_H
#define SQ_VIEW_SPEC_H

#include "core/model/view.h"

extern const struct sq_view_def sq_view_spec;
extern const struct sq_view_def sq_view_nodesets;

#endif
