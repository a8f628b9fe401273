#!/bin/sh
# tests/screen/test_undo.sh - :undo offers only the inverse of an action
# of this session on this cluster (issue 31): a hold on tb-local is not
# offered on tb-ssh (switched with :cluster, the same session), is offered
# back on tb-local, is not offered after a restart nor in a --readonly
# session; the preview names the cluster; a job that is not pending is
# skipped by hold, in the preview. The real binary in a private tmux
# server on the live testbed; only this test's jobs are touched.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux, the testbed or its sshd is not there.
TAG=undo
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
NAME=sqa-undo-$$
cleanup() { S scancel --name="$NAME" 2>/dev/null; }
on_exit=cleanup
need_tmux
need_binary
need_testbed
key=$TB/ssh/id_ed25519
[ -r "$key" ] && ssh-keyscan -T 5 -p 2222 127.0.0.1 >/dev/null 2>&1 ||
	skip "sshd on 127.0.0.1:2222 or its key is not available"

export LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_STATE_HOME=$WORK/state
: >"$WORK/sshcfg"
cat >"$WORK/conf" <<EOC
set cluster tb-local
cluster tb-local backend=local
cluster tb-ssh backend=ssh host=127.0.0.1 port=2222 user=opsadmin identity=$key known-hosts=$TB/ssh/known_hosts ssh-config=$WORK/sshcfg
EOC
export SQUALL_CONFIG=$WORK/conf
J1=$(runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable \
	--begin=now+3600 -p low -t 5 -J "$NAME" -o /dev/null --wrap 'sleep 1')
prio() { S scontrol -o show job "$1" | sed -n 's/.* Priority=\([0-9]*\) .*/\1/p'; }

start() { # start ARGS: a fresh console
	T kill-session -t t 2>/dev/null
	sleep 0.3
	T new-session -d -s t -x 200 -y 50 "$SQUALL $*; sleep 600" 2>/dev/null ||
		{ sleep 1 && T new-session -d -s t -x 200 -y 50 "$SQUALL $*; sleep 600"; }
	wait_for ' tb-local local [0-9]' 15
}
check "the console starts on tb-local" start -c tb-local
keys ":jobs" Enter
wait_for '^ squall  :jobs ' 5
keys / "@job_id=$J1" Enter
wait_for "^ +$J1 " 10
keys H
check "the preview names the cluster" wait_for "hold on 1 target \(tb-local, local\)" 5
keys y
check "hold: done" wait_for 'hold: 1 of 1 done' 10
check "held (scontrol)" test "$(prio "$J1")" = 0

keys ":cluster tb-ssh" Enter
check "switched to tb-ssh" wait_for ' tb-ssh ssh [0-9]' 20
keys ":undo" Enter
check ":undo on tb-ssh: nothing of this session there" \
	wait_for 'nothing to undo: no action of this session on tb-ssh' 5
check "... no preview opened" not wait_for 'scontrol release' 1

keys ":cluster tb-local" Enter
wait_for ' tb-local local [0-9]' 20
keys ":undo" Enter
check ":undo back on tb-local offers the release" wait_for "scontrol release $J1" 5
keys Escape
check "... Esc: not run" wait_for 'release: not run' 3

check "a restart" start -c tb-local
keys ":undo" Enter
check ":undo after a restart: nothing to undo" wait_for 'nothing to undo' 5
check "... still held (scontrol)" test "$(prio "$J1")" = 0
keys ":audit" Enter
check ":audit numbers the inverses, with their cluster" \
	wait_for "#1 +tb-local .* release $J1" 5
check ":audit opens at its end (its last line on the screen)" \
	wait_for "#1 +tb-local" 1
keys q
keys ":undo 1" Enter
check ":undo 1 (an explicit choice from :audit) previews it" \
	wait_for "scontrol release $J1" 5
keys Escape
wait_for 'release: not run' 3
keys ":cluster tb-ssh" Enter
wait_for ' tb-ssh ssh [0-9]' 20
keys ":undo 1" Enter
check ":undo 1 on another cluster: refused with its cluster" \
	wait_for 'undo #1 was on tb-local, not tb-ssh' 5

check "a --readonly session" start -c tb-local --readonly
keys ":undo" Enter
check ":undo in read-only mode: refused" wait_for 'read-only: undo refused' 5

# hold of a job that is not pending: skipped in the preview
start -c tb-local
keys ":jobs" Enter
wait_for '^ squall  :jobs ' 5
S scontrol release "$J1"
keys / "@job_id=$J1" Enter
wait_for "^ +$J1 " 10
keys ":resume" Enter
check ":resume of a pending job: nothing to run, skipped" \
	wait_for "resume: nothing to run: $J1 skipped: PENDING" 5
exit $failed
