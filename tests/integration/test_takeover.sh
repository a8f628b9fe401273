#!/bin/sh
# test_takeover.sh - the backup slurmctld takes over (the 22.05 testbed's
# vm-backup on 127.0.0.2, tests/testbed/start): under a running console
# (local, the diag view) and through --once with local, ssh and rest, the
# primary is stopped by its PID; an action issued in the gap either
# completes and is verified or says it did not run; the backup takes
# over; the console and every backend keep working and say which
# controller is in control and since when; actions through the backup
# are verified; the audit log holds both lines of every action. Then the
# primary is started again (tests/testbed/start: a 22.05 primary takes
# control back from the backup when it starts) and squall says so.
# Skips (77) on a testbed without a backup controller (24.11, 26.05).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
chmod 755 "$tmp"
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
unset SSH_AUTH_SOCK
audit=$XDG_STATE_HOME/squall/audit.log
REST=http://127.0.0.1:$REST_PORT
TOKEN=$TB/jwt/root.token
sock=squall-takeover-$$
name=sqa-takeover-$$

ping_of() { # ping_of ROLE: the host of that controller
	slurm scontrol ping 2>/dev/null | sed -n "s/^Slurmctld($1) at \(.*\) is [A-Z]*\$/\1/p"
}
state_of() { # state_of ROLE: UP or DOWN
	slurm scontrol ping 2>/dev/null | sed -n "s/^Slurmctld($1) at .* is \([A-Z]*\)\$/\1/p"
}
pr=$(ping_of primary)
bk=$(ping_of backup)
if [ -z "$bk" ] || [ "$(state_of backup)" != UP ] || [ "$(state_of primary)" != UP ]; then
	echo "skip: this testbed runs no backup slurmctld next to an answering primary (22.05's has one: tests/testbed/start)"
	slurm scontrol ping | sed 's/^/# /'
	exit 77
fi

# the primary comes back however the test ends
primary_up() { [ "$(state_of primary)" = UP ]; }
restore() {
	primary_up && return 0
	"$root/tests/testbed/start" >"$tmp/start.log" 2>&1 || {
		echo "# tests/testbed/start failed:"
		tail -20 "$tmp/start.log" | sed 's/^/#   /'
		return 1
	}
}
# the backup back in standby: 22.05's backup now and then hangs while it
# hands control back ("backup not completely done relinquishing control"
# in the primary's log; it then answers no ping): stopped by its PID and
# started again (tests/testbed/start), so the testbed is as before
backup_up() { [ "$(state_of backup)" = UP ]; }
backup_back() {
	for _ in $(seq 1 20); do
		backup_up && return 0
		sleep 1
	done
	bpid=$(cat "$TB/pids/slurmctld-backup.pid" 2>/dev/null)
	[ "$(cat /proc/"$bpid"/comm 2>/dev/null)" = slurmctld ] || return 1
	echo "# the backup ($bpid) does not answer after handing control back: restarted"
	tail -3 "$TB/log/slurm/slurmctld-backup.log" | sed 's/^/#   /'
	kill -TERM "$bpid"
	for _ in $(seq 1 15); do
		[ -d /proc/"$bpid" ] && [ "$(awk '{print $3}' /proc/"$bpid"/stat)" != Z ] || break
		sleep 1
	done
	kill -KILL "$bpid" 2>/dev/null
	sleep 1
	"$root/tests/testbed/start" >"$tmp/start.log" 2>&1 && backup_up
}
cleanup() {
	T kill-server 2>/dev/null
	restore
	backup_up || backup_back
	slurm scancel --name="$name" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# a failed check shows what squall said last
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
key=$TB/ssh/id_ed25519
viassh() {
	"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l opsadmin --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts" --ssh-config /dev/null \
		"$@" >"$tmp/out" 2>"$tmp/err"
}
viarest() {
	"$SQUALL" -b rest -u "$REST" --token-file "$TOKEN" "$@" >"$tmp/out" 2>"$tmp/err"
}
# diag_rows: the controller rows of the --once diag in $tmp/out, to $tmp/ctl
diag_rows() {
	grep '^controller' "$tmp/out" >"$tmp/ctl"
}
has_row() { # has_row KEY VALUE: a controller row of $tmp/ctl
	grep -Eq "^controller +$1 +$2 *\$" "$tmp/ctl"
}
jfield() { slurm scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# audit lines of a finished action: its intent and its result
audit_pairs() { # audit_pairs ACTION JOB: intent and result lines
	grep -c "\"action\":\"$1\".*\"$2\"" "$audit" 2>/dev/null || echo 0
}

# --- before: both answer, the primary is in control
sq --once --view diag
diag_rows
check "before: diag lists the primary $pr UP (local)" has_row "primary $pr" UP
check "before: diag lists the backup $bk UP (local)" has_row "backup $bk" UP
check "before: the primary is in control (local)" has_row "in control" "$pr \(primary\)"
sq --once --view overview
check "before: the overview's controller line names the primary" \
	grep -Eq "^ctld +controller +$pr \(primary\) " "$tmp/out"

J1=$(runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable -H \
	--begin=now+3600 -p low -t 10 -J "$name" --wrap 'sleep 600') ||
	{ notok "sbatch as alice"; finish; }
ok "job $J1 submitted (held) as alice"

# --- the console, on the diag view's controller rows
T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
sleep 1
T send-keys -t t ":diag" Enter
T send-keys -t t "/^controller" Enter
check "console: the primary in control" wait_for "in control +$pr \(primary\)" 30

# --- stop the primary by its PID; an action at once, in the gap
ppid=$(cat "$TB/pids/slurmctld.pid")
check "the primary's PID file names a slurmctld ($ppid)" \
	test "$(cat /proc/"$ppid"/comm 2>/dev/null)" = slurmctld
t0=$(date +%s)
kill -TERM "$ppid"
sq --exec "release $J1" --yes
rc=$?
t1=$(date +%s)
echo "# release in the gap: exit $rc after $((t1 - t0)) s"
if [ $rc -eq 0 ]; then
	check "gap: release completed, and it is so (Priority > 0)" \
		test "$(jfield "$J1" Priority)" -gt 0
	check "gap: the result says done" grep -q "done" "$tmp/out"
else
	check "gap: release failed and says so" grep -Eqi "fail|not|error" "$tmp/out" "$tmp/err"
	check "gap: and the job is still held" test "$(jfield "$J1" Priority)" -eq 0
fi
check "gap: release audited (intent and result)" test "$(audit_pairs release "$J1")" -eq 2

# --- the backup takes over
took=0
for _ in $(seq 1 60); do
	if [ "$(state_of primary)" = DOWN ] && [ "$(state_of backup)" = UP ] &&
		slurm squeue -h -j "$J1" >/dev/null 2>&1; then
		took=1
		break
	fi
	sleep 1
done
check "the backup $bk took over ($(($(date +%s) - t0)) s after the stop)" test $took -eq 1
grep "Running as primary controller" "$TB/log/slurm/slurmctld-backup.log" | tail -1 | sed 's/^/# backup log: /'
# the backup at work, not only answering: it knows opsadmin as an
# administrator (before its associations are in, 22.05 took an
# operator's hold for the job user's own: JobHeldUser) and takes a job
# update (before the job's accounting index is set again it refuses one:
# "Job update not available right now, the DB index is being set, try
# again in a bit"). Slurm's warm-up, not squall's: squall says either
# refusal as Slurm words it.
warm=0
for _ in $(seq 1 60); do
	if slurm scontrol show assoc_mgr users=opsadmin flags=users 2>/dev/null |
		grep -q "AdminLevel=Administrator" &&
		slurm scontrol update jobid="$J1" Comment=squall-takeover >/dev/null 2>&1; then
		warm=1
		break
	fi
	sleep 1
done
echo "# the backup at work: $warm, $(($(date +%s) - t0)) s after the stop"

# the console: asked again (r), it shows the backup in control and when
T send-keys -t t r
check "console: the backup in control" wait_for "in control +$bk \(backup\)" 60
check "console: since when (the read that saw the change)" \
	wait_for "in control since +[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+" 10
check "console: the one before it" wait_for "before it +$pr \(primary\)" 10
check "console: the primary DOWN" wait_for "primary $pr +DOWN" 10
T send-keys -t t Escape ":jobs" Enter
check "console: the jobs view still works (job $J1)" wait_for "^ *$J1 " 30

# --once through local, ssh and rest
sq --once --view diag
diag_rows
check "local: the backup in control" has_row "in control" "$bk \(backup\)"
check "local: the primary DOWN" has_row "primary $pr" DOWN
sq --once --view overview
check "local: the overview's controller line names the backup" \
	grep -Eq "^ctld +controller +$bk \(backup\)" "$tmp/out"
sq --once --view jobs --format tsv
check "local: jobs through the backup ($J1 listed)" grep -q "^$J1	" "$tmp/out"
if [ -r "$key" ]; then
	viassh --once --view diag
	diag_rows
	check "ssh: the backup in control" has_row "in control" "$bk \(backup\)"
	check "ssh: the primary DOWN" has_row "primary $pr" DOWN
	viassh --exec "hold $J1" --yes
	check "ssh: hold through the backup, verified (JobHeldAdmin)" \
		test "$(slurm squeue -h -j "$J1" -o %r)" = JobHeldAdmin
else
	notok "ssh: no key $key"
fi
viarest --once --view diag
diag_rows
check "rest: slurmrestd follows to the backup: it in control" has_row "in control" "$bk \(backup\)"
check "rest: the primary DOWN" has_row "primary $pr" DOWN
viarest --exec "release $J1" --yes
check "rest: release through the backup: exit 0" test $? -eq 0
check "rest: and it is so (Priority > 0)" test "$(jfield "$J1" Priority)" -gt 0

# --- the primary back: it takes control from the backup as it starts
restore
check "the primary $pr answers again" primary_up
check "the backup $bk answers again (standby)" backup_back
sq --once --view diag
diag_rows
check "after: the primary in control again (local)" has_row "in control" "$pr \(primary\)"
T send-keys -t t Escape ":diag" Enter
T send-keys -t t "/^controller" Enter
T send-keys -t t r
check "console: the primary in control again" wait_for "in control +$pr \(primary\)" 60
check "console: since when, the backup before it" wait_for "before it +$bk \(backup\)" 10

# --- the audit log: both lines of every action
check "audit: release (gap), hold (ssh), release (rest): 6 lines" \
	test "$(grep -c "\"$J1\"" "$audit")" -eq 6
sq --exec "cancel $J1" --yes
check "cancel $J1 (CANCELLED)" test "$(jfield "$J1" JobState)" = CANCELLED
finish
