#!/bin/sh
# tests/screen/test_submit.sh - :submit in the console: the real binary in
# a private tmux server on the live testbed (local backend). From the
# nodes view, :submit shows the sbatch preview, y submits, the console
# switches to the jobs view with the cursor on the new job (its detail
# pane opens on Enter), and the detail pane of a running job shows its
# live usage (sstat). The jobs it submits are cancelled by id.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=submit
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
NAME=sqsub-scr-$$
IDS=
cleanup() {
	for j in $IDS; do S scancel "$j" 2>/dev/null; done
}
on_exit=cleanup
need_tmux
need_binary
need_testbed

export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state
chmod 755 "$WORK"
printf '#!/bin/bash\n#SBATCH -o /dev/null\nsleep 100\n' >"$WORK/held.sh"
cat >"$WORK/live.sh" <<'EOS'
#!/bin/bash
#SBATCH -o /dev/null
srun --overlap -n1 sh -c 'x=$(head -c 20000000 /dev/zero | tr "\0" a); sleep 100' &
sleep 110
EOS
chmod 644 "$WORK/held.sh" "$WORK/live.sh"

submitted() { cap | sed -n 's/.*submit: job \([0-9][0-9]*\) submitted.*/\1/p' | head -1; }

T new-session -d -s t -x 200 -y 50 "$SQUALL -b local; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
# the jobs view's cursor away from the top first: the jump must move it
keys ":jobs" Enter
wait_for '^ squall  :jobs ' 5
keys Down Down Down Down
keys ":nodes" Enter
wait_for '^ squall  :nodes ' 5
keys ":submit $WORK/held.sh -p low -t 5 -J $NAME -H" Enter
check ":submit from the nodes view: the preview is the sbatch line" \
	wait_for "sbatch --parsable --partition=low --time=5 --job-name=$NAME --hold <" 5
keys y
check "y submits: 'submit: job N submitted and verified'" wait_for 'submit: job [0-9]+ submitted and verified' 15
J1=$(submitted)
IDS="$IDS $J1"
check "job $J1 is in squeue (low, $NAME, root)" test "$(S squeue -h -j "$J1" -o '%P|%j|%u')" = "low|$NAME|root"
check "the console switched to the jobs view" wait_for '^ squall  :jobs ' 5
# the cursor moves to the new job with the first snapshot that has it
wait_for "^ +$J1 " 15
keys Enter
check "the cursor is on job $J1 (Enter opens its detail)" wait_for "jobs $J1 +\(Esc closes" 10
keys Escape

# a running job: its detail pane shows the live usage
keys ":submit $WORK/live.sh -p low -t 3 -J $NAME-live" Enter
wait_for "sbatch --parsable --partition=low --time=3 --job-name=$NAME-live <" 5
keys y
wait_for "submit: job [0-9]+ submitted" 15
J2=$(cap | sed -n 's/.*submit: job \([0-9][0-9]*\) submitted.*/\1/p' | tail -1)
IDS="$IDS $J2"
i=0
until [ "$(S squeue -h -j "$J2" -o %T)" = RUNNING ] || [ $i -ge 60 ]; do
	sleep 1
	i=$((i + 1))
done
i=0
until S sstat -a -n -P -j "$J2" -o JobID 2>/dev/null | grep -q "^$J2\.0$" || [ $i -ge 30 ]; do
	sleep 1
	i=$((i + 1))
done
keys ":jobs" Enter
keys / "@job_id=$J2" Enter
# the live usage is for a job the console's snapshot has as running
wait_for "^ +$J2 .*RUNNING" 25
keys Enter
check "the detail pane of running job $J2 has 'Live usage (sstat)'" wait_for 'Live usage \(sstat\)' 10
check "... with its batch step and step 0" wait_for "^ +$J2\.0 +1 " 15
keys Escape
keys q
echo "1..$count"
exit $failed
