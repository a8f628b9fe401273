/*
 * saved_view.c - the `view` command of the config language and the
 * writer behind `:w` (saved_view.h): NAME key=value words checked
 * against the view's columns; the file rewritten line by line with only
 * the view's own line replaced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/conf/saved_view.h"
#include "core/base/util.h"

const struct sq_saved_view *
sq_saved_find(const struct sq_saved_views *sv, const char *name)
{
	size_t i;

	for (i = 0; sv != NULL && i < sv->n; i++) {
		if (strcmp(sv->v[i].name, name) == 0)
			return &sv->v[i];
	}
	return NULL;
}

static int
valid_name(const char *s)
{
	size_t i, l = strlen(s);

	if (l == 0 || l > SQ_SAVED_NAME_MAX)
		return 0;
	for (i = 0; i < l; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' ||
		      (i > 0 && (c == '-' || c == '.'))))
			return 0;
	}
	return 1;
}

static int
check_columns(const struct sq_view_def *d, const char *list, char *why,
	      size_t n)
{
	char buf[512], *save = NULL, *tok;
	int cnt = 0;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(why, n, "columns: list too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sq_view_column(d, tok) == NULL) {
			snprintf(why, n, "view %s has no column '%.40s'",
				 d->name, tok);
			return -1;
		}
		cnt++;
	}
	if (cnt == 0) {
		snprintf(why, n, "columns: no column given");
		return -1;
	}
	return 0;
}

/* one key=value word into v (of= handled by the caller) */
static int
set_key(struct sq_saved_view *v, const char *word, char *why, size_t n)
{
	const char *eq = strchr(word, '=');
	size_t kl = eq ? (size_t)(eq - word) : 0;
	const char *val = eq ? eq + 1 : NULL;

	if (eq == NULL) {
		snprintf(why, n, "view: expected KEY=VALUE, not '%.40s'", word);
		return -1;
	}
	if (kl == 7 && strncmp(word, "columns", 7) == 0) {
		if (check_columns(v->of, val, why, n) == -1)
			return -1;
		snprintf(v->columns, sizeof(v->columns), "%s", val);
		v->has |= SQ_SAVED_COLUMNS;
	} else if (kl == 4 && strncmp(word, "sort", 4) == 0) {
		if (*val != '\0' && strcmp(val, "none") != 0 &&
		    sq_view_column(v->of, val + (*val == '-')) == NULL) {
			snprintf(why, n, "view %s has no column '%.40s'",
				 v->of->name, val + (*val == '-'));
			return -1;
		}
		snprintf(v->sort, sizeof(v->sort), "%s", val);
		v->has |= SQ_SAVED_SORT;
	} else if (kl == 6 && strncmp(word, "filter", 6) == 0) {
		if (strlen(val) >= sizeof(v->filter)) {
			snprintf(why, n, "filter: too long");
			return -1;
		}
		snprintf(v->filter, sizeof(v->filter), "%s", val);
		v->has |= SQ_SAVED_FILTER;
	} else if (!(kl == 2 && strncmp(word, "of", 2) == 0)) {
		snprintf(why, n,
			 "view: unknown key '%.*s' (columns, sort, filter, "
			 "of)",
			 (int)(kl > 40 ? 40 : kl), word);
		return -1;
	}
	return 0;
}

int
sq_saved_define(struct sq_saved_views *sv, char **w, int nw, char *why,
		size_t n)
{
	const struct sq_saved_view *old;
	const struct sq_view_def *builtin, *of = NULL;
	struct sq_saved_view v;
	int i;

	if (nw < 2) {
		snprintf(why, n,
			 "usage: view NAME [of=VIEW] [columns=ID,...] "
			 "[sort=[-]ID] [filter=EXPR]");
		return -1;
	}
	for (i = 1; i < nw; i++) {
		if (strncmp(w[i], "of=", 3) == 0) {
			of = sq_view_find(w[i] + 3);
			if (of == NULL) {
				snprintf(why, n, "of: no view called '%.40s'",
					 w[i] + 3);
				return -1;
			}
		}
	}
	builtin = sq_view_find(w[0]);
	old = sq_saved_find(sv, builtin != NULL ? builtin->name : w[0]);
	memset(&v, 0, sizeof(v));
	if (of != NULL) {
		if (builtin != NULL) {
			snprintf(why, n,
				 "view %s is built in: of= names a new view",
				 builtin->name);
			return -1;
		}
		if (!valid_name(w[0])) {
			snprintf(why, n, "view: bad name '%.40s'", w[0]);
			return -1;
		}
		snprintf(v.name, sizeof(v.name), "%s", w[0]);
		v.of = of;
		v.custom = 1;
	} else if (old != NULL) {
		v = *old;
	} else if (builtin != NULL) {
		snprintf(v.name, sizeof(v.name), "%s", builtin->name);
		v.of = builtin;
	} else {
		snprintf(why, n,
			 "no view called '%.40s' (of=VIEW defines a new one)",
			 w[0]);
		return -1;
	}
	for (i = 1; i < nw; i++) {
		if (set_key(&v, w[i], why, n) == -1)
			return -1;
	}
	old = sq_saved_find(sv, v.name);
	if (old != NULL) {
		sv->v[old - sv->v] = v;
		return 0;
	}
	if (sv->n == SQ_SAVED_MAX) {
		snprintf(why, n, "more than %d saved views", SQ_SAVED_MAX);
		return -1;
	}
	sv->v[sv->n++] = v;
	return 0;
}

/* s as one word of the language: "..." with " and \ escaped */
static size_t
quoted(char *buf, size_t n, const char *s)
{
	size_t o = 0;

	if (n < 3)
		return 0;
	buf[o++] = '"';
	for (; *s != '\0' && o + 3 < n; s++) {
		if (*s == '"' || *s == '\\')
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return o;
}

const char *
sq_saved_line(const struct sq_saved_view *v, char *buf, size_t n)
{
	char f[600];
	size_t o;

	o = (size_t)snprintf(buf, n, "view %s", v->name);
	if (v->custom && o < n)
		o += (size_t)snprintf(buf + o, n - o, " of=%s", v->of->name);
	if ((v->has & SQ_SAVED_COLUMNS) && o < n)
		o +=
		    (size_t)snprintf(buf + o, n - o, " columns=%s", v->columns);
	if ((v->has & SQ_SAVED_SORT) && o < n)
		o += (size_t)snprintf(buf + o, n - o, " sort=%s",
				      v->sort[0] ? v->sort : "none");
	if ((v->has & SQ_SAVED_FILTER) && v->filter[0] != '\0' && o < n) {
		quoted(f, sizeof(f), v->filter);
		snprintf(buf + o, n - o, " filter=%s", f);
	}
	return buf;
}

/* Is text a `view NAME ...` line? */
static int
is_view_line(const char *text, const char *name)
{
	size_t l = strlen(name);

	while (*text == ' ' || *text == '\t')
		text++;
	if (strncmp(text, "view", 4) != 0 ||
	    (text[4] != ' ' && text[4] != '\t'))
		return 0;
	text += 4;
	while (*text == ' ' || *text == '\t')
		text++;
	return strncmp(text, name, l) == 0 &&
	       (text[l] == ' ' || text[l] == '\t' || text[l] == '\n' ||
		text[l] == '\0');
}

int
sq_saved_write_file(const char *path, const char *line, struct sq_err *err)
{
	char name[SQ_SAVED_NAME_MAX + 2], tmp[1100], dir[1100], buf[4096];
	FILE *in, *out;
	long at = -1, no = 0;
	int done = 0, ok;

	if (sscanf(line, "view %33s", name) != 1)
		return sq_err_set(err, SQ_ERR_USAGE, "not a view line");
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >=
	    (int)sizeof(tmp))
		return sq_err_set(err, SQ_ERR_USAGE, "path too long");
	in = fopen(path, "r");
	if (in == NULL && errno != ENOENT)
		return sq_err_set(err, SQ_ERR_SYSTEM, "%s: %s", path,
				  strerror(errno));
	/* a fresh home has no ~/.config/squall: made 0700, as the audit
	 * log's state directory */
	if (in == NULL && sq_util_mkdir_parents(path, dir, sizeof(dir)) == -1)
		return sq_err_set(err, SQ_ERR_SYSTEM, "mkdir %s: %s", dir,
				  strerror(errno));
	/* the last `view NAME` line is the one that counts */
	while (in != NULL && fgets(buf, sizeof(buf), in) != NULL) {
		if (is_view_line(buf, name))
			at = no;
		if (strchr(buf, '\n') != NULL)
			no++;
	}
	{
		int fd = mkstemp(tmp);

		struct stat st;

		/* the file keeps its permissions */
		if (fd >= 0 && in != NULL && fstat(fileno(in), &st) == 0)
			(void)fchmod(fd, st.st_mode & 07777);
		out = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (out == NULL) {
			if (fd >= 0)
				close(fd);
			if (in != NULL)
				fclose(in);
			return sq_err_set(err, SQ_ERR_SYSTEM, "%s: %s", tmp,
					  strerror(errno));
		}
	}
	no = 0;
	if (in != NULL) {
		int nl = 1;

		rewind(in);
		while (fgets(buf, sizeof(buf), in) != NULL) {
			size_t l = strlen(buf);

			if (no == at && nl) {
				fprintf(out, "%s\n", line);
				done = 1;
			} else if (no != at) {
				fputs(buf, out);
			}
			nl = l > 0 && buf[l - 1] == '\n';
			if (nl)
				no++;
		}
		if (!nl && no != at)
			fputc('\n', out);
		fclose(in);
	}
	if (!done)
		fprintf(out, "%s\n", line);
	ok = fflush(out) == 0 && fsync(fileno(out)) == 0;
	ok = fclose(out) == 0 && ok;
	if (!ok || rename(tmp, path) == -1) {
		int e = errno;

		unlink(tmp);
		return sq_err_set(err, SQ_ERR_SYSTEM, "%s: %s", path,
				  strerror(e));
	}
	return 0;
}

int
sq_saved_conf_path(char *buf, size_t n, struct sq_err *err)
{
	const char *env = getenv("SQUALL_CONFIG");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (env != NULL && *env != '\0') {
		if (strcmp(env, "/dev/null") == 0)
			return sq_err_set(err, SQ_ERR_USAGE,
					  "no config file to write "
					  "(SQUALL_CONFIG=/dev/null)");
		snprintf(buf, n, "%s", env);
	} else if (xdg != NULL && *xdg == '/') {
		snprintf(buf, n, "%s/squall/config", xdg);
	} else if (home != NULL && *home != '\0') {
		snprintf(buf, n, "%s/.config/squall/config", home);
	} else {
		return sq_err_set(err, SQ_ERR_USAGE,
				  "no config file to write (no HOME)");
	}
	return 0;
}
