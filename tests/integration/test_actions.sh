#!/bin/sh
# test_actions.sh - management actions end to end on the live testbed,
# through `squall --exec` with the local, ssh and rest backends: each action
# on this test's own jobs, node n2 and throw-away accounts/QOS, its effect
# checked with the Slurm CLI (not with squall's output), ordinary users
# refused in Slurm's words, --readonly refused and audited, hostile values
# refused without running anything, the y/N prompt (No by default) and the
# typed count over 10 targets, and the audit log (two lines per action,
# 0600, no token). Everything it changes is put back on exit.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp"
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
unset SSH_AUTH_SOCK
audit=$XDG_STATE_HOME/squall/audit.log
# a failed check shows what squall said last
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
acct=sqa_it_$$
qos=sqa_itq_$$
node=n2
bob_maxjobs=$(slurm sacctmgr -n -P show assoc where account=chemistry user=bob format=MaxJobs)

name=sqa-it-$$ # every job of this test has this name
cleanup() {
	slurm scancel --name="$name" 2>/dev/null
	for n in "$node" $down $rdown; do
		if slurm scontrol -o show node "$n" | grep -q 'Reason=sqa-it'; then
			slurm scontrol update nodename="$n" state=resume 2>/dev/null
		fi
	done
	slurm sacctmgr -i delete account where name="$acct" >/dev/null 2>&1
	slurm sacctmgr -i delete account where name="${acct}r" >/dev/null 2>&1
	slurm sacctmgr -i delete account where name="${acct}s" >/dev/null 2>&1
	slurm sacctmgr -i delete qos where name="$qos" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
# submit a job as alice, held and not eligible for an hour: it never starts
submit() {
	j=$(runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable -H --begin=now+3600 -p low \
		-t 10 -J "$name" --wrap 'sleep 600') || return 1
	echo "$j"
}
jfield() { slurm scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
nfield() { slurm scontrol -o show node "$1" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }
reason_of() { slurm scontrol -o show node "$1" | sed -n 's/.* Reason=\(.*\) \[.*/\1/p'; }
assoc() { slurm sacctmgr -n -P show assoc where account="$1" user="$2" format="$3"; }
has_comment() { slurm scontrol -o show job "$1" | grep -q "Comment=$2 "; }

J1=$(submit) && J2=$(submit) || { notok "sbatch as alice"; finish; }
ok "jobs $J1 $J2 submitted (held) as alice"

# --- the command line: describe first, --yes, exit status
sq --exec "release $J1" --yes
check "release: exit 0" test $? -eq 0
check "release: the exact command is printed first" \
	test "$(head -1 "$tmp/out")" = "scontrol release $J1"
check "release: Priority > 0 (scontrol)" test "$(jfield "$J1" Priority)" -gt 0
sq --exec "hold $J1" --yes
check "hold: exit 0" test $? -eq 0
check "hold: JobHeldAdmin (squeue)" test "$(slurm squeue -h -j "$J1" -o %r)" = JobHeldAdmin
check "hold: the undo line offers release" grep -q "^undo: release $J1\$" "$tmp/out"
sq --exec "update $J1 timelimit=7 comment=sqa it comment nice=5 qos=low" --yes
check "update: exit 0" test $? -eq 0
check "update: TimeLimit=00:07:00" test "$(jfield "$J1" TimeLimit)" = 00:07:00
check "update: Nice=5" test "$(jfield "$J1" Nice)" = 5
check "update: QOS=low" test "$(jfield "$J1" QOS)" = low
check "update: the comment, spaces and all" has_comment "$J1" "sqa it comment"
sq --exec "update $J1 partition=high account=astro" --yes
check "update: Partition=high Account=astro" \
	test "$(jfield "$J1" Partition)/$(jfield "$J1" Account)" = high/astro

# --- jobs that run: signal, suspend, resume, requeue, requeuehold
idle=$(slurm sinfo -h -N -p low -o '%N %C' | awk '{ split($2, c, "/"); if (c[2] > 0) { print $1; exit } }')
R=
if [ -n "$idle" ]; then
	R=$(runuser -u alice -- sbatch --parsable -p low -w "$idle" -c 1 --mem=100 -t 10 -J "$name" --wrap 'sleep 600')
	slurm scontrol update jobid="$R" priority=4000000 2>/dev/null
	for i in $(seq 1 60); do
		[ "$(jfield "$R" JobState)" = RUNNING ] && break
		sleep 1
	done
fi
# a job that fails at launch is RUNNING for a moment only
[ -n "$R" ] && sleep 2
if [ -n "$R" ] && [ "$(jfield "$R" JobState)" = RUNNING ]; then
	sq --exec "signal $R sig=CONT" --yes
	check "signal CONT: exit 0, the job still runs" test $? -eq 0 -a "$(jfield "$R" JobState)" = RUNNING
	check "signal: scancel --full --signal=CONT" grep -q "^scancel --full --signal=CONT $R\$" "$tmp/out"
	sq --exec "suspend $R" --yes
	check "suspend: JobState=SUSPENDED" test "$(jfield "$R" JobState)" = SUSPENDED
	sq --exec "resume $R" --yes
	check "resume: JobState=RUNNING" test "$(jfield "$R" JobState)" = RUNNING
	sq --exec "requeue $R" --yes
	check "requeue: exit 0 and Restarts=1" test $? -eq 0 -a "$(jfield "$R" Restarts)" = 1
	# requeued batch jobs wait ~120 s (BeginTime): requeuehold needs a
	# running job, so use a second one
	R2=$(runuser -u alice -- sbatch --parsable -p low -w "$idle" -c 1 --mem=100 -t 10 -J "$name" --wrap 'sleep 600')
	slurm scontrol update jobid="$R2" priority=4000000 2>/dev/null
	for i in $(seq 1 60); do
		[ "$(jfield "$R2" JobState)" = RUNNING ] && break
		sleep 1
	done
	sq --exec "requeuehold $R2" --yes
	check "requeuehold: exit 0, held (Priority=0) and Restarts=1" \
		test $? -eq 0 -a "$(jfield "$R2" Priority)" = 0 -a "$(jfield "$R2" Restarts)" = 1
else
	echo "skip - signal, suspend, resume, requeue: no job of ours kept running on a free CPU within 60 s"
fi

sq --exec "cancel $J2" --yes
check "cancel: exit 0" test $? -eq 0
check "cancel: JobState=CANCELLED" test "$(jfield "$J2" JobState)" = CANCELLED

# --- a bulk action with one bad target: per-target report, exit 1
J3=$(submit)
sq --exec "release $J3 999999" --yes
rc=$?
check "bulk with an unknown job: exit 1" test $rc -eq 1
check "bulk: the good target is done (Priority > 0)" test "$(jfield "$J3" Priority)" -gt 0
check "bulk: ok line for $J3, FAIL line for 999999" \
	sh -c "grep -q '^ok   $J3:' '$tmp/out' && grep -q '^FAIL 999999:' '$tmp/out'"
# a fixed priority (admin) on a pending job that is not held
sq --exec "update $J3 priority=123" --yes
check "update: Priority=123" test "$(jfield "$J3" Priority)" = 123

# --- nodes
sq --exec "drain $node reason=sqa-it disk check" --yes
check "drain: exit 0" test $? -eq 0
check "drain: State has DRAIN (scontrol)" sh -c "echo '$(nfield "$node" State)' | grep -q DRAIN"
check "drain: sinfo -R shows the reason" sh -c "env LC_ALL=C sinfo -R -h -o '%E|%N' | grep -q '^sqa-it disk check|$node\$'"
sq --exec "reason $node reason=sqa-it second reason" --yes
check "reason: the new reason (scontrol)" test "$(reason_of "$node")" = "sqa-it second reason"
# who set the reason and when, as scontrol's [root@...] says (issue 41,
# defect 12): the nodes view's reason_by and reason_at
"$SQUALL" --once --view nodes --filter "@node=$node" \
	--columns node,reason,reason_by,reason_at --format tsv >"$tmp/nodes" 2>&1
check "nodes: who set the reason (root) and when (a time)" \
	grep -Eq "^$node	sqa-it second reason	root	20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\$" "$tmp/nodes"
sq --exec "resume $node" --yes
check "resume: exit 0, no DRAIN" sh -c "test $? -eq 0 && ! echo '$(nfield "$node" State)' | grep -q DRAIN"
# reboot and cancel-reboot: test_maint.sh (the testbed's RebootProgram
# records the request; a reboot issued on an idle node would leave it DOWN)
down=$(slurm sinfo -h -N -t idle -o %N | head -1)
if [ -n "$down" ]; then
	sq --exec "down $down reason=sqa-it down test" --yes
	check "down: State DOWN" sh -c "echo '$(nfield "$down" State)' | grep -q DOWN"
	sq --exec "resume $down" --yes
	check "down: resumed" sh -c "! echo '$(nfield "$down" State)' | grep -q '^DOWN'"
else
	echo "skip - down: no idle node (down on a busy node would kill other tests' jobs)"
fi

# --- accounting
sq --exec "addaccount $acct parent=chemistry description=sqa it account organization=sqorg fairshare=3" --yes
check "addaccount: exit 0" test $? -eq 0
check "addaccount: sacctmgr shows it under chemistry with shares 3" \
	test "$(assoc "$acct" '' Account,ParentName,Fairshare | head -1)" = "$acct|chemistry|3"
sq --exec "adduser bob account=$acct" --yes
check "adduser: sacctmgr show assoc has bob" test "$(assoc "$acct" bob User)" = bob
sq --exec "setlimit account=$acct user=bob maxjobs=5 grptres=cpu=4 maxwall=60 grpsubmit=9" --yes
check "setlimit: exit 0" test $? -eq 0
check "setlimit: sacctmgr show assoc shows the limits" \
	test "$(assoc "$acct" bob MaxJobs,GrpTRES,MaxWall,GrpSubmit)" = "5|cpu=4|01:00:00|9"
check "setlimit: sacctmgr -i in the command" grep -q "^sacctmgr -i modify user where name=bob account=$acct partition= set maxjobs=5" "$tmp/out"
undo=$(sed -n 's/^undo: //p' "$tmp/out")
sq --exec "clearlimit account=$acct user=bob maxjobs grptres" --yes
check "clearlimit: MaxJobs and GrpTRES empty" test "$(assoc "$acct" bob MaxJobs,GrpTRES,MaxWall)" = "||01:00:00"
sq --exec "$undo" --yes
check "undo of setlimit ($undo): limits cleared again" \
	test "$(assoc "$acct" bob MaxJobs,GrpTRES,MaxWall,GrpSubmit)" = "|||"
sq --exec "modaccount $acct description=changed fairshare=4" --yes
check "modaccount: Descr and shares" \
	test "$(slurm sacctmgr -n -P show account where name="$acct" format=Descr)/$(assoc "$acct" '' Fairshare | head -1)" = changed/4
sq --exec "addcoord $acct user=bob" --yes
check "addcoord: bob coordinates it" test "$(slurm sacctmgr -n -P show account where name="$acct" withcoord format=Coordinators)" = bob
sq --exec "delcoord $acct user=bob" --yes
check "delcoord: no coordinator" test -z "$(slurm sacctmgr -n -P show account where name="$acct" withcoord format=Coordinators)"
slurm sacctmgr -i add qos "$qos" priority=5 maxtresperuser=cpu=3 >/dev/null
sq --exec "setqos $qos priority=7 maxwall=2:00:00" --yes
check "setqos: priority and MaxWall (sacctmgr)" \
	test "$(slurm sacctmgr -n -P show qos where name="$qos" format=Priority,MaxWall,MaxTRESPU)" = "7|02:00:00|cpu=3"
slurm sacctmgr -i modify user where name=bob account="$acct" set maxjobs=20 >/dev/null
sq --exec "setlimit account=$acct user=bob maxjobs=7" --yes
check "setlimit over MaxJobs=20: MaxJobs=7" test "$(assoc "$acct" bob MaxJobs)" = 7
sq --exec "$(sed -n 's/^undo: //p' "$tmp/out")" --yes
check "its undo restores MaxJobs=20" test "$(assoc "$acct" bob MaxJobs)" = 20
sq --exec "deluser bob account=$acct" --yes
check "deluser: the association is gone" test -z "$(assoc "$acct" bob User)"
sq --exec "delaccount $acct" --yes
check "delaccount: the account is gone" test -z "$(slurm sacctmgr -n -P show account where name="$acct" format=Account)"

# --- ordinary users are refused, in Slurm's words, and nothing changes
bobstate=$tmp/bobstate
mkdir -p "$bobstate" && chown bob "$bobstate"
# bob must be able to run the binary: the checkout may sit in a private
# directory (a CI clone under mktemp -d), so run a world-readable copy
bobbin=$tmp/bobbin
mkdir -p "$bobbin" && chmod 755 "$tmp" "$bobbin" && cp "$SQUALL" "$bobbin/squall" && chmod 755 "$bobbin/squall"
asbob() { runuser -u bob -- env SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$bobstate" "$bobbin/squall" "$@" >"$tmp/out" 2>"$tmp/err"; }
# (a fresh job: scancel says nothing when the job has already ended)
JB=$(submit)
slurm scontrol release "$JB"
asbob --exec "cancel $JB" --yes
check "bob cancels alice's job: exit 1" test $? -eq 1
check "bob: 'Access/permission denied'" grep -q "Access/permission denied" "$tmp/out" "$tmp/err"
check "bob: the job is still there" test "$(jfield "$JB" JobState)" = PENDING
asbob --exec "hold $JB" --yes
check "bob holds alice's job: 'Invalid user id', not held" \
	sh -c "grep -q 'Invalid user id' '$tmp/out' '$tmp/err' && test $(jfield "$JB" Priority) -gt 0"
asbob --exec "drain $node reason=sqa-it by bob" --yes
check "bob drains a node: exit 1, 'Invalid user id'" sh -c "test $? -eq 1 && grep -q 'Invalid user id' '$tmp/out' '$tmp/err'"
check "bob: the node is not drained" sh -c "! echo '$(nfield "$node" State)' | grep -q DRAIN"
asbob --exec "setlimit account=chemistry user=bob maxjobs=9999" --yes
# 22.05's sacctmgr says "privilege"; 24.11's only that the request "didn't
# affect anything", 26.05's even "Modified user associations": squall's
# check of the limit must fail the action on every release
case $(slurm scontrol -V) in
*" 22."*) refusal=privilege ;;
*) refusal="setlimit: 1 of 1 failed" ;;
esac
check "bob sets his own limit: refused ('$refusal')" grep -q "$refusal" "$tmp/out" "$tmp/err"
check "bob: MaxJobs unchanged" test "$(assoc chemistry bob MaxJobs)" = "$bob_maxjobs"
check "bob's audit log: intent and result of each of his 4 actions" \
	test "$(grep -c '"event":"intent"' "$bobstate/squall/audit.log")/$(grep -c '"event":"result"' "$bobstate/squall/audit.log")" = 4/4
check "bob's audit log: user bob, all failed" \
	test "$(grep -c '"user":"bob".*"ok":false' "$bobstate/squall/audit.log")" = 4

# --- read-only: refused where dispatched, audited, nothing runs
before=$(jfield "$J3" Priority)
sq --readonly --exec "hold $J3" --yes
check "--readonly: exit 1" test $? -eq 1
check "--readonly: says read-only" grep -q "read-only" "$tmp/err"
check "--readonly: the job is not held" test "$(jfield "$J3" Priority)" = "$before"
check "--readonly: a refused line in the audit log" sh -c "tail -1 '$audit' | grep -q '\"event\":\"refused\".*\"action\":\"hold\"'"

# --- hostile values never run anything
for v in "reason=\$(touch $tmp/pwned)" "reason=\`touch $tmp/pwned\`" "reason=a'b" \
	'reason=a"b' "reason=a\\b" "reason=bang!"; do
	n0=$(wc -l <"$audit")
	sq --exec "drain $node $v" --yes
	rc=$?
	check "hostile '$v': refused (exit $rc)" test $rc -ne 0
	check "hostile '$v': no intent logged" test "$(grep -c '"event":"intent"' "$audit")" = "$(head -n "$n0" "$audit" | grep -c '"event":"intent"')"
done
sq --exec "$(printf 'drain %s reason=x\nreboot' "$node")" --yes
check "a newline in the command: refused" test $? -ne 0
sq --exec "update $J3 comment=\$(id)" --yes
check "a \$(...) comment: refused" test $? -ne 0
sq --exec "cancel $J3;touch $tmp/pwned" --yes
check "'123;cmd' as a job id: refused" test $? -ne 0
sq --exec "adduser bob account=chem\$(id)" --yes
check "a hostile account name: refused" test $? -ne 0
check "nothing hostile ran" test ! -e "$tmp/pwned"
check "the node was never drained by them" sh -c "! echo '$(nfield "$node" State)' | grep -q DRAIN"

# --- confirmation: no terminal without --yes; y/N on a terminal, No by
# default; more than 10 targets need the count typed
sq --exec "hold $J3"
check "no terminal, no --yes: exit 1, not run" sh -c "test $? -eq 1 && test $(jfield "$J3" Priority) -gt 0"
pty() { # pty INPUT ARGS...: run squall on a pseudo-terminal
	input=$1
	shift
	printf '%s' "$input" | script -qec "$(printf '%s ' "$SQUALL" "$@")" /dev/null >"$tmp/out" 2>&1
}
pty '
' --exec "'hold $J3'"
check "Enter answers No" test "$(jfield "$J3" Priority)" -gt 0
pty 'n
' --exec "'hold $J3'"
check "n answers No" test "$(jfield "$J3" Priority)" -gt 0
pty 'y
' --exec "'hold $J3'"
check "y runs it" test "$(jfield "$J3" Priority)" = 0
many=
for i in $(seq 1 11); do many="$many $(submit)"; done
pty '10
y
' --exec "'release$many'"
check "11 targets, count typed wrong: not run" grep -q "not confirmed" "$tmp/out"
pty '11
y
' --exec "'release$many'"
check "11 targets, count typed right, y: all released" \
	test "$(for j in $many; do jfield "$j" Priority; done | grep -c '^0$')" = 0
slurm scancel $many

# --- ssh (opsadmin is a Slurm administrator; alice is not)
key=$TB/ssh/id_ed25519
if [ -r "$key" ] && ssh-keyscan -T 5 -p $SSH_PORT 127.0.0.1 >/dev/null 2>&1; then
	: >"$tmp/sshcfg"
	viassh() {
		u=$1
		shift
		"$SQUALL" -b ssh -H 127.0.0.1 -p $SSH_PORT -l "$u" --identity "$key" \
			--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg" \
			"$@" >"$tmp/out" 2>"$tmp/err"
	}
	J4=$(submit)
	viassh opsadmin --exec "release $J4" --yes
	check "ssh: release as opsadmin (Priority > 0)" test "$(jfield "$J4" Priority)" -gt 0
	viassh opsadmin --exec "hold $J4" --yes
	check "ssh: hold as opsadmin (JobHeldAdmin)" test "$(slurm squeue -h -j "$J4" -o %r)" = JobHeldAdmin
	viassh opsadmin --exec "update $J4 comment=via ssh it timelimit=8" --yes
	check "ssh: update (TimeLimit=00:08:00)" test "$(jfield "$J4" TimeLimit)" = 00:08:00
	check "ssh: the comment with a space arrived whole" has_comment "$J4" "via ssh it"
	viassh opsadmin --exec "drain $node reason=sqa-it over ssh" --yes
	check "ssh: drain as opsadmin (reason in sinfo -R)" sh -c "env LC_ALL=C sinfo -R -h -o '%E|%N' | grep -q '^sqa-it over ssh|$node\$'"
	viassh alice --exec "resume $node" --yes
	check "ssh: alice may not resume it: exit 1, 'Invalid user id'" sh -c "test $? -eq 1 && grep -q 'Invalid user id' '$tmp/out' '$tmp/err'"
	viassh opsadmin --exec "resume $node" --yes
	check "ssh: resume as opsadmin" sh -c "! echo '$(nfield "$node" State)' | grep -q DRAIN"
	slurm sacctmgr -i add account "${acct}s" parent=chemistry >/dev/null
	slurm sacctmgr -i add user bob account="${acct}s" maxjobs=20 >/dev/null
	viassh opsadmin --exec "setlimit account=${acct}s user=bob maxjobs=8" --yes
	check "ssh: setlimit as opsadmin (MaxJobs=8)" test "$(assoc "${acct}s" bob MaxJobs)" = 8
	viassh opsadmin --exec "$(sed -n 's/^undo: //p' "$tmp/out")" --yes
	check "ssh: undo restores MaxJobs=20" test "$(assoc "${acct}s" bob MaxJobs)" = 20
	viassh opsadmin --exec "cancel $J4" --yes
	check "ssh: cancel (CANCELLED)" test "$(jfield "$J4" JobState)" = CANCELLED
	check "ssh: the audit names the ssh backend" grep -q '"backend":"ssh","action":"cancel"' "$audit"
else
	echo "skip - ssh backend: sshd on 127.0.0.1:$SSH_PORT or its key is not available"
fi

# --- rest (root's token; alice's token for the refusal)
REST=http://127.0.0.1:$REST_PORT
if curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null; then
	cp "$TB/jwt/root.token" "$tmp/root.token" && chmod 600 "$tmp/root.token"
	cp "$TB/jwt/alice.token" "$tmp/alice.token" && chmod 600 "$tmp/alice.token"
	rest() { "$SQUALL" -b rest -u "$REST" --token-file "$tmp/root.token" -l root "$@" >"$tmp/out" 2>"$tmp/err"; }
	# the newest /slurm/ version squall speaks to this slurmrestd (v0.0.38
	# on 22.05, v0.0.42 on 24.11, v0.0.45 on 26.05)
	V=$(curl -s -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $(cat "$tmp/root.token")" "$REST/openapi/v3" |
		jq -r '.paths | keys[]' | sed -n 's,^/slurm/v0\.0\.\([0-9]*\)/jobs/*$,\1,p' |
		awk '$1 <= 45' | sort -n | tail -1)
	J5=$(submit)
	rest --exec "release $J5" --yes
	check "rest: release (Priority > 0)" test "$(jfield "$J5" Priority)" -gt 0
	check "rest: the HTTP call is printed" grep -q "^POST /slurm/v0.0.$V/job/$J5 {\"hold\":false}\$" "$tmp/out"
	rest --exec "hold $J5" --yes
	check "rest: hold (JobHeldAdmin)" test "$(slurm squeue -h -j "$J5" -o %r)" = JobHeldAdmin
	rest --exec "update $J5 timelimit=9 comment=via rest" --yes
	check "rest: update (TimeLimit=00:09:00)" test "$(jfield "$J5" TimeLimit)" = 00:09:00
	rest --exec "requeue $J5" --yes
	check "rest: requeue refused with the reason" sh -c "test $? -eq 1 && grep -q 'requeue' '$tmp/err'"
	rest --exec "drain $node reason=sqa-it rest" --yes
	rc=$?
	if [ "$V" = 38 ]; then
		check "rest: node update refused (405 on v0.0.38)" sh -c "test $rc -eq 1 && grep -q 'POST /node answers 405 on v0.0.38' '$tmp/err'"
		check "rest: the node is not drained" sh -c "! echo '$(nfield "$node" State)' | grep -q DRAIN"
	else
		# drain, reason, resume and the undo of each through POST
		# /slurm/vX/node/NAME, checked with scontrol and sinfo
		check "rest: drain: exit 0" test $rc -eq 0
		check "rest: drain: the HTTP call is printed" \
			grep -qx "POST /slurm/v0.0.$V/node/$node {\"state\":\[\"DRAIN\"\],\"reason\":\"sqa-it rest\"}" "$tmp/out"
		check "rest: drain: State has DRAIN (scontrol)" sh -c "echo '$(nfield "$node" State)' | grep -q DRAIN"
		check "rest: drain: sinfo -R shows the reason" sh -c "env LC_ALL=C sinfo -R -h -o '%E|%N' | grep -q '^sqa-it rest|$node\$'"
		check "rest: drain: verified, the undo is noderesume" \
			sh -c "grep -q '^drain: 1 of 1 done and verified' '$tmp/out' && grep -qx 'undo: noderesume $node' '$tmp/out'"
		rest --exec "reason $node reason=sqa-it rest two" --yes
		check "rest: reason: the new reason (scontrol)" test "$(reason_of "$node")" = "sqa-it rest two"
		check "rest: reason: the undo restores the old one" grep -qx "undo: reason $node reason=\"sqa-it rest\"" "$tmp/out"
		rest --exec "resume $node" --yes
		rc=$?
		check "rest: resume: exit 0, no DRAIN (scontrol)" sh -c "test $rc -eq 0 && ! echo '$(nfield "$node" State)' | grep -q DRAIN"
		check "rest: resume: sinfo -R no longer lists $node" sh -c "! env LC_ALL=C sinfo -R -h -o '%N' | grep -qx '$node'"
		check "rest: resume: the undo drains it again with its reason" \
			grep -qx "undo: drain $node reason=\"sqa-it rest two\"" "$tmp/out"
		# the undo line, run as :undo runs it, then resume again
		rest --exec "drain $node reason=sqa-it rest two" --yes
		check "rest: undo of resume: drained with the old reason (scontrol)" \
			sh -c "echo '$(nfield "$node" State)' | grep -q DRAIN && test '$(reason_of "$node")' = 'sqa-it rest two'"
		rest --exec "noderesume $node" --yes
		check "rest: undo of drain: in service again (scontrol)" sh -c "! echo '$(nfield "$node" State)' | grep -q DRAIN"
		rest --exec "reboot $node" --yes
		check "rest: reboot refused with the reason (no reboot call)" \
			sh -c "test $? -eq 1 && grep -q 'slurmrestd has no reboot call' '$tmp/err'"
		# down only on an idle node: it would kill other tests' jobs
		rdown=$(slurm sinfo -h -N -t idle -o %N | head -1)
		if [ -n "$rdown" ]; then
			rest --exec "down $rdown reason=sqa-it rest down" --yes
			check "rest: down: State DOWN (scontrol)" sh -c "echo '$(nfield "$rdown" State)' | grep -q DOWN"
			rest --exec "resume $rdown" --yes
			check "rest: down: resumed (scontrol)" sh -c "! echo '$(nfield "$rdown" State)' | grep -q '^DOWN'"
		else
			echo "skip - rest: down: no idle node"
		fi
	fi
	rest --exec "setlimit account=chemistry user=bob maxjobs=3" --yes
	rc=$?
	if [ "$V" = 38 ]; then
		check "rest: association limits refused (22.05 crash)" sh -c "test $rc -eq 1 && grep -q 'crashes' '$tmp/err'"
	else
		# from v0.0.40: POST /associations of that association
		# (test_accounts.sh compares every association around it)
		check "rest: setlimit on v0.0.$V: exit 0, MaxJobs=3" \
			sh -c "test $rc -eq 0 && test '$(assoc chemistry bob MaxJobs)' = 3"
		rest --exec "$(sed -n 's/^undo: //p' "$tmp/out" | head -1)" --yes
	fi
	check "rest: MaxJobs as before" test "$(assoc chemistry bob MaxJobs)" = "$bob_maxjobs"
	rest --exec "addaccount ${acct}r parent=chemistry description=via rest" --yes
	check "rest: addaccount (sacctmgr shows it under chemistry)" \
		test "$(assoc "${acct}r" '' Account,ParentName | head -1)" = "${acct}r|chemistry"
	rest --exec "adduser bob account=${acct}r" --yes
	check "rest: adduser" test "$(assoc "${acct}r" bob User)" = bob
	rest --exec "deluser bob account=${acct}r" --yes
	check "rest: deluser" test -z "$(assoc "${acct}r" bob User)"
	rest --exec "delaccount ${acct}r" --yes
	check "rest: delaccount" test -z "$(slurm sacctmgr -n -P show account where name="${acct}r" format=Account)"
	rest --exec "setqos $qos priority=11" --yes
	check "rest: QOS priority (sacctmgr), its limit kept" \
		test "$(slurm sacctmgr -n -P show qos where name="$qos" format=Priority,MaxTRESPU)" = "11|cpu=3"
	check "rest: the comment with a space arrived whole" has_comment "$J5" "via rest"
	J6=$(runuser -u bob -- sbatch --parsable -H --begin=now+3600 -p low -t 10 -J "$name" --wrap 'sleep 600')
	"$SQUALL" -b rest -u "$REST" --token-file "$tmp/alice.token" -l alice --exec "cancel $J6" --yes >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# 22.05 answers the error; 24.11's and 26.05's slurmrestd answer 200
	# with no error, and squall's check finds the job still pending
	[ "$V" = 38 ] && denied='Access/permission denied' || denied='still PENDING'
	check "rest: alice cancels bob's job: exit 1, '$denied'" \
		sh -c "test $rc -eq 1 && grep -q '$denied' '$tmp/out' '$tmp/err'"
	check "rest: bob's job is still pending" test "$(jfield "$J6" JobState)" = PENDING
	check "rest: no token in the audit log" sh -c "! grep -q 'eyJ' '$audit'"
else
	echo "skip - rest backend: slurmrestd on $REST does not answer"
fi

# --- the audit log: 0600, two lines per action, one id per pair
check "audit log mode 0600" test "$(stat -c %a "$audit")" = 600
bad=$(awk -F'"id":"' '/"event":"(intent|result)"/ { split($2, a, "\""); n[a[1]]++ } END { for (i in n) if (n[i] != 2) print i }' "$audit")
check "audit: every action has exactly an intent and a result line" test -z "$bad"
ni=$(grep -c '"event":"intent"' "$audit")
check "audit: $ni actions logged, as many results" test "$ni" = "$(grep -c '"event":"result"' "$audit")"
check "audit: at least 40 actions" test "$ni" -ge 40
check "audit: each line is JSON" sh -c "jq -c . '$audit' >/dev/null"
check "audit: fields" sh -c "tail -1 '$audit' | jq -e 'has(\"time\") and has(\"user\") and has(\"cluster\") and has(\"backend\") and has(\"action\") and has(\"targets\") and has(\"command\") and has(\"status\") and has(\"message\") and has(\"duration_ms\") and has(\"inverse\")' >/dev/null"
finish
