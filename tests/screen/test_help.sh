#!/bin/sh
# tests/screen/test_help.sh - the `?` pane's columns and :messages, on the
# recorded 22.05 session (tests/fixtures/replay/22.05; no cluster): keys
# of different widths and a wide character (a key bound to 日) leave the
# action names and their help in one column each; an action's help starts
# in one column whatever the width of its key, a command's (:audit and
# :undo, rows of the command table, among them) in one column too; an
# error wider than the screen ends in "(:messages)" on the message line,
# and :messages shows it whole (issue 45, item 6).
# Env: SQUALL (default ./squall). Prints ok/not ok; exit 1 on a failure.
TAG=help
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
command -v python3 >/dev/null 2>&1 || skip "python3 measures display widths"

# dcol WORD: the display column where WORD begins on the screen's first
# line that holds it (wide characters count two), -1 when none does
dcol() {
	cap >"$WORK/screen"
	python3 - "$1" "$WORK/screen" <<'PY'
import sys, unicodedata
word, path = sys.argv[1], sys.argv[2]
for line in open(path, encoding="utf-8"):
    i = line.find(word)
    if i >= 0:
        print(sum(2 if unicodedata.east_asian_width(c) in "WF" else 1
                  for c in line[:i]))
        break
else:
    print(-1)
PY
}
same() { # same DESCRIPTION WORD...: every WORD begins in one column
	d=$1
	shift
	want=$(dcol "$1")
	got=
	for w in "$@"; do
		c=$(dcol "$w")
		got="$got $w@$c"
		[ "$c" = "$want" ] && [ "$c" != -1 ] || {
			notok "$d:$got"
			return
		}
	done
	ok "$d"
}

printf 'bind 日 refresh\nbind é :nodes\n' >"$WORK/config"
T new-session -d -s t -x 130 -y 90 \
	"LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=$WORK/config $SQUALL --replay $ROOT/tests/fixtures/replay/22.05; sleep 600"
check "replay: the jobs view is there" wait_for 'sort:' 10
keys '?'
check "? opens the help" wait_for 'Keys' 5
same "keys: the action names align (r, 日 among them)" \
	' down ' ' page-down ' ' refresh ' ' redraw ' ' :nodes'
same "keys: their help aligns" \
	'move the cursor down' 'fetch the view' 'show this help' \
	"jobs, history: the job's"
same "actions: the help aligns whatever the key and command" \
	'cancel the jobs' 'hold pending jobs' \
	'requeue running jobs and hold them' 'submit a batch script'
same "commands: their help aligns, :audit and :undo among them" \
	'untag every row of the view' 'the audit log of actions' \
	'offer the inverse of the last action' 'the errors in full'
keys Escape

# a long error: cut on the message line, whole in :messages
T resize-window -t t -x 80 -y 24
long=nosuchview$(printf '%090d' 0)tail
keys ":$long" Enter
check "the message line says where to read a cut error" \
	wait_for '\(:messages\) *$' 5
keys ':messages' Enter
check ":messages shows it whole" wait_for 'try :help\)' 5
check ":messages no longer says No errors." not wait_for 'No errors' 1
echo "1..$count"
exit $failed
