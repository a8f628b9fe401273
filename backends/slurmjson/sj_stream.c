/*
 * sj_stream.c - a Slurm JSON answer read piece by piece as it arrives:
 * a small scanner finds the boundaries of the elements of the data list
 * ("jobs", "nodes") and hands each one to json-c on its own, maps it and
 * frees it; everything else (meta, errors, warnings, last_update) is
 * kept as the "envelope" and checked at the end exactly as a whole body
 * is. The elements are parsed and mapped on a second thread, in batches
 * of 64 KiB, while the scanner reads on. Peak memory is a few batches
 * and the envelope, not a tree of the whole answer. json-c does all the
 * parsing; the scanner only tracks strings, escapes and nesting, drops
 * the whitespace between tokens, and leaves out the members of a job
 * the mapping never reads (most of its bytes), so a malformed value
 * there goes unnoticed where a whole-body parse would refuse the
 * answer. It does not follow json-c's lenient extensions (single-quoted
 * strings, comments): those are refused.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/slurmjson/sj_internal.h"
#include "backends/slurmjson/sj_stream_int.h"
#include "backends/slurmjson/slurmjson.h"
#include "core/model/model.h"

/* A member name's bucket among the keys the mapper reads (len > 0). */
static unsigned
key_hash(const char *name, size_t len)
{
	return (unsigned)(len * 7 + (unsigned char)name[0] * 3 +
			  (unsigned char)name[len - 1]) %
	       64;
}

struct sq_sj_stream *
sq_slurmjson_stream_new(enum sq_kind kind, time_t now, struct sq_snapshot *s,
			struct sq_sj_info *info, struct sq_err *err)
{
	struct sq_sj_stream *st;
	const char *key = sq_sj_data_key(kind);
	size_t k;

	if (key == NULL || s == NULL || s->kind != kind) {
		sq_err_set(err, SQ_ERR_UNSUPPORTED,
			   "no JSON mapping for the %s view",
			   sq_kind_name(kind));
		return NULL;
	}
	st = calloc(1, sizeof(*st));
	if (st == NULL) {
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	st->kind = kind;
	st->key = key;
	st->elements = sq_sj_has_elem_mapper(kind);
	st->keys = sq_sj_elem_keys(kind);
	for (k = 0; st->keys != NULL && st->keys[k] != NULL; k++) {
		unsigned h;

		st->klen[k] = strlen(st->keys[k]);
		h = key_hash(st->keys[k], st->klen[k]);
		if (k == sizeof(st->klen) / sizeof(st->klen[0]) ||
		    st->klen[k] == 0 || st->kbn[h] == sizeof(st->kbucket[h])) {
			st->keys = NULL; /* (a list too long: keep all) */
			break;
		}
		st->kbucket[h][st->kbn[h]++] = (unsigned char)k;
	}
	st->info = info != NULL ? info : &st->local;
	sq_sj_info_init(st->info);
	st->c.s = s;
	st->c.info = st->info;
	st->c.now = now;
	st->c.api = 0; /* meta may come after the list: mappers ignore it */
	/* the element sits at depth 2 under the root's object and list */
	st->tok = json_tokener_new_ex(SQ_SJ_MAX_DEPTH - 2);
	if (st->tok == NULL) {
		free(st);
		sq_err_set(err, SQ_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	/* kinds without a per-element mapper are kept whole */
	st->mode = st->elements ? M_ENV : M_RAW;
	st->limit = SQ_SJ_MAX_BODY;
	st->batch_bytes = BATCH_BYTES;
	atomic_init(&st->stop, 0);
	atomic_init(&st->efailed, 0);
	sq_err_clear(&st->efatal);
	sq_err_clear(&st->fatal);
	sq_err_clear(&st->map_err);
	return st;
}

void
sq_slurmjson_stream_free(struct sq_sj_stream *st)
{
	size_t k;

	if (st == NULL)
		return;
	sq_sj_pipe_stop(st);
	json_tokener_free(st->tok);
	free(st->env.p);
	sq_sj_batch_free(&st->cur);
	for (k = 0; k < NSLOTS; k++)
		sq_sj_batch_free(&st->slot[k]);
	free(st);
}

static int
malformed(struct sq_sj_stream *st, size_t at, const char *what)
{
	st->failed = 1;
	sq_err_set(&st->fatal, SQ_ERR_PARSE,
		   "malformed JSON answer at byte %zu: %s", at, what);
	return -1;
}

int
sq_sj_stream_oom(struct sq_sj_stream *st)
{
	st->failed = 1;
	sq_err_set(&st->fatal, SQ_ERR_SYSTEM, "out of memory");
	return -1;
}

/* The element in cur.bytes from elem_off is complete: noted in the
 * batch, which goes on once it is full. */
static int
elem_done(struct sq_sj_stream *st)
{
	struct sq_sj_batch *b = &st->cur;

	/* out of the element: a string element left in_str set, and the
	 * envelope scanner then read the rest of the body inverted (a
	 * second list of the same name went unseen) */
	st->in_str = 0;
	st->esc = 0;
	if (st->ekind == 's')
		b->bytes.p[b->bytes.len++] = ' '; /* ends a number */
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct sq_sj_span *sp = realloc(b->span, cap * sizeof(*sp));

		if (sp == NULL)
			return sq_sj_stream_oom(st);
		b->span = sp;
		b->cap = cap;
	}
	b->span[b->n].off = st->elem_off;
	b->span[b->n].len = b->bytes.len - st->elem_off;
	b->span[b->n].start = st->elem_start;
	b->n++;
	st->mode = M_ARR_AFTER;
	if (b->bytes.len >= st->batch_bytes)
		return sq_sj_hand_on(st);
	return 0;
}

static int
is_ws(char ch)
{
	return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* a byte that may be part of a number or literal: whitespace after it
 * is kept (one space), so "1 2" does not become "12" */
static int
is_word(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '-' || ch == '+';
}

/* The envelope scanner: copy p[i], noting the member names at depth 1
 * and the value of the data key. Returns 1 when the list starts. */
static int
env_byte(struct sq_sj_stream *st, char ch)
{
	st->env.p[st->env.len++] = ch;
	if (st->in_str) {
		if (st->esc) {
			st->esc = 0;
			if (st->ks == KS_IN_KEY)
				st->name_esc = 1;
		} else if (ch == '\\') {
			st->esc = 1;
		} else if (ch == '"') {
			st->in_str = 0;
			if (st->ks == KS_IN_KEY) {
				st->ks = KS_AFTER_KEY;
				st->name_match =
				    !st->name_esc &&
				    st->name_len == strlen(st->key) &&
				    memcmp(st->name, st->key, st->name_len) ==
					0;
			}
		} else if (st->ks == KS_IN_KEY) {
			if (st->name_len < sizeof(st->name))
				st->name[st->name_len] = ch;
			st->name_len++;
		}
		return 0;
	}
	if (is_ws(ch))
		return 0;
	if (st->depth == 0) {
		/* the root: an object, or kept whole for parse_body's
		 * messages */
		if (ch != '{') {
			st->mode = M_RAW;
			return 0;
		}
		st->depth = 1;
		st->ks = KS_WANT_KEY;
		return 0;
	}
	if (st->depth == 1 && st->ks == KS_WANT_VALUE) {
		st->ks = KS_NONE;
		if (st->name_match && ch == '[') {
			if (st->intercepted) {
				st->failed = 1;
				sq_err_set(&st->fatal, SQ_ERR_PARSE,
					   "malformed JSON answer: '%s' twice",
					   st->key);
				return -1;
			}
			st->intercepted = 1;
			st->depth++;
			return 1;
		}
	}
	switch (ch) {
	case '"':
		st->in_str = 1;
		if (st->depth == 1 && st->ks == KS_WANT_KEY) {
			st->ks = KS_IN_KEY;
			st->name_len = 0;
			st->name_esc = 0;
		}
		break;
	case ':':
		if (st->depth == 1 && st->ks == KS_AFTER_KEY)
			st->ks = KS_WANT_VALUE;
		break;
	case ',':
		if (st->depth == 1)
			st->ks = KS_WANT_KEY;
		break;
	case '{':
	case '[':
		st->depth++;
		break;
	case '}':
	case ']':
		if (--st->depth == 0)
			st->mode = M_RAW; /* the rest: parse_body checks */
		break;
	default:
		break;
	}
	return 0;
}

/* Is the member name (raw bytes, between the quotes) one the mapper
 * reads? Names written with escapes are kept (json-c decodes them). */
static int
wanted(const struct sq_sj_stream *st, const char *name, size_t len)
{
	unsigned h, k;

	if (st->keys == NULL || st->kesc)
		return 1;
	if (len == 0)
		return 0;
	h = key_hash(name, len);
	for (k = 0; k < st->kbn[h]; k++) {
		size_t i = st->kbucket[h][k];

		if (st->klen[i] == len && memcmp(st->keys[i], name, len) == 0)
			return 1;
	}
	return 0;
}

/* Inside a string of a container element: copy p[*ip..] to *out (not
 * when skip) up to and with the closing quote, or to the end of p; *esc
 * carries a backslash over to the next byte. 1 when the string ended. */
static inline int
copy_string(const char *p, size_t n, size_t *ip, char **out, int skip, int *esc)
{
	size_t i = *ip, j = i;
	char ch;

	if (*esc) {
		*esc = 0;
		if (!skip)
			*(*out)++ = p[i];
		*ip = i + 1;
		return 0;
	}
	while (j < n && p[j] != '"' && p[j] != '\\')
		j++;
	if (!skip) {
		memcpy(*out, p + i, j - i);
		*out += j - i;
	}
	*ip = j;
	if (j == n)
		return 0;
	ch = p[j];
	*ip = j + 1;
	if (!skip)
		*(*out)++ = ch;
	if (ch == '\\') {
		*esc = 1;
		return 0;
	}
	return 1;
}

/* After a member's name at depth 1: if the mapper never reads it, drop
 * the name from cur.bytes (*out back to where it began) and return 1: its
 * value is skipped too. */
static inline int
drop_member(struct sq_sj_stream *st, char *base, char **out)
{
	if (wanted(st, base + st->kpos + 1,
		   (size_t)(*out - base) - st->kpos - 2))
		return 0;
	/* the name goes, and its value */
	*out = base + st->kpos;
	return 1;
}

/* Whitespace outside a string, p[i - 1] the first: skip the run; keep
 * one blank only between two words (unless skipping). Returns the index
 * after the run. */
static inline size_t
skip_blanks(const char *p, size_t n, size_t i, char **out, int skip)
{
	while (i < n && (p[i] == ' ' || p[i] == '\n'))
		i++;
	if (!skip && is_word((*out)[-1]))
		*(*out)++ = ' ';
	return i;
}

/* The container element closed at out: reset the scan state, hand the
 * element on. */
static int
container_done(struct sq_sj_stream *st, const char *out)
{
	st->cur.bytes.len = (size_t)(out - st->cur.bytes.p);
	st->in_str = 0;
	st->esc = 0;
	st->skip = 0;
	st->edepth = 0;
	return elem_done(st);
}

/* A malformed container element, p[i - 1] the byte at fault: keep what
 * was copied (up to out), note where the scan stopped. */
static int
scan_fail(struct sq_sj_stream *st, const char *out, size_t i, size_t *ip,
	  const char *what)
{
	st->cur.bytes.len = (size_t)(out - st->cur.bytes.p);
	*ip = i;
	return malformed(st, st->total + i - 1, what);
}

/* Inside a container element: copy p[*ip..] into cur.bytes until the
 * element closes or the piece ends, without the whitespace outside
 * strings, and without the members of the element's object the mapper
 * never reads (a job's job_resources, flags ... are most of its bytes):
 * json-c parses only what is used. The tight loop of the stream: every
 * byte of the list passes here. */
static int
scan_container(struct sq_sj_stream *st, const char *p, size_t n, size_t *ip)
{
	char *base = st->cur.bytes.p, *out = base + st->cur.bytes.len;
	size_t i = *ip, depth = st->edepth;
	int in_str = st->in_str, esc = st->esc, skip = st->skip;
	enum key_state ks = st->eks;

	while (i < n) {
		char ch;

		if (in_str) {
			if (copy_string(p, n, &i, &out, skip, &esc)) {
				in_str = 0;
				if (ks == KS_IN_KEY)
					ks = KS_AFTER_KEY;
			} else if (esc && ks == KS_IN_KEY) {
				st->kesc = 1;
			}
			continue;
		}
		ch = p[i++];
		switch (ch) {
		case ' ':
		case '\n':
		case '\r':
		case '\t':
			i = skip_blanks(p, n, i, &out, skip);
			continue;
		case '"':
			in_str = 1;
			if (depth == 1 && ks == KS_WANT_KEY) {
				ks = KS_IN_KEY;
				st->kpos = (size_t)(out - base);
				st->kesc = 0;
			}
			break;
		case ':':
			if (depth == 1 && ks == KS_AFTER_KEY) {
				ks = KS_NONE;
				if (drop_member(st, base, &out)) {
					skip = 1;
					continue;
				}
			}
			break;
		case ',':
			if (depth == 1) {
				ks = KS_WANT_KEY;
				if (skip) {
					/* "a":1,"skipped":2,"b":3 */
					skip = 0;
					continue;
				}
			}
			break;
		case '{':
		case '[':
			if (++depth > SQ_SJ_MAX_DEPTH)
				return scan_fail(st, out, i, ip,
						 "nesting too deep");
			break;
		case '}':
		case ']':
			if (--depth == 0)
				skip = 0; /* json-c allows {"a":1,} */
			break;
		case '\'':
		case '/':
			/* json-c's single-quoted strings and comments: not
			 * JSON, and in a skipped member they would hide an
			 * unclosed structure from this scan */
			return scan_fail(st, out, i, ip,
					 "quote or comment outside a string");
		default:
			break;
		}
		if (!skip)
			*out++ = ch;
		if (depth == 0) {
			*ip = i;
			return container_done(st, out);
		}
	}
	st->cur.bytes.len = (size_t)(out - base);
	st->in_str = in_str;
	st->esc = esc;
	st->skip = skip;
	st->eks = ks;
	st->edepth = depth;
	*ip = i;
	return 0;
}

/* Inside a string or scalar element. */
static int
scan_other(struct sq_sj_stream *st, const char *p, size_t n, size_t *ip)
{
	size_t i = *ip;

	while (i < n) {
		char ch = p[i];

		if (st->ekind == 's') {
			if (is_ws(ch) || strchr(",]}[{\":", ch) != NULL) {
				*ip = i; /* the byte is read again after */
				return elem_done(st);
			}
		} else if (st->esc) {
			st->esc = 0;
		} else if (ch == '\\') {
			st->esc = 1;
		} else if (ch == '"') {
			st->cur.bytes.p[st->cur.bytes.len++] = ch;
			*ip = i + 1;
			return elem_done(st);
		}
		st->cur.bytes.p[st->cur.bytes.len++] = ch;
		i++;
	}
	*ip = i;
	return 0;
}

int
sq_slurmjson_stream_feed(struct sq_sj_stream *st, const char *p, size_t n,
			 struct sq_err *err)
{
	size_t i = 0;

	if (st->failed || sq_sj_efailed(st))
		goto failed;
	st->feed_left = n;
	/* what is kept whole (the envelope, all of a kind without a
	 * per-element mapper, the element being read) is bounded; the
	 * bytes of the list that go by are not: a queue of any length */
	if (n > st->limit || st->env.len > st->limit - n ||
	    (st->mode == M_ARR_ELEM &&
	     st->cur.bytes.len - st->elem_off > st->limit - n)) {
		st->failed = 1;
		sq_err_set(&st->fatal, SQ_ERR_PARSE,
			   "JSON answer too large: more than %zu bytes of %s "
			   "to keep whole at byte %zu",
			   st->limit,
			   st->mode == M_ARR_ELEM ? "one list element"
						  : "the answer",
			   st->total);
		goto failed;
	}
	if (sq_sj_buf_room(&st->env, n) == -1 ||
	    (st->mode != M_RAW && sq_sj_buf_room(&st->cur.bytes, n) == -1)) {
		sq_sj_stream_oom(st);
		goto failed;
	}
	while (i < n) {
		char ch = p[i];

		switch (st->mode) {
		case M_RAW:
			memcpy(st->env.p + st->env.len, p + i, n - i);
			st->env.len += n - i;
			i = n;
			break;
		case M_ENV:
			i++;
			if (env_byte(st, ch) == 1)
				st->mode = M_ARR_FIRST;
			if (st->failed)
				goto failed;
			break;
		case M_ARR_FIRST:
		case M_ARR_NEXT:
		case M_ARR_AFTER:
			i++;
			if (is_ws(ch))
				break;
			if (ch == ']') {
				/* the list ends (json-c allows "[1,]"):
				 * back to the envelope */
				st->gap_at = st->env.len;
				st->gap_len = st->total + i - 1 - st->env.len;
				st->env.p[st->env.len++] = ']';
				st->depth--;
				st->ks = KS_NONE;
				st->mode = M_ENV;
				break;
			}
			if (st->mode == M_ARR_AFTER) {
				if (ch != ',') {
					malformed(st, st->total + i - 1,
						  "',' or ']' expected after "
						  "a list element");
					goto failed;
				}
				st->mode = M_ARR_NEXT;
				break;
			}
			if (ch == ',' || ch == ':' || ch == '}') {
				malformed(st, st->total + i - 1,
					  "a list element expected");
				goto failed;
			}
			/* an element starts */
			st->mode = M_ARR_ELEM;
			st->elem_start = st->total + i - 1;
			st->elem_off = st->cur.bytes.len;
			st->cur.bytes.p[st->cur.bytes.len++] = ch;
			st->in_str = ch == '"';
			st->esc = 0;
			st->edepth = ch == '{' || ch == '[';
			st->ekind = st->edepth ? '{' : ch == '"' ? '"' : 's';
			st->eks = ch == '{' ? KS_WANT_KEY : KS_NONE;
			st->skip = 0;
			break;
		case M_ARR_ELEM:
			if ((st->ekind == '{' ? scan_container(st, p, n, &i)
					      : scan_other(st, p, n, &i)) == -1)
				goto failed;
			break;
		}
	}
	st->total += n;
	return 0;
failed:
	st->failed = 1;
	*err = sq_sj_efailed(st) ? st->efatal : st->fatal;
	return -1;
}

void
sq_slurmjson_stream_limit(struct sq_sj_stream *st, size_t bytes)
{
	st->limit = bytes < (size_t)INT_MAX ? bytes : (size_t)INT_MAX;
}

void
sq_slurmjson_stream_batch(struct sq_sj_stream *st, size_t bytes)
{
	st->batch_bytes = bytes > 0 ? bytes : BATCH_BYTES;
}

int
sq_slurmjson_stream_end(struct sq_sj_stream *st, struct sq_err *err)
{
	struct sq_sj_gap gap;
	json_object *root, *list;
	int rc = -1;

	/* the elements' errors first: they stand before the scanner's */
	sq_sj_pipe_finish(st);
	if (sq_sj_efailed(st)) {
		*err = st->efatal;
		return -1;
	}
	if (st->failed) {
		*err = st->fatal;
		return -1;
	}
	if (st->total > 0 && st->mode >= M_ARR_FIRST)
		return sq_err_set(err, SQ_ERR_PARSE,
				  "truncated JSON answer (%zu bytes)",
				  st->total);
	gap.at = st->intercepted ? st->gap_at : st->env.len;
	gap.len = st->intercepted ? st->gap_len : 0;
	gap.total = st->total;
	root = sq_sj_parse_body(st->env.p, st->env.len, &gap, err);
	if (root == NULL)
		return -1;
	if (sq_sj_read_envelope(root, st->info, err) == -1)
		goto out;
	st->c.api = st->info->api;
	if (!st->intercepted) {
		/* no list scanned (none, not a list, or a name written
		 * with escapes): the whole-body path reads the envelope */
		rc = sq_sj_map_root(st->kind, &st->c, root, err);
		goto out;
	}
	if (st->map_failed) {
		*err = st->map_err;
		goto out;
	}
	/* the scanned list is "[]" in the envelope, unless a second
	 * member of the same name replaced it */
	list = sq_sj_get(root, st->key);
	if (list == NULL || !json_object_is_type(list, json_type_array) ||
	    json_object_array_length(list) != 0) {
		sq_err_set(err, SQ_ERR_PARSE,
			   "malformed JSON answer: '%s' twice", st->key);
		goto out;
	}
	if (st->c.s->nrows == 0 && sq_sj_unchanged(st->info)) {
		st->info->unchanged = 1;
		rc = 0;
		goto out;
	}
	/* history: efficiency and summaries once every run is in */
	rc =
	    st->kind == SQ_KIND_HISTORY ? sq_sj_history_finish(&st->c, err) : 0;
out:
	json_object_put(root);
	return rc;
}

/* One whole body through the stream: what sq_slurmjson_parse does for
 * the kinds with a per-element mapper. */
int
sq_sj_stream_whole(enum sq_kind kind, const char *body, size_t len, time_t now,
		   struct sq_snapshot *s, struct sq_sj_info *info,
		   struct sq_err *err)
{
	struct sq_sj_stream *st;
	int rc;

	if (body == NULL || len == 0) {
		if (info != NULL)
			sq_sj_info_init(info);
		return sq_err_set(err, SQ_ERR_PARSE,
				  "empty answer where JSON was expected");
	}
	if (len > SQ_SJ_MAX_BODY || len > (size_t)INT_MAX) {
		if (info != NULL)
			sq_sj_info_init(info);
		return sq_err_set(err, SQ_ERR_PARSE,
				  "JSON answer too large (%zu bytes)", len);
	}
	st = sq_slurmjson_stream_new(kind, now, s, info, err);
	if (st == NULL)
		return -1;
	rc = sq_slurmjson_stream_feed(st, body, len, err);
	if (rc == 0)
		rc = sq_slurmjson_stream_end(st, err);
	sq_slurmjson_stream_free(st);
	return rc;
}
