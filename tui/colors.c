/*
 * colors.c - colour roles to curses attributes: one colour pair per role
 * from the theme, colours the terminal lacks mapped down (256 -> 16 -> 8),
 * and a bold/reverse/underline fallback when NO_COLOR is set, `set color
 * off`, or the terminal has no colours. Also which role a cell's state
 * text gets. The attributes of the roles are the console's
 * (app->role_attr), set here.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/history.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/table.h"

/* Attributes of each role without colour (as themes/mono.theme). */
static const unsigned mono[SQ_ROLE_COUNT] = {
	[SQ_ROLE_TITLE] = SQ_ATTR_REVERSE | SQ_ATTR_BOLD,
	[SQ_ROLE_HEADER] = SQ_ATTR_BOLD | SQ_ATTR_UNDERLINE,
	[SQ_ROLE_HEADER_SORT] =
	    SQ_ATTR_BOLD | SQ_ATTR_UNDERLINE | SQ_ATTR_REVERSE,
	[SQ_ROLE_HEADER_CURSOR] = SQ_ATTR_REVERSE,
	[SQ_ROLE_SELECTION] = SQ_ATTR_REVERSE,
	[SQ_ROLE_TAGGED] = SQ_ATTR_BOLD,
	[SQ_ROLE_MATCH] = SQ_ATTR_UNDERLINE,
	[SQ_ROLE_STATUS] = SQ_ATTR_REVERSE,
	[SQ_ROLE_STATUS_ERROR] = SQ_ATTR_REVERSE | SQ_ATTR_BOLD,
	[SQ_ROLE_STALE] = SQ_ATTR_REVERSE | SQ_ATTR_BOLD | SQ_ATTR_BLINK,
	[SQ_ROLE_PROMPT] = SQ_ATTR_BOLD,
	[SQ_ROLE_DIALOG_TITLE] = SQ_ATTR_BOLD | SQ_ATTR_UNDERLINE,
	[SQ_ROLE_DANGER] = SQ_ATTR_REVERSE | SQ_ATTR_BOLD,
	[SQ_ROLE_HELP_KEY] = SQ_ATTR_BOLD,
	[SQ_ROLE_TREE] = SQ_ATTR_DIM,
	[SQ_ROLE_BAR_USED] = SQ_ATTR_REVERSE,
	[SQ_ROLE_BAR_FREE] = SQ_ATTR_DIM,
	[SQ_ROLE_STATE_RUNNING] = SQ_ATTR_BOLD,
	[SQ_ROLE_STATE_HELD] = SQ_ATTR_UNDERLINE,
	[SQ_ROLE_STATE_COMPLETING] = SQ_ATTR_DIM,
	[SQ_ROLE_STATE_DONE] = SQ_ATTR_DIM,
	[SQ_ROLE_STATE_FAILED] = SQ_ATTR_BOLD | SQ_ATTR_UNDERLINE,
	[SQ_ROLE_OUTCOME_WARN] = SQ_ATTR_UNDERLINE,
	[SQ_ROLE_OUTCOME_FAIL] = SQ_ATTR_BOLD | SQ_ATTR_UNDERLINE,
	[SQ_ROLE_NODE_MIXED] = SQ_ATTR_BOLD,
	[SQ_ROLE_NODE_ALLOC] = SQ_ATTR_REVERSE,
	[SQ_ROLE_NODE_DRAIN] = SQ_ATTR_UNDERLINE,
	[SQ_ROLE_NODE_DOWN] = SQ_ATTR_REVERSE | SQ_ATTR_BOLD,
	[SQ_ROLE_NODE_OTHER] = SQ_ATTR_DIM,
};

static int
curses_attrs(unsigned a)
{
	int r = A_NORMAL;

	if (a & SQ_ATTR_BOLD)
		r |= A_BOLD;
	if (a & SQ_ATTR_DIM)
		r |= A_DIM;
	if (a & SQ_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & SQ_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & SQ_ATTR_BLINK)
		r |= A_BLINK;
	if (a & SQ_ATTR_STANDOUT)
		r |= A_STANDOUT;
#ifdef A_ITALIC
	if (a & SQ_ATTR_ITALIC)
		r |= A_ITALIC;
#endif
	return r;
}

/* The nearest basic colour (0-7) of an xterm-256 colour. */
static short
to_basic(short c, int *bright)
{
	int r, g, b, mx;

	*bright = 0;
	if (c < 8)
		return c;
	if (c < 16) {
		*bright = 1;
		return (short)(c - 8);
	}
	if (c >= 232) { /* grey ramp */
		int l = c - 232;

		*bright = l >= 12;
		return l < 6 ? COLOR_BLACK : COLOR_WHITE;
	}
	c -= 16;
	r = c / 36;
	g = (c / 6) % 6;
	b = c % 6;
	mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
	*bright = mx >= 4;
	/* a channel counts when it is at least half of the strongest */
	if (mx == 0)
		return COLOR_BLACK;
	return (short)((r * 2 >= mx ? 1 : 0) | (g * 2 >= mx ? 2 : 0) |
		       (b * 2 >= mx ? 4 : 0));
}

static short
fit(short c, int *bold)
{
	int bright;

	if (c < 0 || c < COLORS)
		return c;
	c = to_basic(c, &bright);
	if (bright && COLORS >= 16)
		return (short)(c + 8);
	if (bright && bold != NULL)
		*bold = 1;
	return c;
}

void
sq_colors_apply(struct sq_app *app)
{
	const char *nc = getenv("NO_COLOR");
	int i;

	app->colors = has_colors() && app->conf->num[SQ_OPT_COLOR] &&
		      (nc == NULL || *nc == '\0');
	if (app->colors) {
		start_color();
		use_default_colors();
		if (COLOR_PAIRS < SQ_ROLE_COUNT + 1)
			app->colors = 0;
	}
	for (i = 0; i < SQ_ROLE_COUNT; i++) {
		const struct sq_color *c = &app->conf->colors[i];
		int bold = 0;
		short fg, bg;

		if (!app->colors) {
			app->role_attr[i] = curses_attrs(mono[i]);
			continue;
		}
		fg = fit(c->fg, &bold);
		bg = fit(c->bg, NULL);
		init_pair((short)(i + 1), fg, bg);
		app->role_attr[i] = (int)COLOR_PAIR(i + 1) |
				    curses_attrs(c->attrs) |
				    (bold ? A_BOLD : 0);
	}
}

int
sq_color_attr(const struct sq_app *app, int role)
{
	if (role < 0 || role >= SQ_ROLE_COUNT)
		return A_NORMAL;
	return app->role_attr[role];
}

static int
starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int
job_state_role(const char *s)
{
	if (!strcmp(s, "RUNNING") || !strcmp(s, "R"))
		return SQ_ROLE_STATE_RUNNING;
	if (!strcmp(s, "PENDING") || !strcmp(s, "PD") ||
	    !strcmp(s, "REQUEUED") || !strcmp(s, "RQ"))
		return SQ_ROLE_STATE_PENDING;
	if (!strcmp(s, "SUSPENDED") || !strcmp(s, "S") ||
	    !strcmp(s, "STOPPED") || !strcmp(s, "ST") ||
	    starts(s, "REQUEUE_HOLD") || !strcmp(s, "RH"))
		return SQ_ROLE_STATE_HELD;
	if (!strcmp(s, "COMPLETING") || !strcmp(s, "CG") ||
	    !strcmp(s, "CONFIGURING") || !strcmp(s, "CF"))
		return SQ_ROLE_STATE_COMPLETING;
	if (!strcmp(s, "COMPLETED") || !strcmp(s, "CD"))
		return SQ_ROLE_STATE_DONE;
	if (!strcmp(s, "FAILED") || !strcmp(s, "F") || starts(s, "CANCELLED") ||
	    !strcmp(s, "CA") || !strcmp(s, "TIMEOUT") || !strcmp(s, "TO") ||
	    !strcmp(s, "NODE_FAIL") || !strcmp(s, "NF") ||
	    !strcmp(s, "PREEMPTED") || !strcmp(s, "PR") ||
	    !strcmp(s, "OUT_OF_MEMORY") || !strcmp(s, "OOM") ||
	    !strcmp(s, "BOOT_FAIL") || !strcmp(s, "BF") ||
	    !strcmp(s, "DEADLINE") || !strcmp(s, "DL"))
		return SQ_ROLE_STATE_FAILED;
	return -1;
}

static int
node_state_role(const char *s)
{
	size_t l = strlen(s);

	if (strstr(s, "down") || strstr(s, "fail") || strstr(s, "DOWN") ||
	    (l > 0 && s[l - 1] == '*') || strstr(s, "not_responding"))
		return SQ_ROLE_NODE_DOWN;
	if (strstr(s, "drain") || strstr(s, "DRAIN"))
		return SQ_ROLE_NODE_DRAIN;
	if (starts(s, "alloc") || starts(s, "ALLOC"))
		return SQ_ROLE_NODE_ALLOC;
	if (starts(s, "mix") || starts(s, "MIX") || starts(s, "compl"))
		return SQ_ROLE_NODE_MIXED;
	if (starts(s, "idle") || starts(s, "IDLE"))
		return SQ_ROLE_NODE_IDLE;
	if (starts(s, "reserv") || starts(s, "maint") || starts(s, "futur") ||
	    starts(s, "plann") || starts(s, "reboot") || starts(s, "power") ||
	    starts(s, "INACTIVE"))
		return SQ_ROLE_NODE_OTHER;
	return -1;
}

int
sq_cell_role(const struct sq_table *t, int col, const char *text)
{
	unsigned role = t->def->cols[t->cols[col]].flags & SQ_COL_ROLE;

	if (*text == '\0')
		return -1;
	switch (role) {
	case SQ_COL_ROLE_JOB_STATE:
		return job_state_role(text);
	case SQ_COL_ROLE_NODE_STATE:
		return node_state_role(text);
	case SQ_COL_ROLE_OUTCOME:
		/* runs coloured by outcome */
		switch (sq_history_outcome(text)) {
		case SQ_HIST_OK:
			return SQ_ROLE_OUTCOME_OK;
		case SQ_HIST_WARN:
			return SQ_ROLE_OUTCOME_WARN;
		case SQ_HIST_FAIL:
			return SQ_ROLE_OUTCOME_FAIL;
		default:
			return job_state_role(text);
		}
	default:
		return -1;
	}
}

int
sq_node_state_role(const char *state)
{
	int r = node_state_role(state);

	return r < 0 ? SQ_ROLE_NORMAL : r;
}
