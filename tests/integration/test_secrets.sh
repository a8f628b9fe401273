#!/bin/sh
# test_secrets.sh - the slurmrestd token never leaks, on the live testbed.
# A token of our own (scontrol token, so no other process on the machine
# knows it) must not appear in: --once output and errors, the --record
# directory, the audit log of actions run through REST, any error message
# (a forged, an expired, a refused token; SLURM_JWT; a refused action),
# or the argv of any process while the console runs (rest backend, and
# the local backend with SLURM_JWT in its environment: its children, the
# Slurm commands, are watched too). Permissions: a token file that is
# 0644 or not ours is refused; an audit log that is 0644 is narrowed to
# 0600; one owned by someone else stops the action before it runs.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
job=
sock=
cleanup() {
	[ -n "$sock" ] && tmux -L "$sock" kill-server 2>/dev/null
	rm -f "$tmp/scanning"
	[ -n "$job" ] && scancel "$job" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME=$tmp/state
URL=http://127.0.0.1:$REST_PORT

T=$(scontrol token username=root lifespan=900 2>/dev/null |
	sed -n 's/^SLURM_JWT=//p')
if [ -z "$T" ]; then
	echo "skip - scontrol token gave no token (is auth/jwt on?)"
	exit 77
fi
printf '%s\n' "$T" >"$tmp/tok"
chmod 600 "$tmp/tok"
# the token and its signature (the secret part) as grep patterns, in a
# file: a pattern on a command line would itself be in an argv
printf '%s\n%s\n' "$T" "${T##*.}" >"$tmp/pat"
leak() { grep -aqF -f "$tmp/pat" "$@" 2>/dev/null; }
no_leak() { ! leak "$@"; }
rest() { "$SQUALL" -b rest -u "$URL" -l root "$@"; }

# --- output, record directory
rest --token-file "$tmp/tok" --once --view jobs >"$tmp/o1" 2>"$tmp/e1"
check "rest --once works with the token (exit $?)" test -s "$tmp/o1"
check "rest --once: no token in output or errors" no_leak "$tmp/o1" "$tmp/e1"
rest --token-file "$tmp/tok" --record "$tmp/rec" --once --view nodes \
	>"$tmp/o2" 2>"$tmp/e2"
check "--record: no token in the directory, output or errors" \
	sh -c "! grep -raqF -f '$tmp/pat' '$tmp/rec' '$tmp/o2' '$tmp/e2' 2>/dev/null"
SLURM_JWT=$T "$SQUALL" --record "$tmp/rec2" --once --view jobs \
	>"$tmp/o3" 2>"$tmp/e3"
check "--record (local, SLURM_JWT set): no token in the directory" \
	sh -c "test -s '$tmp/rec2/index.tsv' && ! grep -raqF -f '$tmp/pat' '$tmp/rec2'"

# --- actions through REST: audit log
job=$(cd /tmp && runuser -u alice -- sbatch --parsable -o /dev/null -D /tmp \
	-p low -c 1 -t 5 --begin=now+1hour -J sqsecret --wrap 'sleep 60')
job=${job%%;*}
rest --token-file "$tmp/tok" --yes --exec "hold $job" >"$tmp/o4" 2>"$tmp/e4"
check "rest --exec hold: exit 0" test $? -eq 0
rest --token-file "$tmp/tok" --yes --exec "release $job" >>"$tmp/o4" 2>>"$tmp/e4"
check "rest --exec release: exit 0" test $? -eq 0
log=$XDG_STATE_HOME/squall/audit.log
check "audit log written" test -s "$log"
check "audit log is 0600" test "$(stat -c %a "$log")" = 600
check "audit log: no token" no_leak "$log"
check "--exec output and errors: no token" no_leak "$tmp/o4" "$tmp/e4"
rest --token-file "$tmp/tok" --yes --exec "hold 999999" >"$tmp/o5" 2>"$tmp/e5"
check "a refused action fails (exit $?) and names no token" \
	sh -c "test -s '$tmp/e5' && ! grep -aqF -f '$tmp/pat' '$tmp/o5' '$tmp/e5' '$log'"

# --- error messages with tokens the server or squall refuse
forged="${T%.*}.$(printf 'forged-signature-%s' $$ | base64 | tr -d '=\n' |
	tr '+/' '-_')"
printf '%s\n' "$forged" >"$tmp/forged"
chmod 600 "$tmp/forged"
printf '%s\n' "${forged##*.}" >>"$tmp/pat"
rest --token-file "$tmp/forged" --once --view jobs >"$tmp/o6" 2>"$tmp/e6"
check "forged token: refused (exit $?) with a message, no token in it" \
	sh -c "test -s '$tmp/e6' && ! grep -aqF -f '$tmp/pat' '$tmp/o6' '$tmp/e6'"
SLURM_JWT=$forged "$SQUALL" -b rest -u "$URL" -l root --once --view jobs \
	>"$tmp/o7" 2>"$tmp/e7"
check "forged SLURM_JWT: refused (exit $?), no token in the message" \
	sh -c "test -s '$tmp/e7' && ! grep -aqF -f '$tmp/pat' '$tmp/o7' '$tmp/e7'"
E=$(scontrol token username=root lifespan=1 2>/dev/null |
	sed -n 's/^SLURM_JWT=//p')
printf '%s\n' "$E" >"$tmp/expired"
chmod 600 "$tmp/expired"
printf '%s\n%s\n' "$E" "${E##*.}" >>"$tmp/pat"
sleep 3
rest --token-file "$tmp/expired" --once --view jobs >"$tmp/o8" 2>"$tmp/e8"
check "expired token: refused (exit $?), no token in the message" \
	sh -c "test -s '$tmp/e8' && ! grep -aqF -f '$tmp/pat' '$tmp/o8' '$tmp/e8'"
printf '%s x\n' "$T" >"$tmp/junk"
chmod 600 "$tmp/junk"
rest --token-file "$tmp/junk" --once --view jobs >"$tmp/o9" 2>"$tmp/e9"
check "a token file with junk: refused (exit $?), no token in the message" \
	sh -c "test -s '$tmp/e9' && ! grep -aqF -f '$tmp/pat' '$tmp/o9' '$tmp/e9'"

# --- token file permissions
cp "$tmp/tok" "$tmp/tok644"
chmod 644 "$tmp/tok644"
rest --token-file "$tmp/tok644" --once --view jobs >"$tmp/o10" 2>"$tmp/e10"
rc=$?
check "token file 0644: refused (exit $rc)" \
	sh -c "test $rc -ne 0 && grep -q '0600' '$tmp/e10' && ! test -s '$tmp/o10'"
check "token file 0644: the message holds no token" no_leak "$tmp/e10"
cp "$tmp/tok" "$tmp/tok640"
chmod 640 "$tmp/tok640"
rest --token-file "$tmp/tok640" --once --view jobs >/dev/null 2>"$tmp/e11"
check "token file 0640: refused (exit $?)" grep -q '0600' "$tmp/e11"
cp "$tmp/tok" "$tmp/tokalice"
chown alice "$tmp/tokalice"
chmod 600 "$tmp/tokalice"
rest --token-file "$tmp/tokalice" --once --view jobs >/dev/null 2>"$tmp/e12"
check "token file owned by alice: refused (exit $?)" \
	sh -c "grep -q 'owned by' '$tmp/e12' && ! grep -aqF -f '$tmp/pat' '$tmp/e12'"

# --- audit log permissions
mkdir -p "$tmp/st2/squall"
: >"$tmp/st2/squall/audit.log"
chmod 644 "$tmp/st2/squall/audit.log"
XDG_STATE_HOME=$tmp/st2 rest --token-file "$tmp/tok" --yes \
	--exec "hold $job" >/dev/null 2>"$tmp/e13"
check "audit log 0644: narrowed to 0600 before it is written" \
	test "$(stat -c %a "$tmp/st2/squall/audit.log")" = 600
rest --token-file "$tmp/tok" --yes --exec "release $job" >/dev/null 2>&1
mkdir -p "$tmp/st3/squall"
: >"$tmp/st3/squall/audit.log"
chown alice "$tmp/st3/squall/audit.log"
chmod 600 "$tmp/st3/squall/audit.log"
XDG_STATE_HOME=$tmp/st3 rest --token-file "$tmp/tok" --yes \
	--exec "hold $job" >/dev/null 2>"$tmp/e14"
rc=$?
state=$(squeue -h -j "$job" -o %r)
check "audit log owned by alice: the action is refused (exit $rc)" \
	sh -c "test $rc -ne 0 && grep -q 'owned by' '$tmp/e14'"
check "... and never ran (job $job not held: $state)" \
	test "$state" != JobHeldAdmin

# --- argv of every process while the console runs
# scan until $tmp/scanning goes: any /proc/PID/cmdline with the token
# goes to $tmp/hits; the argv of squall's children to $tmp/children
scan() {
	spid=$1
	: >"$tmp/children"
	while [ -e "$tmp/scanning" ]; do
		grep -laF -f "$tmp/pat" /proc/[0-9]*/cmdline >>"$tmp/hits" \
			2>/dev/null
		for c in $(pgrep -P "$spid" 2>/dev/null); do
			tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null
			echo
		done >>"$tmp/children"
		sleep 0.1
	done
}
# watch NAME SECONDS CMD: the console in tmux, scanned while it runs
nwatch=0
watch() {
	name=$1 secs=$2
	shift 2
	# a server of its own each time: a new session on a dying server
	# of the same name fails
	nwatch=$((nwatch + 1))
	sock=squall-secrets-$$-$nwatch
	tm() { tmux -L "$sock" -f /dev/null "$@"; }
	: >"$tmp/hits"
	tm new-session -d -s s -x 160 -y 40 "$*; sleep 60"
	spid=
	i=0
	while [ -z "$spid" ] && [ $i -lt 50 ]; do
		sleep 0.2
		ppid_=$(tm display -p -t s '#{pane_pid}' 2>/dev/null)
		[ -n "$ppid_" ] && spid=$(pgrep -P "$ppid_" | head -1)
		i=$((i + 1))
	done
	check "$name: the console runs (pid ${spid:-none})" test -n "$spid"
	: >"$tmp/scanning"
	scan "${spid:-0}" &
	scanner=$!
	sleep "$secs"
	rm -f "$tmp/scanning"
	wait "$scanner"
	tm send-keys -t s q
	sleep 1
	tm kill-server 2>/dev/null
	sock=
	check "$name: no process had the token in its argv" \
		test ! -s "$tmp/hits"
}
if command -v tmux >/dev/null 2>&1; then
	watch "console, rest backend" 8 \
		"$SQUALL -b rest -u $URL -l root --token-file $tmp/tok -r 2"
	# long enough to catch several short-lived Slurm commands
	watch "console, local backend, SLURM_JWT set" 20 \
		"SLURM_JWT=\$(cat $tmp/tok) $SQUALL -r 2"
	# informational: whether the scan caught one of the short-lived
	# Slurm commands depends on timing (it missed them under load)
	if grep -qE 'squeue|sprio|sinfo|scontrol' "$tmp/children"; then
		echo "# the console's Slurm commands were seen and scanned"
	else
		echo "# no Slurm command of the console was caught by the scan"
	fi
else
	echo "# tmux is not installed: the argv checks were not run"
fi
finish
