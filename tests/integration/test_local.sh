#!/bin/sh
# test_local.sh - the local backend end to end on the live testbed: submit a
# real workload (running, pending on priority, on a limit, an array, GPU
# jobs, holds, a preemption, hostile names), then check that
# `squall --once` lists what squeue, sinfo and sprio say.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$root/tests/testbed/jobs" --clear --preempt >"$tmp/jobs.log" 2>&1 ||
	{ cat "$tmp/jobs.log"; notok "submit the workload"; finish; }
ok "workload submitted"
. "$TB/jobs.env"

# --- command-line contract
"$SQUALL" --help >"$tmp/help" 2>&1
check "--help exits 0 and names --once" grep -q -- '--once' "$tmp/help"
"$SQUALL" --version >"$tmp/ver" 2>&1
check "--version prints the version" grep -q '^squall [0-9]' "$tmp/ver"
"$SQUALL" --once --view nosuchview >/dev/null 2>"$tmp/err"
check "unknown view: exit 2" test $? -eq 2
"$SQUALL" --bogus >/dev/null 2>&1
check "unknown option: exit 2" test $? -eq 2
"$SQUALL" --once --view jobs --slurm-bindir /nonexistent >/dev/null 2>"$tmp/err"
rc=$?
check "unreachable Slurm: exit 1" test $rc -eq 1
check "unreachable Slurm: one-line reason" test "$(wc -l <"$tmp/err")" -eq 1

# --- jobs: same ids and states as squeue; the hostile names stay whole.
# squeue and squall run back to back; retry if the queue moved meanwhile.
same=0
for try in 1 2 3 4 5; do
	slurm squeue -h -a -o '%i|%T' | sort >"$tmp/sq1"
	"$SQUALL" --once --view jobs --format tsv >"$tmp/jobs.tsv" || break
	slurm squeue -h -a -o '%i|%T' | sort >"$tmp/sq2"
	cmp -s "$tmp/sq1" "$tmp/sq2" || continue
	tsv_cols "$tmp/jobs.tsv" job_id,state | sort >"$tmp/mine"
	if cmp -s "$tmp/sq1" "$tmp/mine"; then same=1; fi
	break
done
check "jobs: ids and states equal squeue's ($(wc -l <"$tmp/sq1") jobs)" test $same -eq 1
[ $same -eq 1 ] || diff "$tmp/sq1" "$tmp/mine" | head -20
check "jobs: at least 15 jobs in the workload" test "$(wc -l <"$tmp/sq1")" -ge 15
check "jobs: name with '|' kept whole" grep -q "	pipe|name	" "$tmp/jobs.tsv"
check "jobs: name with quotes kept whole" grep -q "	spaces \"double\" 'single' name	" "$tmp/jobs.tsv"
tsv_cols "$tmp/jobs.tsv" job_id,reason >"$tmp/reasons"
check "jobs: carol's third job pends on AssocMaxJobsLimit" grep -q "^$CAROL_3|AssocMaxJobsLimit\$" "$tmp/reasons"
# the scheduler gives gpu-over its reason in one of its next passes (and
# may show another while n4 is reserved for a higher job): asked again
# for up to 30 s, squall's answer each time
i=0
until grep -q "|AssocGrpGRES\$" "$tmp/reasons" || [ $i -ge 15 ]; do
	sleep 2
	i=$((i + 1))
	"$SQUALL" --once --view jobs --format tsv >"$tmp/jobs2.tsv" &&
		tsv_cols "$tmp/jobs2.tsv" job_id,reason >"$tmp/reasons"
done
if grep -q "|AssocGrpGRES\$" "$tmp/reasons"; then
	ok "jobs: a job pends on AssocGrpGRES"
else
	notok "jobs: a job pends on AssocGrpGRES"
	slurm squeue -h -j "$GPU_OVER" -o '# gpu-over (%i) is %T: %r'
fi
check "jobs: the array is listed" grep -q "^${ARRAY}_" "$tmp/reasons"
check "jobs: admin hold shown" grep -q "^$HELD_ADMIN|JobHeldAdmin\$" "$tmp/reasons"
tsv_cols "$tmp/jobs.tsv" job_id,gres >"$tmp/gres"
check "jobs: typed GPU request shown" grep -q "^$GPU_A100|gres:gpu:a100:2\$" "$tmp/gres"
tsv_cols "$tmp/jobs.tsv" job_id,restarts >"$tmp/restarts"
check "jobs: the preempted job was requeued (restarts 1)" grep -q "^$FILL_A1|1\$" "$tmp/restarts"

# --- sprio factors of pending jobs equal sprio's
same=0
fmt='%i|%r|%Y|%A|%F|%J|%P|%Q|%B|%N'
for try in 1 2 3 4 5; do
	slurm sprio -h -o "$fmt" | sort >"$tmp/sp1"
	"$SQUALL" --once --view jobs --format tsv >"$tmp/jobs.tsv" || break
	slurm sprio -h -o "$fmt" | sort >"$tmp/sp2"
	cmp -s "$tmp/sp1" "$tmp/sp2" || continue
	# sprio lists a job once per partition; squall shows the factors of
	# the partition squeue shows
	tsv_cols "$tmp/jobs.tsv" job_id_raw,partition,priority,prio_age,prio_fairshare,prio_jobsize,prio_partition,prio_qos,prio_assoc,prio_nice |
		awk -F'|' '$4 != ""' | sort >"$tmp/mine"
	missing=$(awk -F'|' 'NR == FNR { s[$0] = 1; next } !($0 in s)' "$tmp/sp1" "$tmp/mine")
	if [ -z "$missing" ]; then same=1; fi
	break
done
check "priority: pending jobs carry sprio's factors ($(wc -l <"$tmp/mine") jobs)" test $same -eq 1
[ $same -eq 1 ] || echo "$missing" | head
check "priority: at least 5 pending jobs have factors" test "$(wc -l <"$tmp/mine")" -ge 5
"$SQUALL" --once --view priority --format tsv >"$tmp/prio.tsv"
check "priority view: exit 0" test $? -eq 0
# rank 1 of each partition has that partition's highest priority
bad=$(tsv_cols "$tmp/prio.tsv" partition,rank,priority | awk -F'|' '
	{ if (!($1 in max) || $3 > max[$1]) max[$1] = $3; if ($2 == 1) top[$1] = $3 }
	END { for (p in max) if (top[p] != max[p]) print p }')
check "priority: rank 1 holds the highest priority of its partition" test -z "$bad"

# --- nodes: state and CPU counts as sinfo says
slurm sinfo -h -N -o '%N|%T|%C' | awk -F'|' '{ split($3, c, "/"); print $1 "|" $2 "|" c[1] "|" c[4] }' | sort -u >"$tmp/si"
"$SQUALL" --once --view nodes --format tsv >"$tmp/nodes.tsv"
tsv_cols "$tmp/nodes.tsv" node,state,cpus_alloc,cpus_total | sort >"$tmp/mine"
check "nodes: state and CPUs equal sinfo's" cmp -s "$tmp/si" "$tmp/mine"
cmp -s "$tmp/si" "$tmp/mine" || diff "$tmp/si" "$tmp/mine"
tsv_cols "$tmp/nodes.tsv" node,gpus_total >"$tmp/gt"
check "nodes: n3 has 4 GPUs (gpu:a100:4)" grep -q '^n3|4$' "$tmp/gt"
check "nodes: n1 has none" grep -q '^n1|0$' "$tmp/gt"
used=$(slurm scontrol -d show node n3 | sed -n 's/.*GresUsed=gpu:a100:\([0-9]*\).*/\1/p')
check "nodes: n3 GPUs allocated equal scontrol's GresUsed ($used)" grep -q "^n3|" "$tmp/gt"
mine=$(tsv_cols "$tmp/nodes.tsv" node,gpus_alloc | sed -n 's/^n3|//p')
check "nodes: n3 gpus_alloc $mine = $used" test "$mine" = "$used"

# --- partitions
slurm sinfo -h -o '%R' | sort >"$tmp/parts"
"$SQUALL" --once --view partitions --format tsv >"$tmp/parts.tsv"
tsv_col "$tmp/parts.tsv" partition | sort >"$tmp/mine"
check "partitions: same names as sinfo" cmp -s "$tmp/parts" "$tmp/mine"
tsv_cols "$tmp/parts.tsv" partition,default,priority_tier,preempt_mode >"$tmp/p"
check "partitions: low is the default" grep -q '^low|yes|1|REQUEUE$' "$tmp/p"
check "partitions: high has tier 10, PreemptMode OFF" grep -q '^high|no|10|OFF$' "$tmp/p"
tsv_cols "$tmp/parts.tsv" partition,gpus_total >"$tmp/g"
check "partitions: gpu has 8 GPUs" grep -q '^gpu|8$' "$tmp/g"

# --- --filter: the nodes of a partition (a field term on a list column,
# and its inverse) as sinfo lists them; a bad pattern is a usage error
slurm sinfo -h -N -p gpu -o '%N' | sort -u >"$tmp/gpun"
"$SQUALL" --once --view nodes --format tsv --columns node --filter '@partitions=gpu' |
	tail -n +2 | sort >"$tmp/mine"
check "--filter @partitions=gpu: the nodes sinfo -p gpu lists ($(tr '\n' ' ' <"$tmp/gpun"))" \
	cmp -s "$tmp/gpun" "$tmp/mine"
slurm sinfo -h -N -o '%N' | sort -u | grep -vxF -f "$tmp/gpun" >"$tmp/notgpu" || true
"$SQUALL" --once --view nodes --format tsv --columns node --filter '!@partitions=gpu' |
	tail -n +2 | sort >"$tmp/mine"
check "--filter !@partitions=gpu: the other nodes" cmp -s "$tmp/notgpu" "$tmp/mine"
"$SQUALL" --once --view nodes --columns node,state --filter '^n1 ' >"$tmp/n1"
check "--filter ^n1: a regex over the printed cells, one node" \
	test "$(tail -n +2 "$tmp/n1" | awk '{ print $1 }')" = n1
"$SQUALL" --once --view nodes --filter '((' >/dev/null 2>"$tmp/ferr"
check "--filter '((': exit 2 and the reason" \
	sh -c '[ $1 = 2 ] && grep -q "missing closing parenthesis" "$2"' sh $? "$tmp/ferr"

# --- --columns help: without the cluster (a bindir that does not exist),
# and every id it lists is one --columns takes, in that order
"$SQUALL" --once --view nodes --columns help --slurm-bindir /nonexistent \
	>"$tmp/colhelp" 2>"$tmp/err"
check "--columns help: exit 0 without reaching Slurm" test $? -eq 0
ids=$(awk 'NR > 2 && !/^default sort:/ { print $1 }' "$tmp/colhelp" | paste -sd, -)
check "--columns help: lists node, state and reason ($ids)" \
	sh -c 'case ",$1," in *,node,*state,*reason,*) exit 0 ;; esac; exit 1' sh "$ids"
"$SQUALL" --once --view nodes --format tsv --columns "$ids" >"$tmp/all.tsv"
check "--columns help: --columns takes every id it lists" \
	test "$(head -1 "$tmp/all.tsv" | tr '\t' ,)" = "$ids"
check "--columns help: names the default sort" grep -qx 'default sort: node' "$tmp/colhelp"

# --- the console opens on --view, filtered by --filter
sock=squall-local-$$
T new-session -d -s t -x 160 -y 40 \
	"SQUALL_CONFIG=/dev/null $SQUALL --view nodes --filter '@partitions=gpu'; sleep 30"
check "console --view nodes --filter: n3 and n4 shown" wait_for '^ *n4 ' 20
check "console --view nodes --filter: n1 and n2 not shown" \
	sh -c '! tmux -L "$1" -f /dev/null capture-pane -p -t t | grep -q "^ *n[12] "' sh "$sock"
check "console --view nodes --filter: the filter is on the status line" \
	wait_for '@partitions=gpu' 2
T send-keys -t t q
sleep 1
T kill-server 2>/dev/null
"$SQUALL" --view nosuchview </dev/null >/dev/null 2>&1
check "console --view nosuchview: exit 2" test $? -eq 2
"$SQUALL" --view nodes --filter '((' </dev/null >/dev/null 2>"$tmp/ferr"
check "console --filter '((': exit 2 before the screen, the reason" \
	sh -c '[ $1 = 2 ] && grep -q "missing closing parenthesis" "$2"' sh $? "$tmp/ferr"

# --- json: valid and keyed by column id
"$SQUALL" --once --view jobs --format json >"$tmp/jobs.json"
check "json: parses, one object per job" test "$(jq length "$tmp/jobs.json")" -eq "$(($(wc -l <"$tmp/jobs.tsv") - 1))"
check "json: numbers are numbers" test "$(jq -r '.[0].priority | type' "$tmp/jobs.json")" = number
check "json: keys are the column ids" test "$(jq -r '.[0] | has("job_id") and has("prio_fairshare") and has("rank")' "$tmp/jobs.json")" = true

finish
