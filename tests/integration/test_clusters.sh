#!/bin/sh
# test_clusters.sh - `squall --once --view clusters` prints one row per
# configured cluster: the testbed through local, rest (JWT) and ssh (as
# alice, with the testbed's key and known_hosts), each with the node and
# job counts sinfo/squeue give, plus an unreachable cluster (nothing on
# 127.0.0.1:9) whose row carries its error and makes the exit status 1;
# the others are fetched in parallel, so the whole run stays short.
# Also `--once --view overview` agrees with sinfo on the node count.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
TB=${TB:-/tmp/slurmtb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

conf=$tmp/config
{
	echo "cluster tb-local backend=local"
	if [ -r "$TB/jwt/root.token" ]; then
		echo "cluster tb-rest backend=rest url=http://127.0.0.1:$REST_PORT token-file=$TB/jwt/root.token"
	fi
	if [ -r "$TB/ssh/id_ed25519" ]; then
		: >"$tmp/empty_ssh_config"
		echo "cluster tb-ssh backend=ssh host=127.0.0.1 port=$SSH_PORT user=alice identity=$TB/ssh/id_ed25519 known-hosts=$TB/ssh/known_hosts ssh-config=$tmp/empty_ssh_config"
	fi
	echo "cluster nowhere backend=ssh host=127.0.0.1 port=9 user=alice timeout=5 identity=$TB/ssh/id_ed25519 known-hosts=$TB/ssh/known_hosts ssh-config=$tmp/empty_ssh_config"
} >"$conf"
unset SSH_AUTH_SOCK
want=$(grep -c '^cluster ' "$conf")

start=$(date +%s)
SQUALL_CONFIG=$conf "$SQUALL" --once --view clusters --format tsv >"$tmp/out" 2>"$tmp/err"
rc=$?
secs=$(($(date +%s) - start))
sed 's/^/#   /' "$tmp/out"
check "clusters: exit 1 (one cluster is unreachable; got $rc)" test $rc -eq 1
check "clusters: one row per configured cluster ($want)" \
	test "$(($(wc -l <"$tmp/out") - 1))" -eq "$want"
check "clusters: rows in config order" test "$(tsv_col "$tmp/out" cluster | tr '\n' ' ')" = \
	"$(awk '{ printf "%s ", $2 }' "$conf")"
check "clusters: the unreachable one has its error" \
	sh -c "grep '^nowhere' '$tmp/out' | awk -F'\t' '{ print \$NF }' | grep -q ."
check "clusters: the unreachable one has no counts" \
	test -z "$(tsv_cols "$tmp/out" cluster,nodes_up | grep '^nowhere' | cut -d'|' -f2)"
check "clusters: done within the budget ($secs s)" test "$secs" -le 25

nodes=$(slurm sinfo -h -N -o '%N' | sort -u | wc -l)
# the release under test, as its sinfo says (22.05, 24.11, 26.05)
release=$(slurm sinfo -V | sed -n 's/^slurm[^ ]* \([0-9]*\.[0-9]*\).*/\1/p')
for c in $(awk '$2 != "nowhere" { print $2 }' "$conf"); do
	line=$(tsv_cols "$tmp/out" cluster,backend,version,nodes_up,nodes_down,nodes_drained,jobs_running,jobs_pending,error | grep "^$c|")
	IFS='|' read -r _ be ver up down dr run pend err <<EOT
$line
EOT
	check "$c: no error ($err)" test -z "$err"
	check "$c: the release's version, $release ($ver)" sh -c "echo '$ver' | grep -q '^$release\.'"
	check "$c: backend $be" test "tb-$be" = "$c"
	check "$c: up+down+drained = $nodes nodes" test "$((up + down + dr))" -eq "$nodes"
	check "$c: job counts are numbers" test "$run" -ge 0 -a "$pend" -ge 0
done

# the overview of the local cluster: the node count as sinfo has it
SQUALL_CONFIG=/dev/null "$SQUALL" --once --view overview --format tsv >"$tmp/ov" 2>"$tmp/err"
check "overview: exit 0" test $? -eq 0
check "overview: nodes total = $nodes" \
	test "$(tsv_cols "$tmp/ov" section,key,num | grep '^nodes|total|' | cut -d'|' -f3)" = "$nodes"
check "overview: a line per partition" \
	test "$(tsv_col "$tmp/ov" key | grep -c ' cpu$')" -eq "$(slurm sinfo -h -o %R | sort -u | wc -l)"
check "overview: sdiag's server threads" \
	sh -c "grep -q 'server threads' '$tmp/ov'"
finish
