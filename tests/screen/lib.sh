# tests/screen/lib.sh - what the screen tests share, sourced by each
# (`TAG=name; . "$(dirname "$0")/lib.sh"`): the paths, a private tmux
# server (tmux -L squall-TAG-PID), TAP lines, waiting on the screen, and
# the skips. Not a test itself (make check-screen runs run and test_*.sh).
#
# Sets: HERE ROOT SQUALL TB SOCK WORK failed count.
# Defines: T (tmux on the private server), S (a Slurm command with the
# user's format variables unset and epoch times), ok, notok (prints the
# screen's last lines), check DESCRIPTION COMMAND..., skip, not, cap,
# keys, wait_for PATTERN [SECONDS], gone PATTERN [SECONDS],
# need_tmux, need_binary, need_testbed.
# At exit: the tmux server is killed (and any pane process left after 5 s,
# by PID), the test's own on_exit function runs when it sets on_exit=NAME,
# and WORK is removed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SQUALL=${SQUALL:-$ROOT/squall}
case $SQUALL in /*) ;; *) SQUALL=$(pwd)/$SQUALL ;; esac
TB=${TB:-/tmp/slurmtb}
SOCK=squall-$TAG-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/squall-$TAG.XXXXXX") || exit 1
failed=0
count=0
on_exit=

T() { tmux -L "$SOCK" -f /dev/null "$@"; }
S() { env -u SQUEUE_FORMAT -u SINFO_FORMAT LC_ALL=C SLURM_TIME_FORMAT=%s "$@"; }
# the panes' processes (shells and their squall) are noted before the
# server goes; one still alive 5 s later (a sanitizer build can spin in
# its exit report when its terminal vanishes) is killed by its PID
lib_exit() {
	lib_pids=$(T list-panes -a -F '#{pane_pid}' 2>/dev/null)
	for lib_p in $lib_pids; do
		lib_pids="$lib_pids $(ps -o pid= --ppid "$lib_p" 2>/dev/null)"
	done
	T kill-server 2>/dev/null
	for lib_p in $lib_pids; do
		lib_i=0
		while kill -0 "$lib_p" 2>/dev/null && [ $lib_i -lt 25 ]; do
			sleep 0.2
			lib_i=$((lib_i + 1))
		done
		kill -9 "$lib_p" 2>/dev/null
	done
	[ -n "$on_exit" ] && "$on_exit"
	rm -rf "$WORK"
}
trap lib_exit EXIT
trap 'exit 1' INT TERM

ok() {
	count=$((count + 1))
	echo "ok $count - $*"
}
notok() {
	count=$((count + 1))
	echo "not ok $count - $*"
	T capture-pane -p -t t 2>/dev/null | sed 's/^/#   /' |
		grep -v '^#   *$' | tail -12
	failed=1
}
check() { # check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
skip() {
	echo "skip - $*"
	exit 77
}
not() { ! "$@"; }

cap() { T capture-pane -p -t t; }
keys() { T send-keys -t t "$@"; }
# wait_for PATTERN [SECONDS]: until the screen matches (grep -E)
wait_for() {
	i=0
	while [ $i -lt $((${2:-10} * 5)) ]; do
		cap | grep -Eq -- "$1" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}
# gone PATTERN [SECONDS]: until the screen no longer matches
gone() {
	i=0
	while [ $i -lt $((${2:-5} * 5)) ]; do
		cap | grep -Eq -- "$1" || return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# running_job NAME: a job of alice's in partition high (the top tier, not
# preempted by the other tests' jobs) named NAME, 30 minutes, until it
# runs; sets J and N (its node); skips when it does not start
running_job() {
	J=$(cd /tmp && runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable \
		-p high -t 30 -J "$1" -o /dev/null --wrap 'sleep 300')
	i=0
	until S squeue -h -j "$J" -o %T | grep -q RUNNING || [ $i -gt 60 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	N=$(S squeue -h -j "$J" -o %N)
	case $N in
	n[0-9]*) ;;
	*) skip "job $J did not start (the testbed is full): no node to use" ;;
	esac
}
need_tmux() {
	command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
}
need_binary() {
	[ -x "$SQUALL" ] || {
		echo "not ok - no binary at $SQUALL (make first)"
		exit 1
	}
}
need_testbed() {
	TB=$TB "$ROOT/tests/testbed/status" >/dev/null 2>&1 ||
		skip "the testbed is not running (tests/testbed/start)"
}
