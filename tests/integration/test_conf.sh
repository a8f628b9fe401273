#!/bin/sh
# test_conf.sh - the configuration files on the testbed: SQUALL_CONFIG and
# XDG_CONFIG_HOME are read, -c NAME selects a `cluster` line (here the
# rest and local backends of the testbed) and its settings reach the
# backend, command-line options win over it, bad lines are reported as
# file:line and never stop squall, and an unknown -c is a usage error.
# Env: SQUALL, TB.
. "$(dirname "$0")/lib.sh"
SQUALL=${SQUALL:-./squall}
TB=${TB:-/tmp/slurmtb}
W=$(mktemp -d "${TMPDIR:-/tmp}/squall-conf.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

cat >"$W/config" <<EOF
# a test configuration
set refresh 20
cluster here backend=local
cluster lab backend=rest url=http://127.0.0.1:$REST_PORT user=alice token-file=$TB/jwt/alice.token
cluster slow backend=local slurm-bindir=$W/bin timeout=1
cluster broken backend=ssh
frobnicate now
EOF
# a bin dir whose sinfo never answers: only the 1 s timeout ends it
mkdir -p "$W/bin"
printf '#!/bin/sh\nexec sleep 30\n' >"$W/bin/sinfo"
chmod +x "$W/bin/sinfo"

export SQUALL_CONFIG="$W/config"
slurm sinfo -h -N -o %N | sort -u >"$W/nodes.want"

"$SQUALL" -c here --once --view nodes --format tsv >"$W/here.tsv" 2>"$W/here.err"
rc=$?
check "-c here (local) exits 0" [ $rc -eq 0 ]
tsv_col "$W/here.tsv" node | sort -u >"$W/here.nodes"
check "-c here lists the nodes sinfo lists" cmp -s "$W/here.nodes" "$W/nodes.want"
check "bad lines are reported as file:line" \
	grep -qF "squall: $W/config:6: cluster broken: backend=ssh needs host=" \
	"$W/here.err"
check "an unknown command is reported with its line" \
	grep -qF "squall: $W/config:7: unknown command 'frobnicate'" \
	"$W/here.err"

if [ -r "$TB/jwt/alice.token" ] && curl -s -o /dev/null "http://127.0.0.1:$REST_PORT/" 2>/dev/null; then
	"$SQUALL" -c lab --once --view nodes --format tsv >"$W/lab.tsv" 2>/dev/null
	rc=$?
	check "-c lab (rest from the cluster line) exits 0" [ $rc -eq 0 ]
	tsv_col "$W/lab.tsv" node | sort -u >"$W/lab.nodes"
	check "-c lab lists the same nodes through slurmrestd" \
		cmp -s "$W/lab.nodes" "$W/nodes.want"
else
	echo "skip - slurmrestd not reachable: -c lab not checked"
fi

start=$(date +%s)
"$SQUALL" -c slow --once --view nodes >/dev/null 2>"$W/slow.err"
rc=$?
took=$(($(date +%s) - start))
failed_fast() { [ "$rc" -eq 1 ] && [ "$took" -lt 10 ]; }
check "-c slow uses the cluster's slurm-bindir and timeout (fails in ${took}s)" \
	failed_fast
check "-c slow says what timed out" grep -q 'timed out after 1 s' "$W/slow.err"

"$SQUALL" -c slow --slurm-bindir "$(dirname "$(command -v sinfo)")" \
	--timeout 30 --once --view nodes --format tsv \
	>"$W/over.tsv" 2>/dev/null
rc=$?
check "a command-line option wins over the cluster line" [ $rc -eq 0 ]

"$SQUALL" -c nope --once --view nodes >/dev/null 2>"$W/nope.err"
rc=$?
check "an unknown -c is a usage error (exit 2)" [ $rc -eq 2 ]
check "and says which name" grep -q "no cluster called 'nope'" "$W/nope.err"

# XDG_CONFIG_HOME, when SQUALL_CONFIG is not set; SQUALL_CONFIG=/dev/null
# is hermetic
unset SQUALL_CONFIG
mkdir -p "$W/xdg/squall"
printf 'cluster viaxdg backend=local\nbogus\n' >"$W/xdg/squall/config"
XDG_CONFIG_HOME="$W/xdg" "$SQUALL" -c viaxdg --once --view partitions \
	>/dev/null 2>"$W/xdg.err"
rc=$?
check "XDG_CONFIG_HOME/squall/config is read" [ $rc -eq 0 ]
check "its errors carry its path" \
	grep -qF "$W/xdg/squall/config:2: unknown command 'bogus'" "$W/xdg.err"
XDG_CONFIG_HOME="$W/xdg" SQUALL_CONFIG=/dev/null "$SQUALL" -c viaxdg \
	--once --view partitions >/dev/null 2>&1
rc=$?
check "SQUALL_CONFIG=/dev/null reads nothing else" [ $rc -eq 2 ]
finish
