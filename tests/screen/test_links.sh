#!/bin/sh
# tests/screen/test_links.sh - a detail pane's links lead to rows: the real
# binary in a private tmux server on the live testbed (local backend). A
# pending array of our own (four tasks that fit n1 one at a time, so
# squeue shows ID_[2-4] pending and sprio lists it as ID): its "priority
# factors" link opens :priority on its sprio row, not on "No row
# matches" (issue 41). Cancels only its own job, by id.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=links
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed
JOB=
cleanup() { [ -n "$JOB" ] && scancel "$JOB" 2>/dev/null; }
on_exit=cleanup
export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state

JOB=$(cd /tmp && S sbatch --parsable -a 1-4 -p low -w n1 -c 4 -t 5 \
	-J sq-links -o /dev/null --wrap 'sleep 300' 2>/dev/null | cut -d';' -f1)
[ -n "$JOB" ] || skip "sbatch refused the array"
# its pending part in sprio (the scheduler ranks it within a few seconds)
i=0
until S sprio -h -j "$JOB" -o %i 2>/dev/null | grep -q "^ *$JOB\$" ||
	[ $i -ge 30 ]; do
	sleep 1
	i=$((i + 1))
done
S sprio -h -j "$JOB" -o %i 2>/dev/null | grep -q "^ *$JOB\$" ||
	skip "sprio does not list the pending array $JOB"

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":jobs" Enter
wait_for '^ squall  :jobs ' 5
keys / "@job_id=$JOB @state=PENDING" Enter
check "the pending array row ${JOB}_[...] is shown" \
	wait_for "^ *${JOB}_\\[" 10
keys Enter
wait_for 'Links \(press the number\)|Why pending' 5
# the links are at the pane's end: scroll down to them
i=0
while ! cap | grep -q "priority factors of this job" && [ $i -lt 40 ]; do
	keys j
	i=$((i + 1))
done
check "the detail pane links its priority factors" \
	wait_for "priority factors of this job +:priority /@job_id=$JOB( |\$)" 5
n=$(cap | sed -n "s/.*[^0-9]\([1-9]\)  priority factors of this job.*/\1/p" | head -1)
[ -n "$n" ] && keys "$n"
check "the link opens :priority on the array's id" \
	wait_for ":priority /@job_id=$JOB " 5
check "the priority view shows the array's row" \
	wait_for "^ *$JOB +" 10
check "and not 'No row matches'" not wait_for "No row matches" 1

T send-keys -t t q
echo "1..$count"
exit $failed
