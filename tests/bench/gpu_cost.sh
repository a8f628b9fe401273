#!/bin/sh
# gpu_cost.sh - make bench, part 12: what a GPU use refresh costs the
# cluster, on a newer release's testbed with GPUs Slurm measures (run in
# its chroot by tests/bench/run; alone: tests/testbed/run-release 24.11
# sh tests/bench/gpu_cost.sh). Every GPU job of tests/testbed/gpujobs
# (busy, idle on two GPUs, drop) runs beside the workload's; every Slurm
# command squall runs goes through a logging wrapper (--slurm-bindir) and
# slurmctld's RPCs are counted with sdiag (by message type, sdiag's own
# left out) around one batch refresh of:
#   a. gpus-idle: one GPU use refresh alone (squeue of the running jobs,
#      one sstat for every GPU job): sstat calls (goal 1) and RPCs
#   b. the jobs view with gpu_util/gpu_mem vs c. the same columns
#      without them: the RPCs a utilisation refresh adds, and 0 sstat
#      while no column shows utilisation
# then the console: 30 s on the jobs view (0 sstat), 30 s on gpus-idle
# (GPU use once a refresh-slow, 60 s: one sstat). Prints lines and
# summary rows
# ("summary-row: measure|goal|value|verdict").
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SQUALL=${SQUALL:-$root/squall}
work=$(mktemp -d /tmp/squall-gpucost.XXXXXX) || exit 1
chmod 755 "$work"
ids=
cleanup() {
	# shellcheck disable=SC2086 # one word per job id
	[ -n "$ids" ] && scancel $ids 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

row() { printf 'summary-row: %s|%s|%s|%s\n' "$1" "$2" "$3" "$4"; }
le() { awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g) ? "PASS" : "MISS" }'; }

rel=$(sinfo -V | awk '{ print $2 }')
case $rel in
22.05.*)
	echo "   Slurm $rel measures no GPU use: nothing to count"
	exit 0
	;;
esac
out=$("$root/tests/testbed/gpujobs" -p high -t 150 busy idle drop 2>&1) || {
	echo "   gpujobs failed: $(echo "$out" | tail -1)"
	exit 1
}
ids=$(echo "$out" | sed -n 's/^[a-z]*=\([0-9]*\)$/\1/p' | tr '\n' ' ')
# until sstat reports the three jobs' use
w=0
jl=$(printf '%s' "$ids" | sed 's/ *$//; s/ /,/g')
while [ "$(sstat -a -n -P -j "$jl" -o JobID,TRESUsageInTot 2>/dev/null |
	grep -c gpuutil)" -lt 3 ] && [ $w -lt 60 ]; do
	sleep 2
	w=$((w + 1))
done
ngpu=$(squeue -h -a -t R -O tres-alloc: | grep -c 'gres/gpu')

wrap=$work/bin
mkdir -p "$wrap"
log=$work/commands.log
: >"$log"
for c in squeue sinfo sprio scontrol sacct sacctmgr sshare sdiag sstat; do
	real=$(command -v $c) || continue
	printf '#!/bin/sh\necho "%s $*" >>%s\nexec %s "$@"\n' "$c" "$log" "$real" >"$wrap/$c"
	chmod 755 "$wrap/$c"
done
# slurmctld's RPCs by type, sdiag's own (REQUEST_STATS_INFO) left out
rpcs() {
	sdiag 2>/dev/null | awk '
		/statistics by message type/ { f = 1; next }
		/statistics by user/ { f = 0 }
		f && /count:/ && $1 != "REQUEST_STATS_INFO" {
			for (i = 1; i <= NF; i++) if ($i ~ /^count:/) { sub("count:", "", $i); print $1, $i }
		}' | sort
}
delta() { # before after: RPCs made between, "TYPE n" lines
	join -a 2 -e 0 -o 0,1.2,2.2 "$1" "$2" | awk '$3 - $2 > 0 { print $1, $3 - $2 }'
}
# measure NAME ARGS...: one batch refresh; sets n_sstat, n_cmd, n_rpc
measure() {
	name=$1
	shift
	: >"$log"
	rpcs >"$work/a"
	SQUALL_CONFIG=/dev/null "$SQUALL" --slurm-bindir "$wrap" --once "$@" >/dev/null 2>"$work/err" ||
		echo "   $name: squall failed: $(head -1 "$work/err")"
	rpcs >"$work/b"
	delta "$work/a" "$work/b" >"$work/d-$name"
	n_sstat=$(grep -c '^sstat ' "$log")
	n_cmd=$(wc -l <"$log")
	n_rpc=$(awk '{ s += $2 } END { print s + 0 }' "$work/d-$name")
	printf '   %-40s %s commands (%s), sstat %s, slurmctld RPCs %s (%s)\n' "$name" "$n_cmd" \
		"$(awk '{ print $1 }' "$log" | sort | uniq -c | awk '{ printf "%s%s %s", s, $2, $1; s = ", " }')" \
		"$n_sstat" "$n_rpc" "$(awk '{ printf "%s%s %s", s, $1, $2; s = ", " }' "$work/d-$name")"
}
echo "12. A GPU use refresh on Slurm $rel: $ngpu running GPU jobs (gpujobs busy idle drop and the workload's)"
measure "gpus-idle (GPU use alone)" --view gpus-idle
row "GPU use ($rel): sstat calls per utilisation refresh, $ngpu GPU jobs" "<= 1" "$n_sstat" "$(le "$n_sstat" 1)"
use_rpc=$n_rpc
row "GPU use ($rel): slurmctld RPCs per utilisation refresh (sdiag)" "info" "$use_rpc" "-"
# (batch mode without --columns prints every column, GPU use too: the
# same columns with and without the GPU ones)
cols=job_id,user,state,partition,nodelist
measure "jobs view, $cols,gpu_util,gpu_mem" --view jobs --columns "$cols,gpu_util,gpu_mem"
with=$n_rpc
measure "jobs view, $cols" --view jobs --columns "$cols"
row "GPU use ($rel): sstat calls while no column shows it" "<= 0" "$n_sstat" "$(le "$n_sstat" 0)"
extra=$((with - n_rpc))
printf '   %-40s %s slurmctld RPCs (with %s, without %s)\n' "what showing utilisation adds" "$extra" "$with" "$n_rpc"
row "GPU use ($rel): slurmctld RPCs a utilisation refresh adds to the jobs view" "info" "$extra" "-"
measure "nodes view (no GPU use)" --view nodes
row "GPU use ($rel): sstat calls of the nodes view" "<= 0" "$n_sstat" "$(le "$n_sstat" 0)"

# the console: 30 s on the jobs view (its default columns show no GPU
# use), then 30 s on gpus-idle (GPU use every refresh-slow, 60 s: one)
command -v tmux >/dev/null || {
	echo "   console: no tmux: not measured"
	exit 0
}
sock=squall-gpucost-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
: >"$log"
rpcs >"$work/a"
T new-session -d -x 200 -y 50 "env SQUALL_CONFIG=/dev/null TERM=xterm-256color $SQUALL --slurm-bindir $wrap" ||
	exit 0
sleep 30
rpcs >"$work/b"
cp "$log" "$work/log-jobs"
: >"$log"
T send-keys ':gpus-idle' Enter
sleep 30
rpcs >"$work/c"
T kill-server 2>/dev/null
n_j=$(grep -c '^sstat ' "$work/log-jobs")
n_g=$(grep -c '^sstat ' "$log")
r_j=$(delta "$work/a" "$work/b" | awk '{ s += $2 } END { print s + 0 }')
r_g=$(delta "$work/b" "$work/c" | awk '{ s += $2 } END { print s + 0 }')
printf '   %-40s sstat %s, squeue %s, slurmctld RPCs %s in 30 s\n' "console, jobs view (no GPU column)" \
	"$n_j" "$(grep -c '^squeue ' "$work/log-jobs")" "$r_j"
printf '   %-40s sstat %s, squeue %s, slurmctld RPCs %s in 30 s (GPU use: once a refresh-slow)\n' \
	"console, gpus-idle" "$n_g" "$(grep -c '^squeue ' "$log")" "$r_g"
row "GPU use ($rel): console jobs view, sstat calls in 30 s" "<= 0" "$n_j" "$(le "$n_j" 0)"
row "GPU use ($rel): console gpus-idle, sstat calls in 30 s (one refresh-slow)" "<= 1" "$n_g" "$(le "$n_g" 1)"
exit 0
