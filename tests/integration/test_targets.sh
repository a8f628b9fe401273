#!/bin/sh
# test_targets.sh - what an action acts on, on the live testbed through the
# local, ssh and rest backends: a target that does not exist is reported
# "not found", not acted on, counted, and --exec exits 1; a job in a state
# the action does not apply to (resume of a pending job, hold of a running
# one) is listed as skipped in the preview and counted in the result; the
# other targets of the same line are still done. Effects are checked with
# the Slurm CLI. Everything it submits is cancelled on exit.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp"
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
unset SSH_AUTH_SOCK
audit=$XDG_STATE_HOME/squall/audit.log
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
name=sqa-tg-$$
cleanup() {
	slurm scancel --name="$name" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
submit() { # held and not eligible for an hour: it never starts
	runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable -H --begin=now+3600 -p low \
		-t 10 -J "$name" --wrap 'sleep 600'
}
jfield() { slurm scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# an id no job has had: above every id the controller gave so far
missing=$(($(slurm squeue -h -a -t all -o %F | sort -n | tail -1) + 900000))

REST=http://127.0.0.1:$REST_PORT
key=$TB/ssh/id_ed25519
: >"$tmp/sshcfg"
backends=local
if [ -r "$key" ] && ssh-keyscan -T 5 -p $SSH_PORT 127.0.0.1 >/dev/null 2>&1; then
	backends="$backends ssh"
else
	echo "skip - ssh: sshd on 127.0.0.1:$SSH_PORT or its key is not available"
fi
if curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null; then
	backends="$backends rest"
	cp "$TB/jwt/root.token" "$tmp/root.token" && chmod 600 "$tmp/root.token"
else
	echo "skip - rest: slurmrestd on $REST is not available"
fi
sq() { # sq BACKEND ARGS...
	be=$1
	shift
	case $be in
	local) set -- "$@" ;;
	ssh) set -- -b ssh -H 127.0.0.1 -p $SSH_PORT -l opsadmin --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg" "$@" ;;
	rest) set -- -b rest -u "$REST" --token-file "$tmp/root.token" -l root "$@" ;;
	esac
	"$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"
}

for be in $backends; do
	# --- a job that never existed
	sq "$be" --exec "cancel $missing" --yes
	rc=$?
	check "$be: cancel of a job that does not exist exits 1" test $rc -eq 1
	check "$be: ... says not found" grep -q "^FAIL $missing: not found" "$tmp/out"
	check "$be: ... the preview says nothing runs" grep -q "^nothing to run:" "$tmp/out"
	check "$be: ... the result line counts it" grep -q "cancel: 0 of 1 done; 1 not found" "$tmp/err"
	check "$be: ... never 'cancelled'" sh -c "! grep -qi 'cancelled' '$tmp/out' '$tmp/err'"
	check "$be: ... audited as not found" sh -c "grep '\"event\":\"result\"' '$audit' | tail -1 | grep -q 'not found'"

	# --- one real pending job and one missing: the real one is done
	J=$(submit) || { notok "$be: sbatch as alice"; continue; }
	sq "$be" --exec "release $J $missing" --yes
	rc=$?
	check "$be: release of a real and a missing job exits 1" test $rc -eq 1
	check "$be: ... the real one is released" test "$(jfield "$J" Priority)" -gt 0
	check "$be: ... the preview names the missing one" grep -q "^$missing not found" "$tmp/out"
	check "$be: ... 1 of 2 done; 1 not found" grep -q "release: 1 of 2 done.*; 1 not found" "$tmp/err"
	check "$be: ... the undo holds only the real one" grep -qx "undo: hold $J" "$tmp/out"

	# --- a state the action does not apply to: resume/suspend a pending job
	sq "$be" --exec "resume $J" --yes
	rc=$?
	check "$be: resume of a pending job exits 1" test $rc -eq 1
	check "$be: ... skipped with its state" grep -q "^$J skipped: PENDING (resume applies to SUSPENDED jobs)" "$tmp/out"
	check "$be: ... counted in the result" grep -q "resume: 0 of 1 done; 1 skipped" "$tmp/err"
	check "$be: ... the job is still pending" test "$(jfield "$J" JobState)" = PENDING
	sq "$be" --exec "hold $J" --yes
	check "$be: hold of a pending job: exit 0" test $? -eq 0
	check "$be: ... held (priority 0)" test "$(jfield "$J" Priority)" = 0
	slurm scancel "$J"
done

# --- hold of a running job (squall.1: "hold pending jobs")
R=$(slurm squeue -h -t R -o %A | head -1)
if [ -n "$R" ]; then
	prio=$(jfield "$R" Priority)
	sq local --exec "hold $R" --yes
	check "hold of running job $R exits 1" test $? -eq 1
	check "... skipped: RUNNING" grep -q "^$R skipped: RUNNING (hold applies to PENDING jobs)" "$tmp/out"
	check "... its priority is untouched" test "$(jfield "$R" Priority)" = "$prio"
else
	echo "skip - hold of a running job: no job is running on the testbed now"
fi
finish
