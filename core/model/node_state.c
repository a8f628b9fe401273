/*
 * node_state.c - Slurm's base state and flags to the long state sinfo
 * prints (node_state_string(), lowercased by sinfo's StateLong): the same
 * tests in the same order, so the CLI's scontrol and the REST backend's
 * state arrays name a node as `sinfo -N -O StateLong` does.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/model/node_state.h"

static const char *const bases[] = { "unknown", "down",  "idle",   "allocated",
				     "error",   "mixed", "future", NULL };

static const struct {
	const char *name;
	unsigned bit;
} flags[] = {
	{ "DRAIN", SQ_NF_DRAIN },
	{ "COMPLETING", SQ_NF_COMPLETING },
	{ "NOT_RESPONDING", SQ_NF_NO_RESP },
	{ "POWERED_DOWN", SQ_NF_POWERED_DOWN },
	{ "POWERING_DOWN", SQ_NF_POWERING_DOWN },
	{ "POWER_DOWN", SQ_NF_POWER_DOWN },
	{ "POWERING_UP", SQ_NF_POWERING_UP },
	{ "MAINTENANCE", SQ_NF_MAINT },
	{ "REBOOT_REQUESTED", SQ_NF_REBOOT_REQ },
	{ "REBOOT_ISSUED", SQ_NF_REBOOT_ISSUED },
	{ "FAIL", SQ_NF_FAIL },
	{ "PLANNED", SQ_NF_PLANNED },
	{ "INVALID_REG", SQ_NF_INVALID_REG },
	{ "RESERVED", SQ_NF_RESERVED },
	{ "PERFCTRS", SQ_NF_PERFCTRS },
};

void
sq_node_state_init(struct sq_node_state *st)
{
	st->base = -1;
	st->flags = 0;
	st->other = NULL;
	st->planned_mark = 0;
}

static int
word_is(const char *w, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(w, name, n) == 0;
}

void
sq_node_state_word(struct sq_node_state *st, const char *w, size_t n)
{
	size_t i;
	int first = st->base < 0 && st->flags == 0 && st->other == NULL;

	for (i = 0; bases[i] != NULL; i++) {
		if (word_is(w, n, bases[i])) {
			if (st->base < 0)
				st->base = (int)i;
			return;
		}
	}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (word_is(w, n, flags[i].name)) {
			st->flags |= flags[i].bit;
			return;
		}
	}
	if (first)
		st->other = w;
}

void
sq_node_state_parse(struct sq_node_state *st, const char *s)
{
	while (*s != '\0') {
		size_t n = strcspn(s, "+");

		if (n > 0)
			sq_node_state_word(st, s, n);
		s += n;
		if (*s == '+')
			s++;
	}
}

/* The mark after a state for a maintenance, reboot, power or response
 * condition, in node_state_string()'s order. */
static const char *
suffix(unsigned f)
{
	static const struct {
		unsigned bit;
		const char *mark;
	} marks[] = {
		{ SQ_NF_MAINT, "$" },         { SQ_NF_REBOOT_ISSUED, "^" },
		{ SQ_NF_REBOOT_REQ, "@" },    { SQ_NF_POWERING_UP, "#" },
		{ SQ_NF_POWERING_DOWN, "%" }, { SQ_NF_POWERED_DOWN, "~" },
		{ SQ_NF_POWER_DOWN, "!" },    { SQ_NF_NO_RESP, "*" },
	};
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		if (f & marks[i].bit)
			return marks[i].mark;
	}
	return "";
}

/* The states decided by a flag before the base: maintenance, reboot,
 * drain, fail. NULL when the base decides. */
static const char *
by_flag(int base, unsigned f, const char **mark)
{
	int busy = base == SQ_NB_ALLOCATED || base == SQ_NB_MIXED;
	int resp = (f & SQ_NF_NO_RESP) != 0;

	*mark = "";
	if (f & SQ_NF_INVALID_REG)
		return "inval";
	if ((f & SQ_NF_MAINT) && !(f & SQ_NF_DRAIN) && !busy &&
	    base != SQ_NB_DOWN) {
		*mark = resp ? "*" : "";
		return "maint";
	}
	if ((f & (SQ_NF_REBOOT_REQ | SQ_NF_REBOOT_ISSUED)) && !busy) {
		*mark = (f & SQ_NF_REBOOT_ISSUED) ? "^" : resp ? "*" : "";
		return "reboot";
	}
	if (f & SQ_NF_DRAIN) {
		*mark = suffix(f);
		return (f & SQ_NF_COMPLETING) || busy ? "draining" : "drained";
	}
	if (f & SQ_NF_FAIL) {
		*mark = resp ? "*" : "";
		return (f & SQ_NF_COMPLETING) || base == SQ_NB_ALLOCATED
			   ? "failing"
			   : "fail";
	}
	return NULL;
}

static void
lower(char *q)
{
	for (; *q != '\0'; q++)
		*q = (char)tolower((unsigned char)*q);
}

void
sq_node_state_long(const struct sq_node_state *st, char *buf, size_t n)
{
	unsigned f = st->flags;
	const char *word, *mark;

	word = by_flag(st->base, f, &mark);
	if (word == NULL) {
		mark = suffix(f);
		if (st->base == SQ_NB_ALLOCATED && *mark == '\0' &&
		    (f & SQ_NF_COMPLETING))
			mark = "+";
		if (st->base == SQ_NB_ALLOCATED || st->base == SQ_NB_DOWN)
			word = bases[st->base];
		else if (f & SQ_NF_COMPLETING)
			word = "completing";
		else if (st->base == SQ_NB_IDLE && *mark == '\0' &&
			 (f &
			  (SQ_NF_PERFCTRS | SQ_NF_RESERVED | SQ_NF_PLANNED)))
			word = (f & SQ_NF_PERFCTRS)   ? "perfctrs"
			       : (f & SQ_NF_RESERVED) ? "reserved"
						      : "planned";
		else if (st->base == SQ_NB_MIXED && *mark == '\0' &&
			 (f & SQ_NF_PLANNED) && st->planned_mark)
			mark = "-";
		if (word != NULL)
			;
		else if (st->base >= 0 && st->base != SQ_NB_ERROR)
			word = bases[st->base];
		else if (st->other != NULL) {
			/* a state this table does not know, as given */
			size_t l = strcspn(st->other, "+");

			snprintf(buf, n, "%.*s", (int)l, st->other);
			lower(buf);
			return;
		} else
			word = st->base == SQ_NB_ERROR ? "error" : "unknown";
		if (st->base == SQ_NB_UNKNOWN || st->base < 0)
			mark = (f & SQ_NF_NO_RESP) ? "*" : "";
	}
	snprintf(buf, n, "%s%s", word, mark);
}

int
sq_node_state_cpus_other(const struct sq_node_state *st)
{
	return (st->flags & SQ_NF_DRAIN) || st->base == SQ_NB_DOWN;
}
