/*
 * view_config.c - the running configuration (scontrol show config) as
 * key/value rows. The topic column groups what admins look for:
 * priority (weights, decay), preempt, prolog (Prolog/Epilog and
 * friends), accounting (AccountingStorage*, enforce), scheduler, logs.
 */
#include <stdlib.h>
#include <string.h>

#include "core/views/view_admin.h"
#include "core/views/view_admin_cols.h"

#define K struct sq_kv

SQ_STR_FIELD(c_section, K, r->section)
SQ_STR_FIELD(c_key, K, r->key)

/* A moment the controller prints as epoch seconds (BOOT_TIME, with the
 * CLI's SLURM_TIME_FORMAT=%s) shown as a time: a key naming a time and a
 * value of ten digits. */
static const char *
c_value(const void *rec, char *buf, size_t n)
{
	const K *r = rec;
	size_t i;

	if (strstr(r->key, "TIME") == NULL && strstr(r->key, "Time") == NULL)
		return sq_col_str(r->value);
	for (i = 0; r->value[i] >= '0' && r->value[i] <= '9'; i++)
		;
	if (i == 10 && r->value[i] == '\0')
		return sq_col_time(strtoll(r->value, NULL, 10), buf, n);
	return sq_col_str(r->value);
}

static int
has(const char *s, const char *w)
{
	return strstr(s, w) != NULL;
}

static const char *
c_topic(const void *rec, char *buf, size_t n)
{
	const char *k = ((const K *)rec)->key;

	(void)buf;
	(void)n;
	if (strncmp(k, "Priority", 8) == 0)
		return "priority";
	if (strncmp(k, "Preempt", 7) == 0)
		return "preempt";
	if (has(k, "Prolog") || has(k, "Epilog"))
		return "prolog";
	if (strncmp(k, "AccountingStorage", 17) == 0 ||
	    strncmp(k, "JobAcct", 7) == 0 || strncmp(k, "AcctGather", 10) == 0)
		return "accounting";
	if (strncmp(k, "Sched", 5) == 0 || strncmp(k, "Select", 6) == 0)
		return "scheduler";
	if (has(k, "LogFile") || has(k, "Debug"))
		return "logs";
	if (strcmp(k, "ConfigTime") == 0)
		return NULL;
	if (has(k, "Timeout") || has(k, "Time") || strcmp(k, "MinJobAge") == 0)
		return "timers";
	return NULL;
}

static const struct sq_column cols[] = {
	{ "key", "KEY", "setting", 28, SQ_LEFT, c_key, NULL, 0 },
	{ "value", "VALUE", "value as the controller runs it", 40, SQ_LEFT,
	  c_value, NULL, 0 },
	{ "topic", "TOPIC",
	  "priority, preempt, prolog, accounting, scheduler, "
	  "logs, timers",
	  10, SQ_LEFT, c_topic, NULL, 0 },
	{ "section", "SECTION", "plugin block, or status for controllers", 10,
	  SQ_LEFT, c_section, NULL, 0 },
};

static const char *const aliases[] = { "conf", "slurm.conf", NULL };

const struct sq_view_def sq_view_config = {
	.name = "config",
	.aliases = aliases,
	.help = "the running configuration (scontrol show config)",
	.kind = SQ_KIND_CONFIG,
	.cols = cols,
	.ncols = SQ_COLS(cols),
	.default_sort = "key",
};
