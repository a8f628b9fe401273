#!/bin/sh
# test_gpu_use.sh - live GPU use (squall(1) "GPU use"): on 24.11 and 26.05,
# whose slurmd measure the testbed's fake GPUs (tests/testbed/fake_rsmi.c),
# a busy job (1 GPU at 80 %, 4 GiB), an idle one (2 GPUs at 0 %, 1 GiB
# each) and one whose use drops to 0 after 15 s: the jobs view's gpu_util
# and gpu_mem equal sstat's figures normalised (the steps' TRESUsageInTot
# summed, over the job's GPUs), and gpus-idle (gpu-idle-after 0) lists the
# idle and the dropped job, not the busy one. On 22.05, which measures no
# GPU use, the gpus view's util cells say why.
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
printf 'set gpu-idle-after 0\nset gpu-idle-below 5\n' >"$tmp/conf"
sq() { SQUALL_CONFIG=$tmp/conf "$SQUALL" "$@"; }

case $release in
22.05)
	sq --once --view gpus --columns node,util --format tsv >"$tmp/gpus" 2>&1
	sed 's/^/#   /' "$tmp/gpus"
	rows=$(tsv_col "$tmp/gpus" util | wc -l)
	why=$(tsv_col "$tmp/gpus" util | grep -c '23\.02')
	check "22.05: every gpus row's util says Slurm before 23.02 measures none ($why of $rows)" \
		test "$rows" -gt 0 -a "$why" -eq "$rows"
	sq --once --view gpus-idle --format tsv >"$tmp/idle" 2>"$tmp/err"
	check "22.05: gpus-idle lists nothing (no figure, no judgement)" \
		test "$(wc -l <"$tmp/idle")" -le 1
	check "22.05: gpus-idle's note says why" grep -q '23\.02' "$tmp/err"
	# a running job holding GPUs (the workload's, if any): its cell
	sq --once --view jobs --columns job_id,state,gres,gpu_util --format tsv >"$tmp/jobs" 2>/dev/null
	tsv_cols "$tmp/jobs" state,gres,gpu_util | awk -F'|' '$1 == "RUNNING" && $2 ~ /gpu/' >"$tmp/gj"
	if [ -s "$tmp/gj" ]; then
		check "22.05: a running GPU job's gpu_util says why ($(head -1 "$tmp/gj"))" \
			sh -c "! grep -v '23\.02' '$tmp/gj' | grep -q ."
	else
		ok "22.05: gpu_util of running GPU jobs # none runs now"
	fi
	# the node map (--node, the nodes view's detail pane): one line a GPU,
	# and a held one says why it has no use
	gnode=$(slurm scontrol -o show node | awk '/Gres=gpu/ { sub("NodeName=", "", $1); print $1; exit }')
	sq --once --node "$gnode" --format tsv >"$tmp/map" 2>&1
	sed 's/^/#   /' "$tmp/map"
	total=$(slurm scontrol -o show node "$gnode" | sed -n 's/.* Gres=gpu:[^:]*:\([0-9]*\).*/\1/p')
	check "22.05: --node $gnode lists its $total GPUs" test "$(tail -n +2 "$tmp/map" | wc -l)" = "$total"
	check "22.05: --node $gnode: a held GPU says Slurm before 23.02 measures none, a free one says free" \
		sh -c "! awk -F'\t' 'NR > 1 && !((\$3 != \"\" && \$6 ~ /23\\.02/) || (\$3 == \"\" && \$6 == \"free\"))' '$tmp/map' | grep -q ."
	echo "ok - gpu_use: busy/idle/drop jobs # not on 22.05: Slurm measures GPU use from 23.02 on"
	finish
	;;
esac

if ! slurm scontrol show config | grep -q 'gres/gpu' ||
	! slurm scontrol -o show node | grep -q 'Gres=gpu'; then
	notok "$release: the testbed's nodes have no GPUs Slurm measures (tests/testbed/start with fake_rsmi)"
	finish
fi
gib=1073741824
submit() { # submit NAME GPUS SCRIPT
	(cd /tmp && runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable \
		-o /dev/null -D /tmp -p high -c 1 --gres="gpu:$2" -J "$1" -t 4 \
		--wrap "$3") | cut -d';' -f1
}
busy=$(submit gpu-busy 1 "env SQ_FAKE_GPU_USE=80:$((4 * gib)) sleep 200")
idle=$(submit gpu-idle 2 "env SQ_FAKE_GPU_USE=0:$((2 * gib)) sleep 200")
# the drop job rewrites the file its process's use is read from
# shellcheck disable=SC2016 # expanded by the job's shell
script=$(printf '%s' 'f=/tmp/sq-gpu-drop.$SLURM_JOB_ID; ' \
	'trap '\''rm -f $f $f.new'\'' EXIT; ' \
	"echo '70 $((2 * gib))' >\$f; " \
	"env SQ_FAKE_GPU_FILE=\$f sleep 200 & sleep 15; " \
	"echo '0 $((2 * gib))' >\$f.new && mv -f \$f.new \$f; wait")
drop=$(submit gpu-drop 1 "$script")
ids="$busy $idle $drop"
check "$release: three GPU jobs submitted ($ids)" test -n "$busy" -a -n "$idle" -a -n "$drop"

# sstat's gres/gpuutil of a job's steps, summed: Tot (now) or Max (peak)
use() { # use ID ITEM FIELD(3 Max, 4 Tot)
	slurm sstat -a -n -P -j "$1" -o JobID,TRESUsageInAve,TRESUsageInMax,TRESUsageInTot 2>/dev/null |
		awk -F'|' -v item="$2" -v f="$3" '
		function bytes(v,  n, u) {
			n = v + 0; u = substr(v, length(v))
			if (u == "K") n *= 1024; else if (u == "M") n *= 1048576
			else if (u == "G") n *= 1073741824; else if (u == "T") n *= 1099511627776
			return n
		}
		{ k = split($f, t, ","); for (i = 1; i <= k; i++) if (index(t[i], item "=") == 1) { s += bytes(substr(t[i], length(item) + 2)); seen = 1 } }
		END { if (seen) printf "%.0f\n", s }'
}
reported() {
	[ -n "$(use "$busy" gres/gpuutil 4)" ] && [ -n "$(use "$idle" gres/gpuutil 4)" ] &&
		[ "$(use "$drop" gres/gpuutil 4)" = 0 ] && [ "$(use "$drop" gres/gpuutil 3)" = 70 ]
}
w=0
while ! reported && [ $w -lt 60 ]; do
	sleep 2
	w=$((w + 1))
done
slurm sstat -a -n -P -j "$busy,$idle,$drop" -o JobID,TRESUsageInMax,TRESUsageInTot | sed 's/^/#   sstat: /'
check "$release: sstat reports gres/gpuutil for the three jobs (the drop at 0 now, 70 at its peak)" reported

sq --once --view jobs --columns job_id,gpu_util,gpu_mem,gpu_util_max --format tsv >"$tmp/jobs" 2>"$tmp/err"
check "$release: --once --view jobs with the GPU columns exits 0 ($(head -1 "$tmp/err"))" test $? -eq 0
for j in busy idle drop; do
	case $j in busy) id=$busy ;; idle) id=$idle ;; *) id=$drop ;; esac
	n=$(slurm squeue -h -j "$id" -O tres-alloc: | tr ',' '\n' | sed -n 's/^gres\/gpu=//p')
	u=$(use "$id" gres/gpuutil 4)
	m=$(use "$id" gres/gpumem 4)
	want_u=$(awk -v u="$u" -v n="$n" 'BEGIN { v = int((u + int(n / 2)) / n); if (v > 100) v = 100; printf "%d%%", v }')
	want_m=$(awk -v b="$m" 'BEGIN { printf "%.1fG", b / 1073741824 }')
	got=$(tsv_cols "$tmp/jobs" job_id,gpu_util,gpu_mem | grep "^$id|")
	check "$release: $j ($id): squall's gpu_util|gpu_mem = sstat's $u / $n GPUs, $m bytes ($got)" \
		test "$got" = "$id|$want_u|$want_m"
done
check "$release: busy is 80% of its GPU" test "$(tsv_cols "$tmp/jobs" job_id,gpu_util | grep "^$busy|")" = "$busy|80%"
check "$release: drop's peak is kept (70%)" test "$(tsv_cols "$tmp/jobs" job_id,gpu_util_max | grep "^$drop|")" = "$drop|70%"

sq --once --view gpus-idle --format tsv >"$tmp/idle" 2>"$tmp/err"
sed 's/^/#   /' "$tmp/idle"
got=$(tsv_col "$tmp/idle" job_id | tr '\n' ' ')
check "$release: gpus-idle lists the idle job $idle ($got)" sh -c "echo ' $got' | grep -q ' $idle '"
check "$release: gpus-idle lists the dropped job $drop" sh -c "echo ' $got' | grep -q ' $drop '"
check "$release: gpus-idle does not list the busy job $busy" sh -c "! echo ' $got' | grep -q ' $busy '"
check "$release: the idle job holds 2 GPUs" test "$(tsv_cols "$tmp/idle" job_id,gpus | grep "^$idle|")" = "$idle|2"
# the default gpu-idle-after (30 min): none of them has been idle that long
# (the idle one's peak stayed 0, but it started a minute ago)
SQUALL_CONFIG=/dev/null "$SQUALL" --once --view gpus-idle --format tsv >"$tmp/idle30" 2>&1
check "$release: with gpu-idle-after 30 none is listed yet" sh -c "! grep -Eq '^($busy|$idle|$drop)\s' '$tmp/idle30'"
# the node map (--node, the nodes view's detail pane): the GPUs the idle
# job holds on its node are the indices scontrol -d gives, each with the
# job's user and its use (the jobs view's gpu_util)
inode=$(slurm squeue -h -j "$idle" -o %N)
want=$(slurm scontrol -d show job "$idle" | sed -n 's/.*Nodes=[^ ]* .*GRES=gpu[^(]*(IDX:\([^)]*\)).*/\1/p' |
	awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (k = r[1]; k <= r[n]; k++) printf "%d ", k } }')
sq --once --node "$inode" --format tsv >"$tmp/map" 2>"$tmp/err"
sed 's/^/#   /' "$tmp/map"
got=$(awk -F'\t' -v j="$idle" '$3 == j { printf "%d ", $1 }' "$tmp/map")
check "$release: --node $inode: the idle job $idle holds GPUs $want($got)" test -n "$want" -a "$want" = "$got"
check "$release: --node $inode: its GPUs say alice and 0%" \
	sh -c "awk -F'\t' -v j='$idle' '\$3 == j && !(\$4 == \"alice\" && \$5 == \"0%\")' '$tmp/map' | grep -q . && exit 1; exit 0"
check "$release: --node $inode: one line a GPU of the node" \
	test "$(tail -n +2 "$tmp/map" | wc -l)" = "$(slurm scontrol -o show node "$inode" | sed -n 's/.* Gres=gpu:[^:]*:\([0-9]*\).*/\1/p')"
# sstat answers a user only for their own jobs: run as bob, alice's jobs
# say so (not "no running step")
runuser -u bob -- env SQUALL_CONFIG=/dev/null "$SQUALL" --once --view jobs --columns job_id,gpu_util --format tsv >"$tmp/bob" 2>&1
tsv_cols "$tmp/bob" job_id,gpu_util | grep "^$busy|" >"$tmp/bobrow"
check "$release: as bob, alice's busy job says sstat answers bob only for his own jobs ($(cat "$tmp/bobrow"))" \
	grep -q 'Invalid user id.*run as bob, .*bob.s own jobs' "$tmp/bobrow"
# over ssh as alice, another user's GPU job: bob's, with a use
if [ -r "$TB/ssh/id_ed25519" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; then
	bjob=$( (cd /tmp && runuser -u bob -- env -u SQUEUE_FORMAT sbatch --parsable -o /dev/null -D /tmp \
		-p high -c 1 --gres=gpu:1 -J gpu-bob -t 3 --wrap "env SQ_FAKE_GPU_USE=30:1073741824 sleep 120") | cut -d';' -f1)
	ids="$ids $bjob"
	w=0
	while [ -z "$(use "$bjob" gres/gpuutil 4)" ] && [ $w -lt 45 ]; do
		sleep 2
		w=$((w + 1))
	done
	: >"$tmp/sshconf"
	cp "$TB/ssh/known_hosts" "$tmp/kh"
	SQUALL_CONFIG="$tmp/conf" env -u SSH_AUTH_SOCK "$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l alice \
		--ssh-config "$tmp/sshconf" --identity "$TB/ssh/id_ed25519" --known-hosts "$tmp/kh" \
		--once --view jobs --columns job_id,gpu_util --format tsv >"$tmp/ssh" 2>&1
	tsv_cols "$tmp/ssh" job_id,gpu_util | grep "^$bjob|" >"$tmp/sshrow"
	check "$release: over ssh as alice, bob's GPU job $bjob says sstat answers alice only for her own jobs ($(cat "$tmp/sshrow"))" \
		grep -q 'Invalid user id.*over ssh as alice, .*alice.s own jobs' "$tmp/sshrow"
	check "$release: over ssh as alice, her busy job keeps its figure" \
		test "$(tsv_cols "$tmp/ssh" job_id,gpu_util | grep "^$busy|")" = "$busy|80%"
else
	echo "# no testbed sshd: the ssh as alice check is left to test_ssh"
fi
sq --once --view gpus-users --columns user,account,alloc,idle,util --format tsv >"$tmp/users" 2>&1
sed 's/^/#   /' "$tmp/users"
check "$release: gpus-users: alice's util is measured" \
	sh -c "awk -F'\t' '\$1 == \"alice\" && \$5 ~ /%\$/' '$tmp/users' | grep -q ."
finish
