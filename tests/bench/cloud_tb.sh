#!/bin/sh
# cloud_tb.sh - make bench's big-site controller (issue 44): a second
# slurmctld of the host's Slurm, beside the testbed and apart from it
# (its own slurm.conf, state, port and cluster name; the testbed's munged),
# declaring 5,000 cloud nodes across 32 partitions and the testbed's four
# real node shapes. Cloud nodes (State=CLOUD, power saving whose suspend
# and resume programs do nothing) need no slurmd: sinfo and scontrol show
# them idle~ (powered down), with the output sizes and RPC costs of a real
# 5,000-node cluster. A few hundred are drained or down with reasons, as
# on a real one. n1..n4 are the testbed's node shapes on ports nothing
# listens on (this controller must not talk to the testbed's slurmds):
# they go down (not responding) after SlurmdTimeout.
#   cloud_tb.sh start   writes $CLOUD_DIR (default /tmp/sqbench-cloud),
#                       starts slurmctld, waits until it answers, prints
#                       SLURM_CONF=$CLOUD_DIR/slurm.conf
#   cloud_tb.sh stop    stops that slurmctld by its recorded PID, removes
#                       $CLOUD_DIR
# Env: CLOUD_DIR, CLOUD_PORT (slurmctld's port, 7117: the testbed and its
# chroots use 6817, 6917 and 7017), CLOUD_NODES (5000, a multiple of 200,
# at least 1000: the partition long),
# CLOUD_MAX_JOBS (MaxJobCount, Slurm's default 10,000 when unset),
# CLOUD_MAX_ARRAY (MaxArraySize, Slurm's 1001 when unset), CLOUD_JWT_KEY
# (a JWT key file: auth/jwt too, for a slurmrestd in front of it; part 15
# runs it so in the 26.05 chroot with the testbed's key, whose tokens then
# work here).
# Must run as root (slurmctld runs as the slurm user); clients reach it
# with SLURM_CONF=$CLOUD_DIR/slurm.conf (squall's local backend keeps it).
set -eu
DIR=${CLOUD_DIR:-/tmp/sqbench-cloud}
PORT=${CLOUD_PORT:-7117}
N=${CLOUD_NODES:-5000}
CTLD=/usr/sbin/slurmctld
CONF=$DIR/slurm.conf

say() { printf '%s\n' "$*"; }
die() {
	say "cloud_tb: $*" >&2
	exit 1
}

stop() {
	if [ -s "$DIR/ctld.pid" ]; then
		pid=$(cat "$DIR/ctld.pid")
		# only our own: the PID still runs slurmctld with our conf
		if { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -q -- "-f $CONF"; then
			kill "$pid" 2>/dev/null || true
			i=0
			while [ -d "/proc/$pid" ] && [ $i -lt 100 ]; do
				sleep 0.1
				i=$((i + 1))
			done
			[ -d "/proc/$pid" ] && kill -9 "$pid" 2>/dev/null
		fi
	fi
	# our directory only: it holds our slurm.conf
	case $DIR in /tmp/?*) [ -f "$CONF" ] || [ -d "$DIR/state" ] && rm -rf "$DIR" ;; esac
	return 0
}

# the node and partition lines: N nodes in groups of 200; the last 200 are
# GPU nodes (a100 and h100, count-only: no slurmd reads a gres.conf here)
conf_nodes() {
	cpu=$((N - 200))
	g=$((cpu / 200))
	say "NodeName=cn[00001-$(printf %05d $cpu)] State=CLOUD Sockets=2 CoresPerSocket=32 RealMemory=256000 Features=cpu,icelake Weight=10"
	say "NodeName=cn[$(printf %05d $((cpu + 1)))-$(printf %05d $((cpu + 100)))] State=CLOUD Sockets=2 CoresPerSocket=32 Gres=gpu:a100:4 RealMemory=512000 Features=gpu,a100 Weight=50"
	say "NodeName=cn[$(printf %05d $((cpu + 101)))-$(printf %05d "$N")] State=CLOUD Sockets=2 CoresPerSocket=48 Gres=gpu:h100:8 RealMemory=1024000 Features=gpu,h100 Weight=100"
	say "# the testbed's four nodes, on ports nothing listens on"
	say "NodeName=n1 NodeHostname=vm NodeAddr=127.0.0.1 Port=7121 CPUs=4 RealMemory=8000 State=UNKNOWN"
	say "NodeName=n2 NodeHostname=vm NodeAddr=127.0.0.1 Port=7122 CPUs=4 RealMemory=8000 State=UNKNOWN"
	say "NodeName=n3 NodeHostname=vm NodeAddr=127.0.0.1 Port=7123 CPUs=8 RealMemory=16000 Gres=gpu:a100:4 State=UNKNOWN"
	say "NodeName=n4 NodeHostname=vm NodeAddr=127.0.0.1 Port=7124 CPUs=8 RealMemory=16000 Gres=gpu:t4:4 State=UNKNOWN"
	say "PartitionName=DEFAULT DefaultTime=01:00:00 MaxTime=2-00:00:00 State=UP"
	say "PartitionName=low  Nodes=n[1-4] Default=YES PriorityTier=1 PriorityJobFactor=1"
	say "PartitionName=high Nodes=n[1-4] MaxTime=04:00:00 PriorityTier=10 PriorityJobFactor=1000"
	say "PartitionName=gpu  Nodes=n[3-4] PriorityTier=1 PriorityJobFactor=500"
	# one partition a group of 200 (a rack), then the site-wide ones
	i=1
	while [ $i -le "$g" ]; do
		say "PartitionName=rack$(printf %02d $i) Nodes=cn[$(printf %05d $(((i - 1) * 200 + 1)))-$(printf %05d $((i * 200)))]"
		i=$((i + 1))
	done
	say "PartitionName=a100 Nodes=cn[$(printf %05d $((cpu + 1)))-$(printf %05d $((cpu + 100)))] PriorityJobFactor=500"
	say "PartitionName=h100 Nodes=cn[$(printf %05d $((cpu + 101)))-$(printf %05d "$N")] PriorityJobFactor=500"
	say "PartitionName=batch Nodes=cn[00001-$(printf %05d $cpu)] MaxTime=7-00:00:00"
	say "PartitionName=debug Nodes=cn[00001-00200] MaxTime=00:30:00 PriorityTier=5"
	say "PartitionName=long Nodes=cn[00201-01000] MaxTime=14-00:00:00"
	say "PartitionName=all Nodes=ALL Hidden=YES"
}

# drain FIRST LAST STATE REASON: cloud nodes cnFIRST..cnLAST
drain() {
	SLURM_CONF=$CONF scontrol update \
		nodename="cn[$(printf %05d "$1")-$(printf %05d "$2")]" \
		state="$3" reason="$4" >/dev/null || {
		stop
		die "scontrol update $3 failed"
	}
}

start() {
	[ "$(id -u)" = 0 ] || die "must run as root"
	[ -x $CTLD ] || die "no $CTLD"
	if [ $((N % 200)) != 0 ] || [ "$N" -lt 1000 ]; then
		die "CLOUD_NODES must be a multiple of 200, >= 1000"
	fi
	stop
	# another controller on our port (a run killed before its cleanup)
	# would answer our pings
	if ss -Hltn "sport = :$PORT" 2>/dev/null | grep -q .; then
		die "port $PORT is taken (a slurmctld left behind? CLOUD_PORT=N for another)"
	fi
	mkdir -p "$DIR/state" "$DIR/log"
	chown -R slurm: "$DIR"
	{
		say "# make bench's 5,000-node controller (tests/bench/cloud_tb.sh)"
		say "ClusterName=bigcloud"
		say "SlurmctldHost=$(hostname)(127.0.0.1)"
		say "SlurmctldPort=$PORT"
		say "SlurmdPort=$((PORT + 1))"
		say "SlurmUser=slurm"
		say "AuthType=auth/munge"
		say "CredType=cred/munge"
		say "CommunicationParameters=NoCtldInAddrAny,NoInAddrAny"
		say "StateSaveLocation=$DIR/state"
		say "SlurmdSpoolDir=$DIR/state/slurmd"
		say "SlurmctldPidFile=$DIR/slurmctld.pid"
		say "SlurmctldLogFile=$DIR/log/slurmctld.log"
		say "SlurmctldDebug=info"
		say "MailProg=/bin/true"
		say "ProctrackType=proctrack/linuxproc"
		say "TaskPlugin=task/none"
		say "MpiDefault=none"
		say "SwitchType=switch/none"
		say "ReturnToService=2"
		say "SchedulerType=sched/backfill"
		say "SelectType=select/cons_tres"
		say "SelectTypeParameters=CR_Core_Memory"
		say "AccountingStorageType=accounting_storage/none"
		say "JobCompType=jobcomp/none"
		say "GresTypes=gpu"
		say "TreeWidth=65533"
		[ -z "${CLOUD_MAX_JOBS:-}" ] || say "MaxJobCount=$CLOUD_MAX_JOBS"
		[ -z "${CLOUD_MAX_ARRAY:-}" ] || say "MaxArraySize=$CLOUD_MAX_ARRAY"
		if [ -n "${CLOUD_JWT_KEY:-}" ]; then
			say "AuthAltTypes=auth/jwt"
			say "AuthAltParameters=jwt_key=$CLOUD_JWT_KEY"
		fi
		say "# powered-down cloud nodes are hidden from sinfo and scontrol without it"
		say "PrivateData=cloud"
		say "# power saving: cloud nodes stay powered down, nothing is run"
		say "SuspendProgram=/bin/true"
		say "ResumeProgram=/bin/true"
		say "SuspendTime=600"
		say "SuspendTimeout=30"
		say "ResumeTimeout=300"
		conf_nodes
	} >"$CONF"
	chmod 644 "$CONF"
	# -D in the background: its PID is ours; -c: no state from before;
	# from / (this directory goes away at stop)
	# (without inherited descriptors: part 15 runs this under flock, whose
	# lock a daemon must not keep)
	(cd / && exec $CTLD -D -c -f "$CONF" -L "$DIR/log/slurmctld.log") \
		>"$DIR/log/stdout" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
	echo $! >"$DIR/ctld.pid"
	i=0
	until SLURM_CONF=$CONF scontrol ping 2>/dev/null | grep -q UP; do
		i=$((i + 1))
		if [ $i -gt 150 ] || ! [ -d "/proc/$(cat "$DIR/ctld.pid")" ]; then
			tail -5 "$DIR/log/slurmctld.log" "$DIR/log/stdout" >&2 2>/dev/null
			stop
			die "slurmctld did not answer"
		fi
		sleep 0.2
	done
	# a real cluster's mix: some drained or down with a reason (by
	# scontrol update, in a few ranges of the CPU nodes and the last GPUs);
	# a failed update stops what was started
	drain 11 30 drain 'bad DIMM, ticket 4711'
	drain $((N / 4 + 1)) $((N / 4 + 60)) drain 'bad DIMM, ticket 4711'
	drain $((N / 2 + 1)) $((N / 2 + 40)) down 'rack PDU maintenance'
	drain $((N - 150)) $((N - 141)) drain 'GPU Xid 79'
	say "SLURM_CONF=$CONF"
}

case ${1:-} in
start) start ;;
stop) stop ;;
*)
	say "usage: cloud_tb.sh start|stop" >&2
	exit 2
	;;
esac
