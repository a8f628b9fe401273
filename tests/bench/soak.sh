#!/bin/sh
# tests/bench/soak.sh - hours without a leak: the console (tmux, 200x50)
# on a generated 100,000-job replay recording refreshing every second
# (`set refresh 1`; the overview's history is fed from every refresh),
# its RSS read from /proc after the warm-up and at the end, and the
# growth in between printed. The full run is an hour with a ten-minute
# warm-up; SOAK_SECONDS shortens it (the warm-up is then a sixth of it).
# Env: SQUALL (default ./squall), SOAK_SECONDS (3600), SOAK_WARM (600, or
# a sixth of a shorter run), SOAK_JOBS (100000).
# Run by tests/bench/run (make bench); alone: sh tests/bench/soak.sh.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
SQUALL=${SQUALL:-$root/squall}
case $SQUALL in /*) ;; *) SQUALL=$(pwd)/$SQUALL ;; esac
secs=${SOAK_SECONDS:-3600}
jobs=${SOAK_JOBS:-100000}
warm=600
[ "$secs" -lt 3600 ] && warm=$((secs / 6))
warm=${SOAK_WARM:-$warm}
command -v tmux >/dev/null || { echo "soak: skipped (no tmux)"; exit 0; }
work=$(mktemp -d /tmp/squall-soak.XXXXXX) || exit 1
sock=squall-soak-$$
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

(cd "$root" && make -s -f Makefile -f tests/bench/bench.mk \
	BENCH_OUT="$work/bin" bench-drivers) >"$work/build.log" 2>&1 || {
	echo "soak: cannot build the bench drivers"
	exit 1
}
B=$work/bin
FMT=$("$B/bench_refresh" -f | sed -n 1p)
PFMT=$("$B/bench_refresh" -f | sed -n 2p)
"$B/gen_squeue" "$jobs" "$work/sq.txt" "$work/sp.txt" || exit 1
rec=$work/rec
mkdir -p "$rec"
cp "$root/tests/fixtures/cli/22.05/sinfo_V.txt" "$rec/000001-sinfo.out"
cp "$work/sq.txt" "$rec/000002-squeue.out"
cp "$work/sp.txt" "$rec/000003-sprio.out"
cp "$root/tests/fixtures/cli/22.05/sprio_w.txt" "$rec/000004-sprio.out"
t=$(printf '\t')
{
	echo "000001${t}0${t}000001-sinfo.out${t}sinfo${t}-V"
	echo "000002${t}0${t}000002-squeue.out${t}squeue${t}-h${t}-a${t}-O${t}$FMT"
	echo "000003${t}0${t}000003-sprio.out${t}sprio${t}-h${t}-o${t}$PFMT"
	echo "000004${t}0${t}000004-sprio.out${t}sprio${t}-w${t}-h${t}-o${t}$PFMT"
} >"$rec/index.tsv"
printf 'set refresh 1\nset idle-pause 0\n' >"$work/conf"

env SQUALL_CONFIG="$work/conf" TERM=xterm-256color tmux -L "$sock" \
	-f /dev/null new-session -d -x 200 -y 50 "exec $SQUALL --replay $rec"
pid=$(tmux -L "$sock" display -p '#{pane_pid}')
rss() { awk '/^VmRSS/ { print $2 }' /proc/"$pid"/status 2>/dev/null; }
start=$(date +%s)
sleep "$warm"
r0=$(rss)
# keep the terminal "active": a key now and then, so nothing pauses
while [ $(($(date +%s) - start)) -lt "$secs" ]; do
	tmux -L "$sock" send-keys j 2>/dev/null
	sleep 10
done
r1=$(rss)
q=$(tmux -L "$sock" capture-pane -p 2>/dev/null | grep -o '[0-9]* q/min' | tail -1)
if [ -z "$r0" ] || [ -z "$r1" ]; then
	echo "soak: the console did not stay up"
	exit 1
fi
echo "soak: $jobs jobs (replay), refresh 1 s, ran $secs s: RSS ${r0} kB after ${warm} s, ${r1} kB at the end: growth $((r1 - r0)) kB (${q:-q/min not read})"
