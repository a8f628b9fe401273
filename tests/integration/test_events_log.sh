#!/bin/sh
# test_events_log.sh - preemptions come from the whole controller log,
# however long (issue 31): a copy of the testbed's slurmctld.log with a
# preemption line of the last hour followed by 30,000 other lines (more
# than the 20,000 lines squall once read with tail) still gives the
# event with its preemptor, and a preemption line older than the window
# (24 h) is dropped. The copy is named by a fake `scontrol show config`
# (--slurm-bindir: every other command is the real one); the testbed's
# own log is never touched.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SQUALL_CONFIG=/dev/null
real=$(dirname "$(command -v scontrol)")
mkdir "$tmp/bin"
for c in squeue sinfo sacct sacctmgr sprio sshare sdiag sbatch scancel sstat; do
	[ -x "$real/$c" ] && ln -s "$real/$c" "$tmp/bin/$c"
done
cat >"$tmp/bin/scontrol" <<EOS
#!/bin/sh
if [ "\$1 \$2" = "show config" ]; then
	"$real/scontrol" "\$@" | sed 's|^SlurmctldLogFile *=.*|SlurmctldLogFile        = $tmp/ctld.log|'
else
	exec "$real/scontrol" "\$@"
fi
EOS
chmod 755 "$tmp/bin/scontrol"
now=$(date +%Y-%m-%dT%H:%M:%S -d '-1 hour')
old=$(date +%Y-%m-%dT%H:%M:%S -d '-3 days')
{
	echo "[$old.000] preempted JobId=999101 has been requeued to reclaim resources for JobId=999102"
	echo "[$now.000] preempted JobId=999001 has been requeued to reclaim resources for JobId=999002"
	i=0
	while [ $i -lt 30000 ]; do
		echo "[$now.001] sched: filler line $i of the test log"
		i=$((i + 1))
	done
} >"$tmp/ctld.log"
not_in() { ! grep -q "$1" "$2"; }
check "the test log has more than 20,000 lines after the preemption" \
	test "$(wc -l <"$tmp/ctld.log")" -gt 30000
"$SQUALL" --slurm-bindir "$tmp/bin" --once --view events --format tsv >"$tmp/out" 2>"$tmp/err"
check "events: exit 0" test $? -eq 0
check "the preemption at the top of a 30,000-line log is read" \
	grep -q '^999001|999002|REQUEUE$' <<EOF2
$(tsv_cols "$tmp/out" victim_job,preemptor_job,mode)
EOF2
check "a preemption older than the window (24 h) is dropped" \
	not_in 999101 "$tmp/out"
# a victim whose preemptor no source names says why
rm "$tmp/ctld.log"
"$SQUALL" --slurm-bindir "$tmp/bin" --once --view events --format tsv >"$tmp/out" 2>"$tmp/err"
n=$(tsv_cols "$tmp/out" preemptor_job,note | awk -F'|' '$1 == "" && $2 == ""' | wc -l)
check "without the log, every row without a preemptor has a note" test "$n" -eq 0
if [ "$(tsv_col "$tmp/out" preemptor_job | grep -c '^$')" -gt 0 ]; then
	check "... the note says the log could not be read" grep -q 'the controller log could not be read' "$tmp/out"
else
	echo "skip - no preemption in sacct's last 24 h to show a note on"
fi
finish
