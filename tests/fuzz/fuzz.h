/*
 * fuzz.h - what the libFuzzer harnesses share: the input as a
 * NUL-terminated string, fixtures for reference snapshots, and the checks
 * every parsed snapshot goes through (every column of every view of its
 * kind rendered, and no control byte left after sanitizing).
 */
#ifndef SQ_FUZZ_H
#define SQ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/err.h"
#include "core/model/snapshot.h"

/* Abort (a libFuzzer crash) when an invariant does not hold. */
#define SQ_FUZZ_CHECK(c)                                                       \
	do {                                                                   \
		if (!(c))                                                      \
			sq_fuzz_fail(#c, __FILE__, __LINE__);                  \
	} while (0)

void sq_fuzz_fail(const char *what, const char *file, int line);

/* Make a private directory "<base>/sqfuzz-<tag>.XXXXXX" in dir (size n),
 * base /dev/shm when writable (harnesses that write a file for every input
 * spend most of their time in the disk's file system otherwise), else
 * /tmp; aborts on failure. */
void sq_fuzz_tmpdir(char *dir, size_t n, const char *tag);

/* A malloc'd, NUL-terminated copy of the input (never NULL). */
char *sq_fuzz_str(const uint8_t *data, size_t size);

/* tests/fixtures/<rel> ($SQ_FIXTURES overrides the root), malloc'd and
 * NUL-terminated; aborts when missing (the harness is run from the
 * source root by tests/fuzz/run). */
char *sq_fuzz_fixture(const char *rel, size_t *len);

/* Parse a fixture with a text parser into a new snapshot; aborts on
 * failure. For the reference snapshots the harnesses join with. */
typedef int (*sq_fuzz_parse_fn)(char *, struct sq_snapshot *, struct sq_err *);
struct sq_snapshot *sq_fuzz_parse_fixture(enum sq_kind kind,
					  sq_fuzz_parse_fn parse,
					  const char *rel);

/* Text as the TUI and batch mode would show it: sanitized, and checked
 * to hold no control byte and no invalid UTF-8. */
void sq_fuzz_check_display(const char *s);

/* Render every column (text and number) of every view of s's kind for
 * every row, through sq_fuzz_check_display(). */
void sq_fuzz_render(const struct sq_snapshot *s);

/* A HISTORY snapshot after its parser: steps inside the snapshot, the
 * summaries add up to the runs, and every run's name and state tried as a
 * `:since` window (a window accepted gives a plain sacct -S value). */
void sq_fuzz_history(struct sq_snapshot *s);

/*
 * Host names the bracket ranges of an input could expand to: within a
 * word the groups multiply ("n[0-99]x[0-9]" is 1,000), words add up;
 * JSON's \u005b counts as '['. The slurm.conf harness skips inputs past
 * SQ_FUZZ_MAX_NAMES (those making rows lower, below): a few bytes like
 * "n[0-99999]" become 100,000 rows, and a corpus full of them ran at two
 * executions a second measuring expansion (core_hostlist's job, and the unit
 * tests' at scale), not the parser.
 */
#define SQ_FUZZ_MAX_NAMES 4096
size_t sq_fuzz_range_names(const uint8_t *data, size_t size);

/*
 * The same for slurm.conf, where a host list is a whole word: words end
 * only at blanks and at a ',' outside brackets. A NodeName of
 * "a[0-49]:b[0-49]:c[0-39]" is 100,000 names, not the 140 that ':' as a
 * separator (right for JSON and CLI text) counts; a line continued by '\'
 * goes on in the next, so a newline does not end a word either (that can
 * only count more). Such lines took spec_slurmconf's session-13 run from
 * 2,400 executions a second to one.
 */
size_t sq_fuzz_conf_names(const uint8_t *data, size_t size);

/*
 * Harnesses that make a row of every host stop lower: history (a run's
 * per-node summaries, rendered, checked and merged twice, about 50 us a
 * name under ASan) and the spec JSON (each host compared with the
 * recorded nodes). A corpus of 2,000-host runs (100 ms each) took
 * cli_sacct_history from 3,300 to 600 executions a second, and spec_json
 * held 20,000-host inputs (200 ms) after two minutes. Rows at scale are
 * the unit tests' (test_history test_nodes_at_scale, test_spec
 * test_pool_at_scale).
 */
#define SQ_FUZZ_MAX_ROW_NAMES 256

/* A line for /bin/sh: every byte outside '...' is plain ([A-Za-z0-9 _=%-]),
 * every quote is closed, nothing is a control byte, and nothing inside
 * quotes is one that csh or fish would still see ('!', backslash). */
void sq_fuzz_check_sh_line(const char *s);

/* An argv about to be run (locally or over ssh): no control byte in any
 * word, and sq_shell_join() makes a safe line of it. */
void sq_fuzz_check_argv(const char *const *argv);

#endif
