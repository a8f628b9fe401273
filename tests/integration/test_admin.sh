#!/bin/sh
# test_admin.sh - the admin views on the live testbed, with situations this
# test creates from its own jobs (and cancels by id at the end): a
# preemption in partition high over a job of partition low must appear in
# `events` with victim, preemptor and mode REQUEUE; jobs held by
# AssocMaxJobsLimit (carol, MaxJobs=2) and AssocGrpGRES (chemistry,
# GrpTRES gres/gpu=6) must name that limit and association in the --job
# detail; GPU totals and allocations per node and type must equal
# `scontrol -d show node`; the fairshare tree must equal `sshare -a -l -P`
# after a priority recalculation; every admin view must print.
# Other people's jobs share the testbed: nothing here cancels or changes
# them, and comparisons retry when the cluster moves between two reads.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
. "$here/preempt.sh"
trap preempt_cleanup EXIT INT TERM

# --- a preemption (preempt.sh). When the shared testbed has no node free
# of other people's jobs for 90 s, the latest preemption the controller
# logged is checked instead (and said so).
events_has() { # VICTIM PREEMPTOR [RE]: a REQUEUE row for them (matching RE)
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		"$SQUALL" --once --view events --format tsv >"$tmp/ev.tsv" \
			2>"$tmp/ev.err"
		tsv_cols "$tmp/ev.tsv" victim_job,preemptor_job,mode,victim_user,preemptor_user,victim_partition,preemptor_partition,time,source,restarts >"$tmp/ev"
		grep "^$1|$2|REQUEUE|" "$tmp/ev" | grep -q "${3:-.}" && return 0
		sleep 2
	done
	cat "$tmp/ev.err"
	return 1
}
if preempt_make; then
	check "events: $victim preempted by $pre, mode REQUEUE" \
		events_has "$victim" "$pre" '|sacct+log|'
	row=$(grep "^$victim|$pre|" "$tmp/ev" | head -1)
	echo "# events row: $row"
	check "events: victim alice in low, preemptor opsadmin in high" \
		sh -c "printf '%s' '$row' | grep -q '^$victim|$pre|REQUEUE|alice|opsadmin|low|high|'"
	evt=$(printf '%s' "$row" | cut -d'|' -f8)
	check "events: the time is the preemption's ($evt, after $t0)" \
		sh -c "[ -n '$evt' ] && [ \$(date -d '$evt' +%s) -ge $((t0 - 1)) ]"
	check "events: seen by the controller log and accounting" \
		sh -c "printf '%s' '$row' | grep -q '|sacct+log|'"
	check "events: restart count 1" \
		sh -c "printf '%s' '$row' | grep -q '|1\$'"
	scancel "$victim" "$pre" 2>/dev/null
else
	log=$(slurm scontrol show config | sed -n 's/^SlurmctldLogFile *= *//p')
	last=$(grep -E 'preempted JobId=[0-9]+ has been requeued to reclaim resources for JobId=[0-9]+' "$log" |
		tail -1 | sed -E 's/.*JobId=([0-9]+) .*JobId=([0-9]+).*/\1 \2/')
	echo "# no node free of other users' jobs for 90 s: checking the latest logged preemption ($last)"
	if [ -n "$last" ]; then
		# shellcheck disable=SC2086
		set -- $last
		check "events: logged preemption of $1 by $2, mode REQUEUE" \
			events_has "$1" "$2"
	else
		notok "no node to preempt on and no preemption in $log"
	fi
fi

# --- every admin view prints, in every format, with its columns
for v in accounts users assocs qos fairshare events gpus gpus-partitions \
	gpus-users gpus-accounts limits reservations diag config; do
	ok_v=1
	for f in table tsv json; do
		"$SQUALL" --once --view "$v" --format "$f" >"$tmp/$v.$f" \
			2>"$tmp/$v.err" || ok_v=0
	done
	[ $ok_v -eq 1 ] || cat "$tmp/$v.err"
	check "view $v prints as table, tsv and json" test $ok_v -eq 1
done
check "accounts: chemistry has parent root" \
	grep -q "^chemistry	root	" "$tmp/accounts.tsv"
check "users: opsadmin is Administrator" \
	grep -q "^opsadmin	physics	Administrator	" "$tmp/users.tsv"
tsv_cols "$tmp/assocs.tsv" account,user,max_jobs,grp_tres >"$tmp/assoc_lim"
check "assocs: carol MaxJobs=2" grep -q "^chemistry|carol|2|" "$tmp/assoc_lim"
check "assocs: chemistry GrpTRES gres/gpu=6" \
	grep -q "^chemistry||.*|gres/gpu=6\$" "$tmp/assoc_lim"
tsv_cols "$tmp/qos.tsv" name,priority >"$tmp/qos_prio"
check "qos: high has priority 1000" grep -q "^high|1000\$" "$tmp/qos_prio"
tsv_cols "$tmp/config.tsv" key,value,topic >"$tmp/cfg"
check "config: PreemptMode REQUEUE, topic preempt" \
	grep -q "^PreemptMode|REQUEUE|preempt\$" "$tmp/cfg"
check "config: priority weights are tagged" \
	grep -q "^PriorityWeightFairShare|10000|priority\$" "$tmp/cfg"
check "diag: server thread count and RPCs by user" sh -c \
	"grep -q '^general	Server thread count	[0-9]' '$tmp/diag.tsv' &&
	 grep -q '^rpc_user	root	count=' '$tmp/diag.tsv'"
# util: a figure or why there is none, never a blank; before 23.02 every
# row says Slurm measures none (gpu use: test_gpu_use.sh)
tsv_col "$tmp/gpus.tsv" util >"$tmp/gutil"
case $(slurm sinfo -V | sed -n 's/^slurm[^ ]* \([0-9]*\.[0-9]*\).*/\1/p') in
22.05)
	check "gpus: utilisation says Slurm before 23.02 collects none" \
		sh -c "[ -s '$tmp/gutil' ] && ! grep -vq '23\.02' '$tmp/gutil'"
	;;
*)
	check "gpus: utilisation is a figure or says why on every row" \
		sh -c "[ -s '$tmp/gutil' ] && ! grep -q '^\$' '$tmp/gutil' &&
		 ! grep -q 'squall reads no' '$tmp/gutil'"
	;;
esac
check "json: gpus is an array of objects with node" \
	grep -q '"node":"n3"' "$tmp/gpus.json"

# --- GPUs: totals and allocations per node and type = scontrol -d
# "node|type|total|alloc" from scontrol -d show node (multi-line form)
scontrol_gpus() {
	slurm scontrol -d show node | awk '
	function add(list, what,   n, i, e, f) {
		n = split(list, e, ",")
		for (i = 1; i <= n; i++) {
			sub(/\(.*$/, "", e[i])
			f = split(e[i], p, ":")
			if (p[1] != "gpu" || f < 2) continue
			if (f == 2) { t = "(any)"; c = p[2] } else { t = p[2]; c = p[3] }
			if (what == "total") tot[node "|" t] += c
			else used[node "|" t] += c
		}
	}
	/^NodeName=/ { split($1, a, "="); node = a[2] }
	/^ *Gres=/ { v = $1; sub(/^ *Gres=/, "", v); if (v != "(null)") add(v, "total") }
	/^ *GresUsed=/ { v = $1; sub(/^ *GresUsed=/, "", v); add(v, "used") }
	END { for (k in tot) print k "|" tot[k] "|" (used[k] + 0) }' | sort
}
same=0
for _ in 1 2 3 4 5; do
	scontrol_gpus >"$tmp/g1"
	"$SQUALL" --once --view gpus --format tsv >"$tmp/gpus.tsv" || break
	scontrol_gpus >"$tmp/g2"
	cmp -s "$tmp/g1" "$tmp/g2" || continue
	tsv_cols "$tmp/gpus.tsv" node,type,total,alloc | sort >"$tmp/gmine"
	cmp -s "$tmp/g1" "$tmp/gmine" && same=1
	break
done
[ $same -eq 1 ] || diff "$tmp/g1" "$tmp/gmine"
check "gpus: per node and type equal scontrol -d ($(wc -l <"$tmp/g1") rows: $(tr '\n' ' ' <"$tmp/g1"))" \
	test $same -eq 1 -a -s "$tmp/g1"
# per user and type = the allocated TRES of the running jobs
squeue_gpus() {
	slurm squeue -h -a -t R,S,CG -O 'UserName:|,tres-alloc:' | awk -F'|' '
	{ n = split($2, e, ","); typed = 0; untyped = 0
	  for (i = 1; i <= n; i++) {
		if (e[i] ~ /^gres\/gpu:/) { split(e[i], kv, "="); t = kv[1]; sub(/^gres\/gpu:/, "", t); a[$1 "|" t] += kv[2]; typed += kv[2] }
		else if (e[i] ~ /^gres\/gpu=/) { split(e[i], kv, "="); untyped += kv[2] }
	  }
	  if (untyped > typed) a[$1 "|(any)"] += untyped - typed }
	END { for (k in a) print k "|" a[k] }' | sort
}
same=0
for _ in 1 2 3 4 5; do
	squeue_gpus >"$tmp/u1"
	"$SQUALL" --once --view gpus-users --format tsv >"$tmp/gu.tsv" || break
	squeue_gpus >"$tmp/u2"
	cmp -s "$tmp/u1" "$tmp/u2" || continue
	tsv_cols "$tmp/gu.tsv" user,type,alloc | awk -F'|' '
		{ a[$1 "|" $2] += $3 } END { for (k in a) print k "|" a[k] }' |
		sort >"$tmp/umine"
	cmp -s "$tmp/u1" "$tmp/umine" && same=1
	break
done
[ $same -eq 1 ] || diff "$tmp/u1" "$tmp/umine"
check "gpus-users: per user and type equal the jobs' allocated TRES" \
	test $same -eq 1

# --- why pending: AssocMaxJobsLimit (carol) and AssocGrpGRES (chemistry)
C1=$(sub carol -p low -c 1 -t 5 --nice=10000 -J sqa-carol1 --wrap 'sleep 300')
C2=$(sub carol -p low -c 1 -t 5 --nice=10000 -J sqa-carol2 --wrap 'sleep 300')
C3=$(sub carol -p low -c 1 -t 5 --nice=10000 -J sqa-carol3 --wrap 'sleep 300')
check "submitted carol's jobs ($C1 $C2 $C3)" \
	test -n "$C1" -a -n "$C2" -a -n "$C3"
held=""
max_jobs_held() {
	for j in $C3 $C2 $C1; do
		if is_reason "$j" AssocMaxJobsLimit; then
			held=$j
			return 0
		fi
	done
	return 1
}
if wait_until 60 max_jobs_held; then
	"$SQUALL" --once --view jobs --job "$held" >"$tmp/why_c" 2>&1
	sed -n '/why pending/,$p' "$tmp/why_c"
	check "why pending: $held names AssocMaxJobsLimit" \
		grep -q "reason: AssocMaxJobsLimit" "$tmp/why_c"
	check "why pending: $held names association chemistry/carol MaxJobs = 2" \
		grep -q "limit: association chemistry/carol MaxJobs = 2, in use 2.*(holds it)" "$tmp/why_c"
	"$SQUALL" --once --view jobs --job "$held" --format json >"$tmp/why_c.json"
	check "why pending (json): limits[0] is MaxJobs of chemistry/carol" \
		grep -q '"owner":"chemistry/carol"' "$tmp/why_c.json"
else
	notok "one of carol's jobs pends on AssocMaxJobsLimit (reasons: $(reason "$C1"), $(reason "$C2"), $(reason "$C3"))"
	# the limit holds only while carol runs MaxJobs=2 jobs (the
	# workload's carol-1 and carol-2): show what she runs
	slurm squeue -h -u carol -o '%i %j %T %r' | sed 's/^/#   /'
fi
# chemistry may hold at most 6 GPUs (GrpTRES gres/gpu=6): with U in use,
# a job of bob asking for 7-U T4s on n4 (4 T4s) is over the limit. Below
# U=3 that would be more than a node has, so first take T4s of our own.
gpu_used() {
	"$SQUALL" --once --view limits --format tsv |
		tsv_cols /dev/stdin account,user,limit,tres,used |
		awk -F'|' '$1 == "chemistry" && $2 == "" && $3 == "GrpTRES" &&
			$4 == "gres/gpu" { print $5 }'
}
U=$(gpu_used)
fillers=0
while [ -n "$U" ] && [ "$U" -lt 3 ] && [ $fillers -lt 3 ]; do
	f=$(sub bob -p gpu -w n4 -c 1 --gres=gpu:t4:1 -t 5 -J sqa-gpufill \
		--wrap 'sleep 300')
	fillers=$((fillers + 1))
	wait_until 20 is_state "$f" RUNNING
	U=$(gpu_used)
done
K=$((7 - ${U:-0}))
G1=$(sub bob -p gpu -w n4 -c 1 --gres=gpu:t4:$K -t 5 -J sqa-gpuover \
	--wrap 'sleep 300')
check "chemistry uses $U GPUs; bob's job $G1 asks for $K more" \
	test -n "$G1" -a -n "$U" -a "$K" -le 4
if wait_until 60 is_reason "$G1" AssocGrpGRES; then
	"$SQUALL" --once --view jobs --job "$G1" >"$tmp/why_g" 2>&1
	sed -n '/why pending/,$p' "$tmp/why_g"
	check "why pending: $G1 names AssocGrpGRES" \
		grep -q "reason: AssocGrpGRES" "$tmp/why_g"
	check "why pending: $G1 names association chemistry GrpTRES gres/gpu = 6" \
		grep -q "limit: association chemistry GrpTRES gres/gpu = 6, in use $U, this job adds $K (holds it)" "$tmp/why_g"
else
	notok "bob's job $G1 pends on AssocGrpGRES (reason: $(reason "$G1"))"
fi
"$SQUALL" --once --view jobs --job 999999999 >/dev/null 2>"$tmp/err"
check "--job of a job not in the queue: exit 1" test $? -eq 1
"$SQUALL" --once --view nodes --job "$C1" >/dev/null 2>&1
check "--job with another view: exit 2" test $? -eq 2
# shellcheck disable=SC2046
scancel $(cat "$tmp/mine") 2>/dev/null

# --- fairshare: the tree equals sshare -a -l -P after a recalculation
shares() {
	slurm sshare -a -l -P | awk -F'|' 'NR > 1 {
		a = $1; sub(/^ +/, "", a)
		print a "|" $2 "|" $3 "|" $4 "|" $5 "|" $7 "|" $8 "|" $9 }'
}
shares >"$tmp/s0"
recalc() {
	shares >"$tmp/s1"
	! cmp -s "$tmp/s0" "$tmp/s1"
}
check "a priority recalculation happened (PriorityCalcPeriod=1)" \
	wait_until 75 recalc
same=0
for _ in 1 2 3 4 5; do
	shares >"$tmp/s1"
	"$SQUALL" --once --view fairshare --format tsv >"$tmp/fs.tsv" || break
	shares >"$tmp/s2"
	cmp -s "$tmp/s1" "$tmp/s2" || continue
	tsv_cols "$tmp/fs.tsv" account,user,raw_shares,norm_shares,raw_usage,effective_usage,fairshare,level_fs >"$tmp/fmine"
	cmp -s "$tmp/s1" "$tmp/fmine" && same=1
	break
done
[ $same -eq 1 ] || diff "$tmp/s1" "$tmp/fmine"
check "fairshare: the tree equals sshare -a -l -P ($(wc -l <"$tmp/s1") rows)" \
	test $same -eq 1 -a -s "$tmp/s1"
tsv_cols "$tmp/fs.tsv" account,user,parent,depth >"$tmp/tree"
check "fairshare: bob sits under chemistry at depth 2" \
	grep -q "^chemistry|bob|chemistry|2\$" "$tmp/tree"
# JSON: fractions are numbers, not strings
"$SQUALL" --once --view fairshare --format json >"$tmp/fs.json"
check "fairshare json: norm_shares and effective_usage are numbers" \
	sh -c "grep -Eq '\"norm_shares\":[0-9]' '$tmp/fs.json' &&
		grep -Eq '\"effective_usage\":[0-9]' '$tmp/fs.json' &&
		! grep -Eq '\"(norm_shares|effective_usage)\":\"' '$tmp/fs.json'"

finish
