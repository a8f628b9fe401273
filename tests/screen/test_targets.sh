#!/bin/sh
# tests/screen/test_targets.sh - an action's targets are what the screen
# shows (issue 31): tagged rows hidden by the filter are left out with a
# word in the preview (or the action refused when no tagged row shows); a
# folded job array is the whole array (scancel ARRAYID), and
# /@job_id=ARRAYID matches the array's rows. Previews only (answered
# with Esc), checked with the Slurm CLI; only this test's jobs.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=targets
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
NAME=sqa-tgt-$$
cleanup() { S scancel --name="$NAME" 2>/dev/null; }
on_exit=cleanup
need_tmux
need_binary
need_testbed
export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state
sub() {
	runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable \
		--begin=now+3600 -p low -t 5 -J "$NAME" -o /dev/null "$@" --wrap 'sleep 1'
}
J1=$(sub)
J2=$(sub)
A=$(sub --array=1-4) # pending, not split: one row A_[1-4]
# an array whose first tasks run: rows B_1 ... and B_[k-8] (when the
# testbed has a free CPU within 30 s; in low, which preempts nobody)
B=$(runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable -p low -t 5 \
	-J "$NAME" -o /dev/null --array=1-8 --wrap 'sleep 300')
prio() { S scontrol -o show job "$1" | sed -n 's/.* Priority=\([0-9]*\) .*/\1/p'; }

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":jobs" Enter
wait_for '^ squall  :jobs ' 5
# Space on both rows of J1 and J2 (tags or untags them); every key
# waits for the screen, so a slow build loses none
space_both() {
	keys / "@job_id=$J1,$J2" Enter
	wait_for ':jobs +2/2 ' 10
	keys g
	sleep 0.3
	keys Space
	wait_for "$1" 5
	keys Space
}
space_both 'tagged:1'
check "two rows tagged" wait_for 'tagged:2' 5
keys / "@job_id=$J2" Enter
wait_for ':jobs +1/1 ' 10
keys ":hold" Enter
check "the preview holds only the visible tagged row" wait_for "scontrol hold $J2\$" 10
check "... and says the other is left out" wait_for '\(1 tagged row not visible: left out\)' 2
keys Escape
wait_for 'hold: not run' 5
keys / "@job_id=$A" Enter
check "/@job_id=ARRAY matches the array's row" wait_for "^ +${A}_\\[1-4\\] " 10
keys ":hold" Enter
check "no tagged row visible: nothing run, with the reason" \
	wait_for 'hold: the 2 tagged rows are not visible \(filter\); nothing run' 5
check "... J1 not held (scontrol)" test "$(prio "$J1")" -gt 0
space_both 'tagged:1'
wait_for ':jobs .*sort:[-a-z]+ *\? help' 5 # no "tagged:" left
keys / "@job_id=$A" Enter
wait_for ':jobs +1/1 ' 10
keys ":cancel" Enter
check "a pending array (one row) is cancelled whole" wait_for "scancel '${A}_\\[1-4\\]'" 5
keys Escape
wait_for 'cancel: not run' 3
i=0
while [ $i -lt 30 ] && [ -z "$(S squeue -h -t R -j "$B" -o %i)" ]; do
	sleep 1
	i=$((i + 1))
done
if [ -n "$(S squeue -h -t R -j "$B" -o %i)" ]; then
	keys / "@job_id=$B" Enter
	check "/@job_id=ARRAY matches the array's task rows" wait_for "^ +[-+ ]?${B}_[0-9]+ " 15
	keys g
	sleep 0.3
	wait_for "^ +-${B}_" 5 || keys +
	sleep 0.3
	keys -
	check "the array folds" wait_for "^ +\\+${B}_" 5
	sleep 0.3
	keys ":cancel" Enter
	check "a folded array is cancelled whole: scancel $B" wait_for "scancel $B\$" 5
	keys Escape
	check "... Esc: not run" wait_for 'cancel: not run' 3
else
	echo "skip - folded array: no task of array $B started within 30 s (no free CPU)"
fi
exit $failed
