/*
 * ssh_node.c - `:ssh [NODE]` and its key: leave the screen (endwin), show
 * the command, run the user's ssh to the node (the cursor's node, or a
 * running job's first node) in the foreground, and come back to the
 * console when it exits. argv from core/conf/sshcmd.c, run without a shell.
 * It changes nothing on the cluster, so read-only mode allows it.
 */
#include <curses.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/model/model.h"
#include "core/conf/sshcmd.h"
#include "tui/app.h"
#include "tui/idle.h"
#include "tui/ssh_node.h"
#include "tui/table.h"
#include "tui/views.h"

extern char **environ;

/* The node of the cursor row, as its view says (a node, a running
 * job's first node). */
static int
cursor_node(struct sq_app *app, char *out, size_t n)
{
	struct sq_table *t = sq_app_table(app);
	const void *rec = sq_table_cur(t);

	if (rec == NULL || t->ops == NULL || t->ops->node_of == NULL)
		return -1;
	return t->ops->node_of(rec, out, n);
}

/* Run argv in the foreground with the default signal dispositions; the
 * console ignores SIGINT and SIGQUIT meanwhile, as system() does. */
static int
run_fg(char *const argv[], int *status)
{
	struct sigaction ign, oint, oquit;
	posix_spawnattr_t at;
	sigset_t def, none;
	pid_t pid;
	int rc, ws = 0;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGQUIT);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	sigaddset(&def, SIGWINCH);
	sigemptyset(&none);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF |
					  POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawnp(&pid, argv[0], NULL, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	if (rc == 0) {
		while (waitpid(pid, &ws, 0) == -1)
			;
		*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	return rc;
}

int
sq_ssh_node(struct sq_app *app, const char *node_arg)
{
	struct sq_sshcmd *c;
	struct sq_err err;
	char node[256];
	int status = 0, rc;

	while (*node_arg == ' ')
		node_arg++;
	if (*node_arg != '\0') {
		snprintf(node, sizeof(node), "%s", node_arg);
		node[strcspn(node, " ")] = '\0';
	} else if (cursor_node(app, node, sizeof(node)) == -1) {
		sq_app_message(app, 1,
			       "ssh: put the cursor on a node or a running "
			       "job, or name a node (:ssh NODE)");
		return -1;
	}
	c = malloc(sizeof(*c));
	if (c == NULL)
		return -1;
	sq_err_clear(&err);
	if (sq_sshcmd_build(c, &app->cfg, node, &err) == -1) {
		sq_app_message(app, 1, "ssh: %s", err.msg);
		free(c);
		return -1;
	}
	sq_idle_end(app);
	def_prog_mode();
	endwin();
	printf("squall: %s\n", c->line);
	fflush(stdout);
	rc = run_fg(c->argv, &status);
	if (rc != 0 || status != 0) {
		int ch;

		if (rc != 0)
			printf("squall: cannot run ssh: %s\n", strerror(rc));
		else
			printf("squall: ssh exited with status %d\n", status);
		printf("squall: press Enter to return to the console\n");
		fflush(stdout);
		while ((ch = getchar()) != EOF && ch != '\n')
			;
		clearerr(stdin);
	}
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	sq_idle_start(app);
	if (rc != 0)
		sq_app_message(app, 1, "ssh %s: cannot run ssh: %s", node,
			       strerror(rc));
	else
		sq_app_message(app, status != 0, "ssh %s: exit status %d", node,
			       status);
	app->dirty = 1;
	free(c);
	return rc == 0 && status == 0 ? 0 : -1;
}
