#!/bin/sh
# test_spec.sh - the spec and nodesets views on the live testbed: a cluster
# spec that matches the testbed (partitions low/high/gpu over node pools,
# default low, the priority and preemption settings, one prolog and one
# epilog script) gives only ok rows; changing one partition,
# PriorityWeightAge and the default partition turns exactly those rows
# differs. Also: camelCase and slurmSpec-only input, spec= on a cluster
# line, operator NodeSets, node set totals against sinfo, bad files.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the node pools, from the live cluster: nodes without GPUs are pool
# cpu, nodes with GPUs pool gpu
slurm sinfo -h -N -o '%N|%G' | sort -u >"$tmp/nodes"
cpu_nodes=$(awk -F'|' '$2 !~ /gpu/ { printf "%s\"%s\"", n++ ? ", " : "", $1 }' "$tmp/nodes")
gpu_nodes=$(awk -F'|' '$2 ~ /gpu/ { printf "%s\"%s\"", n++ ? ", " : "", $1 }' "$tmp/nodes")
if [ -z "$cpu_nodes" ] || [ -z "$gpu_nodes" ]; then
	notok "the testbed has CPU-only and GPU nodes (sinfo: $(tr '\n' ' ' <"$tmp/nodes"))"
	finish
fi

# write_spec FILE GPU_POOLS DEFAULT AGE
write_spec() {
	cat >"$1" <<EOF
{
  "name": "testbed",
  "orchestratorSpec": {
    "slurmSpec": {
      "partitions": [
        { "id": "low", "node_pool_ids": ["cpu", "gpu"] },
        { "id": "high", "node_pool_ids": ["cpu", "gpu"] },
        { "id": "gpu", "node_pool_ids": [$2] }
      ],
      "default_partition_id": "$3",
      "node_pools": { "cpu": [$cpu_nodes], "gpu": [$gpu_nodes] },
      "config": {
        "PriorityWeightAge": $4,
        "PriorityWeightFairshare": 10000,
        "PreemptType": "preempt/partition_prio",
        "PreemptMode": "REQUEUE",
        "PreemptExemptTime": "00:00:10",
        "AccountingStorageEnforce": "associations,limits,qos"
      },
      "prolog_bash_scripts": ["#!/bin/bash\\nexit 0\\n"],
      "epilog_bash_scripts": ["#!/bin/bash\\nexit 0\\n"]
    }
  }
}
EOF
}

write_spec "$tmp/spec.json" '"gpu"' low 1000
"$SQUALL" --once --view spec --spec "$tmp/spec.json" --format tsv \
	>"$tmp/ok.tsv" 2>"$tmp/err"
check "spec view exits 0" test $? -eq 0
check "spec view: no message on stderr" test ! -s "$tmp/err"
rows=$(($(wc -l <"$tmp/ok.tsv") - 1))
# 3 partitions, the default, 6 config keys, prolog, epilog, 2 pools
check "spec view: 14 rows (got $rows)" test "$rows" -eq 14
bad=$(tsv_cols "$tmp/ok.tsv" item,status | grep -v '|ok$')
check "every row is ok${bad:+ (not: $(echo "$bad" | tr '\n' ' '))}" test -z "$bad"
for p in low high gpu; do
	live=$(tsv_cols "$tmp/ok.tsv" item,live | sed -n "s/^partition $p|//p")
	want=$(slurm scontrol -o show partition "$p" | tr ' ' '\n' | sed -n 's/^Nodes=//p')
	check "partition $p: live nodes are scontrol's ($want)" test "$live" = "$want"
done
check "default_partition row says low" \
	test "$(tsv_cols "$tmp/ok.tsv" item,declared,live | grep '^default_partition|')" = "default_partition|low|low"
age=$(slurm scontrol show config | sed -n 's/^PriorityWeightAge *= *//p')
check "config PriorityWeightAge live value is scontrol's ($age)" \
	test "$(tsv_cols "$tmp/ok.tsv" item,live | sed -n 's/^config PriorityWeightAge|//p')" = "$age"
# (23.02+ print "Prolog[0] = ...")
prolog=$(slurm scontrol show config | sed -n 's/^Prolog\(\[0\]\)\{0,1\} *= *//p')
check "prolog row: 1 script, live $prolog" \
	test "$(tsv_cols "$tmp/ok.tsv" item,declared,live | grep '^prolog|')" = "prolog|1 script|$prolog"

# --- change one partition, PriorityWeightAge and the default partition
write_spec "$tmp/changed.json" '"cpu"' high 2000
"$SQUALL" --once --view spec --spec "$tmp/changed.json" --format tsv \
	>"$tmp/changed.tsv" 2>"$tmp/err"
rc=$?
# issue 45 item 6: a CI drift check (man page: EXIT STATUS)
check "changed spec: exit 3, something differs (got $rc)" test $rc -eq 3
check "changed spec: stderr counts the 3 items" \
	grep -qx 'squall: spec: 3 items of the spec differ from the live cluster (status differs, missing or extra)' "$tmp/err"
"$SQUALL" --once --view spec --spec "$tmp/changed.json" --format tsv \
	--filter '@status=ok' >/dev/null 2>"$tmp/err"
rc=$?
check "changed spec, only the ok rows printed: exit 0 (got $rc)" test $rc -eq 0
"$SQUALL" --once --view spec --spec "$tmp/changed.json" --format tsv \
	--filter 'PriorityWeightAge' >/dev/null 2>"$tmp/err"
rc=$?
check "changed spec, filtered to one item that differs: exit 3 (got $rc)" test $rc -eq 3
check "... and stderr counts 1 item" grep -q 'spec: 1 item of the spec differs' "$tmp/err"
tsv_cols "$tmp/changed.tsv" item,status | grep -v '|ok$' | sort >"$tmp/notok"
printf '%s\n' 'config PriorityWeightAge|differs' 'default_partition|differs' \
	'partition gpu|differs' | sort >"$tmp/want"
if cmp -s "$tmp/notok" "$tmp/want"; then
	ok "exactly partition gpu, default_partition and PriorityWeightAge differ"
else
	notok "rows not ok: $(tr '\n' ' ' <"$tmp/notok") (want $(tr '\n' ' ' <"$tmp/want"))"
fi
check "the same 14 rows" test "$(($(wc -l <"$tmp/changed.tsv") - 1))" -eq 14
check "the changed default names the live one" \
	test "$(tsv_cols "$tmp/changed.tsv" item,declared,live | grep '^default_partition|')" = "default_partition|high|low"

# --- a partition the cluster lacks and one it has beyond the spec
sed 's/"id": "gpu"/"id": "gpu2"/' "$tmp/spec.json" >"$tmp/renamed.json"
"$SQUALL" --once --view spec --spec "$tmp/renamed.json" --format tsv \
	--columns item,status >"$tmp/renamed.tsv" 2>/dev/null
check "renamed partition: exit 3" test $? -eq 3
check "renamed partition: gpu2 missing" grep -qx 'partition gpu2	missing' "$tmp/renamed.tsv"
check "renamed partition: gpu extra" grep -qx 'partition gpu	extra' "$tmp/renamed.tsv"

# --- the slurmSpec object alone, in camelCase, values spelled otherwise
# (case, 0:10 for 00:00:10, qos,limits implying associations): all ok
cat >"$tmp/camel.json" <<EOF
{
  "partitions": [
    { "id": "low", "nodePoolIds": ["cpu", "gpu"] },
    { "id": "high", "nodePoolIds": ["cpu", "gpu"] },
    { "id": "gpu", "nodePoolIds": ["gpu"] }
  ],
  "defaultPartitionId": "low",
  "nodePools": { "cpu": [$cpu_nodes], "gpu": [$gpu_nodes] },
  "config": {
    "PriorityWeightAge": "1000", "PriorityWeightFairShare": "10000",
    "PreemptType": "preempt/partition_prio", "PreemptMode": "requeue",
    "PreemptExemptTime": "0:10",
    "AccountingStorageEnforce": "qos,limits"
  },
  "prologBashScripts": ["exit 0"],
  "epilogBashScripts": ["exit 0"]
}
EOF
"$SQUALL" --once --view spec --spec "$tmp/camel.json" --format tsv \
	--columns item,status >"$tmp/camel.tsv" 2>"$tmp/err"
check "camelCase slurmSpec object: exit 0 ($(cat "$tmp/err"))" test $? -eq 0
check "camelCase slurmSpec object: 14 rows, all ok" \
	test "$(grep -c '	ok$' "$tmp/camel.tsv")" -eq 14

# --- spec= on a cluster line
printf 'cluster tb backend=local spec=%s\n' "$tmp/changed.json" >"$tmp/config"
SQUALL_CONFIG=$tmp/config "$SQUALL" -c tb --once --view spec --format tsv \
	--columns item,status >"$tmp/conf.tsv" 2>"$tmp/err"
check "spec= on a cluster line: exit 3 (it differs)" test $? -eq 3
check "spec= on a cluster line is read" \
	test "$(grep -vc '	ok$' "$tmp/conf.tsv")" -eq 4 # header + 3

# --- operator resources: one NodeSet over every node
n_nodes=$(wc -l <"$tmp/nodes")
cat >"$tmp/operator.json" <<EOF
{ "apiVersion": "v1", "kind": "List", "items": [
  { "apiVersion": "slinky.slurm.net/v1beta1", "kind": "Controller",
    "metadata": { "name": "testbed" },
    "spec": { "clusterName": "testbed", "prologScriptRefs": [ { "name": "p" } ] } },
  { "apiVersion": "slinky.slurm.net/v1beta1", "kind": "NodeSet",
    "metadata": { "name": "n" },
    "spec": { "controllerRef": { "name": "testbed" }, "replicas": $n_nodes } },
  { "apiVersion": "slinky.slurm.net/v1beta1", "kind": "LoginSet",
    "metadata": { "name": "login" }, "spec": { "replicas": 1 } } ] }
EOF
"$SQUALL" --once --view spec --spec "$tmp/operator.json" --format tsv \
	--columns item,status >"$tmp/op.tsv" 2>"$tmp/err"
check "operator list: exit 0 ($(cat "$tmp/err"))" test $? -eq 0
check "operator list: nodeset n ok" grep -qx 'nodeset n	ok' "$tmp/op.tsv"
check "operator list: ClusterName ok" grep -qx 'config ClusterName	ok' "$tmp/op.tsv"
check "operator list: the LoginSet is unknown to Slurm" \
	grep -qx 'loginset login	unknown' "$tmp/op.tsv"

# --- node sets: per-set totals against sinfo
"$SQUALL" --once --view nodesets --spec "$tmp/spec.json" --format tsv \
	>"$tmp/sets.tsv" 2>"$tmp/err"
check "nodesets view exits 0" test $? -eq 0
check "nodesets by node pool: cpu and gpu" \
	test "$(tsv_col "$tmp/sets.tsv" nodeset | tr '\n' ' ')" = "cpu gpu "
for pool in cpu gpu; do
	if [ $pool = cpu ]; then sel='$2 !~ /gpu/'; else sel='$2 ~ /gpu/'; fi
	want_n=$(awk -F'|' "$sel" "$tmp/nodes" | wc -l)
	want_cpus=$(slurm sinfo -h -N -o '%N|%G|%c' | sort -u |
		awk -F'|' "$sel { s += \$3 } END { print s + 0 }")
	got=$(tsv_cols "$tmp/sets.tsv" nodeset,nodes,cpus_total | grep "^$pool|")
	check "set $pool: $want_n nodes, $want_cpus CPUs (got $got)" \
		test "$got" = "$pool|$want_n|$want_cpus"
done
gpus=$(tsv_cols "$tmp/sets.tsv" nodeset,gpus_total | sed -n 's/^gpu|//p')
want_gpus=$("$SQUALL" --once --view nodes --format tsv | tsv_col /dev/stdin gpus_total |
	awk '{ s += $1 } END { print s + 0 }')
check "set gpu holds every GPU ($want_gpus, got $gpus)" test "$gpus" = "$want_gpus"
states=$(tsv_cols "$tmp/sets.tsv" nodes,idle,mixed,alloc,drain,down,other |
	awk -F'|' '{ if ($1 != $2 + $3 + $4 + $5 + $6 + $7) bad = 1 } END { print bad + 0 }')
check "per-set state counts add up to the set's nodes" test "$states" -eq 0
"$SQUALL" --once --view nodesets --format tsv >"$tmp/sets0.tsv" 2>"$tmp/err"
check "nodesets without a spec: exit 0" test $? -eq 0
total=$(tsv_col "$tmp/sets0.tsv" nodes | awk '{ s += $1 } END { print s + 0 }')
check "nodesets without a spec: every node once ($total of $n_nodes)" \
	test "$total" -eq "$n_nodes"

# --- bad files: one line naming the JSON path, exit 1, no crash
printf '{"orchestratorSpec": {"slurmSpec": {"partitions": [{"id": "a", "node_pool_ids": ["p"]}, {"id": "b", "node_pool_ids": "p"}]}}}' >"$tmp/bad.json"
"$SQUALL" --once --view spec --spec "$tmp/bad.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "malformed spec: exit 1 (got $rc)" test $rc -eq 1
check "malformed spec: the JSON path ($(cat "$tmp/err"))" \
	grep -q 'bad.json: orchestratorSpec.slurmSpec.partitions\[1\].node_pool_ids: expected an array' "$tmp/err"
check "malformed spec: one line" test "$(wc -l <"$tmp/err")" -eq 1
printf '{"partitions": [' >"$tmp/cut.json"
"$SQUALL" --once --view spec --spec "$tmp/cut.json" >/dev/null 2>"$tmp/err"
check "truncated JSON: exit 1 with a reason" test $? -eq 1 -a -s "$tmp/err"
"$SQUALL" --once --view spec --spec "$tmp/nonexistent.json" >/dev/null 2>"$tmp/err"
check "missing file: exit 1 and the file named" grep -q 'nonexistent.json' "$tmp/err"
"$SQUALL" --once --view spec >/dev/null 2>"$tmp/err"
check "no spec given: exit 1 with a hint" grep -q -- '--spec' "$tmp/err"
finish
