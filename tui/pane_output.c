/*
 * pane_output.c - a job's stdout, stderr or batch script in a text pane
 * that follows the file as it grows (like tail -f): the last
 * OUT_TAIL bytes first, more on scrolling up past the top, new bytes
 * every second while the job runs. Scrolling up pauses, G resumes, /
 * searches. Every read runs on the worker thread (sq_worker_call); the
 * UI thread only rebuilds the pane's lines from bytes already read, shown
 * escaped (sq_text_escape): no byte of the file reaches the terminal raw.
 * What the pane holds and the read on its way are the app's (app->out,
 * tui/app_state.h), reset with the connection (sq_output_reset).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "core/model/model.h"
#include "core/analysis/outpath.h"
#include "core/base/util.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/pane.h"
#include "tui/pane_output.h"
#include "tui/table.h"
#include "tui/text.h"
#include "tui/views.h"
#include "tui/worker.h"

#define OUT_TAIL ((int64_t)64 * 1024)  /* read first, and per scroll up */
#define OUT_KEEP ((size_t)1024 * 1024) /* bytes held at most */
#define OUT_CHUNK ((size_t)256 * 1024) /* one follow read at most */
#define OUT_STATE_EVERY 5              /* seconds between state checks */
#define SCRIPT_LIMIT ((size_t)4 * 1024 * 1024)

struct sq_tui_output_req {
	unsigned gen; /* of the pane that asked */
	int what;
	char jobid[64];
	char path[SQ_OUTPATH_MAX]; /* "" first: the worker resolves it */
	int64_t off;               /* -1: the tail */
	size_t len;
	int check_state;
	/* results */
	int rc;
	struct sq_err err;
	int64_t off_got, size;
	char state[32];
	struct sq_buf data;
};

static const char *const what_name[] = { "stdout", "stderr", "script" };

/* --- the worker side ----------------------------------------------------- */

static void
w_read(struct sq_backend *b, void *arg)
{
	struct sq_tui_output_req *r = arg;
	const char *note = sq_backend_file_note(b, what_name[r->what]);
	struct sq_jobfiles *jf;
	int64_t want;

	sq_err_clear(&r->err);
	r->rc = -1;
	if (note != NULL) {
		sq_err_set(&r->err, SQ_ERR_UNSUPPORTED, "%s", note);
		return;
	}
	if (r->what == SQ_OUT_SCRIPT) {
		r->rc = b->ops->job_script(b, r->jobid, &r->data, &r->err);
		return;
	}
	if (r->path[0] == '\0' || r->check_state) {
		jf = malloc(sizeof(*jf));
		if (jf == NULL)
			return;
		if (b->ops->job_files(b, r->jobid, jf, &r->err) == -1) {
			free(jf);
			return;
		}
		snprintf(r->state, sizeof(r->state), "%s", jf->state);
		snprintf(r->path, sizeof(r->path), "%s",
			 r->what == SQ_OUT_STDERR ? jf->stderr_path
						  : jf->stdout_path);
		free(jf);
		if (r->path[0] == '\0') {
			sq_err_set(&r->err, SQ_ERR_COMMAND,
				   "Slurm reports no %s file",
				   what_name[r->what]);
			return;
		}
	}
	if (b->ops->file_stat(b, r->path, &r->size, &r->err) == -1)
		return;
	if (r->off < 0) {
		r->off = r->size > OUT_TAIL ? r->size - OUT_TAIL : 0;
		r->len = (size_t)(r->size - r->off);
	}
	r->off_got = r->off;
	want = r->size - r->off;
	if (want <= 0) {
		r->rc = 0;
		return;
	}
	if ((int64_t)r->len > want)
		r->len = (size_t)want;
	r->rc =
	    b->ops->file_read(b, r->path, r->off, r->len, &r->data, &r->err);
}

static int
request(struct sq_app *app, int64_t off, size_t len, int check_state)
{
	struct sq_tui_output_state *o = &app->out;
	struct sq_tui_output_req *r;

	if (o->inflight != NULL || app->worker == NULL)
		return -1;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -1;
	r->gen = o->gen;
	r->what = o->what;
	snprintf(r->jobid, sizeof(r->jobid), "%s", o->jobid);
	snprintf(r->path, sizeof(r->path), "%s", o->path);
	r->off = off;
	r->len = len;
	r->check_state = check_state;
	sq_buf_init(&r->data, len > SCRIPT_LIMIT ? len + 1 : SCRIPT_LIMIT);
	if (sq_worker_call(app->worker, SQ_WREQ_OUTPUT, w_read, r) == -1) {
		sq_buf_free(&r->data);
		free(
		    r); /* busy (an action, sstat): the next tick tries again */
		return -1;
	}
	o->inflight = r;
	o->last_read = sq_util_now_ms();
	return 0;
}

/* --- the pane ------------------------------------------------------------ */

/* Rows line l takes wrapped in w columns. */
static size_t
rows_of(const char *s, int w)
{
	int cw = sq_width(s);

	return w <= 0 || cw <= w ? 1 : (size_t)((cw + w - 1) / w);
}

/* The top line that shows the end of the pane. */
static size_t
bottom_top(struct sq_app *app)
{
	struct sq_pane *p = &app->pane;
	size_t rows = 0, page = app->page > 1 ? (size_t)app->page : 1;
	size_t i = p->n;

	while (i > 0) {
		rows += rows_of(p->lines[i - 1].text, app->cols - 2);
		if (rows > page)
			break;
		i--;
	}
	return i;
}

static void
add_text_line(struct sq_pane *p, const char *s, size_t n)
{
	char line[2048];
	size_t k = 0, col = 0, i;

	for (i = 0; i < n; i++) {
		if (k + 9 >= sizeof(line)) {
			line[k] = '\0';
			sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", line);
			k = col = 0;
		}
		if (s[i] == '\t') {
			do
				line[k++] = ' ';
			while (++col % 8 != 0);
			continue;
		}
		/* a new column at each byte that starts a character */
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			col++;
		line[k++] = s[i];
	}
	line[k] = '\0';
	sq_pane_add(p, SQ_ROLE_DIALOG, 0, "%s", line);
}

/* What the pane is doing, as the job's state makes true: "job ended"
 * only for a job Slurm says is over. */
static const char *
status_word(const struct sq_tui_output_state *o)
{
	if (o->unreadable)
		return "(cannot read)";
	if (o->waiting)
		return "(not started)";
	if (o->done)
		return o->state[0] != '\0' && !sq_jobfiles_active(o->state)
			   ? "(job ended)"
			   : "(not read)";
	return o->following ? "(following)" : "(paused: G follows)";
}

static void
set_title(struct sq_app *app)
{
	struct sq_tui_output_state *o = &app->out;
	size_t pl = strlen(o->path);
	/* the end of a long path says most */
	const char *path = pl > 48 ? o->path + pl - 48 : o->path;
	int n;

	if (o->what == SQ_OUT_SCRIPT)
		n = snprintf(app->pane.title, sizeof(app->pane.title),
			     " job %.40s: batch script (Esc closes)", o->jobid);
	else
		n = snprintf(app->pane.title, sizeof(app->pane.title),
			     " job %.24s %s %s: %s%.48s [%lld bytes]", o->jobid,
			     what_name[o->what], status_word(o),
			     pl > 48 ? "..." : "", path, (long long)o->size);
	(void)n;
}

/* The lines of the pane from the bytes held. */
static void
rebuild(struct sq_app *app)
{
	struct sq_tui_output_state *o = &app->out;
	struct sq_pane *p = &app->pane;
	struct sq_buf esc;
	size_t top = p->top, i, from = 0;
	const char *s;

	sq_pane_free(p);
	p->kind = SQ_PANE_OUTPUT;
	if (o->error[0] != '\0')
		sq_pane_add(p, o->waiting ? SQ_ROLE_TREE : SQ_ROLE_STATUS_ERROR,
			    0, "%s", o->error);
	if (o->start > 0)
		sq_pane_add(p, SQ_ROLE_TREE, 0,
			    "[%lld earlier bytes: scroll up to read them]",
			    (long long)o->start);
	sq_buf_init(&esc, 0);
	sq_text_escape(sq_buf_str(&o->text), o->text.len, 0, &esc);
	s = sq_buf_str(&esc);
	for (i = 0; i < esc.len; i++) {
		if (s[i] == '\n') {
			add_text_line(p, s + from, i - from);
			from = i + 1;
		}
	}
	if (from < esc.len)
		add_text_line(p, s + from, esc.len - from);
	sq_buf_free(&esc);
	set_title(app);
	p->top = o->following ? bottom_top(app) : top;
	app->dirty = 1;
}

/* Keep at most OUT_KEEP bytes: drop from the front (following) or the
 * back (reading earlier parts). */
static void
trim(struct sq_tui_output_state *o, int front)
{
	size_t cut;

	if (o->text.len <= OUT_KEEP)
		return;
	cut = o->text.len - OUT_KEEP;
	if (front) {
		memmove(o->text.data, o->text.data + cut, o->text.len - cut);
		o->start += (int64_t)cut;
	} else {
		o->end -= (int64_t)cut;
	}
	o->text.len -= cut;
	o->text.data[o->text.len] = '\0';
}

/* Put bytes read at off into the held text. */
static void
merge(struct sq_tui_output_state *o, struct sq_tui_output_req *r)
{
	if (o->path[0] == '\0')
		snprintf(o->path, sizeof(o->path), "%s", r->path);
	o->size = r->size;
	if (r->off_got == o->end || o->text.len == 0) {
		if (o->text.len == 0)
			o->start = o->end = r->off_got;
		sq_buf_append(&o->text, r->data.data ? r->data.data : "",
			      r->data.len);
		o->end += (int64_t)r->data.len;
		trim(o, 1);
	} else if (r->off_got + (int64_t)r->data.len == o->start) {
		struct sq_buf nb;

		sq_buf_init(&nb, 0);
		sq_buf_append(&nb, r->data.data ? r->data.data : "",
			      r->data.len);
		sq_buf_append(&nb, sq_buf_str(&o->text), o->text.len);
		sq_buf_free(&o->text);
		o->text = nb;
		o->start = r->off_got;
		trim(o, 0);
	}
	if (o->size < o->end) { /* truncated under us: start again */
		sq_buf_reset(&o->text);
		o->start = o->end = 0;
	}
}

/* A read that failed: a job that has not started has no file yet (say
 * where it will be, and look again); a backend without file access, a
 * script, a refused path, a job Slurm no longer knows or one that is
 * over: no more reads. */
static void
failed(struct sq_tui_output_state *o, const struct sq_tui_output_req *r)
{
	o->unreadable = r->err.code == SQ_ERR_UNSUPPORTED;
	if (o->path[0] == '\0' && r->path[0] != '\0')
		snprintf(o->path, sizeof(o->path), "%s", r->path);
	/* no file yet (not /dev/null or a FIFO in its place: DENIED) */
	o->waiting = r->err.code == SQ_ERR_COMMAND &&
		     o->what != SQ_OUT_SCRIPT && o->path[0] != '\0' &&
		     o->text.len == 0 && sq_jobfiles_waiting(o->state);
	if (o->waiting)
		sq_jobfiles_not_started(o->jobid, o->state, what_name[o->what],
					o->path, o->error, sizeof(o->error));
	else
		snprintf(o->error, sizeof(o->error), "%.290s", r->err.msg);
	/* a refusal (/dev/null, a FIFO, a path not safe to send) stays */
	o->done = o->what == SQ_OUT_SCRIPT || o->unreadable ||
		  o->path[0] == '\0' || r->err.code == SQ_ERR_DENIED ||
		  r->err.code == SQ_ERR_PARSE ||
		  (o->state[0] != '\0' && !sq_jobfiles_active(o->state));
}

void
sq_output_poll(struct sq_app *app)
{
	struct sq_tui_output_state *o = &app->out;
	struct sq_tui_output_req *r;
	int more;

	if (o->inflight == NULL || app->worker == NULL)
		return;
	r = sq_worker_call_done(app->worker, SQ_WREQ_OUTPUT);
	if (r == NULL || r != o->inflight)
		return;
	o->inflight = NULL;
	more = o->loading_more;
	o->loading_more = 0;
	if (o->open && r->gen == o->gen) {
		if (r->state[0] != '\0') {
			snprintf(o->state, sizeof(o->state), "%s", r->state);
			o->last_state = time(NULL);
		}
		if (r->rc == -1) {
			failed(o, r);
		} else if (o->what == SQ_OUT_SCRIPT) {
			sq_buf_append(&o->text,
				      r->data.data ? r->data.data : "",
				      r->data.len);
			o->done = 1;
			o->following = 0;
		} else {
			o->error[0] = '\0';
			o->waiting = 0;
			merge(o, r);
			/* the job is over and everything is read */
			if (o->state[0] != '\0' &&
			    !sq_jobfiles_active(o->state) && o->end >= o->size)
				o->done = 1;
		}
		if (app->mode == SQ_MODE_PANE &&
		    app->pane.kind == SQ_PANE_OUTPUT) {
			size_t n0 = app->pane.n, top0 = app->pane.top;

			rebuild(app);
			if (more && app->pane.n > n0)
				app->pane.top = top0 + (app->pane.n - n0);
		}
	}
	sq_buf_free(&r->data);
	free(r);
}

void
sq_output_tick(struct sq_app *app)
{
	struct sq_tui_output_state *o = &app->out;
	int check;

	if (o->inflight != NULL)
		sq_output_poll(app);
	if (!o->open || o->done || o->inflight != NULL ||
	    app->mode != SQ_MODE_PANE || app->pane.kind != SQ_PANE_OUTPUT)
		return;
	/* a second between reads; five after a failure (a job that has
	 * not started yet has no file: its state is asked each time) */
	if (sq_util_now_ms() - o->last_read < (o->error[0] ? 5000 : 1000))
		return;
	check = time(NULL) - o->last_state >= OUT_STATE_EVERY;
	if (o->path[0] == '\0')
		request(app, -1, 0, 1);
	else
		request(app, o->end, OUT_CHUNK, check);
}

static const char *
cursor_job(struct sq_app *app, char *buf, size_t n)
{
	struct sq_table *t = sq_app_table(app);
	const void *rec = sq_table_cur(t);

	if (rec == NULL || t->ops == NULL || t->ops->job_of == NULL)
		return NULL;
	return t->ops->job_of(rec, buf, n);
}

int
sq_output_open(struct sq_app *app, const char *jobid, int what)
{
	struct sq_tui_output_state *o = &app->out;
	if (o->open)
		sq_buf_free(&o->text);
	o->gen++;
	o->open = 1;
	o->what = what;
	snprintf(o->jobid, sizeof(o->jobid), "%s", jobid);
	o->path[0] = o->state[0] = o->error[0] = o->search[0] = '\0';
	sq_buf_init(&o->text, 0);
	o->start = o->end = o->size = 0;
	o->following = what != SQ_OUT_SCRIPT;
	o->done = o->loading_more = o->waiting = o->unreadable = 0;
	o->last_read = 0;
	o->last_state = time(NULL);
	sq_pane_clear(&app->pane, "", SQ_PANE_OUTPUT);
	app->mode = SQ_MODE_PANE;
	rebuild(app);
	sq_pane_add(&app->pane, SQ_ROLE_TREE, 0, "%s", "reading...");
	if (request(app, -1, 0, 1) == -1 && o->inflight == NULL)
		sq_app_message(app, 0, "the worker is busy: reading soon");
	return 0;
}

int
sq_output_view_key(struct sq_app *app, int key)
{
	char id[64];
	int what;

	switch (key) {
	case 'o':
		what = SQ_OUT_STDOUT;
		break;
	case 'O':
		what = SQ_OUT_STDERR;
		break;
	case 'b':
		what = SQ_OUT_SCRIPT;
		break;
	default:
		return 0;
	}
	if (cursor_job(app, id, sizeof(id)) == NULL)
		return 0;
	sq_output_open(app, id, what);
	return 1;
}

static void
search(struct sq_app *app, int dir)
{
	struct sq_tui_output_state *o = &app->out;
	struct sq_pane *p = &app->pane;
	size_t i, k;

	if (o->search[0] == '\0' || p->n == 0) {
		sq_app_message(app, 0, "no search: / searches the output");
		return;
	}
	for (k = 1; k <= p->n; k++) {
		i = dir > 0 ? (p->top + k) % p->n : (p->top + p->n - k) % p->n;
		if (strstr(p->lines[i].text, o->search) != NULL) {
			p->top = i;
			o->following = 0;
			set_title(app);
			sq_app_message(app, 0, "/%s: line %zu", o->search,
				       i + 1);
			return;
		}
	}
	sq_app_message(app, 1, "/%s: not found", o->search);
}

void
sq_output_search(struct sq_app *app, const char *text)
{
	struct sq_tui_output_state *o = &app->out;
	snprintf(o->search, sizeof(o->search), "%s", text);
	if (text[0] != '\0')
		search(app, 1);
}

int
sq_output_pane_key(struct sq_app *app, enum sq_tui_action a, int key)
{
	struct sq_tui_output_state *o = &app->out;
	struct sq_pane *p = &app->pane;

	switch (a) {
	case SQ_TA_UP:
	case SQ_TA_PAGE_UP:
	case SQ_TA_TOP:
		o->following = 0;
		set_title(app);
		/* at the top: read the part before (bounded) */
		if ((p->top == 0 || a == SQ_TA_TOP) && o->start > 0 &&
		    o->inflight == NULL && o->what != SQ_OUT_SCRIPT) {
			int64_t from =
			    o->start > OUT_TAIL ? o->start - OUT_TAIL : 0;

			if (request(app, from, (size_t)(o->start - from), 0) ==
			    0)
				o->loading_more = 1;
		}
		return 0;
	case SQ_TA_BOTTOM:
		o->following = o->what != SQ_OUT_SCRIPT;
		set_title(app);
		p->top = bottom_top(app);
		app->dirty = 1;
		return 1;
	case SQ_TA_NEXT_MATCH:
		search(app, 1);
		return 1;
	case SQ_TA_PREV_MATCH:
		search(app, -1);
		return 1;
	case SQ_TA_BACK:
	case SQ_TA_QUIT:
		sq_output_close(app);
		return 0;
	default:
		(void)key;
		return 0;
	}
}

int
sq_output_searching(const struct sq_app *app)
{
	return app->mode == SQ_MODE_PANE && app->pane.kind == SQ_PANE_OUTPUT;
}

void
sq_output_close(struct sq_app *app)
{
	struct sq_tui_output_state *o = &app->out;

	if (!o->open)
		return;
	o->open = 0;
	sq_buf_free(&o->text);
}

void
sq_output_reset(struct sq_app *app, int left)
{
	struct sq_tui_output_state *o = &app->out;
	/* the old worker is gone: a read it did not run is ours to free; a
	 * thread left running may still write into it (then it is left) */
	if (o->inflight != NULL && !(left & SQ_WREQ_BIT(SQ_WREQ_OUTPUT))) {
		sq_buf_free(&o->inflight->data);
		free(o->inflight);
	}
	o->inflight = NULL;
	sq_output_close(app);
}
