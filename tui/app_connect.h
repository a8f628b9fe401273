/*
 * app_connect.h - the console's cluster and configuration
 * (app_connect.c; UI thread): connect to a cluster (at start and on
 * `:cluster`), apply what a change of the configuration touched.
 */
#ifndef SQ_TUI_APP_CONNECT_H
#define SQ_TUI_APP_CONNECT_H

struct sq_app;
struct sq_cluster_cfg;

/* Start a worker on cfg and leave the old cluster behind (its worker,
 * the action on its way, the live pane, the output pane, the tables'
 * snapshots); 0, or -1 (message shown; the old connection stays). */
int sq_app_connect(struct sq_app *app, const struct sq_cluster_cfg *cfg);
/* Apply what a conf change touched (keys, colours, options). */
void sq_app_conf_changed(struct sq_app *app);

#endif
