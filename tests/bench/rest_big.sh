#!/bin/sh
# rest_big.sh - make bench, part 15 (opt-in: BENCH_PARTS="15"): REST at a
# big site's size (issue 44 item 4). A controller holding BENCH_BIG_JOBS
# (100,000) jobs on Slurm 26.05, and squall's REST full fetch of GET
# /slurm/v0.0.45/jobs (bench_refresh -F: a new backend a run, no
# update_time) against curl of the same URL: time (median of
# BENCH_BIG_RUNS, 3, pairs, each side first in turn), the peak RSS of each
# side, the rows squall kept, the answer's bytes. Run in the 26.05 chroot
# by tests/bench/run, holding the 26.05 testbed's lock (alone:
# flock /tmp/squall-tb-26.05.lock tests/testbed/run-release 26.05 sh
# tests/bench/rest_big.sh).
# The jobs are not the testbed's: its slurmctld keeps MaxJobCount=50000 and
# writes every job to its slurmdbd, whose history the tests read (100,000
# cancelled jobs there would stay). Here a second slurmctld of the chroot's
# Slurm (tests/bench/cloud_tb.sh: 1,000 powered-down cloud nodes, no
# accounting, MaxJobCount and MaxArraySize raised, the testbed's JWT key)
# and a second slurmctld-bound slurmrestd (JWT, one malloc arena, as the
# testbed's) on their own ports; the testbed's root token works on them.
# The jobs: arrays of 20,000 pending tasks (--begin two hours ahead: no
# node is asked for), each split into single job records by an update of
# all but one task (what part 1 does; 26.05's squeue shows a split pending
# array on one line again, slurmrestd answers a record a task). At the
# end (or on any exit) the controller and its slurmrestd are stopped by
# their PIDs and their directory removed, with the jobs in it; the
# testbed is not touched. Prints lines and summary rows ("summary-row:
# measure|goal|value|verdict"); the time each step took.
# Env: BENCH_BIG_JOBS (100000, a multiple of 20,000 or less than it),
# BENCH_BIG_RUNS (3), BENCH_BIG_CTLD_PORT (7217), BENCH_BIG_REST_PORT (7220),
# SQUALL's tree (the drivers are built from it into the run's directory).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
N=${BENCH_BIG_JOBS:-100000}
RUNS=${BENCH_BIG_RUNS:-3}
CPORT=${BENCH_BIG_CTLD_PORT:-7217}
RPORT=${BENCH_BIG_REST_PORT:-7220}
TB=${TB:-/tmp/slurmtb}
ARR=20000
[ "$N" -lt $ARR ] && ARR=$N
NAME=squall-big-$$

say() { printf '%s\n' "$*"; }
row() { printf 'summary-row: %s|%s|%s|%s\n' "$1" "$2" "$3" "$4"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%s\", ($1) }" </dev/null; }
since() { calc "$(now) - $1" | cut -d. -f1; }
verdict() { calc "($1 <= $2) ? \"PASS\" : \"MISS\""; }

work=$(mktemp -d /tmp/squall-restbig.XXXXXX) || exit 1
chmod 755 "$work"
ctld=$work/ctld
rest_pid=
cleanup() {
	if [ -n "$rest_pid" ] && [ -d "/proc/$rest_pid" ]; then
		kill "$rest_pid" 2>/dev/null
		i=0
		while [ -d "/proc/$rest_pid" ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ -d "/proc/$rest_pid" ] && kill -9 "$rest_pid" 2>/dev/null
	fi
	# the jobs go with the controller: its state is in $ctld
	CLOUD_DIR=$ctld sh "$here/cloud_tb.sh" stop
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

t_all=$(now)
rel=$(sinfo -V | awk '{ print $2 }')
say "15. REST at a big site's size: $N jobs held by a slurmctld of Slurm $rel, squall's full fetch against curl"
[ "$(id -u)" = 0 ] || {
	say "   not root: skipped"
	exit 0
}
tok=$TB/jwt/root.token
[ -s "$tok" ] && [ -s /etc/slurm/jwt_hs256.key ] || {
	say "   no testbed token or JWT key (tests/testbed/start): skipped"
	exit 0
}

# ------------------------------------------------------------ setup
t0=$(now)
(cd "$root" && make -s -f Makefile -f tests/bench/bench.mk \
	BENCH_OUT="$work/bin" "$work/bin/bench_refresh") >"$work/build.log" 2>&1 || {
	sed 's/^/   /' "$work/build.log"
	say "   bench_refresh did not build: not measured"
	exit 1
}
if ! CLOUD_DIR=$ctld CLOUD_PORT=$CPORT CLOUD_NODES=1000 \
	CLOUD_MAX_JOBS=$((N + 10000)) CLOUD_MAX_ARRAY=$((ARR + 1)) \
	CLOUD_JWT_KEY=/etc/slurm/jwt_hs256.key \
	sh "$here/cloud_tb.sh" start >/dev/null 2>"$work/ctld.err"; then
	say "   the controller did not start:"
	tail -3 "$work/ctld.err" | sed "s/^/      /"
	exit 1
fi
export SLURM_CONF=$ctld/slurm.conf
# without the descriptors this script inherited (flock's lock among them:
# a daemon holding it would keep the testbed locked)
MALLOC_ARENA_MAX=1 SLURM_JWT=daemon /usr/sbin/slurmrestd -u slurmrest \
	-g slurmrest -a rest_auth/jwt -s openapi/slurmctld "127.0.0.1:$RPORT" \
	</dev/null >"$work/rest.log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
rest_pid=$!
url=http://127.0.0.1:$RPORT
hdr=$work/rest.hdr
(umask 077 && printf 'X-SLURM-USER-NAME: root\nX-SLURM-USER-TOKEN: %s\n' \
	"$(cat "$tok")" >"$hdr")
i=0
until curl -sf -o /dev/null -H "@$hdr" "$url/slurm/v0.0.45/ping"; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! [ -d "/proc/$rest_pid" ]; then
		say "   slurmrestd did not answer: $(tail -1 "$work/rest.log")"
		exit 1
	fi
	sleep 0.2
done
say "   a second slurmctld (port $CPORT, 1,000 cloud nodes, MaxJobCount $((N + 10000))) and slurmrestd ($url): $(since "$t0") s"

# the path squall asks for (its version and query), from a fetch of the
# empty queue
eval "$("$work/bin/bench_refresh" -b rest -u "$url" -T "$tok" -F -n 1)" || {
	say "   squall's REST fetch failed"
	exit 1
}
path=${source#GET }
path=${path%% *}
# slurmrestd builds an answer's whole tree before it sends a byte: ~150 KB
# a job at its peak (2.9 GB at 20,000 jobs on 26.05), ~15 GB at 100,000
need_kb=$((N * 160 + 2097152))
avail_kb=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
if [ "$avail_kb" -lt "$need_kb" ]; then
	say "   $((avail_kb / 1048576)) GB available, slurmrestd needs ~$((need_kb / 1048576)) GB for $N jobs: not measured (BENCH_BIG_JOBS=N for fewer)"
	exit 0
fi

# ------------------------------------------------------------ the jobs
t0=$(now)
done_jobs=0
while [ $done_jobs -lt "$N" ]; do
	id=$(cd / && sbatch --parsable -p batch -c 1 -t 10 --begin=now+7200 \
		--array=1-$ARR -J "$NAME" -o /dev/null --wrap 'sleep 1' 2>"$work/sbatch.err") || {
		say "   sbatch: $(head -1 "$work/sbatch.err")"
		exit 1
	}
	id=${id%%;*}
	# all but the last task: each its own record (the last keeps the
	# array's)
	scontrol update jobid="${id}_[1-$((ARR - 1))]" Nice=5 >"$work/split.err" 2>&1 || {
		say "   cannot split array $id: $(head -1 "$work/split.err")"
		exit 1
	}
	done_jobs=$((done_jobs + ARR))
done
say "   $done_jobs jobs: $((N / ARR)) arrays of $ARR pending tasks (--begin two hours ahead), split: $(since "$t0") s"

# ------------------------------------------------------------ fetches
# an untimed curl first (bench_refresh's warm-up: a fresh slurmrestd
# answers its first ones more slowly), then the pairs; curl appends the
# answer's size to a file each run
t0=$(now)
rest_hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$rest_pid/status" 2>/dev/null; }
if ! "$work/bin/bench_refresh" -b rest -u "$url" -T "$tok" -t 3600 -F -n "$RUNS" -- \
	curl -sf -o /dev/null -w "%output{>>$work/bytes}%{size_download}\n" \
	-H "@$hdr" "$url$path" >"$work/fetch.out"; then
	say "   the timed fetches failed: $(tail -1 "$work/fetch.out")"
	exit 1
fi
eval "$(cat "$work/fetch.out")"
bytes=$(tail -1 "$work/bytes")
say "   GET $path: $rows jobs, $(calc "$bytes / 1e6" | cut -d. -f1) MB ($(calc "$bytes / $rows" | cut -d. -f1) bytes a job)"
r=$pair_ratio
v=$(verdict "$r" 1.1)
printf '   %-34s squall %9.1f   curl %9.1f   ratio %.2f  (<= 1.1) %s\n' \
	"rest full fetch, $rows jobs ($rel)" "$refresh_ms" "$bare_ms" "$r" "$v"
row "Slurm $rel: full fetch rest/curl, $rows jobs (ratio)" "<= 1.1" "$r" "$v"
say "      (the median of the runs' squall/bare ratios over $RUNS pairs; each run, squall/curl ms, s or b: who went first: $pairs)"
printf '      (the fastest: squall %.1f, curl %.1f; CPU: squall %.0f ms, curl %.0f ms; the rest is slurmrestd'"'"'s)\n' \
	"$refresh_min" "$bare_min" "$cpu_ms" "$bare_cpu_ms"
# memory follows the rows kept, not the bytes read: the driver's peak
# over its RSS before the first fetch (libraries, backend), a job kept,
# against the answer's bytes a job
per=$(calc "($peak_kb - $base_kb) * 1024 / $rows" | cut -d. -f1)
v=$(verdict "$per" 1024)
printf '   %-34s squall %6.0f MB (+%s bytes a job kept over its %.0f MB before; the answer: %s a job)  (<= 1024) %s\n' \
	"peak RSS, $rows jobs ($rel)" "$(calc "$peak_kb / 1024")" "$per" \
	"$(calc "$base_kb / 1024")" "$(calc "$bytes / $rows" | cut -d. -f1)" "$v"
row "Slurm $rel: REST full fetch peak RSS a job kept, $rows jobs (bytes)" "<= 1024" "$per" "$v"
printf '      (the rows kept: %s bytes a job; curl peaked at %.0f MB; slurmrestd at %.0f MB)\n' \
	"$(calc "$snapshot_bytes / $rows" | cut -d. -f1)" "$(calc "$bare_peak_kb / 1024")" \
	"$(calc "$(rest_hwm) / 1024")"
say "   fetches: $(since "$t0") s"
say "   part 15 in all: $(since "$t_all") s"
