#!/bin/sh
# tests/screen/test_whatif.sh - the priority what-if in the console: the
# real binary in a private tmux server on the live testbed (local
# backend). `:whatif PriorityWeightFairshare=0` opens the view with its
# summary line; on a pending job of our own, the new priority is sprio's
# minus its weighted fairshare factor (within 1), and Enter shows every
# factor times today's and the tried weights: the fairshare value becomes
# 0 and every other factor's value is unchanged. A bad key is reported.
# One pending job of our own (QOS low, over its per-user CPU limit: it
# never runs) is submitted and cancelled by id.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=whatif
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
JOB=
cleanup() { [ -n "$JOB" ] && scancel "$JOB" 2>/dev/null; }
on_exit=cleanup
need_tmux
need_binary
need_testbed

JOB=$(cd /tmp && runuser -u alice -- sbatch --parsable -J whatif-screen \
	-q low -n 9 -t 10 --wrap 'sleep 60' 2>/dev/null)
[ -n "$JOB" ] || skip "cannot submit a pending job as alice"
i=0
while [ -z "$(S sprio -h -o %i -j "$JOB" 2>/dev/null)" ] && [ $i -lt 20 ]; do
	sleep 0.5
	i=$((i + 1))
done
[ -n "$(S sprio -h -o %i -j "$JOB")" ] || skip "sprio does not list job $JOB"

export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null NO_COLOR=

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":whatif PriorityWeightFairshare=0" Enter
check ":whatif opens the view" wait_for '^ squall  :whatif ' 5
check "the summary line: jobs, rank changes, model check" \
	wait_for '^ [0-9]+ jobs?, [0-9]+ changes? rank.*\| model: [0-9]+/[0-9]+ as sprio' 15
keys ":columns job_id,partition,priority,priority_new" Enter
keys / "@job_id=$JOB" Enter
check "our job is listed" wait_for "^ +$JOB +low " 5

# sprio and the screen at the same moment (ages move every minute)
for _ in 1 2 3; do
	before=$(S sprio -h -o '%Y|%F' -j "$JOB" | tr -d ' ')
	keys r
	sleep 2
	row=$(cap | grep -E "^ +$JOB +low ")
	after=$(S sprio -h -o '%Y|%F' -j "$JOB" | tr -d ' ')
	[ "$before" = "$after" ] && break
done
y=${after%|*} f=${after#*|}
# shellcheck disable=SC2086
set -- $row
check "PRIORITY is sprio's ($y)" test "$3" = "$y"
d=$(($4 - (y - f)))
check "NEW is sprio's minus its weighted fairshare ($y - $f; got $4)" \
	test $d -ge -1 -a $d -le 1

keys Enter
check "Enter: factors times today's and the tried weights" \
	wait_for 'Factors times weights \(today -> tried\)' 5
cap >"$WORK/pane"
fs=$(grep -E '^ +fairshare +[0-9.]+ x' "$WORK/pane")
# shellcheck disable=SC2086
set -- $fs
check "fairshare: today's weight 10000, tried 0, value 0.0" \
	test "$4" = 10000 -a "$9" = 0 -a "${11}" = 0.0
bad=0 n=0
for name in age jobsize partition qos assoc cpu mem; do
	line=$(grep -E "^ +$name +[0-9.]+ x" "$WORK/pane") || continue
	# shellcheck disable=SC2086
	set -- $line
	n=$((n + 1))
	[ "$6" = "${11}" ] || bad=$((bad + 1))
done
check "every other factor's value is unchanged ($n compared)" \
	test $bad -eq 0 -a $n -ge 5
keys Escape

keys ":whatif PriorityWeightBogus=1" Enter
check "a bad key is reported" wait_for "whatif: weights: unknown key 'PriorityWeightBogus'" 3

T send-keys -t t q
echo "1..$count"
exit $failed
