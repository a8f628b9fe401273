#!/bin/sh
# test_history_refresh.sh - the console's history refreshes are
# incremental: the first fetch reads the whole window (sacct -S
# now-3600seconds for `--since 1h`), later ones only what changed since
# the last (with an overlap, SQUALL_HISTORY_OVERLAP=5 here) and merge it.
# In a private tmux server, with --record keeping every command line: a
# job of alice that ended 10 s before the console started is shown; one
# that ends while it runs appears after `r`; the first one is still shown
# after that although the later sacct did not return it (the merge kept
# it); the recorded sacct lines are one whole window, then shorter ones.
# Cancels only its own jobs, by id.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
sock=squall-histref-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
	T kill-server 2>/dev/null
	# shellcheck disable=SC2046
	[ -s "$tmp/mine" ] && scancel $(cat "$tmp/mine") 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v tmux >/dev/null 2>&1 || {
	echo "skip - tmux is not installed"
	exit 77
}
if ! slurm sacct -n -X -S now-60seconds -o JobID >/dev/null 2>&1; then
	echo "skip - sacct (slurmdbd) does not answer"
	exit 77
fi
tag=sqhr$$

# run NAME: a one-second job of alice in partition high; its id in $tmp/NAME
run() {
	_id=$(cd /tmp && runuser -u alice -- env -u SQUEUE_FORMAT sbatch -A astro \
		--parsable -o /dev/null -D /tmp -p high -c 1 -t 2 -J "$tag-$1" \
		--wrap 'sleep 1') || return 1
	echo "$_id" >>"$tmp/mine"
	echo "$_id" >"$tmp/$1"
}
# ended ID: accounting has the job as COMPLETED (within 60 s)
ended() {
	_i=0
	while [ $_i -lt 60 ]; do
		[ "$(slurm sacct -n -X -P -j "$1" -o State 2>/dev/null)" = COMPLETED ] &&
			return 0
		sleep 1
		_i=$((_i + 1))
	done
	return 1
}
cap() { T capture-pane -p -t t; }
wait_for() { # wait_for PATTERN [SECONDS]
	_i=0
	while [ $_i -lt $((${2:-10} * 5)) ]; do
		cap | grep -Eq -- "$1" && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}

run before || {
	notok "sbatch as alice"
	finish
}
check "a job that ends before the console starts ($(cat "$tmp/before"))" \
	ended "$(cat "$tmp/before")"
# out of reach of the later, short sacct (its overlap is 5 s)
sleep 10

chmod 755 "$tmp"
rec=$tmp/rec
printf 'set refresh 2\n' >"$tmp/conf"
T new-session -d -s t -x 200 -y 50 \
	"SQUALL_CONFIG=$tmp/conf SQUALL_HISTORY_OVERLAP=5 $SQUALL --since 1h --record $rec; sleep 600"
sleep 1
T send-keys -t t ":history" Enter
check "the history view shows the job that ended before" \
	wait_for "^ *$(cat "$tmp/before") .*COMPLETED" 30

run during || notok "sbatch as alice (second job)"
check "a job that ends while the console runs ($(cat "$tmp/during"))" \
	ended "$(cat "$tmp/during")"
# (names are a hidden column: the filter goes by id; newest end first)
T send-keys -t t "/^ *($(cat "$tmp/before")|$(cat "$tmp/during")) " Enter
# a run that ended in the second of the query may come only with the next
# one (the overlap of the next refresh covers it): a moment first, and r
# twice at most
sleep 3
T send-keys -t t r
wait_for "^ *$(cat "$tmp/during") .*COMPLETED" 15 || T send-keys -t t r
check "after r: the new job is in the history view" \
	wait_for "^ *$(cat "$tmp/during") .*COMPLETED" 15
check "after r: the job that ended before is still shown (merged)" \
	wait_for "^ *$(cat "$tmp/before") .*COMPLETED" 2
T send-keys -t t q
sleep 1

# the recorded sacct command lines, in order: -S values of the history
# fetches (the events view uses sacct too, with -s PR,RQ)
awk -F'\t' '$4 == "sacct" && $0 !~ /PR,RQ/ {
	for (i = 5; i <= NF; i++) if ($i == "-S") print $(i + 1) }' \
	"$rec/index.tsv" >"$tmp/starts"
check "the first history fetch reads the whole window (now-3600seconds)" \
	test "$(head -1 "$tmp/starts")" = now-3600seconds
secs=$(sed -n '2,$s/^now-\([0-9]*\)seconds$/\1/p' "$tmp/starts" | head -1)
check "a later one reads only the time since the last, and an overlap ($(sed -n 2p "$tmp/starts"))" \
	test -n "$secs" -a "${secs:-99999}" -lt 3600
# the outputs of the history sacct lines: the last one lacks the job that
# ended before, which the console still showed
last=$(awk -F'\t' '$4 == "sacct" && $0 !~ /PR,RQ/ { f = $3 } END { print f }' \
	"$rec/index.tsv")
check "the later sacct did not return the job that ended before ($last)" \
	sh -c "! grep -q '^$(cat "$tmp/before")|' '$rec/$last'"
finish
