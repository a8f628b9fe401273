#!/bin/sh
# tests/screen/test_impact.sh - what a node action will hit, in its
# preview (local backend, live testbed): a job of alice's runs on a node;
# the preview of D (drain) on that node lists it (id, user, time left) and says drain
# kills nothing; B (reboot) offers `asap nextstate=resume`. Every preview
# is answered No: the node is not touched (checked with scontrol). Only
# this test's job is cancelled.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=impact
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
NAME=sqi-scr-$$
cleanup() {
	S scancel --name="$NAME" 2>/dev/null
}
on_exit=cleanup
need_tmux
need_binary
need_testbed

export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state
running_job "$NAME"
drained() { S scontrol -o show node "$N" | grep -q 'State=[A-Z+]*\(DRAIN\|REBOOT\)'; }

T new-session -d -s t -x 160 -y 40 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":nodes" Enter
wait_for '^ squall  :nodes ' 5
keys / "@node=$N" Enter
wait_for ':nodes +1/1([^0-9]|$)' 15
keys D
wait_for ':drain' 3
keys 'sqi-scr check' Enter
check "drain: the preview shows the command" \
	wait_for "scontrol update nodename=$N state=drain reason='sqi-scr check'" 5
check "drain: the preview lists the running job, its user and time left" \
	wait_for "Running on the target nodes:" 5
check "drain: job $J of alice, with its time left" \
	wait_for "$J +alice +0:[0-9]{2}:[0-9]{2} left +$N" 2
check "drain: it says drain kills nothing" wait_for 'drain kills nothing' 2
check "drain: reservations are looked at" \
	wait_for 'No reservation overlaps the targets|Reservation .* on ' 2
keys Enter
check "drain: Enter answers No" wait_for 'drain: not run' 3
check "$N is not drained (scontrol)" not drained
keys B
check "reboot: the preview offers the gentler form" \
	wait_for "Gentler: reboot $N asap nextstate=resume" 5
check "reboot: it lists the job too" wait_for "$J +alice" 2
keys n
check "reboot: n answers No" wait_for 'reboot: not run' 3
check "$N is not rebooting or drained (scontrol)" not drained
keys q
exit $failed
