#!/bin/sh
# test_accounts.sh - account actions change exactly what is selected, on
# the live testbed through `squall --exec` (local backend): a user with two
# associations in a throw-away account (no partition, MaxJobs=5; partition
# gpu, unset) where setlimit, its undo, deluser and its undo touch only the
# association selected, every result compared with `sacctmgr show -P assoc`
# before and after; the same through slurmrestd where the served API has
# the operation (setlimit, clearlimit and moduser from v0.0.40; modaccount,
# addcoord and delcoord from v0.0.40, compared with `sacctmgr show account
# withcoord` and the account's associations), refused saying why on v0.0.38. Everything it creates is removed on exit.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
acct=sqacct_$$
mu=squser_$$
cleanup() {
	slurm sacctmgr -i delete account where name="$acct" >/dev/null 2>&1
	slurm sacctmgr -i delete account where name="${acct}d" >/dev/null 2>&1
	slurm sacctmgr -i delete account where name="sqcaps_$$" >/dev/null 2>&1
	slurm sacctmgr -i delete user where name="$mu" >/dev/null 2>&1
	slurm sacctmgr -i delete account where name="${acct}k" >/dev/null 2>&1
	slurm sacctmgr -i delete account where name="${acct}p,${acct}m,${acct}c,${acct}q" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
undo_line() { sed -n 's/^undo: //p' "$tmp/out" | head -1; }
# every association of the account: user|partition|limits, sorted
assocs() {
	slurm sacctmgr -n -P show assoc where account="$1" \
		format=User,Partition,MaxJobs,GrpTRES,MaxWall,GrpSubmit | sort
}
slurm sacctmgr -i add account "$acct" parent=chemistry >/dev/null &&
	slurm sacctmgr -i add user carol account="$acct" maxjobs=5 \
		grptres=cpu=4 maxwalldurationperjob=60 >/dev/null &&
	slurm sacctmgr -i add user carol account="$acct" partition=gpu \
		>/dev/null || {
	notok "sacctmgr: carol@$acct with and without partition"
	finish
}
assocs "$acct" >"$tmp/before"
echo "# before:" && sed 's/^/#   /' "$tmp/before"

# --- setlimit on the association without partition
sq --exec "setlimit account=$acct user=carol maxjobs=3" --yes
check "setlimit carol@$acct (no partition): exit 0" test $? -eq 0
check "setlimit: the where clause narrows to the association without partition" \
	grep -q "^sacctmgr -i modify user where name=carol account=$acct partition= set maxjobs=3\$" "$tmp/out"
assocs "$acct" >"$tmp/after"
sed 's/^carol||5|/carol||3|/' "$tmp/before" >"$tmp/want"
check "setlimit: only carol's association without partition changed" \
	cmp -s "$tmp/want" "$tmp/after"
cmp -s "$tmp/want" "$tmp/after" || diff "$tmp/want" "$tmp/after"
undo=$(undo_line)
check "setlimit: undo offered ($undo)" test -n "$undo"
sq --exec "$undo" --yes
assocs "$acct" >"$tmp/after"
check "setlimit's undo restores exactly the state before" \
	cmp -s "$tmp/before" "$tmp/after"

# --- setlimit on the gpu association leaves the other alone
sq --exec "setlimit account=$acct user=carol partition=gpu maxjobs=2" --yes
assocs "$acct" >"$tmp/after"
sed 's/^carol|gpu||/carol|gpu|2|/' "$tmp/before" >"$tmp/want"
check "setlimit carol@$acct/gpu: only that association changed" \
	cmp -s "$tmp/want" "$tmp/after"
sq --exec "$(undo_line)" --yes
assocs "$acct" >"$tmp/after"
check "its undo restores the state before" cmp -s "$tmp/before" "$tmp/after"

# --- setlimit through slurmrestd: from API v0.0.40 on, POST
# /associations of exactly the association selected (its TRES limits sent
# as they are, which slurmrestd would otherwise clear), every association
# of the account compared before and after, and the undo through it too;
# v0.0.38 (22.05) refuses it saying why
REST=http://127.0.0.1:$REST_PORT
rest() {
	"$SQUALL" -b rest -u "$REST" --token-file "$tmp/root.token" -l root "$@" \
		>"$tmp/out" 2>"$tmp/err"
}
if curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null &&
	cp "$TB/jwt/root.token" "$tmp/root.token" && chmod 600 "$tmp/root.token"; then
	dbv=$(curl -s -H "X-SLURM-USER-NAME: root" \
		-H "X-SLURM-USER-TOKEN: $(cat "$tmp/root.token")" "$REST/openapi/v3" |
		tr -d '\\' | grep -o '/slurmdb/v0\.0\.[0-9]*/' | sed 's/.*v0\.0\.//; s/\///' |
		sort -n | tail -1)
	if [ "${dbv:-0}" -ge 40 ]; then
		rest --exec "setlimit account=$acct user=carol maxjobs=3 maxwall=120" --yes
		check "rest v0.0.$dbv: setlimit carol@$acct (no partition): exit 0, done and verified" test $? -eq 0
		check "rest: the preview is the POST of that one association, its GrpTRES kept" \
			grep -q "^POST /slurmdb/v0.0.$dbv/associations {\"associations\":\[{\"account\":\"$acct\",\"cluster\":\"[a-z]*\",\"user\":\"carol\",\"max\":{.*\"total\":\[{\"type\":\"cpu\",\"count\":4}\]" "$tmp/out"
		assocs "$acct" >"$tmp/after"
		sed 's/^carol||5|cpu=4|01:00:00|/carol||3|cpu=4|02:00:00|/' "$tmp/before" >"$tmp/want"
		check "rest: only carol's association without partition changed" \
			cmp -s "$tmp/want" "$tmp/after"
		cmp -s "$tmp/want" "$tmp/after" || diff "$tmp/want" "$tmp/after"
		undo=$(undo_line)
		check "rest: undo offered ($undo)" test -n "$undo"
		rest --exec "$undo" --yes
		check "rest: the undo through slurmrestd: exit 0" test $? -eq 0
		assocs "$acct" >"$tmp/after"
		check "rest: setlimit's undo restores exactly the state before" \
			cmp -s "$tmp/before" "$tmp/after"
		rest --exec "setlimit account=$acct user=carol partition=gpu maxjobs=2 grptres=cpu=6" --yes
		check "rest: setlimit carol@$acct/gpu: exit 0" test $? -eq 0
		assocs "$acct" >"$tmp/after"
		sed 's/^carol|gpu|||/carol|gpu|2|cpu=6|/' "$tmp/before" >"$tmp/want"
		check "rest: only the gpu association changed" cmp -s "$tmp/want" "$tmp/after"
		cmp -s "$tmp/want" "$tmp/after" || diff "$tmp/want" "$tmp/after"
		rest --exec "$(undo_line)" --yes
		assocs "$acct" >"$tmp/after"
		check "rest: its undo restores the state before" cmp -s "$tmp/before" "$tmp/after"
		rest --exec "clearlimit account=$acct user=carol maxjobs" --yes
		check "rest: clearlimit maxjobs: exit 0" test $? -eq 0
		assocs "$acct" >"$tmp/after"
		sed 's/^carol||5|/carol|||/' "$tmp/before" >"$tmp/want"
		check "rest: clearlimit cleared only that limit of that association" \
			cmp -s "$tmp/want" "$tmp/after"
		rest --exec "$(undo_line)" --yes
		assocs "$acct" >"$tmp/after"
		check "rest: clearlimit's undo restores the state before" \
			cmp -s "$tmp/before" "$tmp/after"
	else
		rest --exec "setlimit account=$acct user=carol maxjobs=3" --yes
		check "rest v0.0.${dbv:-?}: setlimit refused (exit 1)" test $? -eq 1
		check "rest: the reason: 22.05's slurmrestd crashes on it" \
			grep -q "association limits through slurmrestd v0.0.38 are refused: Slurm 22.05's slurmrestd crashes" "$tmp/out" "$tmp/err"
		assocs "$acct" >"$tmp/after"
		check "rest: nothing changed" cmp -s "$tmp/before" "$tmp/after"
	fi
else
	ok "rest: # not here: no slurmrestd on $REST"
fi

# --- deluser of the association without partition, and its undo
sq --exec "deluser carol account=$acct" --yes
check "deluser carol@$acct (no partition): exit 0" test $? -eq 0
assocs "$acct" >"$tmp/after"
grep -v '^carol||' "$tmp/before" >"$tmp/want"
check "deluser: only the association without partition is gone" \
	cmp -s "$tmp/want" "$tmp/after"
cmp -s "$tmp/want" "$tmp/after" || diff "$tmp/want" "$tmp/after"
undo=$(undo_line)
check "deluser: undo re-adds it with its limits ($undo)" \
	sh -c "echo '$undo' | grep -q 'adduser.*maxjobs=5'"
sq --exec "$undo" --yes
assocs "$acct" >"$tmp/after"
check "deluser's undo restores the association with its limits" \
	cmp -s "$tmp/before" "$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || diff "$tmp/before" "$tmp/after"

# --- a job of carol's waiting in the association blocks its delete: the
# preview names it, Slurm refuses, nothing is removed
job=$(cd /tmp && runuser -u carol -- env -u SQUEUE_FORMAT sbatch --parsable \
	-H -A "$acct" -p low -o /dev/null -D /tmp --wrap 'sleep 60' 2>"$tmp/err")
if [ -n "$job" ]; then
	# slurmdbd refuses the delete only once it has the job's record
	# (slurmctld sends it a moment after the submit)
	i=0
	while [ $i -lt 20 ] && [ -z "$(slurm sacct -n -X -j "$job" -o JobID 2>/dev/null)" ]; do
		sleep 0.5
		i=$((i + 1))
	done
	setsid "$SQUALL" --exec "deluser carol account=$acct" \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	check "deluser: the preview names the waiting job $job that blocks it" \
		grep -q "^blocked: jobs $job of carol run or wait in it" "$tmp/out"
	sq --exec "deluser carol account=$acct" --yes
	check "deluser with a job waiting: not done (exit 1)" test $? -eq 1
	assocs "$acct" >"$tmp/after"
	check "deluser with a job waiting: nothing removed" \
		cmp -s "$tmp/before" "$tmp/after"
	if ! cmp -s "$tmp/before" "$tmp/after"; then
		diff "$tmp/before" "$tmp/after"
		# removed after all: put it back for the checks below
		sed -n 's/^undo: //p' "$tmp/out" | while read -r line; do
			"$SQUALL" --exec "$line" --yes >/dev/null 2>&1
		done
	fi
	slurm scancel "$job"
else
	notok "sbatch as carol in $acct: $(cat "$tmp/err")"
fi

# --- through slurmrestd: its DELETE of an association without partition
# takes the user's other partitions too (22.05), so it is refused before
# anything runs; newer slurmdbd refuse it as ambiguous
REST=http://127.0.0.1:$REST_PORT
if curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null; then
	cp "$TB/jwt/root.token" "$tmp/root.token" && chmod 600 "$tmp/root.token"
	"$SQUALL" -b rest -u "$REST" --token-file "$tmp/root.token" -l root \
		--exec "deluser carol account=$acct" --yes >"$tmp/out" 2>"$tmp/err"
	check "rest: deluser of the association without partition refused (exit 1)" test $? -eq 1
	# squall names the other partition where it reads it (22.05);
	# slurmdbd 24.11 and later refuse the ambiguous DELETE themselves
	check "rest: it names the other partition (ALSO gpu) or Slurm's refusal" \
		grep -Eq "ALSO gpu|More than 1 association would have been deleted" "$tmp/out" "$tmp/err"
	assocs "$acct" >"$tmp/after"
	check "rest: nothing removed" cmp -s "$tmp/before" "$tmp/after"
	# the preview of a delete says what its undo there cannot restore
	# (no terminal to confirm on: the preview only, nothing runs)
	setsid "$SQUALL" -b rest -u "$REST" --token-file "$tmp/root.token" \
		-l root --exec "deluser carol account=$acct partition=gpu" \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	check "rest: deluser's preview says it cannot be undone in full there" \
		grep -q "^cannot be undone in full through slurmrestd: its undo re-adds the association without its limits" "$tmp/out"
	assocs "$acct" >"$tmp/after"
	check "rest: the preview alone removes nothing" cmp -s "$tmp/before" "$tmp/after"
else
	ok "rest: # not here: no slurmrestd on $REST"
fi

# --- delaccount of an account with users: refused, nothing removed
sq --exec "delaccount $acct" --yes
check "delaccount of an account with users: exit 1" test $? -eq 1
check "delaccount: says it has users and names them" \
	grep -q "USERS carol.*accounts without users" "$tmp/out" "$tmp/err"
assocs "$acct" >"$tmp/after"
check "delaccount refused: every association still there" \
	cmp -s "$tmp/before" "$tmp/after"
slurm sacctmgr -i add account "${acct}d" parent=chemistry >/dev/null
sq --exec "delaccount ${acct}d" --yes
check "delaccount of an account without users: done" \
	test -z "$(slurm sacctmgr -n -P show account where name="${acct}d" format=Account)"

# --- names as sacctmgr stores them (lower case), numbers in Slurm's range
caps=SqCaps_$$
low=sqcaps_$$
sq --exec "addaccount $caps parent=Chemistry" --yes
check "addaccount $caps: exit 0, done and verified" test $? -eq 0
check "addaccount: the preview shows the stored name $low" \
	grep -q "^sacctmgr -i add account $low parent=chemistry\$" "$tmp/out"
check "addaccount: sacctmgr has $low" \
	test "$(slurm sacctmgr -n -P show account where name="$low" format=Account)" = "$low"
check "addaccount: the undo names $low" grep -q "^undo: delaccount $low\$" "$tmp/out"
sq --exec "$(undo_line)" --yes
check "its undo removes $low" \
	test -z "$(slurm sacctmgr -n -P show account where name="$low" format=Account)"
sq --exec "setlimit account=$acct user=carol maxjobs=99999999999" --yes
check "maxjobs=99999999999: refused before anything runs (exit 1)" test $? -eq 1
check "maxjobs=99999999999: the message names Slurm's range" \
	grep -q "out of range: Slurm stores 0 to 2147483647" "$tmp/err"
assocs "$acct" >"$tmp/after"
check "maxjobs=99999999999: nothing changed" cmp -s "$tmp/before" "$tmp/after"
sq --exec "setlimit account=$acct user=carol partition=gpu maxjobs=2147483647" --yes
check "maxjobs=2147483647 (the largest): stored as is" \
	test "$(slurm sacctmgr -n -P show assoc where account="$acct" user=carol partition=gpu format=MaxJobs)" = 2147483647
sq --exec "$(undo_line)" --yes

# --- moduser: the default account (and its undo), the admin level
# every user (name, default account, admin level) and every association
# of the users' accounts: what moduser may change, compared whole
users() {
	slurm sacctmgr -n -P show user format=User,DefaultAccount,Admin | sort
	slurm sacctmgr -n -P show assoc where user="$mu" \
		format=Account,User,Partition,MaxJobs,GrpTRES,QOS,DefaultQOS | sort
}
slurm sacctmgr -i add account "${acct}m" parent=chemistry >/dev/null &&
	slurm sacctmgr -i add user "$mu" account="${acct}m" >/dev/null &&
	slurm sacctmgr -i add user "$mu" account="$acct" >/dev/null &&
	slurm sacctmgr -i add user "$mu" account="$acct" partition=gpu \
		maxjobs=4 grptres=cpu=2 >/dev/null || notok "sacctmgr: $mu"
users >"$tmp/ubefore"
sq --exec "moduser $mu defaultaccount=$acct adminlevel=operator" --yes
check "moduser $mu defaultaccount=$acct: exit 0, done and verified" test $? -eq 0
check "moduser: the preview is sacctmgr's line" \
	grep -q "^sacctmgr -i modify user where name=$mu set defaultaccount=$acct adminlevel=operator\$" "$tmp/out"
users >"$tmp/uafter"
sed "s/^$mu|${acct}m|None\$/$mu|$acct|Operator/" "$tmp/ubefore" >"$tmp/want"
check "moduser: only $mu's default account and admin level changed" \
	cmp -s "$tmp/want" "$tmp/uafter"
cmp -s "$tmp/want" "$tmp/uafter" || diff "$tmp/want" "$tmp/uafter"
check "moduser: the undo restores both" \
	grep -q "^undo: moduser $mu defaultaccount=${acct}m adminlevel=none\$" "$tmp/out"
sq --exec "$(undo_line)" --yes
users >"$tmp/uafter"
check "moduser's undo restores exactly the state before" \
	cmp -s "$tmp/ubefore" "$tmp/uafter"
sq --exec "moduser $mu defaultaccount=physics" --yes
check "moduser to an account without association: refused (exit 1)" test $? -eq 1
check "moduser: the refusal names the user's accounts" \
	grep -q "no association in physics (its accounts: .*${acct}m" "$tmp/err"
users >"$tmp/uafter"
check "moduser refused: nothing changed" cmp -s "$tmp/ubefore" "$tmp/uafter"

# --- moduser through slurmrestd: POST /users from API v0.0.40 (the
# default account and admin level), the same comparison; v0.0.38 refuses
if [ -n "${dbv:-}" ] && [ "$dbv" -ge 40 ]; then
	rest --exec "moduser $mu defaultaccount=$acct adminlevel=operator" --yes
	check "rest v0.0.$dbv: moduser: exit 0, done and verified" test $? -eq 0
	check "rest: the preview is the POST of the user" \
		grep -q "^POST /slurmdb/v0.0.$dbv/users {\"users\":\[{\"name\":\"$mu\",\"default\":{\"account\":\"$acct\"},\"administrator_level\":\[\"Operator\"\]}\]}\$" "$tmp/out"
	users >"$tmp/uafter"
	check "rest: only $mu's default account and admin level changed" \
		cmp -s "$tmp/want" "$tmp/uafter"
	cmp -s "$tmp/want" "$tmp/uafter" || diff "$tmp/want" "$tmp/uafter"
	rest --exec "$(undo_line)" --yes
	check "rest: moduser's undo: exit 0" test $? -eq 0
	users >"$tmp/uafter"
	check "rest: moduser's undo restores exactly the state before" \
		cmp -s "$tmp/ubefore" "$tmp/uafter"
	# defaultqos=: one POST /associations with every association of the
	# user (POST /users does not set it), the gpu one's TRES kept
	rest --exec "moduser $mu defaultqos=normal" --yes
	check "rest v0.0.$dbv: moduser defaultqos=: exit 0, done and verified" test $? -eq 0
	check "rest: the preview is one POST /associations of $mu's three associations" \
		test "$(grep "^POST /slurmdb/v0.0.$dbv/associations {\"associations\":\[{" "$tmp/out" |
			grep -o "\"user\":\"$mu\"[^}]*\"default\":{\"qos\":\"normal\"}" | wc -l)" -eq 3
	check "rest: the gpu association's GrpTRES is sent as it is (slurmrestd would clear it)" \
		grep -q "\"partition\":\"gpu\",\"default\":{\"qos\":\"normal\"},\"max\":{\"tres\":{\"total\":\[{\"type\":\"cpu\",\"count\":2}\]}}" "$tmp/out"
	users >"$tmp/uafter"
	sed "/^[^|]*|$mu|/ s/|[^|]*\$/|normal/" "$tmp/ubefore" >"$tmp/want"
	check "rest: every association of $mu has default QOS normal, nothing else changed" \
		cmp -s "$tmp/want" "$tmp/uafter"
	cmp -s "$tmp/want" "$tmp/uafter" || diff "$tmp/want" "$tmp/uafter"
	sed -n 's/^undo: //p' "$tmp/out" >"$tmp/undo"
	echo "# undo: $(tr '\n' ';' <"$tmp/undo")"
	check "rest: an undo offered" test -s "$tmp/undo"
	while read -r line; do rest --exec "$line" --yes; done <"$tmp/undo"
	users >"$tmp/uafter"
	check "rest: moduser defaultqos='s undo restores exactly the state before" \
		cmp -s "$tmp/ubefore" "$tmp/uafter"
	cmp -s "$tmp/ubefore" "$tmp/uafter" || diff "$tmp/ubefore" "$tmp/uafter"
	rest --exec "moduser $mu defaultqos=normal adminlevel=none" --yes
	check "rest: moduser defaultqos= with another key refused (two records)" \
		grep -q "run them as two moduser lines" "$tmp/out" "$tmp/err"
elif [ -n "${dbv:-}" ]; then
	rest --exec "moduser $mu defaultaccount=$acct" --yes
	check "rest v0.0.$dbv: moduser refused (exit 1)" test $? -eq 1
	check "rest: the reason: POST /users is mapped from v0.0.40" \
		grep -q "moduser through slurmrestd API v0.0.$dbv is not mapped (squall maps POST /slurmdb/vN/users from v0.0.40" "$tmp/out" "$tmp/err"
	users >"$tmp/uafter"
	check "rest: nothing changed" cmp -s "$tmp/ubefore" "$tmp/uafter"
fi

# --- deluser of two associations (one partition-keyed, with limits):
# the preview lists both with their limits; the undo re-adds both
sq --exec "deluser $acct/$mu $acct/$mu/gpu" --yes
check "deluser of $mu's two associations in $acct: exit 0" test $? -eq 0
check "deluser: the preview lists the gpu association with its limits" \
	grep -q "^removes $acct/$mu/gpu with its limits: GrpTRES=cpu=2 MaxJobs=4" "$tmp/out"
check "deluser: the preview lists the one without partition" \
	grep -q "^removes $acct/$mu with its limits" "$tmp/out"
users >"$tmp/uafter"
grep -v "^$acct|$mu|" "$tmp/ubefore" >"$tmp/want"
check "deluser: exactly those two are gone" cmp -s "$tmp/want" "$tmp/uafter"
cmp -s "$tmp/want" "$tmp/uafter" || diff "$tmp/want" "$tmp/uafter"
sed -n 's/^undo: //p' "$tmp/out" >"$tmp/undo"
check "deluser: two undo lines" test "$(wc -l <"$tmp/undo")" -eq 2
while read -r line; do sq --exec "$line" --yes; done <"$tmp/undo"
users >"$tmp/uafter"
check "deluser's undo restores both associations with their limits" \
	cmp -s "$tmp/ubefore" "$tmp/uafter"
cmp -s "$tmp/ubefore" "$tmp/uafter" || diff "$tmp/ubefore" "$tmp/uafter"

# --- delaccount of an account with a child account: refused, naming it
slurm sacctmgr -i add account "${acct}p" parent=chemistry >/dev/null &&
	slurm sacctmgr -i add account "${acct}k" parent="${acct}p" >/dev/null
tree() {
	slurm sacctmgr -n -P show assoc where account="${acct}p,${acct}k" \
		format=Account,User,Partition,ParentName | sort
}
tree >"$tmp/tbefore"
sq --exec "delaccount ${acct}p" --yes
check "delaccount of an account with a child account: exit 1" test $? -eq 1
check "delaccount: names the child account" \
	grep -q "ACCOUNTS ${acct}k.*without users or child accounts" "$tmp/out" "$tmp/err"
tree >"$tmp/tafter"
check "delaccount refused: the tree is whole" cmp -s "$tmp/tbefore" "$tmp/tafter"

# --- delaccount of an account with a coordinator: the preview names it,
# the undo re-creates the account and the coordinator
slurm sacctmgr -i add account "${acct}c" parent=chemistry >/dev/null &&
	slurm sacctmgr -i add coordinator account="${acct}c" names="$mu" >/dev/null
coords() {
	slurm sacctmgr -n -P show account where name="${acct}c" withcoord \
		format=Account,Descr,Org,Coord
	slurm sacctmgr -n -P show assoc where account="${acct}c" \
		format=Account,User,ParentName,Fairshare
}
coords >"$tmp/cbefore"
sq --exec "delaccount ${acct}c" --yes
check "delaccount ${acct}c (coordinator $mu): exit 0" test $? -eq 0
check "delaccount: the preview names the coordinator" \
	grep -q "^removes coordinators $mu of ${acct}c" "$tmp/out"
check "delaccount: the account is gone" \
	test -z "$(slurm sacctmgr -n -P show account where name="${acct}c" format=Account)"
sed -n 's/^undo: //p' "$tmp/out" >"$tmp/undo"
check "delaccount: its undo re-adds the coordinator" grep -q "^addcoord ${acct}c user=$mu\$" "$tmp/undo"
while read -r line; do sq --exec "$line" --yes; done <"$tmp/undo"
coords >"$tmp/cafter"
check "delaccount's undo restores the account and its coordinator" \
	cmp -s "$tmp/cbefore" "$tmp/cafter"
cmp -s "$tmp/cbefore" "$tmp/cafter" || diff "$tmp/cbefore" "$tmp/cafter"


# --- modaccount, addcoord, delcoord through slurmrestd: from API v0.0.40
# POST /accounts with the account's description, organization and whole
# coordinator list read first (slurmdbd removes every coordinator a body
# does not list); each compared with `sacctmgr show account withcoord`
# and the account's associations before and after, each undone through
# slurmrestd back to the state before; v0.0.38 refuses them saying why
acctstate() { # the account's fields, its coordinators sorted, its associations
	slurm sacctmgr -n -P show account where name="$acct" format=Account,Descr,Org
	slurm sacctmgr -n -P show account where name="$acct" withcoord \
		format=Coordinators | tr ',' '\n' | sort | sed '/^$/d; s/^/coord /'
	slurm sacctmgr -n -P show assoc where account="$acct" \
		format=User,Partition,ParentName,Fairshare,MaxJobs,GrpTRES,QOS | sort
}
rest_undo() { # the undo line of the last run, through slurmrestd
	u=$(undo_line)
	[ -n "$u" ] && rest --exec "$u" --yes
}
if [ -s "$tmp/root.token" ] && curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null; then
	slurm sacctmgr -i add coordinator account="$acct" names=carol >/dev/null
	acctstate >"$tmp/abefore"
	echo "# account before:" && sed 's/^/#   /' "$tmp/abefore"
	if [ "${dbv:-0}" -ge 40 ]; then
		rest --exec "modaccount $acct description=sqdesc organization=sqorg" --yes
		check "rest v0.0.$dbv: modaccount description= organization=: exit 0, done and verified" test $? -eq 0
		check "rest: the preview is the POST /accounts with carol kept as coordinator" \
			grep -q "^POST /slurmdb/v0.0.$dbv/accounts {\"accounts\":\[{\"name\":\"$acct\",\"description\":\"sqdesc\",\"organization\":\"sqorg\",\"coordinators\":\[{\"name\":\"carol\"}\]}\]}\$" "$tmp/out"
		acctstate >"$tmp/aafter"
		sed "1s/^$acct|.*/$acct|sqdesc|sqorg/" "$tmp/abefore" >"$tmp/want"
		check "rest: modaccount changed the two fields and nothing else (coordinators, parent, shares kept)" \
			cmp -s "$tmp/want" "$tmp/aafter"
		cmp -s "$tmp/want" "$tmp/aafter" || diff "$tmp/want" "$tmp/aafter"
		check "rest: its undo puts the old values back ($(undo_line))" \
			grep -q "^undo: modaccount $acct description=.* organization=" "$tmp/out"
		rest_undo
		check "rest: modaccount's undo: exit 0" test $? -eq 0
		acctstate >"$tmp/aafter"
		check "rest: modaccount's undo restores the state before" cmp -s "$tmp/abefore" "$tmp/aafter"
		check "rest: the audit log records modaccount" \
			grep -q "\"action\":\"modaccount\"" "$tmp/state/squall/audit.log"

		rest --exec "addcoord $acct user=alice" --yes
		check "rest: addcoord alice: exit 0, done and verified" test $? -eq 0
		check "rest: its preview lists carol and alice" \
			grep -q "^POST /slurmdb/v0.0.$dbv/accounts {.*\"coordinators\":\[{\"name\":\"carol\"},{\"name\":\"alice\"}\]}\]}\$" "$tmp/out"
		acctstate >"$tmp/aafter"
		{ sed -n 1p "$tmp/abefore"; { grep '^coord ' "$tmp/abefore"; echo "coord alice"; } | sort
			sed '1d; /^coord /d' "$tmp/abefore"; } >"$tmp/want"
		check "rest: alice is a coordinator, nothing else moved" cmp -s "$tmp/want" "$tmp/aafter"
		cmp -s "$tmp/want" "$tmp/aafter" || diff "$tmp/want" "$tmp/aafter"
		check "rest: the undo is delcoord $acct user=alice" grep -q "^undo: delcoord $acct user=alice\$" "$tmp/out"
		rest_undo
		check "rest: addcoord's undo: exit 0" test $? -eq 0
		acctstate >"$tmp/aafter"
		check "rest: addcoord's undo restores the state before" cmp -s "$tmp/abefore" "$tmp/aafter"

		rest --exec "delcoord $acct user=carol" --yes
		check "rest: delcoord carol: exit 0, done and verified" test $? -eq 0
		acctstate >"$tmp/aafter"
		grep -v '^coord carol$' "$tmp/abefore" >"$tmp/want"
		check "rest: carol is no longer a coordinator, nothing else moved" cmp -s "$tmp/want" "$tmp/aafter"
		cmp -s "$tmp/want" "$tmp/aafter" || diff "$tmp/want" "$tmp/aafter"
		check "rest: the undo is addcoord $acct user=carol" grep -q "^undo: addcoord $acct user=carol\$" "$tmp/out"
		rest_undo
		acctstate >"$tmp/aafter"
		check "rest: delcoord's undo restores the state before" cmp -s "$tmp/abefore" "$tmp/aafter"

		# fairshare= and parent=: the account's association's (user
		# ""), a POST /associations of it as read, shares_raw and
		# parent_account set; only that line of the account moves, and
		# the undo puts it back
		rest --exec "modaccount $acct fairshare=7" --yes
		check "rest v0.0.$dbv: modaccount fairshare=7: exit 0, done and verified" test $? -eq 0
		check "rest: the preview is the POST /associations of $acct's own association, shares_raw 7" \
			grep -q "^POST /slurmdb/v0.0.$dbv/associations {\"associations\":\[{\"account\":\"$acct\",\"cluster\":\"[^\"]*\",\"user\":\"\",.*\"shares_raw\":7[,}]" "$tmp/out"
		acctstate >"$tmp/aafter"
		sed 's/^\(||[^|]*|\)[^|]*|/\17|/' "$tmp/abefore" >"$tmp/want"
		check "rest: modaccount fairshare= changed the account's shares and nothing else" \
			cmp -s "$tmp/want" "$tmp/aafter"
		cmp -s "$tmp/want" "$tmp/aafter" || diff "$tmp/want" "$tmp/aafter"
		check "rest: its undo puts the old shares back ($(undo_line))" \
			grep -q "^undo: modaccount $acct fairshare=[0-9]" "$tmp/out"
		rest_undo
		check "rest: modaccount fairshare='s undo: exit 0" test $? -eq 0
		acctstate >"$tmp/aafter"
		check "rest: modaccount fairshare='s undo restores the state before" cmp -s "$tmp/abefore" "$tmp/aafter"
		cmp -s "$tmp/abefore" "$tmp/aafter" || diff "$tmp/abefore" "$tmp/aafter"

		slurm sacctmgr -i add account "${acct}q" parent=chemistry >/dev/null
		rest --exec "modaccount $acct parent=${acct}q" --yes
		check "rest v0.0.$dbv: modaccount parent=: exit 0, done and verified" test $? -eq 0
		check "rest: the preview is the POST /associations of $acct's own association, parent_account ${acct}q" \
			grep -q "^POST /slurmdb/v0.0.$dbv/associations {\"associations\":\[{\"account\":\"$acct\",.*\"user\":\"\",.*\"parent_account\":\"${acct}q\"" "$tmp/out"
		acctstate >"$tmp/aafter"
		sed "s/^||[^|]*|/||${acct}q|/" "$tmp/abefore" >"$tmp/want"
		check "rest: modaccount parent= moved the account under ${acct}q, nothing else" \
			cmp -s "$tmp/want" "$tmp/aafter"
		cmp -s "$tmp/want" "$tmp/aafter" || diff "$tmp/want" "$tmp/aafter"
		check "rest: its undo moves it back ($(undo_line))" \
			grep -q "^undo: modaccount $acct parent=chemistry\$" "$tmp/out"
		rest_undo
		check "rest: modaccount parent='s undo: exit 0" test $? -eq 0
		acctstate >"$tmp/aafter"
		check "rest: modaccount parent='s undo restores the state before" cmp -s "$tmp/abefore" "$tmp/aafter"
		cmp -s "$tmp/abefore" "$tmp/aafter" || {
			diff "$tmp/abefore" "$tmp/aafter"
			slurm sacctmgr -i modify account "$acct" set parent=chemistry >/dev/null
		}
		rest --exec "modaccount $acct parent=chemistry description=x" --yes
		check "rest: modaccount parent= with description= refused (two records)" \
			grep -q "run them as two modaccount lines" "$tmp/out" "$tmp/err"
	else
		for line in "modaccount $acct organization=sqorg" "addcoord $acct user=alice" "delcoord $acct user=carol"; do
			rest --exec "$line" --yes
			check "rest v0.0.${dbv:-?}: ${line%% *} refused (exit 1)" test $? -eq 1
			check "rest: the reason: not mapped before v0.0.40" \
				grep -q "${line%% *} through slurmrestd API v0.0.${dbv:-?} is not mapped (squall maps POST /slurmdb/vN/accounts from v0.0.40" "$tmp/out" "$tmp/err"
		done
	fi
	acctstate >"$tmp/aafter"
	check "rest: the account is as before" cmp -s "$tmp/abefore" "$tmp/aafter"
	cmp -s "$tmp/abefore" "$tmp/aafter" || diff "$tmp/abefore" "$tmp/aafter"
else
	ok "rest: # not here: no slurmrestd on $REST"
fi

finish
