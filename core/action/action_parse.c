/*
 * action_parse.c - the command grammar shared by the TUI's `:` prompt and
 * `squall --exec`: "VERB [WORD | KEY=VALUE]...", and writing an action
 * back in that grammar (for the audit log and :undo). Parsing only splits
 * words; every value is then validated by core/action/action_build.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/action/action.h"
#include "core/action/reason.h"
#include "core/action/submit.h"
#include "core/base/validate.h"

#define MAX_WORDS 4200
#define MAX_LINE 65536

struct word {
	char *key;   /* NULL for a bare word */
	char *value; /* the word, or the value of key */
};

static int
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Length of "key" when p starts with key=, key being [a-z_]+; else 0. */
static size_t
key_len(const char *p)
{
	size_t n = 0;

	while (isalpha((unsigned char)p[n]) || p[n] == '_')
		n++;
	return (n > 0 && p[n] == '=') ? n : 0;
}

static int
known_key(const struct sq_action_def *d, const char *p, size_t n)
{
	size_t i;
	char k[64];

	if (n >= sizeof(k))
		return 0;
	for (i = 0; i < n; i++)
		k[i] = (char)tolower((unsigned char)p[i]);
	k[n] = '\0';
	if (d->kind == SQ_KIND_ASSOCS &&
	    (strcmp(k, "account") == 0 || strcmp(k, "user") == 0 ||
	     strcmp(k, "partition") == 0))
		return 1;
	return sq_action_arg_spec(d, k) != NULL;
}

/* Read a quoted value starting at *pp (on the quote); NUL-terminates. */
static char *
read_quoted(char **pp, struct sq_err *err)
{
	char *p = *pp, q = *p, *start = p + 1, *end = strchr(start, q);

	if (end == NULL) {
		sq_err_set(err, SQ_ERR_USAGE, "unterminated %c quote", q);
		return NULL;
	}
	if (end[1] != '\0' && !is_space(end[1])) {
		sq_err_set(err, SQ_ERR_USAGE, "text after a closing quote");
		return NULL;
	}
	*end = '\0';
	*pp = end[1] ? end + 2 : end + 1;
	return start;
}

/*
 * Split s (modified in place) into words. A TEXT value without quotes
 * runs to the next known key= (or the end), so `reason=disk full` works.
 * d may be NULL (then no value runs past a space).
 */
static int
split_words(char *s, const struct sq_action_def *d, struct word *w, size_t *nw,
	    struct sq_err *err)
{
	char *p = s;

	*nw = 0;
	for (;;) {
		size_t kn;

		while (is_space(*p))
			p++;
		if (*p == '\0')
			break;
		if (*nw >= MAX_WORDS)
			return sq_err_set(err, SQ_ERR_USAGE, "too many words");
		w[*nw].key = NULL;
		kn = key_len(p);
		if (kn > 0) {
			const struct sq_arg_spec *sp;
			size_t i;

			w[*nw].key = p;
			p[kn] = '\0';
			for (i = 0; i < kn; i++)
				p[i] = (char)tolower((unsigned char)p[i]);
			p += kn + 1;
			sp = d ? sq_action_arg_spec(d, w[*nw].key) : NULL;
			if (*p == '"' || *p == '\'') {
				if ((w[*nw].value = read_quoted(&p, err)) ==
				    NULL)
					return -1;
			} else if (sp != NULL && sp->type == SQ_ARG_TEXT) {
				char *q = p, *next = NULL, *e;

				/* up to the next " key=" this action knows */
				for (;;) {
					char *t = strpbrk(q, " \t");

					if (t == NULL)
						break;
					while (is_space(*t))
						t++;
					if (*t == '\0')
						break;
					if (known_key(d, t, key_len(t))) {
						next = t;
						break;
					}
					q = t;
				}
				w[*nw].value = p;
				p = next ? next : p + strlen(p);
				e = p;
				while (e > w[*nw].value && is_space(e[-1]))
					e--;
				*e = '\0';
			} else {
				w[*nw].value = p;
				p += strcspn(p, " \t");
				if (*p != '\0')
					*p++ = '\0';
			}
		} else if (*p == '"' || *p == '\'') {
			if ((w[*nw].value = read_quoted(&p, err)) == NULL)
				return -1;
		} else {
			w[*nw].value = p;
			p += strcspn(p, " \t");
			if (*p != '\0')
				*p++ = '\0';
		}
		(*nw)++;
	}
	return 0;
}

static const struct sq_arg_spec *
rest_spec(const struct sq_action_def *d)
{
	size_t i;

	for (i = 0; i < d->nargs; i++) {
		if (d->args[i].flags & SQ_ARGF_REST)
			return &d->args[i];
	}
	return NULL;
}

/* Pick the action for verb; an ambiguous verb without a view kind is
 * decided by the shape of the bare words (job ids or not). */
static const struct sq_action_def *
pick_def(const char *verb, int view_kind, char *rest, struct sq_err *err)
{
	const struct sq_action_def *d = sq_action_find(verb, view_kind), *o;
	char copy[512], *tok, *save = NULL;
	int all_jobs = 1, any = 0, i;

	if (d == NULL) {
		if (view_kind >= 0 && sq_action_find(verb, -1) != NULL)
			sq_err_set(err, SQ_ERR_USAGE,
				   "%.40s does not apply to the %s view", verb,
				   sq_kind_name((enum sq_kind)view_kind));
		else
			sq_err_set(err, SQ_ERR_USAGE, "unknown action '%.40s'",
				   verb);
		return NULL;
	}
	if (view_kind >= 0)
		return d;
	/* another action of the same name in another view? */
	o = NULL;
	for (i = 0; i < SQ_ACTION_COUNT; i++) {
		const struct sq_action_def *x = sq_action_def(i);

		if (x != d && strcmp(x->name, verb) == 0)
			o = x;
	}
	if (o == NULL && strcmp(d->name, verb) == 0)
		return d; /* an action's own name beats another's alias */
	if (o == NULL) {
		/* aliases like "delete" name one action per view */
		int k, n = 0;

		for (k = 0; k < SQ_KIND_COUNT; k++) {
			if (sq_action_find(verb, k) != NULL)
				n++;
		}
		if (n > 1) {
			sq_err_set(err, SQ_ERR_USAGE,
				   "'%.40s' is ambiguous here; name the "
				   "action (e.g. delaccount, deluser)",
				   verb);
			return NULL;
		}
		return d;
	}
	snprintf(copy, sizeof(copy), "%s", rest);
	for (tok = strtok_r(copy, " \t", &save); tok != NULL;
	     tok = strtok_r(NULL, " \t", &save)) {
		char id[64];

		if (strchr(tok, '=') != NULL)
			continue;
		any = 1;
		if (sq_valid_jobid(tok, id, sizeof(id), NULL) == -1)
			all_jobs = 0;
	}
	if (any && all_jobs)
		return d->kind == SQ_KIND_JOBS ? d : o;
	return d->kind == SQ_KIND_JOBS ? o : d;
}

/* Is key the reason of the action (where @NAME is a template)? */
static int
is_reason(const struct sq_action *a, const char *key)
{
	const struct sq_arg_spec *sp = sq_action_arg_spec(a->def, key);

	return sp != NULL && strcmp(sp->key, "reason") == 0;
}

/* sq_action_set_arg() with a reason's @NAME expanded. */
static int
set_value(struct sq_action *a, const char *key, const char *value,
	  const struct sq_reasons *reasons, struct sq_err *err)
{
	if (value != NULL && is_reason(a, key) &&
	    (value = sq_reasons_expand(reasons, value, err)) == NULL)
		return -1;
	return sq_action_set_arg(a, key, value, err);
}

static int
join_rest(struct sq_action *a, const struct sq_arg_spec *rs, struct word *w,
	  size_t nw, const struct sq_reasons *reasons, struct sq_err *err)
{
	struct sq_buf b;
	size_t i;
	int first = 1, rc;
	char sep = (rs->type == SQ_ARG_TEXT) ? ' ' : ',';

	sq_buf_init(&b, 8192);
	for (i = 0; i < nw; i++) {
		if (w[i].key != NULL || w[i].value == NULL)
			continue;
		if (!first)
			sq_buf_append(&b, &sep, 1);
		sq_buf_append(&b, w[i].value, strlen(w[i].value));
		w[i].value = NULL;
		first = 0;
	}
	rc = first ? 0 : set_value(a, rs->key, sq_buf_str(&b), reasons, err);
	sq_buf_free(&b);
	return rc;
}

static int
assoc_targets(struct sq_action *a, const char *account, const char *users,
	      const char *partition, struct word *w, size_t nw,
	      struct sq_err *err)
{
	char t[400];
	size_t i;
	int n = 0;

	if (partition != NULL && account == NULL)
		return sq_err_set(err, SQ_ERR_USAGE,
				  "partition= needs account= and user=");
	for (i = 0; i < nw; i++) {
		const char *v = w[i].value;

		if (w[i].key != NULL || v == NULL)
			continue;
		if (strchr(v, '/') != NULL || account == NULL) {
			/* ACCOUNT[/USER[/PARTITION]] */
			if (sq_action_add_target(a, v, err) == -1)
				return -1;
		} else {
			snprintf(t, sizeof(t), "%s/%s%s%s", account, v,
				 partition ? "/" : "",
				 partition ? partition : "");
			if (sq_action_add_target(a, t, err) == -1)
				return -1;
		}
		n++;
	}
	if (users != NULL) {
		char list[1100], *tok, *save = NULL;

		if (account == NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "user= needs account=");
		snprintf(list, sizeof(list), "%s", users);
		for (tok = strtok_r(list, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			snprintf(t, sizeof(t), "%s/%s%s%s", account, tok,
				 partition ? "/" : "",
				 partition ? partition : "");
			if (sq_action_add_target(a, t, err) == -1)
				return -1;
			n++;
		}
	}
	if (n == 0 && account != NULL) {
		if (partition != NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "partition= needs user=");
		if (sq_action_add_target(a, account, err) == -1)
			return -1;
	}
	return 0;
}

/* A name clearlimit takes (a limit of setlimit that -1 clears). */
static int
limit_word(const char *v)
{
	const struct sq_arg_spec *sp =
	    sq_action_arg_spec(sq_action_def(SQ_ACTION_ACCT_SET_LIMIT), v);

	return sp != NULL && (sp->flags & SQ_ARGF_CLEAR);
}

static char aside[] = "";

int
sq_action_parse(const char *line, int view_kind, const char *const *targets,
		size_t ntargets, struct sq_action *a, struct sq_err *err)
{
	return sq_action_parse_with(line, view_kind, targets, ntargets, NULL, a,
				    err);
}

/* The words of one command line, as the phases below consume them. */
struct parsed {
	const struct sq_action_def *d;
	const struct sq_arg_spec *rs; /* the argument bare words fill */
	const struct sq_reasons *reasons;
	struct word *w;
	size_t nw;
	int ext; /* the targets are the selected rows, not words */
	const char *account, *users, *partition; /* association targets */
};

/* key=value words: the action's arguments, or an association's parts. */
static int
key_values(struct parsed *p, struct sq_action *a, struct sq_err *err)
{
	int assoc = p->d->kind == SQ_KIND_ASSOCS;
	size_t i;

	for (i = 0; i < p->nw; i++) {
		const struct word *w = &p->w[i];

		if (w->key == NULL)
			continue;
		if (assoc && strcmp(w->key, "account") == 0)
			p->account = w->value;
		else if (assoc && strcmp(w->key, "user") == 0)
			p->users = w->value;
		else if (assoc && strcmp(w->key, "partition") == 0)
			p->partition = w->value;
		else if (set_value(a, w->key, w->value, p->reasons, err) == -1)
			return -1;
	}
	if (p->account != NULL && sq_valid_name(p->account, err) == -1)
		return -1;
	if (p->partition != NULL && sq_valid_name(p->partition, err) == -1)
		return -1;
	return 0;
}

/* Bare words that are the action's flags, or a signal among job ids:
 * taken (their value set NULL). */
static int
bare_args(struct parsed *p, struct sq_action *a, struct sq_err *err)
{
	size_t i;

	for (i = 0; i < p->nw; i++) {
		const struct sq_arg_spec *sp;

		if (p->w[i].key != NULL)
			continue;
		sp = sq_action_arg_spec(p->d, p->w[i].value);
		if (sp != NULL && sp->type == SQ_ARG_FLAG) {
			if (sq_action_set_arg(a, sp->key, "yes", err) == -1)
				return -1;
			p->w[i].value = NULL;
		}
	}
	if (p->ext || p->rs == NULL || p->rs->type != SQ_ARG_SIGNAL)
		return 0;
	for (i = 0; i < p->nw; i++) {
		char id[64];

		if (p->w[i].key != NULL || p->w[i].value == NULL ||
		    sq_valid_jobid(p->w[i].value, id, sizeof(id), NULL) == 0)
			continue;
		if (sq_action_set_arg(a, p->rs->key, p->w[i].value, err) == -1)
			return -1;
		p->w[i].value = NULL;
	}
	return 0;
}

/* With the targets elsewhere (the rows, or none), bare words fill the
 * rest argument. */
static int
rest_words(struct parsed *p, struct sq_action *a, struct sq_err *err)
{
	const struct sq_arg_spec *rs = p->rs;
	struct word *w = p->w;
	size_t i;

	for (i = 0; i < p->nw; i++) {
		if (w[i].key == NULL && w[i].value != NULL && !rs)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "%s: unexpected '%.40s' (usage: %s)",
					  p->d->name, w[i].value, p->d->usage);
	}
	/* clearlimit chem/bob maxjobs: a word that is no limit name names
	 * the association (set aside while the rest joins) */
	for (i = 0;
	     !p->ext && rs != NULL && rs->type == SQ_ARG_LIMITNAME && i < p->nw;
	     i++) {
		if (w[i].key == NULL && w[i].value != NULL &&
		    !limit_word(w[i].value))
			w[i].key = aside;
	}
	if (rs != NULL && join_rest(a, rs, w, p->nw, p->reasons, err) == -1)
		return -1;
	for (i = 0; i < p->nw; i++) {
		if (w[i].key == aside)
			w[i].key = NULL;
	}
	return 0;
}

/* The targets: the selected rows, the association's parts, or the bare
 * words left. */
static int
add_targets(struct parsed *p, const char *const *targets, size_t ntargets,
	    struct sq_action *a, struct sq_err *err)
{
	size_t i;

	if (p->ext) {
		if (p->account != NULL || p->users != NULL ||
		    p->partition != NULL)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "account=, user= and partition= "
					  "name targets; the selected rows "
					  "are the targets here");
		for (i = 0; i < ntargets; i++) {
			if (sq_action_add_target(a, targets[i], err) == -1)
				return -1;
		}
		return 0;
	}
	if (p->d->kind == SQ_KIND_ASSOCS)
		return assoc_targets(a, p->account, p->users, p->partition,
				     p->w, p->nw, err);
	for (i = 0; i < p->nw; i++) {
		if (p->w[i].key != NULL || p->w[i].value == NULL)
			continue;
		if (sq_action_add_target(a, p->w[i].value, err) == -1)
			return -1;
	}
	return 0;
}

/* The verb of line (copied into s, which it splits): NULL after saying
 * why not; *rest: what follows it. */
static char *
verb_of(char *s, char **rest, struct sq_err *err)
{
	char *verb = s;

	while (is_space(*verb))
		verb++;
	*rest = verb + strcspn(verb, " \t");
	if (**rest != '\0')
		*(*rest)++ = '\0';
	if (*verb == ':')
		verb++;
	if (*verb == '\0') {
		sq_err_set(err, SQ_ERR_USAGE, "no action given");
		return NULL;
	}
	return verb;
}

int
sq_action_parse_with(const char *line, int view_kind,
		     const char *const *targets, size_t ntargets,
		     const struct sq_reasons *reasons, struct sq_action *a,
		     struct sq_err *err)
{
	struct parsed p;
	char *s = NULL, *verb, *rest;
	size_t i;
	int rc = -1;

	sq_action_init(a, SQ_ACTION_NONE);
	if (line == NULL || strlen(line) > MAX_LINE)
		return sq_err_set(err, SQ_ERR_USAGE, "command line too long");
	for (i = 0; line[i] != '\0'; i++) {
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			return sq_err_set(err, SQ_ERR_DENIED,
					  "control characters in the command");
	}
	memset(&p, 0, sizeof(p));
	p.reasons = reasons;
	s = strdup(line);
	p.w = calloc(MAX_WORDS, sizeof(*p.w));
	if (s == NULL || p.w == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		goto out;
	}
	if ((verb = verb_of(s, &rest, err)) == NULL ||
	    (p.d = pick_def(verb, view_kind, rest, err)) == NULL)
		goto out;
	sq_action_init(a, p.d->type);
	if (p.d->type == SQ_ACTION_JOB_SUBMIT) {
		/* its own grammar: FILE and sbatch-style options */
		if (sq_submit_parse(rest, a, err) == 0 &&
		    sq_action_check(a, err) == 0)
			rc = 0;
		goto out;
	}
	if (split_words(rest, p.d, p.w, &p.nw, err) == -1)
		goto out;
	p.rs = rest_spec(p.d);
	p.ext = ntargets > 0 && !(p.d->flags & SQ_ACT_CREATES);
	if (key_values(&p, a, err) == -1 || bare_args(&p, a, err) == -1)
		goto out;
	if ((p.ext || (p.d->flags & SQ_ACT_NO_TARGET)) &&
	    rest_words(&p, a, err) == -1)
		goto out;
	if (add_targets(&p, targets, ntargets, a, err) == -1 ||
	    sq_action_check(a, err) == -1)
		goto out;
	rc = 0;
out:
	if (rc == -1)
		sq_action_free(a);
	free(s);
	free(p.w);
	return rc;
}

static int
put(char *buf, size_t n, size_t *off, const char *s)
{
	size_t l = strlen(s);

	if (*off + l >= n)
		return -1;
	memcpy(buf + *off, s, l + 1);
	*off += l;
	return 0;
}

/*
 * The verb to write for d. A name that an earlier action also has
 * ("resume": jobs before nodes) would read back as that one, and
 * "resume 07" then means job 7, not node 07: write the alias that names
 * only this action.
 */
static const char *
format_name(const struct sq_action_def *d)
{
	if (sq_action_find(d->name, -1) != d &&
	    d->type == SQ_ACTION_NODE_RESUME)
		return "noderesume";
	return d->name;
}

/* submit: "submit PATH --opt=value --flag", quoted where needed */
static int
format_submit(const struct sq_action *a, char *buf, size_t n, size_t *off)
{
	char word[1200];
	size_t i;

	for (i = 0; i < a->ntargets; i++) {
		int q = strpbrk(a->targets[i], " \t") != NULL;

		if (put(buf, n, off, q ? " \"" : " ") == -1 ||
		    put(buf, n, off, a->targets[i]) == -1 ||
		    (q && put(buf, n, off, "\"") == -1))
			return -1;
	}
	for (i = 0; i < a->nargs; i++) {
		char *eq;

		if (sq_submit_word(a, i, word, sizeof(word)) == -1 ||
		    put(buf, n, off, " ") == -1)
			return -1;
		eq = strchr(word, '=');
		if (eq != NULL && strpbrk(eq, " \t") != NULL) {
			*eq = '\0';
			if (put(buf, n, off, word) == -1 ||
			    put(buf, n, off, "=\"") == -1 ||
			    put(buf, n, off, eq + 1) == -1 ||
			    put(buf, n, off, "\"") == -1)
				return -1;
		} else if (put(buf, n, off, word) == -1) {
			return -1;
		}
	}
	return 0;
}

/*
 * The order to write a's arguments in: the order of its spec, then any
 * other. Parsing stores key=value words first, then flags, then the rest
 * joined, so the order typed must not show: a formatted line (the audit
 * log, :undo) reads back and formats to the same line.
 */
static void
arg_order(const struct sq_action *a, size_t *idx)
{
	char used[SQ_ACTION_MAX_ARGS];
	size_t k = 0, i, j;

	memset(used, 0, sizeof(used));
	for (j = 0; j < a->def->nargs; j++) {
		const char *key = a->def->args[j].key;
		size_t kl = strlen(key);

		for (i = 0; i < a->nargs; i++) {
			if (!used[i] && strncmp(a->args[i], key, kl) == 0 &&
			    a->args[i][kl] == '=') {
				idx[k++] = i;
				used[i] = 1;
			}
		}
	}
	for (i = 0; i < a->nargs; i++) {
		if (!used[i])
			idx[k++] = i;
	}
}

int
sq_action_format(const struct sq_action *a, char *buf, size_t n)
{
	size_t off = 0, i, idx[SQ_ACTION_MAX_ARGS];

	if (n == 0)
		return -1;
	buf[0] = '\0';
	if (a->def == NULL || put(buf, n, &off, format_name(a->def)) == -1)
		return -1;
	if (a->type == SQ_ACTION_JOB_SUBMIT)
		return format_submit(a, buf, n, &off);
	for (i = 0; i < a->ntargets; i++) {
		const struct sq_arg_spec *sp =
		    sq_action_arg_spec(a->def, a->targets[i]);

		if (put(buf, n, &off, " ") == -1 ||
		    put(buf, n, &off, a->targets[i]) == -1)
			return -1;
		/* a node named like a flag ("reboot asap") would read back
		 * as the flag; "asap," is a node list of one */
		if (sp != NULL && sp->type == SQ_ARG_FLAG &&
		    a->def->kind == SQ_KIND_NODES &&
		    put(buf, n, &off, ",") == -1)
			return -1;
	}
	arg_order(a, idx);
	for (i = 0; i < a->nargs; i++) {
		const char *arg = a->args[idx[i]];
		const char *eq = strchr(arg, '=');
		char key[64];
		const struct sq_arg_spec *sp;
		size_t kl = eq ? (size_t)(eq - arg) : 0;
		int quote;

		if (eq == NULL || kl >= sizeof(key))
			return -1;
		memcpy(key, arg, kl);
		key[kl] = '\0';
		sp = sq_action_arg_spec(a->def, key);
		if (put(buf, n, &off, " ") == -1)
			return -1;
		if (sp != NULL && sp->type == SQ_ARG_FLAG) {
			if (put(buf, n, &off, key) == -1)
				return -1;
			continue;
		}
		if (put(buf, n, &off, key) == -1 ||
		    put(buf, n, &off, "=") == -1)
			return -1;
		quote = eq[1] == '\0' || strpbrk(eq + 1, " \t") != NULL;
		if ((quote && put(buf, n, &off, "\"") == -1) ||
		    (eq[1] == '@' && is_reason(a, key) &&
		     put(buf, n, &off, "@") == -1) ||
		    put(buf, n, &off, eq + 1) == -1 ||
		    (quote && put(buf, n, &off, "\"") == -1))
			return -1;
	}
	return 0;
}
