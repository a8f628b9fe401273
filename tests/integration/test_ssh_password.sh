#!/bin/sh
# test_ssh_password.sh - the ssh backend with the methods the testbed's
# key-only sshd does not offer: password (an sshd with UsePAM=no checking
# /etc/shadow) and keyboard-interactive (an sshd with PAM asking
# "Password:"), for a throw-away user sqpw$$ with a random password, each
# sshd on a free loopback port with the testbed's host key. Checks: batch
# mode never asks and says so; the console shows the question (the
# server's prompt as text, the answer as '*'), a wrong answer is refused
# with a message and asked again, the right one connects and the jobs view
# fills; the password never appears on the screen, in the squall process's
# argv or environment, or in the audit log. Removes the user and stops its
# sshds (by pid) at exit.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
user=sqpw$$
sock=squall-sshpw-$$
pids=
job=
cleanup() {
	T kill-server 2>/dev/null
	[ -n "$job" ] && slurm scancel "$job" 2>/dev/null
	for p in $pids; do kill "$p" 2>/dev/null; done
	id "$user" >/dev/null 2>&1 && userdel -r "$user" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for c in tmux python3 useradd chpasswd; do
	command -v $c >/dev/null 2>&1 || {
		echo "skip - $c is not installed"
		exit 77
	}
done
[ -r "$TB/ssh/host_ed25519" ] || {
	echo "skip - no testbed ssh host key ($TB/ssh; tests/testbed/start)"
	exit 77
}
[ "$(id -u)" -eq 0 ] || {
	echo "skip - needs root (a throw-away user)"
	exit 77
}

# a job of its own, held, so the jobs view has a row whatever the queue
# held before (an empty queue shows "No jobs." and no header)
job=$(slurm sbatch --parsable -H -p low -t 5 -J "sqpw-$$" -o /dev/null \
	--chdir=/tmp --wrap 'sleep 60' 2>/dev/null)
job=${job%%;*}
check "a held job $job of its own in the queue" test -n "$job"

pw=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
useradd -m -s /bin/bash "$user" &&
	echo "$user:$pw" | chpasswd
check "a throw-away user with a password" \
	sh -c "getent shadow '$user' | cut -d: -f2 | grep -q '^\\\$'"

# free ports, then one sshd per method
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
PPW=${ports% *}
PKI=${ports#* }
mkdir -p /run/sshd && chmod 0755 /run/sshd
sshd_on() { # sshd_on PORT NAME PASSWORD KBDINT PAM
	cat >"$tmp/$2.conf" <<EOF
ListenAddress 127.0.0.1
Port $1
HostKey $TB/ssh/host_ed25519
PidFile $tmp/$2.pid
PubkeyAuthentication no
PasswordAuthentication $3
KbdInteractiveAuthentication $4
UsePAM $5
PermitRootLogin no
AllowUsers $user
StrictModes yes
EOF
	/usr/sbin/sshd -f "$tmp/$2.conf" -E "$tmp/$2.log" || return 1
	i=0
	while [ ! -s "$tmp/$2.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$tmp/$2.pid" ] && pids="$pids $(cat "$tmp/$2.pid")"
}
check "sshd with password authentication on 127.0.0.1:$PPW" \
	sshd_on "$PPW" pw yes no no
check "sshd with keyboard-interactive (PAM) on 127.0.0.1:$PKI" \
	sshd_on "$PKI" ki no yes yes
kh=$tmp/known_hosts
hk=$(cut -d' ' -f1-2 "$TB/ssh/host_ed25519.pub")
printf '[127.0.0.1]:%s %s\n[127.0.0.1]:%s %s\n' "$PPW" "$hk" "$PKI" "$hk" >"$kh"

export SQUALL_CONFIG=/dev/null XDG_STATE_HOME=$tmp/state

# --- batch mode: never asks
"$SQUALL" -b ssh -H 127.0.0.1 -p "$PPW" -l "$user" --known-hosts "$kh" \
	--once --view jobs </dev/null >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
check "batch: fails (exit $rc)" test $rc -ne 0
check "batch: says it does not ask for passwords" \
	grep -q 'batch mode does not ask for passwords' "$tmp/b.err"

# squall_pid PORT: the console's process (its argv names the port)
squall_pid() {
	for _p in /proc/[0-9]*; do
		tr '\0' ' ' <"$_p/cmdline" 2>/dev/null |
			grep -q "^$SQUALL -b ssh -H 127.0.0.1 -p $1 " &&
			echo "${_p#/proc/}" && return 0
	done
	return 0
}
# secret_nowhere LABEL PORT: the password on no screen, argv, environment,
# log
secret_nowhere() {
	check "$1: the password is not on the screen" sh -c "! tmux -L '$sock' capture-pane -p -t t | grep -qF '$pw'"
	spid=$(squall_pid "$2")
	if [ -n "$spid" ]; then
		check "$1: not in squall's argv or environment" sh -c \
			"! tr '\\0' '\\n' </proc/$spid/cmdline | grep -qF '$pw' &&
			 ! tr '\\0' '\\n' </proc/$spid/environ | grep -qF '$pw'"
	else
		notok "$1: the squall process is not found"
	fi
	check "$1: not in the audit log or state directory" sh -c \
		"! grep -rqF '$pw' '$tmp/state' 2>/dev/null"
}

# console PORT LABEL PROMPT: wrong answer, then the right one
console() {
	# a tmux server each (a new session right after kill-server can talk
	# to the dying one)
	sock=squall-sshpw-$$-$2
	T new-session -d -s t -x 160 -y 40 \
		"$SQUALL -b ssh -H 127.0.0.1 -p $1 -l $user --known-hosts $kh; sleep 600"
	check "$2: the console asks ($3)" wait_for "$3" 20
	T send-keys -t t -l "wrong-$pw"
	check "$2: the answer is shown as stars" wait_for '\*\*\*\*\*\*' 3
	T send-keys -t t Enter
	check "$2: a wrong answer is refused with a message" \
		wait_for 'refused|denied|failed' 20
	check "$2: and asked again" wait_for "$3" 30
	T send-keys -t t -l "$pw"
	T send-keys -t t Enter
	check "$2: the right one connects (the status line names ssh $rel)" \
		wait_for " ssh $(echo "$rel" | sed 's/\./\\./')" 30
	T send-keys -t t ":jobs" Enter
	check "$2: the jobs view fills" wait_for '^ *JOBID' 10
	secret_nowhere "$2" "$1"
	T send-keys -t t q
	sleep 0.5
	T kill-server 2>/dev/null
}
# the status line names the release: 22.05, or 24.11/26.05 in their chroots
rel=$(slurm scontrol -V | awk '{ split($2, v, "."); print v[1] "." v[2] }')
console "$PPW" password "password:"
console "$PKI" keyboard-interactive "Password:"
# what the sshds saw: a wrong answer, then the method itself succeeding
check "sshd (password): a failed, then an accepted password" sh -c \
	"grep -q 'Failed password for $user' '$tmp/pw.log' &&
	 grep -q 'Accepted password for $user' '$tmp/pw.log'"
# (PAM reports its failures to syslog, not to sshd's -E log)
check "sshd (PAM): an accepted keyboard-interactive login" \
	grep -q "Accepted keyboard-interactive/pam for $user" "$tmp/ki.log"
finish
