#!/bin/sh
# test_resv.sh - reservations as actions on the live testbed through
# `squall --exec` (local): a job of this test's own runs on a node with a
# long time limit; `reserve` of that node from now+10minutes previews the
# exact scontrol line and the impact naming that job, and Slurm refuses it
# without IGNORE_JOBS ("Requested nodes are busy"); with IGNORE_JOBS it is
# created, updated and deleted, each time equal to what `scontrol show
# reservation` shows, and each undo (from the audit log) puts it back.
# The same through slurmrestd where it serves reservation writes (API
# v0.0.43+: 26.05); before that it refuses the three with the reason. On exit the job is
# cancelled and the reservation deleted. Over ssh as opsadmin too, and
# reserve-update's flags=+NAME,-NAME (not over slurmrestd: refused).
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
R=sqresv_$$
jname=sqresv-it-$$
cleanup() {
	slurm scancel --name="$jname" 2>/dev/null
	slurm scontrol delete reservationname="$R" >/dev/null 2>&1
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

slurm scontrol ping >/dev/null 2>&1 || {
	echo "# slurmctld does not answer: skipped"
	exit 77
}

# --- a job of our own running on a node, with a two-hour limit; when
# every node of the testbed is taken (other suites, the workload), a
# running job of the workload with an hour or more left stands in
J=
node=$(slurm sinfo -h -N -p low -t idle,mix -o %N | sort -u | head -1)
J=$(runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable -p low ${node:+-w "$node"} \
	-c 1 --mem=100 -t 120 -J "$jname" --wrap 'sleep 7000') || J=
for _i in $(seq 1 20); do
	[ -n "$J" ] && [ "$(slurm squeue -h -j "$J" -o %T)" = RUNNING ] && break
	sleep 1
done
if [ -n "$J" ] && [ "$(slurm squeue -h -j "$J" -o %T)" = RUNNING ]; then
	node=$(slurm squeue -h -j "$J" -o %N)
	juser=alice
	ok "job $J of alice (this test's) runs on $node (time limit 2:00:00)"
else
	[ -n "$J" ] && slurm scancel "$J"
	# %L: time left; an hour or more has two ':' or a day's '-'
	set -- $(slurm squeue -h -t R -o '%i %u %N %L' | awk '$3 !~ /[\[,]/ && ($4 ~ /-/ || $4 ~ /:.*:/ || $4 == "UNLIMITED") { print; exit }')
	if [ $# -lt 3 ]; then
		notok "no job of this test could start (every node taken) and none of the workload runs an hour more"
		finish
	fi
	J=$1 juser=$2 node=$3
	ok "# every node is taken: job $J of $juser (running on $node, $4 left) stands in for this test's"
fi
# rfield KEY: the reservation's field as scontrol shows it (epoch times)
# the job the impact must name: the test's while it runs on the node;
# when Slurm preempted it meanwhile (the workload's high partition takes
# low's nodes, PreemptMode=REQUEUE), one that squeue shows running there
job_there() {
	if [ "$(slurm squeue -h -j "$J" -o '%T %N' 2>/dev/null)" = "RUNNING $node" ]; then
		echo "$J"
	else
		slurm squeue -h -t R -w "$node" -o %i 2>/dev/null | head -1
	fi
}
rfield() { slurm scontrol -o show reservation "$R" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# inverse of the last audited result
last_inverse() { grep '"event":"result"' "$audit" | tail -1 | sed -n 's/.*"inverse":"\([^"]*\)".*/\1/p'; }
span() { echo $(($(rfield EndTime) - $(rfield StartTime))); }

# lifecycle LABEL PREVIEW SQUALL-ARGS...: the preview (its first line
# PREVIEW) and the impact naming job $J, Slurm's refusal without
# IGNORE_JOBS, then create, update, delete, each checked with scontrol,
# and the undo of each from the audit log
lifecycle() {
	lb=$1 want=$2
	shift 2
	line="reserve $R start=now+10minutes duration=30 nodes=$node users=root"
	echo n | "$SQUALL" "$@" --exec "$line" >"$tmp/out" 2>"$tmp/err"
	check "$lb reserve: the preview is $want" sh -c "head -1 '$tmp/out' | grep -qxF '$want'"
	check "$lb reserve: the impact names job $(job_there) running past the start" grep -q \
		"^    $(job_there) (" "$tmp/out"
	check "$lb reserve: the impact says Slurm refuses it without IGNORE_JOBS" grep -q \
		"Requested nodes are busy) unless flags= has IGNORE_JOBS" "$tmp/out"
	check "$lb reserve: the impact says when the last job there ends" grep -q \
		"the last running job there ends " "$tmp/out"
	check "$lb reserve: nothing created on N" test -z "$(rfield ReservationName)"

	sq "$@" --exec "$line" --yes
	check "$lb reserve without IGNORE_JOBS: refused, exit 1" test $? -eq 1 -a -z "$(rfield ReservationName)"
	check "$lb reserve without IGNORE_JOBS: Slurm's words" grep -qi "busy" "$tmp/out" "$tmp/err"

	t0=$(date +%s)
	sq "$@" --exec "$line flags=maint,ignore_jobs" --yes
	check "$lb reserve: done and verified" grep -q "reserve: 1 of 1 done and verified" "$tmp/out"
	st=$(rfield StartTime)
	check "$lb reserve: StartTime is now+10minutes ($st)" test "${st:-0}" -ge $((t0 + 590)) -a "${st:-0}" -le $((t0 + 660))
	check "$lb reserve: 30 minutes" test "$(span)" -eq 1800
	check "$lb reserve: Nodes=$node" test "$(rfield Nodes)" = "$node"
	check "$lb reserve: Users=root" test "$(rfield Users)" = root
	check "$lb reserve: Flags has MAINT and IGNORE_JOBS" sh -c \
		"echo '$(rfield Flags)' | grep -q MAINT && echo '$(rfield Flags)' | grep -q IGNORE_JOBS"
	check "$lb reserve: its undo is reserve-delete" test "$(last_inverse)" = "reserve-delete $R"
	check "$lb reserve: audited with the running job $(job_there)" sh -c \
		"grep '\"event\":\"intent\"' '$audit' | tail -1 | grep -Eq '\"running\":\"([^\"]* )?$(job_there)( [^\"]*)?\"'"
	# the reservations view shows what scontrol shows
	sq "$@" --once --view reservations --format tsv --columns name,nodes,users,starts_in,timeline
	check "$lb view: the reservation's row" sh -c \
		"awk -F'\t' '\$1 == \"$R\" && \$2 == \"$node\" && \$3 == \"root\" && \$4 ~ /^in [0-9]+m\$/ && \$5 ~ /#/' '$tmp/out' | grep -q ."

	sq "$@" --exec "reserve-update $R duration=45 users=root,alice" --yes
	check "$lb reserve-update: done and verified" grep -q "1 of 1 done and verified" "$tmp/out"
	check "$lb reserve-update: 45 minutes" test "$(span)" -eq 2700
	check "$lb reserve-update: Users=root,alice" test "$(rfield Users)" = root,alice
	check "$lb reserve-update: the start stayed" test "$(rfield StartTime)" = "$st"
	inv=$(last_inverse)
	sq "$@" --exec "$inv" --yes
	check "$lb reserve-update undo ($inv): 30 minutes and root again" test "$(span)" -eq 1800 -a "$(rfield Users)" = root

	if [ "$lb" = rest ]; then
		sq "$@" --exec "reserve-update $R flags=-maint" --yes
		check "$lb reserve-update flags=: refused with the reason" grep -q \
			"flags is not mapped through slurmrestd" "$tmp/out" "$tmp/err"
	else
		sq "$@" --exec "reserve-update $R flags=-maint,+daily" --yes
		check "$lb reserve-update flags=-maint,+daily: done and verified" \
			grep -q "1 of 1 done and verified" "$tmp/out"
		check "$lb reserve-update flags: DAILY, no MAINT ($(rfield Flags))" sh -c \
			"echo ',$(rfield Flags),' | grep -q ',DAILY,' && ! echo ',$(rfield Flags),' | grep -q ',MAINT,'"
		inv=$(last_inverse)
		check "$lb reserve-update flags: its undo gives MAINT back, takes DAILY" \
			test "$inv" = "reserve-update $R flags=+MAINT,-DAILY"
		sq "$@" --exec "$inv" --yes
		check "$lb reserve-update flags undo: MAINT, no DAILY ($(rfield Flags))" sh -c \
			"echo ',$(rfield Flags),' | grep -q ',MAINT,' && ! echo ',$(rfield Flags),' | grep -q ',DAILY,'"
	fi

	end=$(rfield EndTime)
	sq "$@" --exec "reserve-delete $R" --yes
	check "$lb reserve-delete: done and verified" grep -q "1 of 1 done and verified" "$tmp/out"
	check "$lb reserve-delete: scontrol has no $R" test -z "$(rfield ReservationName)"
	inv=$(last_inverse)
	sq "$@" --exec "$inv" --yes
	check "$lb reserve-delete undo ($inv): back with its times, nodes, users, flags" test \
		"$(rfield StartTime)|$(rfield EndTime)|$(rfield Nodes)|$(rfield Users)" = "$st|$end|$node|root"
	slurm scontrol delete reservationname="$R" >/dev/null 2>&1
}

lifecycle local \
	"scontrol create reservation ReservationName=$R StartTime=now+10minutes Duration=30 Nodes=$node Users=root"

# the same over ssh as opsadmin (a Slurm administrator; alice is not)
key=$TB/ssh/id_ed25519
if [ -r "$key" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; then
	: >"$tmp/sshcfg"
	lifecycle ssh \
		"[ssh opsadmin@127.0.0.1] scontrol create reservation ReservationName=$R StartTime=now+10minutes Duration=30 Nodes=$node Users=root" \
		-b ssh -H 127.0.0.1 -p "$SSH_PORT" -l opsadmin --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg"
else
	notok "ssh: the testbed's sshd on 127.0.0.1:$SSH_PORT does not answer"
fi

# --- refused: read-only, hostile values, slurmrestd
sq --readonly --exec "$line flags=ignore_jobs" --yes
check "read-only: refused, nothing created" test $? -ne 0 -a -z "$(rfield ReservationName)"
sq --exec "reserve $R start='now;id' duration=30 nodes=$node users=root" --yes
check "a hostile start: refused before anything runs" test $? -ne 0 -a -z "$(rfield ReservationName)"
code=$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")
if [ "$code" != 000 ] && [ -r "$TOKEN" ]; then
	rest="-b rest -u $REST --token-file $TOKEN"
	# the /slurm/ API squall speaks there (rest/discover): the preview of
	# a reserve names it, or says why not
	echo n | "$SQUALL" $rest --exec "$line" >"$tmp/out" 2>"$tmp/err"
	v=$(cat "$tmp/out" "$tmp/err" | grep -o 'POST /slurm/v0\.0\.[0-9]*/reservation' | sed 's/.*v0\.0\.\([0-9]*\).*/\1/')
	if [ -n "$v" ]; then
		echo "# slurmrestd serves POST /slurm/v0.0.$v/reservation"
		lifecycle rest \
			"POST /slurm/v0.0.$v/reservation {\"name\":\"$R\",\"start_time\":\"now+10minutes\",\"duration\":{\"set\":true,\"number\":30},\"node_list\":[\"$node\"],\"users\":[\"root\"]}" \
			$rest
	else
		for l in "$line flags=ignore_jobs" "reserve-update $R duration=5" "reserve-delete $R"; do
			sq $rest --exec "$l" --yes
			check "rest: ${l%% *} refused with the reason (no reservation writes before v0.0.43)" \
				grep -q "are read-only (POST and DELETE of reservations come with v0.0.43" "$tmp/out" "$tmp/err"
		done
	fi
else
	echo "# slurmrestd does not answer on $REST: rest not tested"
fi
finish
