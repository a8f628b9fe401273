#!/bin/sh
# test_output.sh - follow a job's output (squall --once --job ID --output
# stdout|stderr|script [--follow]) on the testbed, through local (root) and
# ssh (alice): a job of alice's prints a token every second and --follow
# shows the tokens written after it started, then ends with the job; an
# array's %A_%a path; a hostile file name (spaces, $(...), backquotes, &:
# run by nobody) and one with a quote (refused over ssh, one line); a file of
# escape sequences is shown escaped; rest says it has no file access; a
# pending job says it has not started and where its file will be.
# Only the jobs submitted here are cancelled.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
tmp=$(mktemp -d /tmp/sq-output.XXXXXX)
chmod 1777 "$tmp"
jobs=
cleanup() {
	[ -n "$jobs" ] && scancel $jobs 2>/dev/null
	[ -n "${fpid:-}" ] && kill "$fpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

key=$TB/ssh/id_ed25519
: >"$tmp/sshcfg"
have_ssh=0
if [ -r "$key" ] && ssh-keyscan -T 5 -p $SSH_PORT 127.0.0.1 >/dev/null 2>&1; then
	have_ssh=1
else
	echo "# ssh: sshd on 127.0.0.1:$SSH_PORT or $key is not there: ssh checks skipped"
fi
viassh() {
	"$SQUALL" -b ssh -H 127.0.0.1 -p $SSH_PORT -l alice --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg" "$@"
}
vialocal() { "$SQUALL" -b local "$@"; }

# submit ARGS...: sbatch as alice in partition high (top tier: not
# preempted by the other tests' jobs); prints the job id
submit() {
	_id=$(cd "$tmp" && runuser -u alice -- sbatch --parsable -p high -t 3 "$@")
	jobs="$jobs ${_id%%;*}"
	echo "${_id%%;*}"
}
wait_done() { # wait_done ID SECONDS: until no part of it is queued or running
	_n=0
	while [ $_n -lt "$2" ]; do
		slurm squeue -h -j "$1" -o %T 2>/dev/null |
			grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING' || return 0
		sleep 1
		_n=$((_n + 1))
	done
	return 1
}
wait_line() { # wait_line FILE PATTERN SECONDS
	_n=0
	while [ $_n -lt "$3" ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 1
		_n=$((_n + 1))
	done
	return 1
}

cat >"$tmp/tok.sh" <<'EOF'
#!/bin/sh
i=0
while [ $i -lt 16 ]; do echo "tok$i"; i=$((i + 1)); sleep 1; done
printf 'esc \033[2J\033]0;pwn\007 cr\r bad \377 end\n'
echo "to stderr" >&2
EOF

# --- --follow through local and ssh on a running job
id=$(submit -J sq-output-tok -o "$tmp/tok-%j.out" -e "$tmp/tok-%j.err" "$tmp/tok.sh")
check "the token job runs" wait_line "$tmp/tok-$id.out" tok2 30
vialocal --once --job "$id" --output stdout --follow >"$tmp/f_local" 2>"$tmp/f_local.err" &
fpid=$!
if [ "$have_ssh" = 1 ]; then
	viassh --once --job "$id" --output stdout --follow >"$tmp/f_ssh" 2>"$tmp/f_ssh.err" &
	spid=$!
fi
# a token written after both started
seen=$(grep -c tok "$tmp/tok-$id.out")
check "local --follow: a token written after it started (tok$((seen + 3)))" \
	wait_line "$tmp/f_local" "^tok$((seen + 3))\$" 20
check "local --follow: it ends with the job (exit 0)" sh -c "
	n=0; while kill -0 $fpid 2>/dev/null && [ \$n -lt 30 ]; do sleep 1; n=\$((n + 1)); done
	! kill -0 $fpid 2>/dev/null"
wait "$fpid"
check "local --follow: exit 0" test $? -eq 0
fpid=
check "local --follow: every token once, in order" \
	sh -c "grep '^tok' '$tmp/f_local' | awk '{ if (\$0 != \"tok\" NR - 1) exit 1 } END { exit NR == 16 ? 0 : 1 }'"
check "local: escape sequences shown escaped" \
	grep -qF 'esc \x1b[2J\x1b]0;pwn\x07 cr\r bad \xff end' "$tmp/f_local"
check "local: no raw ESC or BEL byte reaches stdout" \
	sh -c "! LC_ALL=C grep -q \"\$(printf '[\\033\\007\\r]')\" '$tmp/f_local'"
if [ "$have_ssh" = 1 ]; then
	wait "$spid"
	check "ssh --follow: exit 0 after the job ended" test $? -eq 0
	check "ssh --follow: every token once, in order" \
		sh -c "grep '^tok' '$tmp/f_ssh' | awk '{ if (\$0 != \"tok\" NR - 1) exit 1 } END { exit NR == 16 ? 0 : 1 }'"
	check "ssh: escape sequences shown escaped" \
		grep -qF 'esc \x1b[2J\x1b]0;pwn\x07' "$tmp/f_ssh"
fi
wait_done "$id" 30
vialocal --once --job "$id" --output stderr >"$tmp/o" 2>"$tmp/e"
check "local --output stderr" grep -qx "to stderr" "$tmp/o"
vialocal --once --job "$id" --output script >"$tmp/o" 2>"$tmp/e"
check "local --output script: the script as submitted" cmp -s "$tmp/o" "$tmp/tok.sh"
if [ "$have_ssh" = 1 ]; then
	viassh --once --job "$id" --output script >"$tmp/o" 2>"$tmp/e"
	check "ssh --output script: the script as submitted" cmp -s "$tmp/o" "$tmp/tok.sh"
fi

# --- an array's %A_%a, a hostile name, a name with a quote
printf '#!/bin/sh\necho "task $SLURM_ARRAY_TASK_ID"\n' >"$tmp/arr.sh"
aid=$(submit -J sq-output-arr -a 1-2 -o "$tmp/arr-%A_%a-%3a.out" "$tmp/arr.sh")
hostile='h $(id>sq-pwned); `id>sq-pwned2` & x.out'
printf '#!/bin/sh\necho hostile-ok\n' >"$tmp/h.sh"
hid=$(submit -J sq-output-hostile -o "$tmp/$hostile" "$tmp/h.sh")
qid=$(submit -J sq-output-quote -o "$tmp/it's.out" "$tmp/h.sh")
wait_done "$aid" 40
wait_done "$hid" 40
wait_done "$qid" 40
check "slurmd wrote the array task's file" test -f "$tmp/arr-${aid}_2-002.out"
for be in local ssh; do
	[ $be = ssh ] && [ "$have_ssh" = 0 ] && continue
	via$be --once --job "${aid}_2" --output stdout >"$tmp/o" 2>"$tmp/e"
	check "$be: array task ${aid}_2 (%A_%a-%3a): its output" grep -qx "task 2" "$tmp/o"
	via$be --once --job "$hid" --output stdout >"$tmp/o" 2>"$tmp/e"
	check "$be: the hostile file name is read as a name" grep -qx "hostile-ok" "$tmp/o"
done
check "nothing in the hostile name ran" sh -c "! ls '$tmp'/sq-pwned* ./sq-pwned* /home/alice/sq-pwned* 2>/dev/null | grep -q ."
vialocal --once --job "$qid" --output stdout >"$tmp/o" 2>"$tmp/e"
check "local: a name with a quote is read" grep -qx "hostile-ok" "$tmp/o"
if [ "$have_ssh" = 1 ]; then
	viassh --once --job "$qid" --output stdout >"$tmp/o" 2>"$tmp/e"
	rc=$?
	check "ssh: a name with a quote is refused: exit 1, one line" \
		sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/e') -eq 1 && grep -q 'not safe on a remote command line' '$tmp/e'"
fi

# --- a job that has not started (issue 41): not an errno, but that it
# has not started and where its file will be; --follow waits for it
pid=$(submit -H -J sq-output-held -o "$tmp/held-%j.out" --wrap 'echo held-ran')
for be in local ssh; do
	[ $be = ssh ] && [ "$have_ssh" = 0 ] && continue
	via$be --once --job "$pid" --output stdout >"$tmp/o" 2>"$tmp/e"
	rc=$?
	check "$be: a pending job: exit 1, one line: not started, and its file" \
		sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/e') -eq 1 && grep -qF 'job $pid has not started (PENDING): its stdout will be written to $tmp/held-$pid.out' '$tmp/e'"
	check "$be: a pending job: no errno" sh -c "! grep -q 'No such file' '$tmp/e'"
done
vialocal --once --job "$pid" --output stdout --follow >"$tmp/hf" 2>"$tmp/hf.err" &
fpid=$!
check "local --follow on a pending job: says it waits for the file" \
	wait_line "$tmp/hf.err" 'has not started (PENDING).*waiting for it' 10
slurm scontrol release "$pid"
check "local --follow: the output once the job ran" wait_line "$tmp/hf" '^held-ran$' 40
wait "$fpid"
check "local --follow: exit 0 after the job ended" test $? -eq 0
fpid=

# --- what cannot be
# a held job of root's (never runs) whose output is /dev/null
rid=$(cd "$tmp" && slurm sbatch --parsable -H -p high -t 1 -J sq-output-root -o /dev/null --wrap 'echo secret-script')
jobs="$jobs $rid"
vialocal --once --job "$rid" --output stdout >"$tmp/o" 2>"$tmp/e"
rc=$?
check "local: /dev/null is not a regular file: exit 1, one line" \
	sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/e') -eq 1 && grep -q 'not a regular file' '$tmp/e'"
if [ "$have_ssh" = 1 ]; then
	viassh --once --job "$rid" --output stdout >"$tmp/o" 2>"$tmp/e"
	rc=$?
	check "ssh: /dev/null is not a regular file either" \
		sh -c "test $rc -eq 1 && grep -q 'not a regular file' '$tmp/e'"
	viassh --once --job "$rid" --output script >"$tmp/o" 2>"$tmp/e"
	rc=$?
	check "ssh as alice: root's script is refused in Slurm's words (exit 1)" \
		sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/e') -eq 1 && grep -q 'Invalid user id' '$tmp/e' && ! grep -q secret '$tmp/o'"
fi
vialocal --once --job 999999999 --output stdout >"$tmp/o" 2>"$tmp/e"
rc=$?
check "an unknown job: exit 1 with Slurm's words on one line" \
	sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/e') -eq 1 && grep -q 'Invalid job id specified' '$tmp/e'"
vialocal --once --job "$id" --output nonsense >"$tmp/o" 2>"$tmp/e"
check "--output nonsense: exit 2" test $? -eq 2
if [ -r "$TB/jwt/alice.token" ]; then
	cp "$TB/jwt/alice.token" "$tmp/at" && chmod 600 "$tmp/at"
	"$SQUALL" -b rest -u http://127.0.0.1:$REST_PORT --token-file "$tmp/at" \
		--once --job "$id" --output stdout >"$tmp/o" 2>"$tmp/e"
	rc=$?
	check "rest: exit 1, one line: no file access" \
		sh -c "test $rc -eq 1 && test \$(wc -l <'$tmp/e') -eq 1 && grep -q 'no file access' '$tmp/e'"
fi
finish
