#!/bin/sh
# tests/screen/test_replay.sh - the console on a replayed recording: a
# session is recorded from the testbed with --record, then opened with
# --replay in a private tmux server (no cluster involved): the jobs view
# shows the recorded jobs, the nodes view the recorded nodes, a filter
# narrows them, and q quits with status 0.
# Env: SQUALL (default ./squall). Prints ok/not ok; exit 1 on a failure.
TAG=replay
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary

rec=$WORK/rec
for v in jobs nodes partitions; do
	"$SQUALL" --record "$rec" --once --view $v --format tsv >"$WORK/$v.tsv" ||
		notok "record $v"
done
# a job and a node the recording holds
job=$(awk -F'\t' 'NR == 2 { print $1 }' "$WORK/jobs.tsv")
user=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "user") c = i; next }
	NR == 2 { print $c }' "$WORK/jobs.tsv")
[ -n "$job" ] || notok "the recording has jobs (submit some with tests/testbed/jobs)"

T new-session -d -s t -x 100 -y 30 \
	"SQUALL_CONFIG=/dev/null $SQUALL --replay $rec; echo \$? > $WORK/exit; sleep 600"
check "replay: the jobs view shows recorded job $job" wait_for "^ *$job " 10
# (its NAME comes between, as in squeue)
check "replay: with its user ($user)" wait_for "^ *$job .* $user " 2
T send-keys -t t ":nodes" Enter
check "replay: the nodes view shows the recorded nodes" wait_for '^ *n4 ' 10
T send-keys -t t "/n3" Enter
check "replay: a filter narrows the nodes" gone '^ *n4 ' 5
check "replay: the filtered node stays" wait_for '^ *n3 ' 3
T send-keys -t t q
i=0
while [ ! -s "$WORK/exit" ] && [ $i -lt 25 ]; do
	sleep 0.2
	i=$((i + 1))
done
check "replay: q quits with status 0" test "$(cat "$WORK/exit" 2>/dev/null)" = 0
echo "1..$count"
exit $failed
