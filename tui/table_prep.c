/*
 * table_prep.c - the table's sort thread. At a million jobs one sort takes
 * tens of milliseconds, more than a keystroke may; so when a snapshot of
 * SQ_TABLE_PREP_MIN rows or more comes, a second thread orders its rows
 * by each shown column (ascending, with the ties that give the descending
 * order, core/query/order.c) while the UI thread goes on, and the table's sort
 * takes the made order. The thread reads the snapshot only (immutable,
 * referenced) and writes only its own slots; a slot is handed over under
 * the mutex once done and stays untouched until the next start.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/query/order.h"
#include "core/model/snapshot.h"
#include "core/base/util.h"
#include "core/model/view.h"
#include "tui/table_prep.h"
#include "tui/table_row.h"

enum { SLOT_TODO, SLOT_BUSY, SLOT_DONE, SLOT_FAIL };

struct slot {
	int col, state;
	uint32_t *v; /* ascending order */
	unsigned char *ties;
	size_t vcap, tcap, npres;
};

struct sq_table_prep {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	int running; /* th is to be joined */
	int stop;

	struct sq_snapshot *snap; /* our reference */
	const struct sq_view_def *def;
	struct slot slot[SQ_TABLE_MAX_COLS];
	int nslots;
	struct sq_order_ws ws; /* the thread's scratch */
	double t0, t1;         /* start, end (ms) */
};

struct sq_table_prep *
sq_table_prep_new(void)
{
	struct sq_table_prep *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	if (pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p);
		return NULL;
	}
	if (pthread_cond_init(&p->cv, NULL) != 0) {
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL;
	}
	return p;
}

/* Grow-only buffer (contents lost). */
static void *
grow(void *b, size_t *cap, size_t n)
{
	if (*cap >= n)
		return b;
	free(b);
	*cap = 0;
	b = malloc(n);
	if (b != NULL)
		*cap = n;
	return b;
}

static void *
run(void *arg)
{
	struct sq_table_prep *p = arg;
	size_t n = p->snap->nrows;
	int i;

	for (i = 0; i < p->nslots; i++) {
		struct slot *s = &p->slot[i];
		int ok;

		pthread_mutex_lock(&p->mu);
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		s->state = SLOT_BUSY;
		pthread_mutex_unlock(&p->mu);
		s->v = grow(s->v, &s->vcap, (n ? n : 1) * sizeof(*s->v));
		s->ties = grow(s->ties, &s->tcap, n / 8 + 1);
		ok = s->v != NULL && s->ties != NULL &&
		     sq_order_rows_ties(p->snap, &p->def->cols[s->col], s->v,
					s->ties, &s->npres, &p->ws) == 0;
		pthread_mutex_lock(&p->mu);
		s->state = ok ? SLOT_DONE : SLOT_FAIL;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	/* the sort scratch is tens of megabytes at a million rows: given
	 * back until the next snapshot (the orders stay) */
	sq_order_ws_free(&p->ws);
	pthread_mutex_lock(&p->mu);
	p->t1 = sq_util_now_ms();
	/* slots never begun fail: nobody waits for them */
	for (i = 0; i < p->nslots; i++) {
		if (p->slot[i].state == SLOT_TODO)
			p->slot[i].state = SLOT_FAIL;
	}
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Stop the thread and forget its snapshot. */
static void
stop(struct sq_table_prep *p)
{
	if (p->running) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->th, NULL);
		p->running = 0;
	}
	p->stop = 0;
	p->nslots = 0;
	sq_snapshot_unref(p->snap);
	p->snap = NULL;
}

void
sq_table_prep_free(struct sq_table_prep *p)
{
	int i;

	if (p == NULL)
		return;
	stop(p);
	for (i = 0; i < SQ_TABLE_MAX_COLS; i++) {
		free(p->slot[i].v);
		free(p->slot[i].ties);
	}
	sq_order_ws_free(&p->ws);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

int
sq_table_prep_start(struct sq_table_prep *p, struct sq_snapshot *snap,
		    const struct sq_view_def *def, const int *cols, int ncols)
{
	int i;

	stop(p);
	if (snap == NULL || ncols <= 0 || snap->nrows < SQ_TABLE_PREP_MIN ||
	    snap->nrows > UINT32_MAX)
		return 0;
	if (ncols > SQ_TABLE_MAX_COLS)
		ncols = SQ_TABLE_MAX_COLS;
	for (i = 0; i < ncols; i++) {
		p->slot[i].col = cols[i];
		p->slot[i].state = SLOT_TODO;
	}
	p->nslots = ncols;
	p->def = def;
	p->snap = sq_snapshot_ref(snap);
	p->t0 = sq_util_now_ms();
	p->t1 = 0;
	if (pthread_create(&p->th, NULL, run, p) != 0) {
		p->nslots = 0;
		sq_snapshot_unref(p->snap);
		p->snap = NULL;
		return -1;
	}
	p->running = 1;
	return 0;
}

/* The done slot of col for snap, or NULL (waiting while it is made). */
static struct slot *
done_slot(struct sq_table_prep *p, const struct sq_snapshot *snap, int col)
{
	struct slot *s = NULL;
	int i, done;

	if (p == NULL || p->snap == NULL || p->snap != snap)
		return NULL;
	for (i = 0; i < p->nslots && s == NULL; i++) {
		if (p->slot[i].col == col)
			s = &p->slot[i];
	}
	if (s == NULL)
		return NULL;
	pthread_mutex_lock(&p->mu);
	/* the one being made: ready sooner than made again here */
	while (s->state == SLOT_BUSY)
		pthread_cond_wait(&p->cv, &p->mu);
	done = s->state == SLOT_DONE;
	pthread_mutex_unlock(&p->mu);
	/* a done slot stays as it is until the next start (this thread) */
	return done ? s : NULL;
}

int
sq_table_prep_get(struct sq_table_prep *p, const struct sq_snapshot *snap,
		  int col, int desc, uint32_t *order)
{
	struct slot *s = done_slot(p, snap, col);

	if (s == NULL)
		return 0;
	if (desc)
		sq_order_flip(s->v, s->ties, s->npres, snap->nrows, order);
	else
		memcpy(order, s->v, snap->nrows * sizeof(*order));
	return 1;
}

const uint32_t *
sq_table_prep_asc(struct sq_table_prep *p, const struct sq_snapshot *snap,
		  int col)
{
	struct slot *s = done_slot(p, snap, col);

	return s != NULL ? s->v : NULL;
}

double
sq_table_prep_wait(struct sq_table_prep *p)
{
	double ms = 0;

	if (p == NULL || !p->running)
		return 0;
	pthread_join(p->th, NULL);
	p->running = 0;
	if (p->t1 > 0)
		ms = p->t1 - p->t0;
	return ms;
}
