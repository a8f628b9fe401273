#!/bin/sh
# test_rest_views.sh - the views slurmrestd has no endpoint for, built by
# the same core joins as local: through rest (v0.0.38 on the testbed)
# `--once` must print the rows the local backend prints for gpus (all
# four scopes), limits (but the association ids, absent from v0.0.38),
# priority (job ids, partitions and order; sprio factors empty) and
# events (accounting rows, with the preemptor inferred where local reads
# it from the controller log). This test makes its own GPU job, pending
# jobs and a preemption (as test_admin.sh does) and cancels only those.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
REST=http://127.0.0.1:${REST_PORT:-6820}
TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
# sub, state, wait_until, is_state and the preemption (preempt_make)
. "$here/preempt.sh"
trap preempt_cleanup EXIT INT TERM
: >"$tmp/mine"

code=$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")
if [ "$code" = 000 ] || [ ! -r "$TOKEN" ]; then
	echo "skip - slurmrestd does not answer on $REST or $TOKEN is missing"
	exit 77
fi
rest() { "$SQUALL" -b rest -u "$REST" --token-file "$TOKEN" "$@"; }
loc() { "$SQUALL" -b local "$@"; }

# same VIEW COLS [FILTER]: local and rest print the same rows of COLS
# (sorted; FILTER an awk program over them); retried while the cluster
# moves between the reads
same() {
	_v=$1 _c=$2 _f=${3:-1}
	for _try in 1 2 3 4 5 6; do
		# a read that fails (a busy slurmdbd in a full CI run) is
		# tried again; the last one's words are printed below
		if ! loc --once --view "$_v" --format tsv >"$tmp/l1.tsv" 2>"$tmp/l.err" ||
			! rest --once --view "$_v" --format tsv >"$tmp/r.tsv" 2>"$tmp/r.err" ||
			! loc --once --view "$_v" --format tsv >"$tmp/l2.tsv" 2>"$tmp/l.err"; then
			_failed=1
			sleep 2
			continue
		fi
		_failed=0
		for f in l1 l2 r; do
			tsv_cols "$tmp/$f.tsv" "$_c" | awk -F'|' "$_f" | sort >"$tmp/$f"
		done
		cmp -s "$tmp/l1" "$tmp/l2" || { sleep 1; continue; }
		cmp -s "$tmp/l1" "$tmp/r" && return 0
		sleep 1
	done
	if [ "$_failed" = 1 ]; then
		echo "# $_v: a read failed six times:"
		cat "$tmp/l.err" "$tmp/r.err" | head -5 | sed 's/^/#   /'
		return 1
	fi
	diff "$tmp/l1" "$tmp/r" | head -10
	cat "$tmp/r.err"
	return 1
}

# --- our jobs: one on a GPU, one held, one pending behind a dependency
gpu=$(sub bob -p gpu --gres=gpu:1 -t 5 -J rv-gpu --wrap 'sleep 300')
check "own GPU job $gpu submitted" test -n "$gpu"
sub alice -p low -t 5 -H -J rv-held --wrap 'sleep 300' >/dev/null
# chemistry may be at its GrpTRES gres/gpu=6 with other people's jobs
gpu_runs=
if wait_until 30 is_state "$gpu" RUNNING; then
	ok "GPU job $gpu runs"
	gpu_runs=1
else
	echo "# GPU job $gpu did not start ($(slurm squeue -h -j "$gpu" -o %r)): comparing the GPUs in use"
fi

# --- gpus: every scope, every column but the utilisation note
check "gpus: rest agrees with local" same gpus node,gres,type,total,alloc,idle,partitions
check "gpus-partitions: rest agrees with local" same gpus-partitions partition,gres,type,total,alloc,idle,jobs
check "gpus-users: rest agrees with local" same gpus-users user,account,gres,type,alloc,jobs
[ -z "$gpu_runs" ] ||
	check "gpus-users: bob holds a GPU" grep -q '^bob|chemistry|gpu|' "$tmp/r"
check "gpus-accounts: rest agrees with local" same gpus-accounts account,gres,type,alloc,jobs

# --- limits: every limit and its use (v0.0.38 has no association ids).
# QOS per-user and per-account rows apart: assoc_mgr keeps one for every
# user who has had a job in the QOS since slurmctld started, rest has one
# for each user with a job in it now; those must be local's, same values.
limcols=scope,cluster,qos,account,user,partition,parent,limit,tres,value,used,at_limit
check "limits: rest agrees with local (but the ids)" \
	same limits "$limcols" '!($1 == "qos" && ($4 != "" || $5 != ""))'
qos_subset() {
	tsv_cols "$tmp/r.tsv" "$limcols" | grep '^qos' | sort >"$tmp/rq"
	tsv_cols "$tmp/l1.tsv" "$limcols" | grep '^qos' | sort >"$tmp/lq"
	[ -z "$(comm -23 "$tmp/rq" "$tmp/lq")" ] && return 0
	echo "# rest's QOS rows that local has not:"
	comm -23 "$tmp/rq" "$tmp/lq" | head -10 | sed 's/^/#   /'
	echo "# local's QOS rows:"
	sed 's/^/#   /' "$tmp/lq" | head -20
	return 1
}
check "limits: rest's QOS per-user and per-account rows are local's" qos_subset
check "limits: chemistry's GrpTRES gres/gpu=6 is listed" \
	grep -q '^assoc|testbed||chemistry|||root|GrpTRES|gres/gpu|6|' "$tmp/r"

# --- priority: the same pending jobs in the same partitions; the order
# of the jobs pending in one partition only (v0.0.38 has one priority
# per job, sprio one per partition)
check "priority: job ids and partitions agree" same priority job_id,partition
tsv_cols "$tmp/l1.tsv" job_id | sort | uniq -d >"$tmp/multi"
echo none >>"$tmp/multi"
# pairs sprio orders clearly (more than 100 apart: sprio recomputes the
# age factor, the queue's priority waits for PriorityCalcPeriod) keep
# their order through rest; the number of pairs goes to $tmp/pairs
prio_order() {
	loc --once --view priority --format tsv >"$tmp/lp.tsv" 2>/dev/null
	rest --once --view priority --format tsv >"$tmp/rp.tsv" 2>"$tmp/rp.err"
	tsv_cols "$tmp/lp.tsv" job_id,priority >"$tmp/lp"
	tsv_cols "$tmp/rp.tsv" job_id,priority >"$tmp/rp"
	awk -F'|' -v out="$tmp/pairs" '
		FILENAME == ARGV[1] { m[$1] = 1; next }
		FILENAME == ARGV[2] { if (!($1 in m)) l[$1] = $2; next }
		{ if (!($1 in m)) r[$1] = $2 }
		END {
			for (a in l) for (b in l)
				if ((a in r) && (b in r) && l[a] - l[b] > 100) {
					n++
					if (r[a] + 0 <= r[b] + 0) bad++
				}
			print n + 0 >out
			exit bad > 0
		}' "$tmp/multi" "$tmp/lp" "$tmp/rp"
}
check "priority: pairs sprio orders keep their order through rest" \
	wait_until 10 prio_order
echo "# priority: $(cat "$tmp/pairs") ordered pairs compared"
tsv_cols "$tmp/rp.tsv" prio_age,prio_fairshare,prio_qos,prio_tres >"$tmp/pf"
check "priority: sprio factor columns empty through rest" \
	test -z "$(tr -d '|\n' <"$tmp/pf")"
check "priority: the note says why" grep -q 'note: .*no sprio factors' "$tmp/rp.err"

# --- events: a preemption of ours (alice in low, alone on a node, then
# opsadmin in high on all its CPUs), else the accounting rows there are
if preempt_make; then
	sleep 3 # the end of the run reaches slurmdbd
else
	echo "# no node free of other users' jobs: comparing the events there are"
fi
# the accounting rows (local's source sacct or sacct+log; rest's sacct
# or sacct+inferred): rest's inferred preemptor is the logged one (local
# names its user and partition only while it is in the queue; rest from
# accounting)
# The preemptor is compared on our own preemption only: on a busy
# cluster slurmctld may preempt for a job that then starts elsewhere
# while another starts on the victim's node (the one rest names).
evcols=time,victim_job,victim_id,victim_user,victim_account,victim_partition,victim_qos,mode,state,restarts,nodelist,run_start
acct='$NF ~ /^sacct/ { NF--; print }'
check "events: rest agrees with local on the accounting rows" \
	same events "$evcols,source" "BEGIN { OFS = \"|\" } $acct"
check "events: there is at least one preemption" \
	grep -q '|PREEMPTED|' "$tmp/r"
if [ -n "$victim" ]; then
	tsv_cols "$tmp/r.tsv" victim_job,preemptor_job,mode,victim_user,preemptor_user,victim_partition,preemptor_partition,source >"$tmp/ev"
	tsv_cols "$tmp/l1.tsv" victim_job,preemptor_job >"$tmp/lev"
	check "events: $victim preempted by $pre, inferred" \
		grep -q "^$victim|$pre|REQUEUE|alice|opsadmin|low|high|sacct+inferred\$" "$tmp/ev"
	check "events: local (the controller log) names the same preemptor" \
		grep -q "^$victim|$pre\$" "$tmp/lev"
fi
check "events: the note says the preemptor is inferred" \
	grep -q 'note: .*inferred' "$tmp/r.err"
finish
