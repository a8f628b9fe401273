/*
 * conf_int.h - helpers shared by the files of the config language
 * (conf.c, conf_cluster.c); not for use outside core/conf/conf*.c.
 */
#ifndef SQ_CONF_INT_H
#define SQ_CONF_INT_H

#include <stddef.h>

struct sq_conf; /* core/conf/conf.h */

/* on/yes/true/1 or off/no/false/0; -1 otherwise */
int sq_conf_parse_bool(const char *v, long *out);
/* a decimal in lo..hi; -1 otherwise */
int sq_conf_parse_long(const char *v, long lo, long hi, long *out);
/* Seconds with an optional suffix s, m, h or d ("5m" is 300), within
 * lo..hi; -1 otherwise. */
int sq_conf_parse_seconds(const char *v, long lo, long hi, long *out);
/* ~/x -> $HOME/x; a relative name is relative to the directory of base */
void sq_conf_expand_path(const char *p, const char *base, char *out, size_t n);
/* cluster NAME key=value... with w[0] the NAME */
int sq_conf_exec_cluster(struct sq_conf *c, char **w, int nw, const char *file,
			 char *why, size_t n);

#endif
