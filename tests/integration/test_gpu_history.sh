#!/bin/sh
# test_gpu_history.sh - GPU use of finished runs in the history views
# against sacct on the testbed. As alice (account astro) in partition high
# (it preempts low and gpu, so the jobs start at once), it runs a busy job
# (two GPUs, 80 % and 4 GiB each: Slurm records gres/gpuutil=160) and an
# idle one (one GPU, 0 % and 1 GiB) for 25 s each, waits until accounting
# has them, then checks that `squall --once --view history` through the
# local and the rest backend shows sacct's figures: GPUs (AllocTRES
# gres/gpu), the utilisation peak (the largest step gres/gpuutil of
# TRESUsageInMax over the GPUs: 80.0 and 0.0) and the memory peak (bytes),
# and that only the idle run counts as idle GPU-hours. The GPUs are the
# fake ones of tests/testbed/fake_rsmi.c (24.11, 26.05): a process
# "uses" what SQ_FAKE_GPU_USE=<percent>:<bytes> in its environment says,
# summed over the devices it holds. On 22.05 (no GPU use measured before
# 23.02) a GPU run's cells say so, through both backends.
# It cancels only its own jobs, by id.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
REST=http://127.0.0.1:$REST_PORT
TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
export SQUALL_CONFIG=/dev/null
cleanup() {
	# shellcheck disable=SC2046
	[ -s "$tmp/mine" ] && scancel $(cat "$tmp/mine") 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if ! slurm sacct -n -X -S now-60seconds -o JobID >/dev/null 2>&1; then
	echo "skip - sacct (slurmdbd) does not answer"
	exit 77
fi
rel=$(slurm sinfo -V | awk '{ print $2 }')
case $rel in
2[0-2].* | 23.0[0-1].*) old=1 ;;
*) old=0 ;;
esac
t0=$(date +%s)
since=$(date -d "@$((t0 - 60))" +%Y-%m-%dT%H:%M:%S)
gib=1073741824

# sub NAME GPUS USE: a 25 s job of alice holding GPUS GPUs whose process
# uses USE (percent:bytes, over all its GPUs)
sub() {
	_id=$(cd /tmp && runuser -u alice -- env -u SQUEUE_FORMAT sbatch -A astro \
		--parsable -o /dev/null -D /tmp -p high -c 1 --mem=100M -t 2 \
		--gres="gpu:$2" -J "sqgh$$-$1" \
		--wrap "env SQ_FAKE_GPU_USE=$3 sleep 25") || return 1
	echo "$_id" >>"$tmp/mine"
	echo "$_id" >"$tmp/$1"
}
if [ $old = 1 ]; then
	sub busy 1 80:$((4 * gib)) || {
		notok "sbatch --gres=gpu:1 as alice"
		finish
	}
else
	sub busy 2 160:$((8 * gib)) && sub idle 1 0:$gib || {
		notok "sbatch --gres=gpu:N as alice"
		finish
	}
fi
ids=$(tr '\n' ',' <"$tmp/mine" | sed 's/,$//')
ok "submitted $ids (Slurm $rel)"

# accounting has them once every job of ours is listed (slurmdbd learns
# of a job a moment after sbatch) and no run or step of ours is active
njobs=$(wc -l <"$tmp/mine")
i=0
while [ $i -lt 150 ]; do
	slurm sacct -n -D -P -j "$ids" -o JobIDRaw,State >"$tmp/st.txt" 2>/dev/null
	seen=$(grep -c -v -E '^[0-9]+\.' "$tmp/st.txt")
	left=$(grep -c -E 'PENDING|RUNNING|COMPLETING|SUSPENDED' "$tmp/st.txt")
	[ "$seen" -ge "$njobs" ] && [ "$left" = 0 ] && break
	sleep 3
	i=$((i + 3))
done
[ "$seen" -ge "$njobs" ] && [ "$left" = 0 ] ||
	notok "accounting lists $seen of $njobs jobs, $left active runs or steps after $i s"
sleep 2

# view BACKEND-ARGS...: our runs as job|gpus|util|mem|gpu_h|idle_h
view() {
	"$SQUALL" "$@" --once --view history --since "$since" --format json \
		--columns job,gpus,gpu_util_max,gpu_mem_max,gpu_hours,gpu_idle_hours \
		>"$tmp/h.json" 2>"$tmp/h.err" || return 1
	python3 - "$tmp/h.json" "$ids" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))
mine = set(int(x) for x in sys.argv[2].split(","))
def txt(v):  # a figure with one decimal, a byte count, or the note
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.1f" % v
    return str(v)
for r in rows:
    if r["job"] in mine:
        print("|".join([str(r["job"]), str(r["gpus"]), txt(r["gpu_util_max"]),
                        txt(r["gpu_mem_max"]), txt(r["gpu_hours"]),
                        txt(r["gpu_idle_hours"])]))
EOF
}
have_rest=0
code=$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")
[ "$code" != 000 ] && [ -r "$TOKEN" ] && have_rest=1
rest() { view -b rest -u "$REST" -l root --token-file "$TOKEN"; }

if [ $old = 1 ]; then
	busy=$(cat "$tmp/busy")
	view -b local >"$tmp/got" || notok "local: $(cat "$tmp/h.err")"
	check "local: the GPU run's peaks say why there are none (not 0)" \
		grep -q "^$busy|1|Slurm < 23.02|Slurm < 23.02|" "$tmp/got"
	if [ $have_rest = 1 ]; then
		rest >"$tmp/rgot" || notok "rest: $(cat "$tmp/h.err")"
		check "rest: the same note" \
			grep -q "^$busy|1|Slurm < 23.02|Slurm < 23.02|" "$tmp/rgot"
	fi
	sed 's/^/# /' "$tmp/got"
	finish
fi

# sacct's figures, one line per run: job|gpus|util|mem (the largest step
# peak; util over the GPUs, one decimal; mem in bytes)
slurm sacct -n -P -j "$ids" -o JobIDRaw,AllocTRES,TRESUsageInMax >"$tmp/sacct.txt"
awk -F'|' '
function bytes(v,   m) {
	m = 1
	if (v ~ /K$/) m = 1024
	else if (v ~ /M$/) m = 1048576
	else if (v ~ /G$/) m = 1073741824
	else if (v ~ /T$/) m = 1099511627776
	sub(/[KMGT]$/, "", v)
	return v * m
}
function item(tres, key,   n, a, i) {
	n = split(tres, a, ",")
	for (i = 1; i <= n; i++)
		if (index(a[i], key "=") == 1) return substr(a[i], length(key) + 2)
	return ""
}
function flush() {
	if (job == "") return
	printf "%s|%s|%s|%s\n", job, g, u < 0 ? "" : sprintf("%.1f", u / g), m < 0 ? "" : sprintf("%.0f", m)
}
$1 !~ /\./ { flush(); job = $1; g = item($2, "gres/gpu") + 0; u = -1; m = -1; next }
{
	v = item($3, "gres/gpuutil"); if (v != "" && v + 0 > u) u = v + 0
	v = item($3, "gres/gpumem"); if (v != "" && bytes(v) > m) m = bytes(v)
}
END { flush() }' "$tmp/sacct.txt" | sort >"$tmp/want"
sed 's/^/# sacct: /' "$tmp/want"
if ! grep -q "^$(cat "$tmp/busy")|2|80.0|" "$tmp/want"; then
	echo "skip - this testbed measures no GPU use (sacct has no gres/gpuutil 160 for the busy job: fake_rsmi.c not loaded?)"
	exit 77
fi

view -b local | sort >"$tmp/got" || notok "local: $(cat "$tmp/h.err")"
cut -d'|' -f1-4 "$tmp/got" >"$tmp/g4"
if cmp -s "$tmp/want" "$tmp/g4"; then
	ok "local: GPUs, utilisation and memory peaks as sacct's ($(wc -l <"$tmp/g4") runs)"
else
	notok "local GPU peaks differ from sacct"
	diff "$tmp/want" "$tmp/g4" | sed 's/^/# /'
fi
busy=$(cat "$tmp/busy")
idle=$(cat "$tmp/idle")
check "busy run: 160 % over two GPUs is 80.0, 8 GiB" \
	grep -q "^$busy|2|80.0|$((8 * gib))|" "$tmp/got"
check "idle run: 0.0, 1 GiB" grep -q "^$idle|1|0.0|$gib|" "$tmp/got"
# idle GPU-hours: the idle run's are its GPU-hours, the busy run has none
check "idle GPU-hours: the idle run's GPU-hours, none for the busy run" \
	awk -F'|' -v b="$busy" -v i="$idle" '
	$1 == b { bz = ($6 == "0.0") }
	$1 == i { iz = ($5 == $6) }
	END { exit !(bz && iz) }' "$tmp/got"
if [ $have_rest = 1 ]; then
	rest | sort >"$tmp/rgot" || notok "rest: $(cat "$tmp/h.err")"
	check "rest: the same GPUs, peaks and hours as local (and so as sacct)" \
		cmp -s "$tmp/got" "$tmp/rgot"
	cmp -s "$tmp/got" "$tmp/rgot" || diff "$tmp/got" "$tmp/rgot" | sed 's/^/# /'
else
	echo "# rest: slurmrestd not answering, not compared"
fi
# history-users: alice's idle GPU-hours hold the idle run's
"$SQUALL" --once --view history-users --since "$since" --format tsv \
	--columns user,gpu_hours,gpu_idle_hours >"$tmp/u.tsv" 2>"$tmp/u.err"
check "history-users: alice has GPU-hours and a gpu_idle_hours column" \
	awk -F'\t' '$1 == "alice" && $2 != "" && $3 != "" { f = 1 } END { exit !f }' "$tmp/u.tsv"
finish
