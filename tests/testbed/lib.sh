# shellcheck shell=bash disable=SC2034
# lib.sh - helpers shared by the testbed scripts (start, stop, status, jobs).
# Sourced, never executed. Defines the layout under $TB and small helpers for
# timing, polling and checking daemons by PID. It must not start or stop
# anything by itself.

TB=${TB:-/tmp/slurmtb}
SSH_PORT=${SSH_PORT:-2222}
REST_PORT=${REST_PORT:-6820}
MYSQL_PORT=${MYSQL_PORT:-3306}
CTLD_PORT=${CTLD_PORT:-6817}
SLURMD_PORT=${SLURMD_PORT:-6818}
DBD_PORT=${DBD_PORT:-6819}
# node nX listens on NODE_PORT0 + X
NODE_PORT0=${NODE_PORT0:-17000}
CLUSTER=testbed
# the Debian packages the testbed runs on (start --install; the newer
# releases' chroots get them when they are built)
TESTBED_PKGS="slurmctld slurmd slurm-client slurmdbd slurmrestd
slurm-wlm-jwt-plugin munge mariadb-server openssh-server openssh-client curl
jq bc gcc libc6-dev"
# the four emulated compute nodes, one slurmd each
NODES="n1 n2 n3 n4"
# daemons in start order; stop walks this list backwards.  Each name has a
# PID file $TB/pids/<name>.pid; slurmctld-backup runs on 22.05 only (status
# skips it where it has no PID file).
DAEMONS="munged mariadbd slurmdbd slurmctld slurmctld-backup slurmd-n1
slurmd-n2 slurmd-n3 slurmd-n4 slurmrestd slurmrestd-local-alice sshd"

# pid_alive PID: the process exists and is not a zombie.  PID 1 on these
# machines reaps orphaned daemons late, so kill -0 keeps succeeding for a
# couple of seconds after a daemon has exited; /proc/PID/stat tells the truth.
pid_alive() {
	local st
	[ -n "${1:-}" ] || return 1
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# pidfile_alive FILE: FILE holds the PID of a live process
pidfile_alive() {
	[ -s "$1" ] && pid_alive "$(head -n 1 "$1")"
}

# pidfile_ours FILE COMM: FILE holds the PID of a live COMM whose root
# directory is ours.  A PID file left by an earlier boot names a PID that
# anything may hold now, a daemon of another release's chroot above all
# (they start in the same order every run): start must not take such a
# process for its own daemon and leave the daemon unstarted.
pidfile_ours() {
	local pid
	[ -s "$1" ] || return 1
	pid=$(head -n 1 "$1")
	pid_alive "$pid" && [ "/proc/$pid/root" -ef / ] &&
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

# now_us: wall clock in microseconds (bash 5 $EPOCHREALTIME, no bc needed)
now_us() {
	local t=$EPOCHREALTIME
	echo "${t/[.,]/}"
}

# step MESSAGE: print MESSAGE with the seconds elapsed since T0_US
T0_US=$(now_us)
step() {
	local d=$(($(now_us) - T0_US))
	printf '[%3d.%02ds] %s\n' $((d / 1000000)) $((d % 1000000 / 10000)) "$*"
}

# wait_for SECONDS CMD...: run CMD every 0.2 s until it succeeds; on timeout
# print what was waited for and fail
wait_for() {
	local t=$1 i
	shift
	for ((i = 0; i < t * 5; i++)); do
		if "$@" >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.2
	done
	echo "timeout after ${t}s waiting for: $*" >&2
	return 1
}

# in_root CMD...: run CMD (release.sh redefines it for a release's chroot)
in_root() { "$@"; }

# ctld_up: the primary slurmctld answers (22.05 has a backup too)
ctld_up() {
	in_root scontrol ping 2>/dev/null | grep -q '(primary) at .* is UP'
}

# gpu_wrap KIND GPUS SECONDS [DROP_AFTER]: the batch script (sbatch --wrap)
# of a job holding GPUS fake GPUs (fake_rsmi.c, 24.11+) whose use Slurm
# measures: one process, marked on its own exec (the batch shell is not, or
# the use would count twice), "uses" per GPU it holds:
#   busy  80 % and 4 GiB (reported: 80*GPUS %, GPUS*4 GiB: rocm-smi sums a
#         process's use over its devices)
#   idle  0 % and 1 GiB (memory held, nothing computed)
#   drop  70 % and 2 GiB, then after DROP_AFTER seconds (default SECONDS/2)
#         0 % and the same memory: a file it rewrites (SQ_FAKE_GPU_FILE)
# The job lasts SECONDS.
gpu_wrap() {
	local g=$2 s=$3 at=${4:-$(($3 / 2))} gib=1073741824
	case $1 in
	busy) echo "env SQ_FAKE_GPU_USE=$((80 * g)):$((4 * g * gib)) sleep $s" ;;
	idle) echo "env SQ_FAKE_GPU_USE=0:$((g * gib)) sleep $s" ;;
	drop)
		# shellcheck disable=SC2016 # expanded by the job's shell
		printf '%s' 'f=/tmp/sq-gpu-drop.$SLURM_JOB_ID; ' \
			'trap '\''rm -f $f $f.new'\'' EXIT; trap '\''exit 143'\'' TERM INT; ' \
			"echo '$((70 * g)) $((2 * g * gib))' >\$f; " \
			"env SQ_FAKE_GPU_FILE=\$f sleep $s & sleep $at; " \
			"echo '0 $((2 * g * gib))' >\$f.new && mv -f \$f.new \$f; wait"
		echo
		;;
	*) return 1 ;;
	esac
}
