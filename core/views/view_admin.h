/*
 * view_admin.h - the view definitions of the admin data (accounts,
 * users, assocs, qos, fairshare, events, gpus*, limits, reservations,
 * diag, config), for the registry in view.c.
 */
#ifndef SQ_VIEW_ADMIN_H
#define SQ_VIEW_ADMIN_H

#include "core/model/view.h"

extern const struct sq_view_def sq_view_accounts;
extern const struct sq_view_def sq_view_users;
extern const struct sq_view_def sq_view_assocs;
extern const struct sq_view_def sq_view_qos;
extern const struct sq_view_def sq_view_fairshare;
extern const struct sq_view_def sq_view_events;
extern const struct sq_view_def sq_view_gpus;
extern const struct sq_view_def sq_view_gpus_partitions;
extern const struct sq_view_def sq_view_gpus_users;
extern const struct sq_view_def sq_view_gpus_accounts;
extern const struct sq_view_def sq_view_gpus_idle;
extern const struct sq_view_def sq_view_limits;
extern const struct sq_view_def sq_view_reservations;
extern const struct sq_view_def sq_view_diag;
extern const struct sq_view_def sq_view_config;
extern const struct sq_view_def sq_view_history;
extern const struct sq_view_def sq_view_history_users;
extern const struct sq_view_def sq_view_history_accounts;
extern const struct sq_view_def sq_view_history_nodes;
extern const struct sq_view_def sq_view_licenses;
extern const struct sq_view_def sq_view_node_events;
extern const struct sq_view_def sq_view_rpc_types;
extern const struct sq_view_def sq_view_rpc_users;
extern const struct sq_view_def sq_view_runaway;
extern const struct sq_view_def sq_view_problems;

#endif
