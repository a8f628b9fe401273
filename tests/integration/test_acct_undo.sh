#!/bin/sh
# test_acct_undo.sh - deletes undone in full and a moduser over mixed
# default QOS (issue 45, items 1, 2 and 4), on the live testbed through
# `squall --exec`, locally and over ssh as opsadmin (an Administrator):
# - delqos of a QOS that is an association's default QOS: the preview
#   names it, Slurm refuses, nothing changes; then, no longer a default,
#   delqos of a QOS in an account's and a user's QOS lists and another
#   QOS's preempt list: the preview lists them, the audit line records
#   them, and the undo lines give back the QOS (description, priority)
#   and every list, `sacctmgr show -P qos` and `show -P assoc` equal
#   before and after;
# - deluser of a user's last two associations (an Operator, coordinator
#   of an account, default account not the first): the preview says the
#   user goes with them, the undo re-creates it, `sacctmgr show -P user
#   withassoc withcoord` equal before and after;
# - moduser defaultqos= over three associations with three different
#   default QOS: the preview lists each, the undo sets each back; the
#   same through slurmrestd from API v0.0.40 (refused on v0.0.38).
# Everything it creates is removed on exit.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -30
}
names=""
cleanup() {
	for p in $names; do
		slurm sacctmgr -i delete user where name="${p}u,${p}v,${p}w" >/dev/null 2>&1
		slurm sacctmgr -i delete account where name="${p}a,${p}b,${p}c" >/dev/null 2>&1
		slurm sacctmgr -i delete qos where name="${p}q,${p}p" >/dev/null 2>&1
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# the whole QOS and association tables, and the users with theirs
tables() {
	slurm sacctmgr -n -P show qos | sort
	slurm sacctmgr -n -P show assoc | sort
}
users() {
	slurm sacctmgr -n -P show user withassoc withcoord | sort
	slurm sacctmgr -n -P show account withcoord | sort
}
# run every undo: line of the last output in order
undo_all() {
	sed -n 's/^undo: //p' "$tmp/out" >"$tmp/undo"
	echo "# undo lines:" && sed 's/^/#   /' "$tmp/undo"
	: >"$tmp/undo_rc"
	while read -r line; do
		sq --exec "$line" --yes </dev/null || echo "$line" >>"$tmp/undo_rc"
	done <"$tmp/undo"
	test -s "$tmp/undo" && ! test -s "$tmp/undo_rc"
}
same() { # same WHAT FILE1 FILE2
	check "$1" cmp -s "$2" "$3"
	cmp -s "$2" "$3" || diff "$2" "$3" | head -20 | sed 's/^/#   /'
}

suite() { # suite NAME PREFIX: the cases through the sq() set for it
	b=$1
	p=$2
	q=${p}q
	a=${p}a
	u=${p}u
	names="$names $p"
	slurm sacctmgr -i add qos "$q" description="undo test" priority=4 >/dev/null &&
		slurm sacctmgr -i add qos "${p}p" preempt="$q" >/dev/null &&
		slurm sacctmgr -i add account "$a" parent=chemistry >/dev/null &&
		slurm sacctmgr -i modify account where name="$a" set qos=normal,"$q" defaultqos="$q" >/dev/null &&
		slurm sacctmgr -i add user "$u" account="$a" >/dev/null &&
		slurm sacctmgr -i add user "$u" account="$a" partition=gpu qos=normal,"$q" >/dev/null || {
		notok "$b: sacctmgr: $q in $a's lists"
		return
	}
	# --- delqos of a default QOS: refused by Slurm, said first
	tables >"$tmp/t0"
	sq --exec "delqos $q" --yes
	check "$b: delqos of $a's default QOS: not done (exit 1)" test $? -eq 1
	check "$b: the preview says $a has it as default QOS and Slurm refuses" \
		grep -q "^blocked: $a ($q).* have it as default QOS; Slurm refuses" "$tmp/out"
	tables >"$tmp/t1"
	same "$b: refused: nothing changed" "$tmp/t0" "$tmp/t1"

	# --- delqos of a QOS in QOS lists and a preempt list, and its undo
	slurm sacctmgr -i modify account where name="$a" set defaultqos=-1 >/dev/null
	tables >"$tmp/t0"
	sq --exec "delqos $q" --yes
	check "$b: delqos $q: exit 0, done and verified" test $? -eq 0
	check "$b: the preview lists the QOS lists it leaves" \
		grep -q "^removes it from the QOS lists of $a (normal,$q), .*$a/$u/gpu (normal,$q)" "$tmp/out"
	check "$b: the preview lists the preempt list it leaves" \
		grep -q "^removes it from the preempt lists of QOS ${p}p ($q)" "$tmp/out"
	check "$b: the preview says the undo gives it back" \
		grep -q "^undo re-creates all of it: the QOS with its settings and description, and gives it back" "$tmp/out"
	check "$b: the audit line records the lists" \
		grep -q "\"action\":\"delqos\".*removes it from the QOS lists of $a (normal,$q)" "$tmp/state/squall/audit.log"
	check "$b: $q is gone" test -z "$(slurm sacctmgr -n -P show qos where name="$q" format=Name)"
	check "$b: Slurm took it from $a's list" \
		test "$(slurm sacctmgr -n -P show assoc where account="$a" format=User,Partition,QOS | grep '^||')" = "||normal"
	check "$b: its undo re-creates it with its description" \
		grep -q "^undo: addqos $q priority=4 .*description=\"undo test\"" "$tmp/out"
	check "$b: the undo lines run, each done" undo_all
	tables >"$tmp/t1"
	same "$b: after the undo: show -P qos and show -P assoc as before" "$tmp/t0" "$tmp/t1"

	# --- deluser of a user's last associations: the user goes too
	v=${p}v
	slurm sacctmgr -i add account "${p}b" parent=chemistry >/dev/null &&
		slurm sacctmgr -i add account "${p}c" parent=physics >/dev/null &&
		slurm sacctmgr -i add user "$v" account="$a" >/dev/null &&
		slurm sacctmgr -i add user "$v" account="${p}b" maxjobs=3 >/dev/null &&
		slurm sacctmgr -i modify user where name="$v" set adminlevel=operator >/dev/null &&
		slurm sacctmgr -i add coordinator account="${p}c" names="$v" >/dev/null || {
		notok "$b: sacctmgr: user $v"
		return
	}
	users >"$tmp/u0"
	tables >"$tmp/t0"
	sq --exec "deluser ${p}b/$v $a/$v" --yes
	check "$b: deluser of $v's last associations: exit 0" test $? -eq 0
	check "$b: the preview says the user goes with them" \
		grep -q "^removes user $v with its last association (admin level Operator, default account $a)" "$tmp/out"
	check "$b: the preview names its coordinator role" \
		grep -q "^removes $v as coordinator of ${p}c" "$tmp/out"
	check "$b: Slurm removed the user" \
		test -z "$(slurm sacctmgr -n -P show user where name="$v" format=User)"
	check "$b: the undo sets the admin level and default account again" \
		grep -q "^undo: moduser $v defaultaccount=$a adminlevel=operator\$" "$tmp/out"
	check "$b: the undo makes it coordinator again" \
		grep -q "^undo: addcoord ${p}c user=$v\$" "$tmp/out"
	check "$b: the undo lines run, each done" undo_all
	users >"$tmp/u1"
	same "$b: after the undo: show -P user withassoc withcoord as before" "$tmp/u0" "$tmp/u1"
	tables >"$tmp/t1"
	same "$b: after the undo: every association as before" "$tmp/t0" "$tmp/t1"

	# --- moduser defaultqos= over three different default QOS
	w=${p}w
	slurm sacctmgr -i add user "$w" account="$a" qos=normal,high,low defaultqos=normal >/dev/null &&
		slurm sacctmgr -i add user "$w" account="$a" partition=gpu qos=normal,high,low defaultqos=high >/dev/null &&
		slurm sacctmgr -i add user "$w" account="${p}b" qos=normal,high,low >/dev/null || {
		notok "$b: sacctmgr: user $w"
		return
	}
	tables >"$tmp/t0"
	sq --exec "moduser $w defaultqos=low" --yes
	check "$b: moduser $w defaultqos=low (mixed): exit 0, verified" test $? -eq 0
	for x in "$a/$w: normal -> low" "$a/$w/gpu: high -> low" "${p}b/$w: (none) -> low"; do
		check "$b: the preview lists $x" \
			grep -q "^changes the default QOS of $x\$" "$tmp/out"
	done
	check "$b: the preview says the undo sets each back" \
		grep -q "^their default QOS differ: the undo sets each back" "$tmp/out"
	check "$b: every association of $w has low" \
		test "$(slurm sacctmgr -n -P show assoc where user="$w" format=DefaultQOS | sort -u)" = low
	check "$b: one undo line per association" \
		test "$(grep -c "^undo: setlimit .*/$w.* defaultqos=" "$tmp/out")" -eq 3
	check "$b: the undo lines run, each done" undo_all
	tables >"$tmp/t1"
	same "$b: after the undo: every association as before" "$tmp/t0" "$tmp/t1"
}

sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
suite local "squl$$"

key=$TB/ssh/id_ed25519
if [ -r "$key" ] && [ -r "$TB/ssh/known_hosts" ]; then
	: >"$tmp/empty_config"
	cp "$TB/ssh/known_hosts" "$tmp/kh"
	sq() {
		"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l opsadmin \
			--ssh-config "$tmp/empty_config" --identity "$key" \
			--known-hosts "$tmp/kh" "$@" >"$tmp/out" 2>"$tmp/err"
	}
	suite ssh "squs$$"
else
	echo "# ssh part left out: no testbed ssh keys in $TB/ssh"
fi


# --- the same moduser defaultqos= over mixed default QOS through
# slurmrestd (API v0.0.40 on): one POST /associations with the user's
# three associations, each undo line (setlimit ... defaultqos=, -1 for
# the one that had none) run through slurmrestd, every association as
# before; refused on v0.0.38
REST=http://127.0.0.1:$REST_PORT
if curl -s -o /dev/null "$REST/openapi/v3" 2>/dev/null &&
	cp "$TB/jwt/root.token" "$tmp/root.token" && chmod 600 "$tmp/root.token"; then
	sq() {
		"$SQUALL" -b rest -u "$REST" --token-file "$tmp/root.token" \
			-l root "$@" >"$tmp/out" 2>"$tmp/err"
	}
	dbv=$(curl -s -H "X-SLURM-USER-NAME: root" \
		-H "X-SLURM-USER-TOKEN: $(cat "$tmp/root.token")" "$REST/openapi/v3" |
		tr -d '\\' | grep -o '/slurmdb/v0\.0\.[0-9]*/' | sed 's/.*v0\.0\.//; s/\///' |
		sort -n | tail -1)
	p=sqr$$
	names="$names $p"
	a=${p}a
	w=${p}w
	slurm sacctmgr -i add account "$a,${p}b" parent=chemistry >/dev/null &&
		slurm sacctmgr -i add user "$w" account="$a" qos=normal,high,low defaultqos=normal >/dev/null &&
		slurm sacctmgr -i add user "$w" account="$a" partition=gpu qos=normal,high,low defaultqos=high >/dev/null &&
		slurm sacctmgr -i add user "$w" account="${p}b" qos=normal,high,low >/dev/null ||
		notok "rest: sacctmgr: user $w"
	tables >"$tmp/t0"
	sq --exec "moduser $w defaultqos=low" --yes
	rc=$?
	if [ "${dbv:-0}" -ge 40 ]; then
		check "rest v0.0.$dbv: moduser $w defaultqos=low (mixed): exit 0, verified" test $rc -eq 0
		check "rest: the preview is one POST /associations of its three associations" \
			test "$(grep "^POST /slurmdb/v0.0.$dbv/associations " "$tmp/out" |
				grep -o "\"user\":\"$w\"[^}]*\"default\":{\"qos\":\"low\"}" | wc -l)" -eq 3
		check "rest: every association of $w has low" \
			test "$(slurm sacctmgr -n -P show assoc where user="$w" format=DefaultQOS | sort -u)" = low
		check "rest: one undo line per association" \
			test "$(grep -c "^undo: setlimit .*/$w.* defaultqos=" "$tmp/out")" -eq 3
		check "rest: the one that had none is cleared by its undo" \
			grep -q "^undo: setlimit ${p}b/$w defaultqos=-1\$" "$tmp/out"
		check "rest: the undo lines run through slurmrestd, each done" undo_all
		tables >"$tmp/t1"
		same "rest: after the undo: every association as before" "$tmp/t0" "$tmp/t1"
	else
		check "rest v0.0.${dbv:-?}: moduser defaultqos= refused (exit 1)" test $rc -eq 1
		check "rest: the reason: not mapped before v0.0.40" \
			grep -q "moduser through slurmrestd API v0.0.${dbv:-?} is not mapped" "$tmp/out" "$tmp/err"
		tables >"$tmp/t1"
		same "rest: nothing changed" "$tmp/t0" "$tmp/t1"
	fi
else
	ok "rest: # not here: no slurmrestd on $REST"
fi

finish
