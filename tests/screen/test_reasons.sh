#!/bin/sh
# tests/screen/test_reasons.sh - reason templates in the console: the real
# binary in a private tmux server on the live testbed (local backend) with
# a config file defining two templates. `:reason` alone lists them, Tab
# completes @NAME (and reason=@NAME), `:drain @maint` previews the
# template's text (n answers No: n2 is not drained, checked with scontrol)
# and an unknown @NAME is reported with the defined names. Nothing on the
# cluster is changed.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SQUALL=${SQUALL:-$ROOT/squall}
case $SQUALL in /*) ;; *) SQUALL=$(pwd)/$SQUALL ;; esac
TB=${TB:-/tmp/slurmtb}
SOCK=squall-reasons-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/squall-reasons.XXXXXX") || exit 1
failed=0
count=0

T() { tmux -L "$SOCK" -f /dev/null "$@"; }
S() { env -u SQUEUE_FORMAT -u SINFO_FORMAT LC_ALL=C SLURM_TIME_FORMAT=%s "$@"; }
cleanup() {
	T kill-server 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ok() {
	count=$((count + 1))
	echo "ok $count - $*"
}
notok() {
	count=$((count + 1))
	echo "not ok $count - $*"
	T capture-pane -p -t t 2>/dev/null | sed 's/^/#   /' | grep -v '^#   *$' | tail -12
	failed=1
}
check() {
	d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
skip() {
	echo "skip - $*"
	exit 77
}
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
[ -x "$SQUALL" ] || {
	echo "not ok - no binary at $SQUALL"
	exit 1
}
TB=$TB "$ROOT/tests/testbed/status" >/dev/null 2>&1 ||
	skip "the testbed is not running (tests/testbed/start)"

cat >"$WORK/config" <<'EOF'
reason maint Planned maintenance
reason disk "Disk failure: replace disk, ticket needed"
EOF
export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=$WORK/config
export XDG_STATE_HOME=$WORK/state

cap() { T capture-pane -p -t t; }
keys() { T send-keys -t t "$@"; }
wait_for() { # wait_for PATTERN [SECONDS]
	i=0
	while [ $i -lt $((${2:-10} * 5)) ]; do
		cap | grep -Eq -- "$1" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}
drained() { S scontrol -o show node n2 | grep -q 'State=[A-Z+]*DRAIN'; }
not() { ! "$@"; }
was_drained=no
drained && was_drained=yes

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":nodes" Enter
wait_for '^ squall  :nodes ' 5
keys / '@node=n2' Enter
sleep 0.5

keys ":reason" Enter
check ":reason alone lists the templates" \
	wait_for '@maint +Planned maintenance' 3
check ":reason: every template, with its text" \
	wait_for '@disk +Disk failure: replace disk, ticket needed' 1
keys Escape

keys ":drain @m" Tab
check "Tab completes @m to @maint" wait_for '^:drain @maint *$' 3
keys C-u "drain reason=@d" Tab
check "Tab completes reason=@d to reason=@disk" \
	wait_for '^:drain reason=@disk *$' 3
keys C-u "drain @" Tab
check "Tab on @ gives the first template" wait_for '^:drain @disk *$' 3
keys Tab
check "Tab again the next one" wait_for '^:drain @maint *$' 3
keys Escape

keys D
wait_for ':drain' 3
keys '@maint' Enter
check "the preview shows the template's text, not @maint" \
	wait_for "scontrol update nodename=n2 state=drain reason='Planned maintenance'" 5
keys n
check "n answers No" wait_for 'drain: not run' 3
if [ $was_drained = no ]; then
	check "n2 is not drained (scontrol)" not drained
fi

keys ":drain @nope" Enter
check "an unknown @NAME is named, with the defined names" \
	wait_for "unknown reason template '@nope' \(defined: maint disk\)" 3

T send-keys -t t q
[ $failed -eq 0 ]
