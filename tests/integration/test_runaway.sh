#!/bin/sh
# test_runaway.sh - runaway jobs on the live testbed. tests/testbed/runaway
# makes two (rows of the accounting job table: RUNNING, no end time, ids
# slurmctld never hands out; slurmctld is not touched); then:
#   * the runaway view lists them as `sacctmgr show runawayjobs` does,
#     through local (--once) and ssh (opsadmin), and the list is read
#     with N answered (they are still runaway after it);
#   * slurmrestd: the view and the action are refused with the reason;
#   * fix-runaway of one of the two is refused (sacctmgr would fix both),
#     nothing changes; read-only refuses it too;
#   * the console: F on one row previews the refusal; `:fix-runaway *`
#     previews sacctmgr -i with both jobs, what the
#     fix sets and "cannot be undone"; n leaves them;
#   * fix-runaway of both (--exec, local): done and verified, the list is
#     empty after, sacct shows them COMPLETED, the audit log has the
#     intent and the result with no inverse.
# On exit the rows are deleted and the usage recounted (sacctmgr -i
# rollup), so the testbed is as found.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
REST=http://127.0.0.1:$REST_PORT
TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
unset SSH_AUTH_SOCK
audit=$XDG_STATE_HOME/squall/audit.log
sock=sqra$$
ids=
cleanup() {
	T kill-server 2>/dev/null
	for i in $ids; do "$root/tests/testbed/runaway" clear "$i"; done
	[ -n "$ids" ] && "$root/tests/testbed/runaway" rollup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
# the runaway ids sacctmgr lists now (answered N), sorted
listed() {
	printf 'N\n' | slurm sacctmgr -n -P show runawayjobs format=ID |
		grep -E '^[0-9]+$' | sort
}

slurm sacctmgr -n show cluster >/dev/null 2>&1 || {
	echo "# slurmdbd does not answer: skipped"
	exit 77
}
command -v mariadb >/dev/null 2>&1 || {
	echo "# no mariadb client to make a runaway job: skipped"
	exit 77
}
before=$(listed)
if [ -n "$before" ]; then
	notok "the testbed has runaway jobs already ($before): not this test's to fix"
	finish
fi
a=$("$root/tests/testbed/runaway" make sqra-a) && ids=$a
b=$("$root/tests/testbed/runaway" make sqra-b-$$) && ids="$ids $b"
want=$(printf '%s\n%s\n' "$a" "$b" | sort)
check "sacctmgr lists the two runaway jobs made ($a $b)" test "$(listed)" = "$want"

# --- the view: local, then ssh as opsadmin
sq --once --view runaway --format tsv
got=$(tsv_cols "$tmp/out" id,name,partition,state | sort)
check "local: the view lists both with name, partition, state" \
	test "$got" = "$(printf '%s|sqra-a|low|RUNNING\n%s|sqra-b-%s|low|RUNNING\n' "$a" "$b" $$ | sort)"
check "local: reading the list fixed nothing (N answered)" test "$(listed)" = "$want"
key=$TB/ssh/id_ed25519
if [ -r "$key" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; then
	: >"$tmp/sshcfg"
	viassh() {
		"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l opsadmin --identity "$key" \
			--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg" \
			"$@" >"$tmp/out" 2>"$tmp/err"
	}
	viassh --once --view runaway --format tsv
	check "ssh: the view lists both" test "$(tsv_col "$tmp/out" id | sort)" = "$want"
	check "ssh: reading the list fixed nothing" test "$(listed)" = "$want"
else
	notok "ssh: the testbed's sshd or key is not there"
fi

# --- slurmrestd: the reason, for the view and the action
if [ -r "$TOKEN" ]; then
	sq -b rest -u "$REST" --token-file "$TOKEN" --once --view runaway
	check "rest: the view is refused with the reason" sh -c \
		"test $? -ne 0 && grep -q 'slurmrestd has no runaway-job endpoint' '$tmp/err'"
	sq -b rest -u "$REST" --token-file "$TOKEN" --exec "fix-runaway $a $b" --yes
	check "rest: fix-runaway is refused with the reason" sh -c \
		"test $? -ne 0 && grep -q 'fixing runaway jobs (slurmrestd has no endpoint' '$tmp/out' '$tmp/err'"
fi
check "rest: nothing fixed" test "$(listed)" = "$want"

# --- refused: one of two (sacctmgr fixes all), read-only
sq --exec "fix-runaway $a" --yes
rc=$?
check "one of two: refused (exit $rc), naming the other" sh -c \
	"test $rc -ne 0 && grep -q 'these are listed too: $b' '$tmp/out' '$tmp/err'"
sq --readonly --exec "fix-runaway $a $b" --yes
check "read-only: refused" test $? -ne 0
check "nothing fixed by the refusals" test "$(listed)" = "$want"

# --- the console: `*` F previews, n leaves them
if command -v tmux >/dev/null 2>&1; then
	T new-session -d -s t -x 200 -y 50 "env SQUALL_CONFIG=/dev/null XDG_STATE_HOME='$tmp/state' '$SQUALL' --view runaway"
	if wait_for "sqra-a" 20; then
		# F on the cursor row: one target, and the preview says the
		# other is listed too; then `:fix-runaway *`, every row
		T send-keys -t t F
		check "console: F on one row previews the refusal" \
			wait_for "refused: also listed now" 20
		T send-keys -t t n
		sleep 0.5
		T send-keys -t t ':fix-runaway *' Enter
		check "console: the preview shows sacctmgr -i and both jobs" \
			wait_for "sacctmgr -i -n -P show runawayjobs" 20
		cap >"$tmp/screen"
		if grep -q 'state := COMPLETED' "$tmp/screen" &&
			grep -q 'cannot be undone' "$tmp/screen" &&
			grep -q "job $a" "$tmp/screen" && grep -q "job $b" "$tmp/screen"; then
			ok "console: the preview says what the fix sets and that it cannot be undone"
		else
			notok "console: the preview says what the fix sets and that it cannot be undone"
			sed 's/^/#   /' "$tmp/screen"
		fi
		T send-keys -t t n
		sleep 1
	else
		notok "console: the runaway view did not show the jobs"
	fi
	T kill-server 2>/dev/null
	check "console: answered n, nothing fixed" test "$(listed)" = "$want"
fi

# --- the fix, local: done, verified, audited, no undo
sq --exec "fix-runaway $a $b" --yes
rc=$?
check "fix-runaway $a $b: exit 0, done and verified" sh -c \
	"test $rc -eq 0 && grep -q 'verified' '$tmp/out' '$tmp/err'"
check "the list is empty after" test -z "$(listed)"
check "sacct: both COMPLETED, end time = start" test \
	"$(slurm sacct -n -X -P -j "$a,$b" -o JobIDRaw,State | sort)" = \
	"$(printf '%s|COMPLETED\n%s|COMPLETED\n' "$a" "$b" | sort)"
check "sacct: end = start (the latest of start, eligible, submit)" test \
	"$(slurm sacct -n -X -P -j "$a" -o Start,End | awk -F'|' '{ print ($1 == $2) }')" = 1
check "audited: intent and result of fix-runaway, no inverse" sh -c \
	"grep '\"event\":\"intent\"' '$audit' | grep -q 'fix-runaway' &&
	 grep '\"event\":\"result\"' '$audit' | tail -1 | grep -q 'fix-runaway' &&
	 ! grep '\"event\":\"result\"' '$audit' | tail -1 | grep -q '\"inverse\":\"[^\"]'"
sq --once --view runaway --format tsv
check "the view is empty after" test -z "$(tsv_col "$tmp/out" id)"
finish
