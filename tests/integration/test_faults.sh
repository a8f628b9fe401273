#!/bin/sh
# test_faults.sh - fault injection on the live testbed. The console runs in
# a private tmux server (-r 2) in four windows: local jobs, local
# associations, jobs over ssh (alice) and jobs over REST (root). Then
# sshd, slurmctld, slurmdbd and slurmrestd are stopped (by the PIDs in
# $TB/pids) and started again (tests/testbed/start), one at a time,
# FAULT_ROUNDS times each (default 5: 20 cycles). For each stop the
# windows that use the service must show STALE with the data's age and an
# error naming the failing part, the others stay fresh, and no squall
# exits; once the service answers again each must be fresh without the
# error within two of its refresh intervals (2 s for jobs, 60 s for
# associations), by itself. An action sent while slurmctld is down, from
# --exec and from the console, fails cleanly and is audited as failed.
# The testbed is left fully up (tests/testbed/status).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
ROUNDS=${FAULT_ROUNDS:-5}
R=2        # the console's refresh (-r): jobs
SLOW=60    # refresh-slow (its minimum): associations
sock=squall-fault-$$
job=
tm() { tmux -L "$sock" -f /dev/null "$@"; }
testbed_up() {
	"$root/tests/testbed/status" >/dev/null 2>&1 ||
		"$root/tests/testbed/start" >"$tmp/start.log" 2>&1
}
cleanup() {
	tm kill-server 2>/dev/null
	testbed_up
	[ -n "$job" ] && scancel "$job" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
command -v tmux >/dev/null 2>&1 || {
	echo "skip - tmux is not installed"
	exit 77
}
# no idle pause: nobody presses a key during the cycles
printf 'set idle-pause 0\n' >"$tmp/squall.conf"
export SQUALL_CONFIG=$tmp/squall.conf XDG_STATE_HOME=$tmp/state LANG=C.UTF-8
KEY=$TB/ssh/id_ed25519
KH=$TB/ssh/known_hosts
URL=http://127.0.0.1:6820
# the REST window reads a copy of the token: start re-mints the original
cp "$TB/jwt/root.token" "$tmp/root.token"
chmod 600 "$tmp/root.token"

# a pending job of alice for the action while the controller is down
job=$(cd /tmp && runuser -u alice -- sbatch --parsable -o /dev/null -D /tmp \
	-p low -c 1 -t 5 --begin=now+2hours -J sqfault --wrap 'sleep 60')
job=${job%%;*}

# --- the console: one window a backend (and the slow associations view)
win() { # win NAME ARGS...: squall in window NAME; its exit status to a file
	name=$1
	shift
	tm new-window -d -n "$name" -t f \
		"$SQUALL -r $R $*; echo \$? >$tmp/exit.$name; sleep 3600"
}
tm new-session -d -s f -n idle -x 200 -y 40 "sleep 3600"
win local
win dbd
win ssh -b ssh -H 127.0.0.1 -p 2222 -l alice --identity "$KEY" \
	--known-hosts "$KH"
win rest -b rest -u "$URL" -l root --token-file "$tmp/root.token"
cap() { tm capture-pane -p -t "f:$1"; }
status() { cap "$1" | tail -2 | head -1; }
# wait_screen WINDOW PATTERN SECONDS: until the screen matches (grep -E)
wait_screen() {
	i=0
	while [ $i -lt $(($3 * 5)) ]; do
		cap "$1" | grep -Eq -- "$2" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}
for w in local dbd ssh rest; do
	wait_screen $w ' [0-9]+s \| [0-9]+ q/min' 40 ||
		notok "window $w starts (status: $(status $w))"
done
tm send-keys -t f:dbd ':assocs' Enter
wait_screen dbd ':assocs ' 10
wait_screen dbd 'chemistry' 30 || notok "assocs view shows the tree"
alive() { # every squall still runs
	for w in local dbd ssh rest; do
		[ -e "$tmp/exit.$w" ] && {
			echo "# squall in window $w exited: $(cat "$tmp/exit.$w")"
			return 1
		}
	done
	return 0
}
check "four consoles running" alive

# --- services: how to ask whether one answers again
up() {
	case $1 in
	sshd) timeout 5 ssh -p 2222 -i "$KEY" -o UserKnownHostsFile="$KH" \
		-o StrictHostKeyChecking=yes -o BatchMode=yes \
		alice@127.0.0.1 true 2>/dev/null ;;
	slurmctld) scontrol ping 2>/dev/null | grep -q 'is UP' ;;
	slurmdbd) timeout 10 sacctmgr -n show cluster >/dev/null 2>&1 ;;
	slurmrestd) curl -s -m 2 -o /dev/null "$URL/openapi/v3" ;;
	rest) curl -sf -m 5 -o /dev/null -H "X-SLURM-USER-NAME: root" \
		-H "X-SLURM-USER-TOKEN: $(cat "$tmp/root.token")" \
		"$URL/slurm/v0.0.38/jobs" ;;
	esac
}
pid_alive() {
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# pids_of_socket INODE: the processes that hold socket INODE
pids_of_socket() {
	for d in /proc/[0-9]*; do
		ls -l "$d/fd" 2>/dev/null | grep -q "socket:\[$1\]" &&
			echo "${d#/proc/}"
	done
}
# own_sshd: the sshd processes serving the ssh window's squall (a running
# sshd's sessions outlive the daemon; this one connection is ours)
own_sshd() {
	pane=$(tm display -p -t f:ssh '#{pane_pid}')
	spid=$(pgrep -P "$pane" | head -1)
	[ -n "$spid" ] || return 0
	for ino in $(ls -l "/proc/$spid/fd" 2>/dev/null |
		sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p'); do
		# squall's end: remote 127.0.0.1:2222 (port 08AE); its local
		# port is the server side's remote port
		port=$(awk -v i="$ino" '$10 == i && $3 ~ /:08AE$/ {
			split($2, a, ":"); print a[2] }' /proc/net/tcp)
		[ -n "$port" ] || continue
		srv=$(awk -v p="$port" '$2 ~ /:08AE$/ && $3 ~ (":" p "$") {
			print $10 }' /proc/net/tcp)
		[ -n "$srv" ] && pids_of_socket "$srv"
	done
}
stop_pid() { # stop_pid PID: TERM, then KILL after 10 s
	kill "$1" 2>/dev/null
	i=0
	while pid_alive "$1" && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	pid_alive "$1" && kill -KILL "$1" 2>/dev/null
	return 0
}
stop() { # stop DAEMON: by its PID only
	if [ "$1" = sshd ]; then
		own=$(own_sshd)
		echo "# sshd: also the connection of the ssh window: ${own:-none}"
	fi
	# 22.05's backup controller would take over (test_takeover's
	# case): slurmctld down here is both down; start brings both back
	if [ "$1" = slurmctld ] && [ -f "$TB/pids/slurmctld-backup.pid" ]; then
		bpid=$(cat "$TB/pids/slurmctld-backup.pid")
		echo "# slurmctld: also the backup controller, pid $bpid"
		stop_pid "$bpid"
	fi
	pid=$(cat "$TB/pids/$1.pid")
	stop_pid "$pid"
	[ "$1" = sshd ] && [ -n "$own" ] && kill $own 2>/dev/null
	sleep 0.2
	! pid_alive "$pid"
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# what each service takes down: windows, the words of the error, how soon
# the failure must show, the refresh interval of the view
affected() {
	case $1 in
	sshd) echo ssh ;;
	slurmctld) echo local ssh rest ;;
	slurmdbd) echo dbd ;;
	slurmrestd) echo rest ;;
	esac
}
words() {
	case $1:$2 in
	sshd:*) echo 'ssh|connect|2222|refused' ;;
	slurmctld:rest) echo 'slurmctld|controller|Unable to contact|errno|error' ;;
	slurmctld:*) echo 'slurm_load_jobs|controller|slurmctld' ;;
	slurmdbd:*) echo 'slurmdbd|database|sacctmgr|Connection refused' ;;
	slurmrestd:*) echo '6820|connect|refused|slurmrestd|http' ;;
	esac
}
interval() { [ "$1" = dbd ] && echo $SLOW || echo $R; }
stale_re='STALE [0-9]+[smh]'
fresh() { # fresh WINDOW: not stale, no error of the view's own kind
	s=$(status "$1")
	case "$s" in *STALE*) return 1 ;; esac
	kind=jobs
	[ "$1" = dbd ] && kind=assocs
	case "$s" in *"error: $kind:"*) return 1 ;; esac
	return 0
}

cycles=0 worst=0
action_done=0
for round in $(seq 1 "$ROUNDS"); do
	for svc in sshd slurmctld slurmdbd slurmrestd; do
		cycles=$((cycles + 1))
		tag="cycle $cycles ($svc, round $round)"
		hit=$(affected $svc)
		for w in $hit; do
			wait_screen $w ' [0-9]+s \|' 20 >/dev/null
		done
		check "$tag: $svc stopped by its PID" stop $svc
		t_stop=$(now)
		# the failure shows: STALE with the age, the part named
		for w in $hit; do
			lim=30
			if [ $w = dbd ]; then
				tm send-keys -t f:dbd r # do not wait a minute
			fi
			if wait_screen $w "$stale_re.*error: .*($(words $svc $w))" $lim; then
				ok "$tag: window $w stale with its age, names the part: $(status $w | sed 's/.*| STALE/STALE/' | cut -c1-110)"
			else
				notok "$tag: window $w stale with its age and the part named (status: $(status $w))"
			fi
		done
		for w in local dbd ssh rest; do
			case " $hit " in *" $w "*) continue ;; esac
			[ $w = dbd ] && continue # slow view: nothing to compare
			check "$tag: window $w unaffected" fresh $w
		done
		check "$tag: no squall exited" alive

		# the action while the controller is down
		if [ $svc = slurmctld ] && [ $action_done = 0 ]; then
			action_done=1
			"$SQUALL" --yes --exec "hold $job" >"$tmp/x.out" 2>"$tmp/x.err"
			rc=$?
			# Slurm's words for it vary ("Unable to contact slurm
			# controller", "Unexpected message received")
			if [ $rc -ne 0 ] && grep -q 'hold: 1 of 1 failed: ..' \
				"$tmp/x.err"; then
				ok "--exec while slurmctld is down: fails (exit $rc) saying why: $(tail -1 "$tmp/x.err" | cut -c1-100)"
			else
				notok "--exec while slurmctld is down: fails (exit $rc) saying why"
				cat "$tmp/x.out" "$tmp/x.err" | sed 's/^/#   /'
			fi
			log=$XDG_STATE_HOME/squall/audit.log
			check "--exec: audited, intent then a failed result" sh -c "
				tail -2 '$log' | head -1 | jq -e '.event == \"intent\" and .action == \"hold\"' >/dev/null &&
				tail -1 '$log' | jq -e '.event == \"result\" and .status != 0' >/dev/null"
			n0=$(wc -l <"$log")
			tm send-keys -t f:local '/' "@job_id=$job" Enter
			sleep 1
			tm send-keys -t f:local H
			# the preview reads the target's state first (a missing
			# job is "not found", issue 31), and that read waits on
			# the dead controller as long as Slurm's own timeout
			if wait_screen local "scontrol hold $job" 90; then
				tm send-keys -t f:local y
				# the before/after read-backs wait for slurmctld too
				check "console action while slurmctld is down: fails on screen" \
					wait_screen local 'hold: .*(fail|error|Unable)' 120
			else
				notok "console action: the preview shows (screen: $(status local))"
			fi
			sleep 1
			check "console action: audited, intent then a failed result" sh -c "
				test \$(wc -l <'$log') -ge $((n0 + 2)) &&
				tail -1 '$log' | jq -e '.event == \"result\" and .status != 0' >/dev/null"
			check "the job was not held" \
				test "$(squeue -h -j "$job" -o %r)" != JobHeldAdmin
			tm send-keys -t f:local Escape Escape
		fi

		# back: start it, note when it answers, then when each window is
		# fresh again by itself
		"$root/tests/testbed/start" >"$tmp/start.log" 2>&1 &
		spid=$!
		i=0
		until up $svc; do
			sleep 0.2
			i=$((i + 1))
			[ $i -gt 600 ] && break
		done
		t_up=$(now)
		check "$tag: $svc answers again ($(elapsed "$t_stop" "$t_up") s after the stop)" up $svc
		for w in $hit; do
			lim=$((2 * $(interval $w)))
			t0=$t_up
			# through slurmrestd, the service is back when a job
			# list comes back
			if [ $w = rest ]; then
				i=0
				until up rest || [ $i -gt 300 ]; do
					sleep 0.2
					i=$((i + 1))
				done
				t0=$(now)
			fi
			t_ok=
			while :; do
				if fresh $w; then
					t_ok=$(now)
					break
				fi
				[ "$(elapsed "$t0" "$(now)" | cut -d. -f1)" -gt $((lim + 30)) ] &&
					break
				sleep 0.2
			done
			if [ -z "$t_ok" ]; then
				notok "$tag: window $w fresh again (status: $(status $w))"
				continue
			fi
			took=$(elapsed "$t0" "$t_ok")
			# the poll and a fetch itself (a sanitizer build on a busy machine)
			# take a moment: 2 s of slack
			if awk -v t="$took" -v l="$lim" 'BEGIN { exit !(t <= l + 2) }'; then
				ok "$tag: window $w fresh again $took s after $svc answered$([ $w = rest ] && echo ' through slurmrestd') (limit $lim s)"
			else
				notok "$tag: window $w fresh again only $took s after $svc answered (limit $lim s)"
				# a slow answer makes squall wait longer (it
				# backs off from slow calls): say how slow
				[ $w = rest ] && echo "#   GET /jobs takes $(curl -s -o /dev/null -w '%{time_total}' -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $(cat "$tmp/root.token")" "$URL/slurm/v0.0.38/jobs") s now"
			fi
			awk -v t="$took" -v w="$worst" 'BEGIN { exit !(t > w) }' && worst=$took
		done
		wait $spid
		rc=$?
		if [ $rc -ne 0 ]; then
			# start waits for things beyond this service (every
			# node responding ...): say what, and give it a second go
			echo "# tests/testbed/start: exit $rc: $(tail -2 "$tmp/start.log" | tr '\n' ' ')"
			"$root/tests/testbed/start" >"$tmp/start.log" 2>&1
			rc=$?
		fi
		check "$tag: tests/testbed/start succeeded" test $rc -eq 0
	done
done
check "no squall exited in $cycles cycles" alive
echo "# $cycles cycles; slowest recovery after a service answered: $worst s"
tm send-keys -t f:local q
tm kill-server 2>/dev/null
testbed_up
check "the testbed is fully up (tests/testbed/status)" \
	"$root/tests/testbed/status"
finish
