#!/bin/sh
# dbd_cost.sh - make bench, part 14: what the accounting views of issue 46
# cost slurmdbd, on the testbed this runs against (the 22.05 one on the
# host, from tests/bench/run; alone: sh tests/bench/dbd_cost.sh). Every
# Slurm command squall runs goes through a logging wrapper
# (--slurm-bindir); slurmdbd's RPCs are counted from `sacctmgr show stats`
# by message type, leaving out what slurmctld sends it (job and step
# records) and the counting's own reads (DBD_GET_STATS and the connection
# it opens and closes), around:
#   a. one batch read of diag (sdiag + scontrol ping + sacctmgr show
#      stats), runaway (sacctmgr show runawayjobs, answered N: slurmdbd
#      builds the fix and rolls it back) and problems (sacctmgr show
#      problem): one sacctmgr each (goal 1)
#   b. the console: 60 s on the jobs view (goal: none of these three
#      commands), then 60 s on each of :diag and :runaway (their sacctmgr
#      reads at the slow interval, 60 s: at most 2 in 60 s, the first
#      read and one refresh)
# Prints lines and summary rows ("summary-row: measure|goal|value|verdict").
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SQUALL=${SQUALL:-$root/squall}
SECS=${BENCH_DBD_SECS:-60}
work=$(mktemp -d /tmp/squall-dbdcost.XXXXXX) || exit 1
chmod 755 "$work"
sock=squall-dbdcost-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
	T kill-server 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

row() { printf 'summary-row: %s|%s|%s|%s\n' "$1" "$2" "$3" "$4"; }
le() { awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g) ? "PASS" : "MISS" }'; }

rel=$(sinfo -V | awk '{ print $2 }')
sacctmgr show stats >/dev/null 2>&1 || {
	echo "14. slurmdbd's cost: sacctmgr show stats is refused here: not measured"
	exit 0
}
wrap=$work/bin
mkdir -p "$wrap"
log=$work/commands.log
: >"$log"
for c in squeue sinfo sprio scontrol sacct sacctmgr sshare sdiag sstat; do
	real=$(command -v $c) || continue
	printf '#!/bin/sh\necho "%s $*" >>%s\nexec %s "$@"\n' "$c" "$log" "$real" >"$wrap/$c"
	chmod 755 "$wrap/$c"
done
# slurmdbd's RPCs by type, but slurmctld's records and the counting's own
dbd_rpcs() {
	sacctmgr show stats 2>/dev/null | awk '
		/statistics by message type/ { f = 1; next }
		/statistics by user/ { f = 0 }
		f && /count:/ {
			n = $1; sub(/\(.*/, "", n)
			if (n ~ /^DBD_(JOB|STEP|SEND_MULT|NODE_STATE|CLUSTER_TRES|REGISTER_CTLD|GET_STATS|FINI)/ ||
			    n == "SLURM_PERSIST_INIT") next
			for (i = 1; i <= NF; i++) if ($i ~ /^count:/) { sub("count:", "", $i); print n, $i }
		}' | sort
}
delta() { # before after: the RPCs made between
	join -a 2 -e 0 -o 0,1.2,2.2 "$1" "$2" |
		awk '$3 - $2 > 0 { s += $3 - $2 } END { print s + 0 }'
}
n_of() { # n_of WORDS: sacctmgr calls in the log with these words
	grep -c "^sacctmgr .*$1" "$log"
}
measure() { # measure NAME VIEW WORDS GOAL: one batch read
	: >"$log"
	dbd_rpcs >"$work/a"
	SQUALL_CONFIG=/dev/null "$SQUALL" --slurm-bindir "$wrap" --once --view "$2" \
		>/dev/null 2>"$work/err" ||
		echo "   $1: squall failed: $(head -1 "$work/err")"
	dbd_rpcs >"$work/b"
	n=$(n_of "$3")
	r=$(delta "$work/a" "$work/b")
	printf '   %-34s %s commands (%s), sacctmgr %s: %s, slurmdbd RPCs %s\n' "$1" \
		"$(wc -l <"$log")" \
		"$(awk '{ print $1 }' "$log" | sort | uniq -c | awk '{ printf "%s%s %s", s, $2, $1; s = ", " }')" \
		"$3" "$n" "$r"
	row "slurmdbd ($rel): $1, sacctmgr $3 per read" "<= $4" "$n" "$(le "$n" "$4")"
	row "slurmdbd ($rel): $1, slurmdbd RPCs per read" "info" "$r" "-"
}

echo "14. What the accounting views cost slurmdbd, Slurm $rel"
measure "diag (batch)" diag "show stats" 1
measure "runaway (batch)" runaway "runawayjobs" 1
measure "problems (batch)" problems "show problem" 1

command -v tmux >/dev/null || {
	echo "   console: no tmux: not measured"
	exit 0
}
console() { # console NAME KEYS: SECS s on a view; sets n_stats n_run n_prob r
	: >"$log"
	dbd_rpcs >"$work/a"
	[ -n "$2" ] && T send-keys "$2" Enter
	sleep "$SECS"
	dbd_rpcs >"$work/b"
	n_stats=$(n_of "show stats")
	n_run=$(n_of "runawayjobs")
	n_prob=$(n_of "show problem")
	r=$(delta "$work/a" "$work/b")
	printf '   %-34s in %s s: show stats %s, runawayjobs %s, show problem %s, slurmdbd RPCs %s\n' \
		"$1" "$SECS" "$n_stats" "$n_run" "$n_prob" "$r"
}
T new-session -d -x 200 -y 50 "env SQUALL_CONFIG=/dev/null TERM=xterm-256color $SQUALL --slurm-bindir $wrap" ||
	exit 0
console "console, jobs view" ""
all=$((n_stats + n_run + n_prob))
row "slurmdbd ($rel): console jobs view, stats/runaway/problem reads in $SECS s" "<= 0" "$all" "$(le "$all" 0)"
row "slurmdbd ($rel): console jobs view, slurmdbd RPCs in $SECS s" "info" "$r" "-"
console "console, :diag" ":diag"
row "slurmdbd ($rel): console diag, show stats in $SECS s (slow interval)" "<= 2" "$n_stats" "$(le "$n_stats" 2)"
console "console, :runaway" ":runaway"
row "slurmdbd ($rel): console runaway, runawayjobs in $SECS s (slow interval)" "<= 2" "$n_run" "$(le "$n_run" 2)"
row "slurmdbd ($rel): console runaway, slurmdbd RPCs in $SECS s" "info" "$r" "-"
exit 0
