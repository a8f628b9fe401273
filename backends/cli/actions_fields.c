/*
 * actions_fields.c - where the check after an action finds what it set:
 * the record field of each argument (a limit's column from the one
 * vocabulary, core/action/limit_keys.h) and one TRES out of a list. Split from
 * actions_verify.c.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "backends/cli/actions.h"
#include "core/action/limit_keys.h"
#include "core/base/util.h"

/* The record field that shows an argument of an action. */
const char *
sq_cli_field_of(enum sq_kind kind, const char *key)
{
	static const struct {
		enum sq_kind kind;
		const char *key, *field;
	} map[] = {
		{ SQ_KIND_JOBS, "timelimit", "TimeLimit" },
		{ SQ_KIND_JOBS, "nice", "Nice" },
		{ SQ_KIND_JOBS, "priority", "Priority" },
		{ SQ_KIND_JOBS, "partition", "Partition" },
		{ SQ_KIND_JOBS, "qos", "QOS" },
		{ SQ_KIND_JOBS, "account", "Account" },
		{ SQ_KIND_JOBS, "comment", "Comment" },
		{ SQ_KIND_NODES, "reason", "Reason" },
		{ SQ_KIND_ACCOUNTS, "parent", "ParentName" },
		{ SQ_KIND_ACCOUNTS, "description", "Descr" },
		{ SQ_KIND_ACCOUNTS, "organization", "Org" },
		{ SQ_KIND_ACCOUNTS, "fairshare", "Fairshare" },
		{ SQ_KIND_USERS, "defaultaccount", "DefaultAccount" },
		{ SQ_KIND_USERS, "defaultqos", "DefaultQOS" },
		{ SQ_KIND_USERS, "adminlevel", "Admin" },
		{ SQ_KIND_USERS, "defaultwckey", "DefaultWCKey" },
		{ SQ_KIND_QOS, "description", "Descr" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].kind == kind && strcmp(map[i].key, key) == 0)
			return map[i].field;
	}
	/* a limit: its column in the vocabulary (core/action/limit_keys.h) */
	if (kind == SQ_KIND_ASSOCS || kind == SQ_KIND_QOS)
		return sq_limit_column(key, kind == SQ_KIND_QOS ? SQ_LIM_QOS
								: SQ_LIM_ASSOC);
	return NULL;
}

/* Value of one TRES in a list "cpu=4,gres/gpu=2", into buf; NULL if not
 * there. */
const char *
sq_cli_tres_get(const char *list, const char *name, char *buf, size_t n)
{
	size_t k = strlen(name);
	const char *p = list;

	while (p != NULL && *p != '\0') {
		if (strncasecmp(p, name, k) == 0 && p[k] == '=') {
			size_t l = strcspn(p + k + 1, ",");

			if (l >= n)
				l = n - 1;
			memcpy(buf, p + k + 1, l);
			buf[l] = '\0';
			return buf;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return NULL;
}
