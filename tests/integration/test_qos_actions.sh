#!/bin/sh
# test_qos_actions.sh - the QOS lifecycle on the live testbed through
# `squall --exec` (local backend): addqos (a capitalised name, stored in
# lower case), modqos, delqos and the undo of each, every result compared
# with `sacctmgr show qos -P` before and after: the fields asked changed,
# no other field and no other QOS did. Bad keys and out-of-range numbers
# are refused before anything runs; over ssh as a user without an admin
# level Slurm's refusal is shown and nothing is created; through
# slurmrestd from API v0.0.40 the same lifecycle with the same checks,
# on v0.0.38 addqos is refused saying why. Everything it creates is
# removed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
q=sqqos_$$
caps=SqQos_$$
acct=sqqosacct_$$
cleanup() {
	slurm sacctmgr -i delete account where name="$acct" >/dev/null 2>&1
	slurm sacctmgr -i delete qos where name="$q" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
undo_line() { sed -n 's/^undo: //p' "$tmp/out" | head -1; }
F=Name,Priority,GraceTime,Preempt,PreemptMode,Flags,UsageFactor,GrpTRES,GrpJobs,GrpSubmit,GrpWall,MaxTRES,MaxWall,MaxTRESPU,MaxJobsPU,MaxSubmitPU,MaxTRESPA,MaxJobsPA,MaxSubmitPA
one() { slurm sacctmgr -n -P show qos where name="$1" format=$F; }
# every QOS but ours, to see that nothing else changed
others() { slurm sacctmgr -n -P show qos format=$F | grep -v "^$q|" | sort; }

others >"$tmp/others0"
test -z "$(one "$q")" || {
	notok "$q exists before the test"
	finish
}

# --- addqos
sq --exec "addqos $caps priority=5 gracetime=90 usagefactor=1.5 flags=DenyOnLimit,NoDecay maxjobs=3 maxsubmitpu=6 maxtrespu=cpu=4 maxjobspa=7 maxtrespa=cpu=8 maxwall=60 grpjobs=20 preemptmode=requeue" --yes
check "addqos $caps: exit 0, done and verified" test $? -eq 0
check "addqos: the preview is the sacctmgr line with the stored name" \
	grep -q "^sacctmgr -i add qos $q priority=5 gracetime=90 usagefactor=1.5 flags=DenyOnLimit,NoDecay maxjobsperuser=3 maxsubmitjobsperuser=6 maxtresperuser=cpu=4 maxjobsperaccount=7 maxtresperaccount=cpu=8 maxwalldurationperjob=60 grpjobs=20 preemptmode=requeue\$" "$tmp/out"
# Name Priority GraceTime Preempt PreemptMode Flags UsageFactor GrpTRES
# GrpJobs GrpSubmit GrpWall MaxTRES MaxWall MaxTRESPU MaxJobsPU MaxSubmitPU
# MaxTRESPA MaxJobsPA MaxSubmitPA
want="$q|5|00:01:30||requeue|DenyOnLimit,NoDecay|1.500000||20||||01:00:00|cpu=4|3|6|cpu=8|7|"
check "addqos: sacctmgr shows every field asked and no other" \
	test "$(one "$q")" = "$want"
check "addqos: the undo is delqos $q" grep -q "^undo: delqos $q\$" "$tmp/out"
others >"$tmp/others1"
check "addqos: no other QOS changed" cmp -s "$tmp/others0" "$tmp/others1"

# --- modqos: what is asked changes, nothing else
before=$(one "$q")
sq --exec "modqos $q maxjobspu=4 flags=-1 usagefactor=2 gracetime=0 priority=7" --yes
check "modqos: exit 0, done and verified" test $? -eq 0
check "modqos: the preview names sacctmgr's words" \
	grep -q "^sacctmgr -i modify qos where name=$q set maxjobsperuser=4 flags=-1 usagefactor=2 gracetime=0 priority=7\$" "$tmp/out"
after=$(one "$q")
check "modqos: the fields asked changed" \
	test "$(echo "$after" | cut -d'|' -f2,3,6,7,15)" = "7|00:00:00||2.000000|4"
check "modqos: every other field is as before" \
	test "$(echo "$after" | cut -d'|' -f1,4,5,8-14,16-)" = "$(echo "$before" | cut -d'|' -f1,4,5,8-14,16-)"
sq --exec "$(undo_line)" --yes
check "modqos's undo: exit 0" test $? -eq 0
check "modqos's undo: sacctmgr shows the QOS as before" test "$(one "$q")" = "$before"

# --- refused before anything runs
sq --exec "modqos $q maxfoo=3" --yes
check "an unknown key is refused (exit 2)" test $? -eq 2
check "its error lists the keys taken" grep -q "it takes: .*maxjobspu.*maxtrespa" "$tmp/err"
sq --exec "setlimit account=physics maxjobspu=3" --yes
check "setlimit maxjobspu= says it is a QOS limit" grep -q "a QOS limit" "$tmp/err"
sq --exec "modqos $q priority=99999999999" --yes
check "priority=99999999999: refused (exit 1)" test $? -eq 1
check "priority=99999999999: the message names Slurm's range" \
	grep -q "out of range: Slurm stores 0 to 2147483647" "$tmp/err"
check "nothing changed by the refused lines" test "$(one "$q")" = "$before"

# --- delqos and its undo: re-created with every setting
sq --exec "delqos $q" --yes
check "delqos: exit 0, done and verified" test $? -eq 0
check "delqos: the preview is the sacctmgr line" \
	grep -q "^sacctmgr -i delete qos where name=$q\$" "$tmp/out"
check "delqos: sacctmgr has no $q" test -z "$(one "$q")"
check "delqos: the undo re-creates it with its settings" \
	grep -q "^undo: addqos $q .*maxjobspu=3" "$tmp/out"
sq --exec "$(undo_line)" --yes
check "delqos's undo: exit 0, done and verified" test $? -eq 0
check "delqos's undo: sacctmgr shows the QOS as before the delete" \
	test "$(one "$q")" = "$before"
sq --exec "delqos $q" --yes
sq --exec "$(undo_line)" --yes
sq --exec "delqos $q" --yes
check "addqos's undo path: removed again" test -z "$(one "$q")"

# --- delqos of a QOS an association uses: the preview and the audit
# name it; Slurm drops the QOS from its list; the undo gives it back
# (test_acct_undo.sh runs it)
acct=sqqosacct_$$
slurm sacctmgr -i add qos "$q" >/dev/null &&
	slurm sacctmgr -i add account "$acct" parent=chemistry qos=normal,"$q" >/dev/null ||
	notok "sacctmgr: $acct with QOS $q"
sq --exec "delqos $q" --yes
check "delqos of a QOS in use: exit 0" test $? -eq 0
check "delqos: the preview names the association that uses it" \
	grep -q "^removes it from the QOS lists of $acct (normal,$q)\$" "$tmp/out"
check "delqos: the audit line records it" \
	grep -q "\"action\":\"delqos\".*removes it from the QOS lists of $acct (normal,$q)" "$tmp/state/squall/audit.log"
check "delqos: the undo gives it back to $acct" \
	grep -q "^undo: setlimit $acct qos=normal,$q\$" "$tmp/out"
check "delqos: sacctmgr has no $q" test -z "$(one "$q")"
slurm sacctmgr -i delete account where name="$acct" >/dev/null

# --- over ssh as alice (no admin level): the same preview, Slurm's
# refusal word for word, nothing created, nothing to undo
key=$TB/ssh/id_ed25519
if [ -r "$key" ] && [ -r "$TB/ssh/known_hosts" ]; then
	: >"$tmp/empty_config"
	cp "$TB/ssh/known_hosts" "$tmp/kh"
	"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l alice \
		--ssh-config "$tmp/empty_config" --identity "$key" \
		--known-hosts "$tmp/kh" --exec "addqos $q priority=3" --yes \
		>"$tmp/out" 2>"$tmp/err"
	check "ssh: addqos as alice fails (exit 1)" test $? -eq 1
	check "ssh: the preview is the sacctmgr line on the host" \
		grep -q "^\[ssh alice@127.0.0.1\] sacctmgr -i add qos $q priority=3\$" "$tmp/out"
	check "ssh: Slurm's refusal is shown" \
		grep -q "Access/permission denied" "$tmp/out" "$tmp/err"
	check "ssh: no undo is offered" test -z "$(undo_line)"
	check "ssh: sacctmgr has no $q" test -z "$(one "$q")"
else
	echo "# ssh part left out: no testbed ssh keys in $TB/ssh"
fi

# --- through slurmrestd: from API v0.0.40 on the same lifecycle (POST
# /slurmdb/vN/qos, DELETE /qos/NAME), each result compared with sacctmgr
# as above; v0.0.38 (22.05) refuses it before anything runs, saying why
REST=http://127.0.0.1:$REST_PORT
rest() {
	"$SQUALL" -b rest -u "$REST" --token-file "$tmp/root.token" -l root "$@" \
		>"$tmp/out" 2>"$tmp/err"
}
if curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null; then
	cp "$TB/jwt/root.token" "$tmp/root.token" && chmod 600 "$tmp/root.token"
	dbv=$(curl -s -H "X-SLURM-USER-NAME: root" \
		-H "X-SLURM-USER-TOKEN: $(cat "$tmp/root.token")" "$REST/openapi/v3" |
		tr -d '\\' | grep -o '/slurmdb/v0\.0\.[0-9]*/' | sed 's/.*v0\.0\.//; s/\///' |
		sort -n | tail -1)
	if [ "${dbv:-0}" -ge 40 ]; then
		rest --exec "addqos $caps priority=5 gracetime=90 usagefactor=1.5 flags=DenyOnLimit,NoDecay maxjobs=3 maxsubmitpu=6 maxtrespu=cpu=4 maxjobspa=7 maxtrespa=cpu=8 maxwall=60 grpjobs=20 preemptmode=requeue" --yes
		check "rest v0.0.$dbv: addqos $caps: exit 0, done and verified" test $? -eq 0
		check "rest: the preview is the POST with the stored name" \
			grep -q "^POST /slurmdb/v0.0.$dbv/qos {\"qos\":\[{\"name\":\"$q\",\"priority\":{\"set\":true,\"infinite\":false,\"number\":5}" "$tmp/out"
		check "rest: sacctmgr shows every field asked and no other" \
			test "$(one "$q")" = "$want"
		check "rest: the undo is delqos $q" grep -q "^undo: delqos $q\$" "$tmp/out"
		before=$(one "$q")
		rest --exec "modqos $q maxjobspu=4 flags=-1 usagefactor=2 gracetime=0 priority=7" --yes
		check "rest: modqos: exit 0, done and verified" test $? -eq 0
		check "rest: modqos keeps the preempt mode read before and the flags' NOT_SET is not sent when asked" \
			grep -q "\"flags\":\[\].*\"preempt\":{\"mode\":\[\"REQUEUE\"\]}" "$tmp/out"
		after=$(one "$q")
		check "rest: modqos: the fields asked changed" \
			test "$(echo "$after" | cut -d'|' -f2,3,6,7,15)" = "7|00:00:00||2.000000|4"
		check "rest: modqos: every other field is as before" \
			test "$(echo "$after" | cut -d'|' -f1,4,5,8-14,16-)" = "$(echo "$before" | cut -d'|' -f1,4,5,8-14,16-)"
		rest --exec "$(undo_line)" --yes
		check "rest: modqos's undo: exit 0" test $? -eq 0
		check "rest: modqos's undo: sacctmgr shows the QOS as before" test "$(one "$q")" = "$before"
		rest --exec "modqos $q maxtrespu=gres/gpu=2" --yes
		check "rest: a TRES added to a QOS's list keeps the others" \
			test "$(one "$q" | cut -d'|' -f14)" = "cpu=4,gres/gpu=2"
		rest --exec "$(undo_line)" --yes
		check "rest: its undo removes only that TRES" test "$(one "$q")" = "$before"
		rest --exec "addqos $q priority=1" --yes
		check "rest: addqos of a QOS that exists is refused (POST would change it)" \
			grep -q "QOS $q exists (POST /qos would change it)" "$tmp/out" "$tmp/err"
		check "rest: nothing changed by it" test "$(one "$q")" = "$before"
		rest --exec "delqos $q" --yes
		check "rest: delqos: exit 0, done and verified" test $? -eq 0
		check "rest: delqos: the preview is the DELETE" \
			grep -q "^DELETE /slurmdb/v0.0.$dbv/qos/$q\$" "$tmp/out"
		check "rest: delqos: sacctmgr has no $q" test -z "$(one "$q")"
		rest --exec "$(undo_line)" --yes
		check "rest: delqos's undo: exit 0, done and verified" test $? -eq 0
		check "rest: delqos's undo: sacctmgr shows the QOS as before the delete" \
			test "$(one "$q")" = "$before"
		rest --exec "delqos $q" --yes
		check "rest: removed again" test -z "$(one "$q")"
	else
		rest --exec "addqos $q priority=3" --yes
		check "rest v0.0.${dbv:-?}: addqos refused (exit 1)" test $? -eq 1
		check "rest: the reason: squall maps POST /qos from v0.0.40 on" \
			grep -q "addqos through slurmrestd API v0.0.38 is not mapped: squall maps POST /slurmdb/vN/qos from v0.0.40" "$tmp/out" "$tmp/err"
		check "rest: sacctmgr has no $q" test -z "$(one "$q")"
	fi
else
	ok "rest: # not here: no slurmrestd on $REST"
fi

others >"$tmp/others2"
check "no other QOS changed in all of it" cmp -s "$tmp/others0" "$tmp/others2"

finish
