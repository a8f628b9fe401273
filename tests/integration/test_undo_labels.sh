#!/bin/sh
# test_undo_labels.sh - undo you can read (issue 45, item 5), on the live
# testbed through `squall --exec` (local backend): a setlimit on two
# associations with different old values (carol MaxJobs=5, bob MaxJobs=7,
# in a throw-away account) has an undo of two lines, each labelled with
# its own association and values ("undo setlimit A/carol maxjobs 3 -> 5",
# "... A/bob maxjobs 3 -> 7"); each line, run, restores its association
# and only it, every result compared with `sacctmgr show -P assoc`; a
# setlimit that fails (Slurm refuses a QOS it does not know) offers no
# undo. Everything it creates is removed on exit.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
acct=squndo_$$
cleanup() {
	slurm sacctmgr -i delete account where name="$acct" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
not() { ! "$@"; }
assocs() {
	slurm sacctmgr -n -P show assoc where account="$1" \
		format=User,Partition,MaxJobs | sort
}
slurm sacctmgr -i add account "$acct" parent=chemistry >/dev/null &&
	slurm sacctmgr -i add user carol account="$acct" maxjobs=5 >/dev/null &&
	slurm sacctmgr -i add user bob account="$acct" maxjobs=7 >/dev/null || {
	notok "sacctmgr: carol and bob in $acct"
	finish
}
assocs "$acct" >"$tmp/before"
echo "# before:" && sed 's/^/#   /' "$tmp/before"

sq --exec "setlimit $acct/carol $acct/bob maxjobs=3" --yes
check "setlimit on carol and bob: exit 0" test $? -eq 0
sed -n 's/^undo: //p' "$tmp/out" >"$tmp/undo"
check "two undo lines, one per old value ($(tr '\n' ';' <"$tmp/undo"))" \
	test "$(wc -l <"$tmp/undo")" -eq 2
check "carol's line labelled with carol's values" \
	grep -qx "  (undo setlimit $acct/carol maxjobs 3 -> 5)" "$tmp/out"
check "bob's line labelled with bob's values" \
	grep -qx "  (undo setlimit $acct/bob maxjobs 3 -> 7)" "$tmp/out"
check "no label names both" not grep -q "carol,$acct/bob\|bob,$acct/carol" "$tmp/out"
sed 's/^\(bob\|carol\)||[57]$/\1||3/' "$tmp/before" >"$tmp/want"
assocs "$acct" >"$tmp/after"
check "both are at 3" cmp -s "$tmp/want" "$tmp/after"
# each line undoes its own association only
bob_line=$(grep "/bob " "$tmp/undo")
sq --exec "$bob_line" --yes
assocs "$acct" >"$tmp/after"
sed 's/^carol||[57]$/carol||3/' "$tmp/before" >"$tmp/want"
check "bob's undo restores bob alone" cmp -s "$tmp/want" "$tmp/after"
sq --exec "$(grep "/carol " "$tmp/undo")" --yes
assocs "$acct" >"$tmp/after"
check "carol's undo restores the state before" cmp -s "$tmp/before" "$tmp/after"

# --- a setlimit Slurm refuses: failed, and no undo to offer
sq --exec "setlimit $acct/carol qos=sqnoqos$$" --yes
check "setlimit qos=<unknown>: exit 1" test $? -eq 1
check "... no undo offered for it" not grep -q '^undo: ' "$tmp/out"
assocs "$acct" >"$tmp/after"
check "... nothing changed" cmp -s "$tmp/before" "$tmp/after"
finish
