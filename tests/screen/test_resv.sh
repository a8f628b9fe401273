#!/bin/sh
# tests/screen/test_resv.sh - a reservation made, changed and removed from
# the console (local backend, live testbed), as an admin would on the
# :reservations view: A opens the :reserve prompt; its preview shows the
# scontrol line and the impact naming this test's running job; y creates
# it (checked with scontrol); E on its row changes the duration and takes
# the MAINT flag away; D deletes it. Only this test's job and reservation
# are removed at the end.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=resv
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
NAME=sqr-scr-$$
R=sqscr_$$
cleanup() {
	S scancel --name="$NAME" 2>/dev/null
	S scontrol delete reservationname="$R" >/dev/null 2>&1
}
on_exit=cleanup
need_tmux
need_binary
need_testbed

export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state
running_job "$NAME"
eq() { [ "$1" = "$2" ]; }
rfield() { S scontrol -o show reservation "$R" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$1=//p"; }
span() { echo $(($(rfield EndTime) - $(rfield StartTime))); }

T new-session -d -s t -x 160 -y 40 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":reservations" Enter
wait_for '^ squall  :reservations ' 5
keys A
check "A opens the :reserve prompt" wait_for ':reserve *$' 3
keys "$R start=now+10minutes duration=30 nodes=$N users=root flags=maint,ignore_jobs" Enter
# (the line wraps in the dialog: its start, then its flags)
check "reserve: the preview shows the scontrol line" wait_for \
	"scontrol create reservation ReservationName=$R StartTime=now\\+10minutes" 5
check "reserve: ... with the flags" wait_for "Flags=MAINT,IGNORE_JOBS" 2
check "reserve: the impact names job $J of alice on $N" wait_for "$J \\(alice\\) on $N" 3
check "reserve: the impact says IGNORE_JOBS lets the job run into it" \
	wait_for 'flags has IGNORE_JOBS' 2
keys n
check "reserve: n answers No" wait_for 'reserve: not run' 3
check "nothing created (scontrol)" eq "$(rfield ReservationName)" ""
keys A
wait_for ':reserve *$' 3
keys "$R start=now+10minutes duration=30 nodes=$N users=root flags=maint,ignore_jobs" Enter
wait_for "ReservationName=$R" 5
keys y
check "reserve: done and verified" wait_for 'reserve: 1 of 1 done and verified' 15
check "scontrol: $R on $N for 30 minutes" eq "$(rfield Nodes)|$(span)" "$N|1800"

# its row, then E and D on it
keys / "@name=$R" Enter
check "the view shows $R" wait_for ':reservations +1/1([^0-9]|$)' 15
keys E
check "E opens :reserve-update" wait_for ':reserve-update *$' 3
keys 'duration=45 flags=-maint' Enter
check "reserve-update: the preview shows the scontrol line" \
	wait_for "scontrol update ReservationName=$R Duration=45 Flags=-MAINT" 5
keys y
check "reserve-update: done and verified" wait_for 'reserve-update: 1 of 1 done and verified' 15
check "scontrol: 45 minutes, MAINT taken away ($(rfield Flags))" sh -c \
	"[ $(span) -eq 2700 ] && ! echo ',$(rfield Flags),' | grep -q ',MAINT,'"
keys D
check "D previews the delete" wait_for "scontrol delete ReservationName=$R" 5
keys y
check "reserve-delete: done and verified" wait_for 'reserve-delete: 1 of 1 done and verified' 15
check "scontrol has no $R" eq "$(rfield ReservationName)" ""
keys q
exit $failed
