#!/bin/sh
# test_dbd.sh - slurmdbd's side of the controller's health (issue 46):
#   * the diag view's dbd rows (sacctmgr show stats) through local, ssh
#     (opsadmin) and rest (GET /slurmdb/vN/diag): "Data since" is
#     sacctmgr's, the users of dbd_user are sacctmgr's, and slurmdbd's
#     own DBD_GET_STATS count grows between two reads;
#   * the problems view (sacctmgr show problem) through local and ssh
#     lists what sacctmgr lists, and an account this test adds without
#     users (a real problem) shows in it; rest says why it cannot;
#   * the console: the problems view shows the account, its detail pane
#     links to it in the accounts view (1); the diag view filtered on
#     dbd_user shows root.
# On exit the account is deleted, so the testbed is as found.
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
sock=sqdbd$$
acct=sqdbd$$
added=
cleanup() {
	T kill-server 2>/dev/null
	[ -n "$added" ] && slurm sacctmgr -i delete account "$acct" >/dev/null 2>&1
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
key=$TB/ssh/id_ed25519
: >"$tmp/sshcfg"
viassh() {
	"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l opsadmin --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg" \
		"$@" >"$tmp/out" 2>"$tmp/err"
}
have_ssh() { [ -r "$key" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; }

slurm sacctmgr -n show cluster >/dev/null 2>&1 || {
	echo "# slurmdbd does not answer: skipped"
	exit 77
}

# sacctmgr show stats: "Data since"'s epoch, the users by name; a uid
# without a name, which sacctmgr prints as "nobody (4242)", by its number
# as squall names it (REST, which gives no uid: one "(no user name)")
since() { slurm sacctmgr show stats | sed -n 's/^Data since.*(\([0-9]*\))$/\1/p'; }
stat_users() { # stat_users [rest]
	slurm sacctmgr show stats | awk -v rest="$1" '/statistics by user/ { u = 1; next }
		/^[^ \t]/ { u = 0 }
		u && /count:/ {
			n = $1; id = $0; sub(/^[^(]*\( */, "", id); sub(/\).*/, "", id)
			if (n == "nobody" && id != 65534) n = rest ? "(no user name)" : id
			print n }' | sort -u
}
# the dbd rows of a diag tsv in $tmp/out: KEY of SECTION, or VALUE of KEY
dbd_keys() { awk -F'\t' -v s="$1" '$1 == s { print $2 }' "$tmp/out" | sort; }
dbd_val() { awk -F'\t' -v s="$1" -v k="$2" '$1 == s && $2 == k { print $3 }' "$tmp/out"; }
stats_count() { # count=N of dbd_type DBD_GET_STATS
	dbd_val dbd_type DBD_GET_STATS | sed -n 's/^count=\([0-9]*\).*/\1/p'
}
iso() { date -d "@$1" +%Y-%m-%dT%H:%M:%S; }

diag_checks() { # diag_checks LABEL: the dbd rows in $tmp/out against sacctmgr
	want_since=$(iso "$(since)")
	check "$1: dbd 'Data since' is sacctmgr's ($want_since)" \
		test "$(dbd_val dbd 'Data since')" = "$want_since"
	check "$1: dbd_user lists sacctmgr's users" \
		test "$(dbd_keys dbd_user)" = "$(stat_users)"
	check "$1: slurmdbd's internal rollup has a cycle count" \
		test -n "$(dbd_val dbd 'Internal DBD rollup: Total cycles')"
}

# --- the diag view's dbd rows: local
sq --once --view diag --format tsv --columns section,key,value
check "local: diag exits 0" test $? -eq 0
diag_checks local
c1=$(stats_count)
sq --once --view diag --format tsv --columns section,key,value
c2=$(stats_count)
check "local: slurmdbd counts squall's own DBD_GET_STATS ($c1 then $c2)" \
	test -n "$c1" -a -n "$c2" -a "${c2:-0}" -gt "${c1:-0}"

# --- ssh as opsadmin (an administrator: sacctmgr show stats is allowed)
if have_ssh; then
	viassh --once --view diag --format tsv --columns section,key,value
	check "ssh: diag exits 0" test $? -eq 0
	diag_checks ssh
else
	notok "ssh: the testbed's sshd or key is not there"
fi

# --- slurmrestd: GET /slurmdb/vN/diag
if [ -r "$TOKEN" ]; then
	sq -b rest -u "$REST" --token-file "$TOKEN" --once --view diag \
		--format tsv --columns section,key,value
	check "rest: diag exits 0" test $? -eq 0
	check "rest: dbd 'Data since' is sacctmgr's" \
		test "$(dbd_val dbd 'Data since')" = "$(iso "$(since)")"
	check "rest: dbd_user lists sacctmgr's users" \
		test "$(dbd_keys dbd_user)" = "$(stat_users rest)"
	check "rest: dbd_type has DBD_GET_STATS" test -n "$(stats_count)"
	# slurmrestd's internal rollup is sacctmgr's (v0.0.41+ calls it
	# "hourly"): its cycle count, read right after
	want=$(slurm sacctmgr show stats | awk '/^Internal DBD rollup/ { i = 1; next }
		i && /Total cycles:/ { print $3; exit }')
	check "rest: the internal rollup's cycles are sacctmgr's ($want)" \
		test "$(dbd_val dbd 'Internal DBD rollup: Total cycles')" = "$want"
else
	notok "rest: no token at $TOKEN"
fi

# --- problems: what sacctmgr lists, then an account without users
problems() { slurm sacctmgr -n -P show problem format=Account,User,Problem | sort; }
sq --once --view problems --format tsv
check "local: problems exits 0" test $? -eq 0
check "local: problems lists what sacctmgr lists" \
	test "$(tsv_cols "$tmp/out" account,user,problem | sort)" = "$(problems)"
if slurm sacctmgr -i add account "$acct" description=squall-test \
	organization=squall >/dev/null 2>&1; then
	added=1
else
	notok "could not add account $acct"
	finish
fi
mine=$(problems | grep "^$acct|")
check "sacctmgr lists a problem of $acct ($mine)" test -n "$mine"
sq --once --view problems --format tsv
got=$(tsv_cols "$tmp/out" account,user,problem | sort)
check "local: problems lists what sacctmgr lists, $acct's too" \
	sh -c "test '$got' = '$(problems)' && echo '$got' | grep -q '^$acct|'"
if have_ssh; then
	viassh --once --view problems --format tsv
	got=$(tsv_cols "$tmp/out" account,user,problem | sort)
	check "ssh: problems lists $acct's as sacctmgr does" \
		test "$(echo "$got" | grep "^$acct|")" = "$mine"
fi
if [ -r "$TOKEN" ]; then
	sq -b rest -u "$REST" --token-file "$TOKEN" --once --view problems
	rc=$?
	check "rest: problems is refused with the reason" sh -c \
		"test $rc -ne 0 && grep -q 'slurmrestd has no endpoint for sacctmgr show problem' '$tmp/err'"
fi

# --- the console
if command -v tmux >/dev/null 2>&1; then
	T new-session -d -s t -x 200 -y 50 "env SQUALL_CONFIG=/dev/null XDG_STATE_HOME='$tmp/state' '$SQUALL' --view problems"
	if wait_for "$acct" 20; then
		ok "console: the problems view shows $acct"
		T send-keys -t t "/$acct" Enter
		sleep 0.5
		T send-keys -t t Enter
		check "console: the detail pane links to the account" \
			wait_for "this account" 10
		T send-keys -t t 1
		check "console: link 1 opens the accounts view on $acct" \
			wait_for "squall-test" 15
	else
		notok "console: the problems view did not show $acct"
		cap | sed 's/^/#   /'
	fi
	T kill-server 2>/dev/null
	# a server of its own: a new session on the one just killed can land
	# in it while it exits (seen under CI's load: "no server running")
	sock=$sock-diag
	T new-session -d -s t -x 200 -y 50 "env SQUALL_CONFIG=/dev/null XDG_STATE_HOME='$tmp/state' '$SQUALL' --view diag; echo squall exited \$?; sleep 600"
	wait_for "^ squall  :diag" 15 >/dev/null
	T send-keys -t t "/dbd_user" Enter
	# its partner (sacctmgr show stats) comes at the slow interval: r
	# asks for it now, on a busy machine (CI) too
	sleep 1
	T send-keys -t t r
	if wait_for "dbd_user +root +count=" 45; then
		ok "console: the diag view's dbd_user rows (root)"
	else
		notok "console: the diag view's dbd_user rows (root)"
		cap | sed 's/^/#   /'
	fi
	T kill-server 2>/dev/null
fi
finish
