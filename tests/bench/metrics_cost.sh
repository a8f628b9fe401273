#!/bin/sh
# metrics_cost.sh - make bench, part 13: the overview's cost to slurmctld
# with and without Slurm's own metrics, on the 26.05 testbed (run in its
# chroot by tests/bench/run, holding its lock; alone:
# tests/testbed/run-release 26.05 sh tests/bench/metrics_cost.sh).
# slurmctld's RPCs are counted with sdiag (by message type, sdiag's own
# left out) around BENCH_OV_RUNS (3) `--once --view overview` refreshes
# through local: reading /metrics/nodes, /partitions and /scheduler
# (slurmctld's HTTP answers are not RPCs: sdiag does not count them),
# then SQUALL_METRICS=off (the nodes' sinfo and sdiag). Per minute is at
# the console's refresh (one every 10 s). Then the console itself (tmux,
# local, refresh 10 s) on :overview for BENCH_OV_SECS (60) with and
# without, and the same time with no squall (the testbed's own RPCs:
# node registrations, job completions), all RPCs counted but the
# counting's own sdiag: a minute's RPCs, and less the idle ones. Prints
# lines and summary rows ("summary-row: measure|goal|value|verdict").
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SQUALL=${SQUALL:-$root/squall}
runs=${BENCH_OV_RUNS:-3}
work=$(mktemp -d /tmp/squall-metricscost.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

row() { printf 'summary-row: %s|%s|%s|%s\n' "$1" "$2" "$3" "$4"; }
rel=$(sinfo -V | awk '{ print $2 }')
rpcs() {
	sdiag 2>/dev/null | awk '
		/statistics by message type/ { f = 1; next }
		/statistics by user/ { f = 0 }
		f && /count:/ && $1 != "REQUEST_STATS_INFO" {
			for (i = 1; i <= NF; i++) if ($i ~ /^count:/) { sub("count:", "", $i); s += $i }
		}
		END { print s + 0 }'
}
# measure NAME [VAR=value]: RPCs of $runs refreshes, per refresh in $per
measure() {
	name=$1
	shift
	a=$(rpcs)
	i=0
	while [ $i -lt "$runs" ]; do
		rm -rf "$work/rec"
		env SQUALL_CONFIG=/dev/null "$@" "$SQUALL" -b local --once \
			--view overview --format tsv --record "$work/rec" \
			>"$work/out" 2>"$work/err" ||
			echo "   $name: squall failed: $(head -1 "$work/err")"
		i=$((i + 1))
	done
	b=$(rpcs)
	per=$(awk -v a="$a" -v b="$b" -v n="$runs" 'BEGIN { printf "%.1f", (b - a) / n }')
	gets=$(grep -c '	GET	' "$work/rec/index.tsv")
	cmds=$(grep -vc '	GET	' "$work/rec/index.tsv")
	src=$(awk -F'\t' '$1 == "source" { print $3 }' "$work/out")
	printf '   %-28s %s slurmctld RPCs a refresh (%s a minute at 10 s), %s commands, %s HTTP GETs; source: %s\n' \
		"$name" "$per" "$(awk -v p="$per" 'BEGIN { printf "%.0f", p * 6 }')" "$cmds" "$gets" "$src"
}
echo "13. The overview's cost to slurmctld on Slurm $rel, with and without its metrics ($runs refreshes each)"
measure "with /metrics"
with=$per
measure "without (SQUALL_METRICS=off)" SQUALL_METRICS=off
without=$per
row "overview ($rel): slurmctld RPCs a minute with /metrics (10 s refresh)" "info" \
	"$(awk -v p="$with" 'BEGIN { printf "%.0f", p * 6 }')" "-"
row "overview ($rel): slurmctld RPCs a minute without /metrics (10 s refresh)" "info" \
	"$(awk -v p="$without" 'BEGIN { printf "%.0f", p * 6 }')" "-"

# --- the console on :overview
command -v tmux >/dev/null || {
	echo "   console: no tmux: not measured"
	exit 0
}
secs=${BENCH_OV_SECS:-60}
sock=squall-metricscost-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
# every type's count, the counting's own sdiag too (one a window: taken off)
rpcs_all() {
	sdiag 2>/dev/null | awk '
		/statistics by message type/ { f = 1; next }
		/statistics by user/ { f = 0 }
		f && /count:/ {
			for (i = 1; i <= NF; i++) if ($i ~ /^count:/) { sub("count:", "", $i); s += $i }
		}
		END { print s + 0 }'
}
# every type's count as "TYPE COUNT" lines, sorted
types() {
	sdiag 2>/dev/null | awk '
		/statistics by message type/ { f = 1; next }
		/statistics by user/ { f = 0 }
		f && /count:/ {
			for (i = 1; i <= NF; i++) if ($i ~ /^count:/) { sub("count:", "", $i); print $1, $i }
		}' | sort
}
# the types that grew between files $1 and $2: "TYPE +N, ..." (busiest first)
grew() {
	join -a 2 -e 0 -o 0,1.2,2.2 "$1" "$2" |
		awk '$3 - $2 > 0 { print $3 - $2, $1 }' | sort -rn |
		awk '{ printf "%s%s +%s", s, $2, $1; s = ", " }'
}
wait_screen() { # wait_screen PATTERN SECONDS
	_i=0
	while [ $_i -lt $(($2 * 5)) ]; do
		T capture-pane -p -t c 2>/dev/null | grep -Eq -- "$1" && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}
# console NAME [VAR=value...]: $secs s of the console (refresh 10 s) on
# :overview, NAME idle: no squall; a minute's RPCs in $min
console() {
	name=$1
	shift
	src=
	if [ "$name" != idle ]; then
		printf 'set refresh 10\n' >"$work/conf"
		T new-session -d -s c -x 200 -y 60 \
			"env SQUALL_CONFIG=$work/conf XDG_STATE_HOME=$work/state $* $SQUALL -b local; sleep 600"
		{ wait_screen '^ squall  :jobs' 30 &&
			T send-keys -t c ":overview" Enter &&
			wait_screen 'source +metrics ' 30; } ||
			echo "   $name: the console's overview did not show"
		sleep 1
	fi
	types >"$work/ta"
	a=$(rpcs_all)
	sleep "$secs"
	b=$(rpcs_all)
	types >"$work/tb"
	by_type=$(grew "$work/ta" "$work/tb")
	if [ "$name" != idle ]; then
		src=$(T capture-pane -p -t c | grep -E 'source +metrics' | head -1 |
			sed -e 's/^ *source  *metrics  *//' -e 's/  *$//')
		T kill-server 2>/dev/null
	fi
	min=$(awk -v a="$a" -v b="$b" -v s="$secs" 'BEGIN { printf "%.0f", (b - a - 1) * 60 / s }')
}
echo "   the console on :overview (refresh 10 s), $secs s each, RPCs a minute:"
console idle
idle=$min
printf '   %-28s %s (the testbed alone)\n      by type in %s s (3 REQUEST_STATS_INFO are the counting): %s\n' "no squall" "$idle" "$secs" "${by_type:-none}"
console "with /metrics"
cwith=$min
printf '   %-28s %s, %s above idle; source: %s\n      by type in %s s (3 REQUEST_STATS_INFO are the counting): %s\n' "$name" "$min" "$((min - idle))" "$src" "$secs" "${by_type:-none}"
console "without (SQUALL_METRICS=off)" SQUALL_METRICS=off
cwithout=$min
printf '   %-28s %s, %s above idle; source: %s\n      by type in %s s (3 REQUEST_STATS_INFO are the counting): %s\n' "$name" "$min" "$((min - idle))" "$src" "$secs" "${by_type:-none}"
row "console overview ($rel): slurmctld RPCs a minute with /metrics, above idle (10 s refresh)" "info" \
	"$((cwith - idle))" "-"
row "console overview ($rel): slurmctld RPCs a minute without /metrics, above idle (10 s refresh)" "info" \
	"$((cwithout - idle))" "-"
exit 0
