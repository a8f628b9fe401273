/*
 * limit_keys.c - the vocabulary of limit keys (limit_keys.h): the table
 * made from the rows of SQ_LIMITS_*, the aliases, the lookups and the
 * error that lists the keys accepted.
 */
#include <stdio.h>
#include <string.h>

#include "core/action/limit_keys.h"

#define CLR 1
#define TYPE_NUMBER "count"
#define TYPE_DURATION "time"
#define TYPE_SECONDS "seconds"
#define TYPE_TRES "tres"
#define TYPE_NAMELIST "names"
#define TYPE_ENUM "choice"
#define TYPE_DECIMAL "factor"
#define TYPE_FAIRSHARE "shares"
#define TYPE_NAME "name"
#define ROW(k, t, f, wa, wq, ca, cq, rest, ch, h, scope)                       \
	{ k, TYPE_##t, f, scope, wa, wq, ca, cq, rest, ch, h },
#define ROW_BOTH(k, t, f, wa, wq, ca, cq, rest, ch, h)                         \
	ROW(k, t, f, wa, wq, ca, cq, rest, ch, h, SQ_LIM_ASSOC | SQ_LIM_QOS)
#define ROW_ASSOC(k, t, f, wa, wq, ca, cq, rest, ch, h)                        \
	ROW(k, t, f, wa, wq, ca, cq, rest, ch, h, SQ_LIM_ASSOC)
#define ROW_QOS(k, t, f, wa, wq, ca, cq, rest, ch, h)                          \
	ROW(k, t, f, wa, wq, ca, cq, rest, ch, h, SQ_LIM_QOS)

static const struct sq_limit_key keys[] = { SQ_LIMITS_BOTH(
    ROW_BOTH) SQ_LIMITS_ASSOC(ROW_ASSOC) SQ_LIMITS_QOS(ROW_QOS) };

/* Other spellings: sacctmgr's words and squall's older keys. A QOS has
 * no MaxJobs of its own: sacctmgr reads maxjobs= on a QOS as
 * MaxJobsPerUser, and so does squall (the preview shows the word). */
static const struct {
	const char *alias, *key;
	unsigned scope;
} aliases[] = {
	{ "grpsubmitjobs", "grpsubmit", SQ_LIM_ASSOC | SQ_LIM_QOS },
	{ "maxtresperjob", "maxtres", SQ_LIM_ASSOC | SQ_LIM_QOS },
	{ "maxtrespj", "maxtres", SQ_LIM_ASSOC | SQ_LIM_QOS },
	{ "maxwalldurationperjob", "maxwall", SQ_LIM_ASSOC | SQ_LIM_QOS },
	{ "maxsubmitjobs", "maxsubmit", SQ_LIM_ASSOC },
	{ "maxjobs", "maxjobspu", SQ_LIM_QOS },
	{ "maxsubmit", "maxsubmitpu", SQ_LIM_QOS },
	{ "maxsubmitjobs", "maxsubmitpu", SQ_LIM_QOS },
	{ "maxjobsperuser", "maxjobspu", SQ_LIM_QOS },
	{ "maxsubmitperuser", "maxsubmitpu", SQ_LIM_QOS },
	{ "maxsubmitjobsperuser", "maxsubmitpu", SQ_LIM_QOS },
	{ "maxtresperuser", "maxtrespu", SQ_LIM_QOS },
	{ "maxjobsperaccount", "maxjobspa", SQ_LIM_QOS },
	{ "maxsubmitperaccount", "maxsubmitpa", SQ_LIM_QOS },
	{ "maxsubmitjobsperaccount", "maxsubmitpa", SQ_LIM_QOS },
	{ "maxtresperaccount", "maxtrespa", SQ_LIM_QOS },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))
#define NALIASES (sizeof(aliases) / sizeof(aliases[0]))

const struct sq_limit_key *
sq_limit_keys(size_t *n)
{
	*n = NKEYS;
	return keys;
}

const char *
sq_limit_alias(const char *name, unsigned scope)
{
	size_t i;

	for (i = 0; name != NULL && i < NALIASES; i++) {
		if ((aliases[i].scope & scope) &&
		    strcmp(aliases[i].alias, name) == 0)
			return aliases[i].key;
	}
	return NULL;
}

const struct sq_limit_key *
sq_limit_find(const char *name, unsigned scope)
{
	const char *canon = sq_limit_alias(name, scope);
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < NKEYS; i++) {
		if ((keys[i].scope & scope) &&
		    strcmp(keys[i].key, canon ? canon : name) == 0)
			return &keys[i];
	}
	return NULL;
}

void
sq_limit_list(unsigned scope, char *buf, size_t n)
{
	size_t i, off = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < NKEYS; i++) {
		int w;

		if (!(keys[i].scope & scope))
			continue;
		w = snprintf(buf + off, n - off, "%s%s", off ? " " : "",
			     keys[i].key);
		if (w < 0 || (size_t)w >= n - off)
			return;
		off += (size_t)w;
	}
}

const char *
sq_limit_column(const char *key, unsigned scope)
{
	const struct sq_limit_key *k = sq_limit_find(key, scope);

	if (k == NULL)
		return NULL;
	return scope == SQ_LIM_QOS ? k->col_qos : k->col_assoc;
}

int
sq_limit_unknown(struct sq_err *err, const char *verb, const char *key,
		 unsigned scope)
{
	unsigned other = scope == SQ_LIM_QOS ? SQ_LIM_ASSOC : SQ_LIM_QOS;
	char list[512];

	sq_limit_list(scope, list, sizeof(list));
	if (sq_limit_find(key, other) != NULL)
		return sq_err_set(
		    err, SQ_ERR_USAGE,
		    "%s takes no %.40s= (%s limit, not %s); it "
		    "takes: %s",
		    verb, key, other == SQ_LIM_QOS ? "a QOS" : "an association",
		    scope == SQ_LIM_QOS ? "a QOS one" : "an association one",
		    list);
	return sq_err_set(err, SQ_ERR_USAGE, "%s takes no %.40s=; it takes: %s",
			  verb, key, list);
}
