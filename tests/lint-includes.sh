#!/bin/sh
# lint-includes.sh - the layering rule of DESIGN.md section 2, checked on
# #include lines: core/ includes only core/ and system headers (no curses,
# libssh, curl, json-c); only backends/cli/ssh* includes libssh; only
# backends/rest/ includes curl; only tui/ includes curses; tui/ reaches
# backends only through backends/backend.h.
fail=0
bad() {
	echo "layering: $*" >&2
	fail=1
}
check() { # check FILES PATTERN MESSAGE
	files=$1 pat=$2 msg=$3
	for f in $files; do
		[ -f "$f" ] || continue
		if grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pat)" "$f" >/dev/null; then
			bad "$f: $msg: $(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pat)" "$f" | head -1)"
		fi
	done
}
all=$(find . -path ./tests -prune -o \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||')
core=$(echo "$all" | grep '^core/')
not_ssh=$(echo "$all" | grep -v '^backends/cli/ssh')
not_rest=$(echo "$all" | grep -v '^backends/rest/')
not_tui=$(echo "$all" | grep -v '^tui/')
not_json=$(echo "$all" | grep -vE '^(backends/(rest|slurmjson|replay)/|batch/|spec/|tui/)')
check "$core" 'backends/|tui/|curses|ncurses|libssh|curl/|json-c|json\.h' "core/ must not include backends, tui or external I/O libraries"
check "$not_ssh" 'libssh/' "only backends/cli/ssh* may include libssh"
check "$not_rest" 'curl/' "only backends/rest/ may include curl"
check "$not_tui" 'curses\.h|ncurses|ncursesw' "only tui/ may include curses"
check "$not_json" 'json-c/|json\.h' "json-c belongs to backends/slurmjson, rest, replay, batch/, spec/ and tui/"
for f in $(echo "$all" | grep '^tui/'); do
	if grep -nE '#[[:space:]]*include[[:space:]]*"backends/' "$f" | grep -v 'backends/backend.h' >/dev/null; then
		bad "$f: tui/ reaches backends only through backends/backend.h"
	fi
done
[ $fail -eq 0 ] && echo "layering ok"
exit $fail
