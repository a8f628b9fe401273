#!/bin/sh
# test_gpu_demand.sh - pending GPU demand (squall(1) "GPU demand") on every
# release: carol and alice submit GPU jobs held back by --begin (so they
# stay pending): an array of three 1-GPU tasks, --gpus=3, -n 2
# --gpus-per-task=1 in two partitions, -N 2 --gres=gpu:1, and alice's
# array of two jobs of 4 GPUs on each of 2 nodes, more than the gpu
# partition holds. The gpus-users and gpus-partitions views' pend_gpus,
# pend_jobs and longest_wait, and the overview's "gpus pending" line, are
# compared with the pending jobs of `squeue -r -t PD` counted here (every
# user's: the workload's pending GPU jobs count too). The overview's
# utilisation line says a figure or why there is none.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
ids=
cleanup() {
	# shellcheck disable=SC2086 # one word per job id
	[ -n "$ids" ] && slurm scancel $ids 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

release=$(slurm sinfo -V | sed -n 's/^slurm[^ ]* \([0-9]*\.[0-9]*\).*/\1/p')
if ! slurm scontrol -o show node | grep -q 'Gres=gpu'; then
	notok "$release: the testbed's nodes have no GPUs (tests/testbed/start)"
	finish
fi

submit() { # submit USER SBATCH-ARGS...
	u=$1
	shift
	(cd /tmp && runuser -u "$u" -- env -u SQUEUE_FORMAT sbatch --parsable \
		-o /dev/null -D /tmp -c 1 -t 5 --begin=now+3600 "$@" \
		--wrap 'sleep 1') | cut -d';' -f1
}
for args in "carol -p gpu --gres=gpu:1 --array=1-3" "carol -p gpu --gpus=3" \
	"carol -p gpu,high -n 2 --gpus-per-task=1" "carol -p gpu -N 2 --gres=gpu:1" \
	"alice -p gpu -N 2 --gres=gpu:4 --array=1-2"; do
	# shellcheck disable=SC2086 # the arguments are words
	id=$(submit $args)
	if [ -z "$id" ]; then
		notok "$release: sbatch $args"
		continue
	fi
	ids="$ids $id"
done
check "$release: five pending GPU submissions ($ids)" test "$(echo $ids | wc -w)" -eq 5

# The pending jobs' GPUs, counted here: per KEY (user or partition; a job
# of several partitions counts in each): gpus, jobs, oldest SubmitTime.
count() { # count user|partition > lines "key gpus jobs oldest"
	slurm squeue -h -a -r -t PD -O 'UserName:|,Partition:|,NumNodes:|,NumTasks:|,tres-per-node:|,tres-per-job:|,tres-per-task:|,SubmitTime:' |
		awk -F'|' -v by="$1" '
		function gpus(s,  n, i, it, f, k, c) {
			if (s == "N/A" || s == "") return -1
			c = 0
			n = split(s, it, ",")
			for (i = 1; i <= n; i++) {
				k = split(it[i], f, /[:=]/)
				sub(/^gres\//, "", f[1])
				if ((f[1] == "gres" && f[2] == "gpu") || f[1] == "gpu")
					c += f[k]
			}
			return c
		}
		{
			g = gpus($6)
			if (g < 0) { g = gpus($5); if (g >= 0) g *= $3 }
			if (g < 0) { g = gpus($7); if (g >= 0) g *= $4 }
			if (g <= 0) next
			nk = by == "user" ? split($1, keys, ",") : split($2, keys, ",")
			for (i = 1; i <= nk; i++) {
				k = keys[i]
				sum[k] += g; jobs[k]++
				if (!(k in old) || $8 < old[k]) old[k] = $8
			}
		}
		END { for (k in sum) print k, sum[k], jobs[k], old[k] }' | sort
}
secs() { # D-HH:MM:SS, HH:MM:SS or MM:SS -> seconds
	awk -v t="$1" 'BEGIN { d = 0; if (index(t, "-")) { split(t, a, "-"); d = a[1]; t = a[2] }
		n = split(t, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]
		print d * 86400 + s }'
}
# squall's view summed over the GPU types: "key gpus jobs wait"
view() { # view gpus-users|gpus-partitions user|partition
	"$SQUALL" --once --view "$1" --columns "$2,pend_gpus,pend_jobs,longest_wait" \
		--format tsv >"$tmp/$1" 2>"$tmp/$1.err" || return 1
	tsv_cols "$tmp/$1" "$2,pend_gpus,pend_jobs,longest_wait" | while IFS='|' read -r k g j w; do
		[ "$g" -gt 0 ] 2>/dev/null || continue
		echo "$k $g $j $(if [ -n "$w" ]; then secs "$w"; else echo -; fi)"
	done | awk '{ g[$1] += $2; j[$1] += $3; if ($4 != "-" && (!($1 in w) || $4 > w[$1])) w[$1] = $4 }
		END { for (k in g) print k, g[k], j[k], w[k] }' | sort
}
# compare BY VIEW: squall's figures equal the count, the wait within 60 s
compare() {
	now=$(date +%s)
	awk -v now="$now" 'NR == FNR { want[$1] = $2 " " $3; old[$1] = $4; next }
		{ got[$1] = $2 " " $3; wait[$1] = $4 }
		END {
			bad = 0
			for (k in want) {
				if (got[k] != want[k]) { print "# " k ": squall " got[k] ", squeue " want[k]; bad = 1 }
				else if (wait[k] + 0 > now - old[k] + 2 || wait[k] + 0 < now - old[k] - 60) {
					print "# " k ": wait " wait[k] " s, squeue says " now - old[k] " s"; bad = 1 }
			}
			for (k in got) if (!(k in want)) { print "# " k ": squall " got[k] ", squeue none"; bad = 1 }
			exit bad
		}' "$tmp/want.$1" "$tmp/got.$1"
}

for by in user partition; do
	v=gpus-users
	[ $by = partition ] && v=gpus-partitions
	agree=0
	for try in 1 2 3; do
		count $by >"$tmp/want.$by"
		view $v $by >"$tmp/got.$by"
		count $by >"$tmp/want2.$by"
		# the workload moved between the reads: read again
		cmp -s "$tmp/want.$by" "$tmp/want2.$by" || continue
		if compare $by; then
			agree=1
			break
		fi
		[ "$try" = 3 ] || sleep 2
	done
	sed 's/^/#   squeue: /' "$tmp/want.$by"
	sed 's/^/#   squall: /' "$tmp/got.$by"
	check "$release: $v pend_gpus, pend_jobs, longest_wait equal squeue -r -t PD counted per $by" \
		test "$agree" = 1
done
check "$release: carol's demand is there (10 GPUs in 6 jobs)" \
	grep -q '^carol 10 6 ' "$tmp/want.user"
check "$release: alice's array asks for more than the gpu partition holds (16 GPUs)" \
	sh -c "awk '\$1 == \"alice\" && \$2 >= 16' '$tmp/want.user' | grep -q ."

# the overview: the pending line's number is every pending job's GPUs
total=$(awk '{ s += $2 } END { print s + 0 }' "$tmp/want.user")
"$SQUALL" --once --view overview --columns section,key,num,value --format tsv >"$tmp/ov" 2>&1
grep -i '^gpus' "$tmp/ov" | sed 's/^/#   /'
pend=$(tsv_cols "$tmp/ov" section,key,num | awk -F'|' '$1 == "gpus" && $2 == "pending" { print $3 }')
check "$release: the overview's gpus pending line counts $total GPUs ($pend)" test "$pend" = "$total"
jobs=$(awk '{ s += $3 } END { print s + 0 }' "$tmp/want.user")
pv=$(tsv_cols "$tmp/ov" section,key,value | awk -F'|' '$1 == "gpus" && $2 == "pending" { print $3 }')
check "$release: it says \"$total GPUs $jobs PD\" ($pv)" test "$pv" = "$total GPUs $jobs PD"
oldest=$(awk 'NR == 1 || $4 < o { o = $4 } END { print o }' "$tmp/want.user")
wait=$(tsv_cols "$tmp/ov" section,key,num | awk -F'|' '$1 == "gpus" && $2 == "longest wait" { print $3 }')
check "$release: the longest wait line is the oldest pending GPU job's ($wait s, squeue $(($(date +%s) - oldest)) s)" \
	test "$wait" -le $(($(date +%s) - oldest + 2)) -a "$wait" -ge $(($(date +%s) - oldest - 60))
util=$(tsv_cols "$tmp/ov" section,key,value | awk -F'|' '$1 == "gpus" && $2 == "utilisation" { print $3 }')
case $release in
22.05) check "22.05: the utilisation line says why there is none ($util)" \
	sh -c "echo '$util' | grep -q '23\.02'" ;;
*) check "$release: the utilisation line has a figure or says why ($util)" \
	test -n "$util" ;;
esac
alloc=$(tsv_cols "$tmp/ov" section,key,value | awk -F'|' '$1 == "gpus" && $2 == "allocated" { print $3 }')
check "$release: the allocated line counts GPUs ($alloc)" \
	sh -c "echo '$alloc' | grep -Eq '^[0-9]+/[0-9]+ GPUs$'"
finish
