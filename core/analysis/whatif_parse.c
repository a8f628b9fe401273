/*
 * whatif_parse.c - the weights of a priority what-if: KEY=VALUE text as
 * slurm.conf spells it (PriorityWeightFairshare=2000 ...), a TRES weight
 * or factor list (CPU=100,Mem=10,GRES/gpu=500), and sprio -w's line.
 * Pure parsing; no I/O.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/parse.h"
#include "core/analysis/whatif.h"

static const char *const keys[SQ_WF_COUNT] = {
	"PriorityWeightAge",     "PriorityWeightFairshare",
	"PriorityWeightJobSize", "PriorityWeightPartition",
	"PriorityWeightQOS",     "PriorityWeightAssoc",
};

static const char *const names[SQ_WF_COUNT] = {
	"age", "fairshare", "jobsize", "partition", "qos", "assoc",
};

/* slurm.conf keys of multifactor that change the factors themselves (or
 * nothing a what-if can see): accepted, named as not modelled */
static const char *const other_keys[] = {
	"PriorityFlags",
	"PriorityFavorSmall",
	"PriorityDecayHalfLife",
	"PriorityCalcPeriod",
	"PriorityUsageResetPeriod",
	"PriorityType",
	"PriorityParameters",
	"PrioritySiteFactorPlugin",
	"PrioritySiteFactorParameters",
	NULL,
};

const char *
sq_whatif_factor_name(enum sq_wf f)
{
	return f < SQ_WF_COUNT ? names[f] : "tres";
}

const char *
sq_whatif_factor_key(enum sq_wf f)
{
	return f < SQ_WF_COUNT ? keys[f] : "PriorityWeightTRES";
}

void
sq_whatif_weights_init(struct sq_whatif_weights *w)
{
	memset(w, 0, sizeof(*w));
	w->max_age = SQ_NONE;
}

/* A finite, non-negative number that fills the whole string. */
static int
number(const char *s, double *v)
{
	char *end;

	if (*s == '\0' || isspace((unsigned char)*s))
		return -1;
	*v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(*v) || *v < 0 || *v > 1e12)
		return -1;
	return 0;
}

int
sq_whatif_tres_parse(const char *text, struct sq_whatif_tres *t, size_t max,
		     size_t *n)
{
	const char *p = text;

	*n = 0;
	while (*p != '\0') {
		const char *e = p + strcspn(p, ",");
		const char *eq = memchr(p, '=', (size_t)(e - p));
		char num[64];
		size_t kl, i;

		if (e == p) {
			p++;
			continue;
		}
		if (eq == NULL || eq == p || (size_t)(e - eq) >= sizeof(num) ||
		    *n >= max)
			return -1;
		kl = (size_t)(eq - p);
		if (kl >= sizeof(t[0].name))
			return -1;
		for (i = 0; i < kl; i++)
			t[*n].name[i] = (char)tolower((unsigned char)p[i]);
		t[*n].name[kl] = '\0';
		memcpy(num, eq + 1, (size_t)(e - eq - 1));
		num[e - eq - 1] = '\0';
		if (number(num, &t[*n].v) == -1)
			return -1;
		(*n)++;
		p = *e ? e + 1 : e;
	}
	return 0;
}

static void
add_ignored(struct sq_whatif_weights *w, const char *key)
{
	size_t l = strlen(w->ignored);

	if (strstr(w->ignored, key) != NULL)
		return;
	snprintf(w->ignored + l, sizeof(w->ignored) - l, "%s%s", l ? ", " : "",
		 key);
}

/* One KEY=VALUE; tres collects the TRES pairs that follow it. */
static int
one(struct sq_whatif_weights *w, char *tok, char *tres, size_t tn, int *in_tres,
    struct sq_err *err)
{
	char *eq = strchr(tok, '=');
	int i;
	double v;

	if (eq == NULL)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "weights: '%s' is not KEY=VALUE", tok);
	*eq = '\0';
	if (strncasecmp(tok, "Priority", 8) != 0 && *in_tres) {
		size_t l = strlen(tres);

		*eq = '=';
		if (l + strlen(tok) + 2 > tn)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "weights: PriorityWeightTRES is "
					  "too long");
		snprintf(tres + l, tn - l, "%s%s", l ? "," : "", tok);
		return 0;
	}
	*in_tres = 0;
	for (i = 0; i < SQ_WF_COUNT; i++) {
		if (strcasecmp(tok, keys[i]) != 0)
			continue;
		if (number(eq + 1, &v) == -1 || v != floor(v) ||
		    v > 4294967295.0)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "weights: %s wants a whole number "
					  "from 0 to 4294967295, not '%s'",
					  keys[i], eq + 1);
		w->w[i] = v;
		w->set |= 1u << i;
		return 0;
	}
	if (strcasecmp(tok, "PriorityWeightTRES") == 0) {
		*in_tres = 1;
		w->tres_set = 1;
		snprintf(tres, tn, "%s", eq + 1);
		return 0;
	}
	if (strcasecmp(tok, "PriorityMaxAge") == 0) {
		int64_t secs;

		if (sq_parse_duration(eq + 1, &secs) == -1 || secs <= 0)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "weights: PriorityMaxAge wants a "
					  "Slurm time (minutes or "
					  "[D-]HH:MM:SS), not '%s'",
					  eq + 1);
		w->max_age = secs;
		return 0;
	}
	for (i = 0; other_keys[i] != NULL; i++) {
		if (strcasecmp(tok, other_keys[i]) == 0) {
			add_ignored(w, other_keys[i]);
			return 0;
		}
	}
	return sq_err_set(err, SQ_ERR_USAGE,
			  "weights: unknown key '%s' (PriorityWeightAge, "
			  "...Fairshare, ...JobSize, ...Partition, ...QOS, "
			  "...Assoc, ...TRES, PriorityMaxAge)",
			  tok);
}

int
sq_whatif_parse(const char *text, struct sq_whatif_weights *w,
		struct sq_err *err)
{
	char buf[1024], tres[512] = "", *p, *tok, *save = NULL;
	int in_tres = 0;

	sq_whatif_weights_init(w);
	if (text == NULL || strlen(text) >= sizeof(buf))
		return sq_err_set(err, SQ_ERR_USAGE,
				  "weights: missing or too long");
	snprintf(buf, sizeof(buf), "%s", text);
	for (p = buf; (tok = strtok_r(p, ", \t\n", &save)) != NULL; p = NULL) {
		if (one(w, tok, tres, sizeof(tres), &in_tres, err) == -1)
			return -1;
	}
	if (w->tres_set &&
	    sq_whatif_tres_parse(tres, w->tres, SQ_WHATIF_MAX_TRES,
				 &w->ntres) == -1)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "weights: PriorityWeightTRES wants "
				  "TYPE=NUMBER pairs (CPU=100,Mem=10,"
				  "GRES/gpu=500), not '%s'",
				  tres);
	return 0;
}

void
sq_whatif_weights_from_sprio(const struct sq_prio_weights *pw,
			     struct sq_whatif_weights *w)
{
	sq_whatif_weights_init(w);
	w->w[SQ_WF_AGE] = (double)pw->age;
	w->w[SQ_WF_FAIRSHARE] = (double)pw->fairshare;
	w->w[SQ_WF_JOBSIZE] = (double)pw->jobsize;
	w->w[SQ_WF_PARTITION] = (double)pw->partition;
	w->w[SQ_WF_QOS] = (double)pw->qos;
	w->w[SQ_WF_ASSOC] = (double)pw->assoc;
	w->set = (1u << SQ_WF_COUNT) - 1;
	if (pw->tres != NULL &&
	    sq_whatif_tres_parse(pw->tres, w->tres, SQ_WHATIF_MAX_TRES,
				 &w->ntres) == -1)
		w->ntres = 0;
	w->tres_set = 1;
}
