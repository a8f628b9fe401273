#!/bin/sh
# test_metrics.sh - slurmctld's own metrics (issue 46 item 2). On a release
# that serves them (25.11+: the 26.05 testbed, MetricsType set by
# tests/testbed/start) `--once --view overview` through local reads
# /metrics/nodes, /partitions and /scheduler: its --record holds those
# three GETs and neither the nodes' sinfo nor sdiag (nor scontrol show
# config: the address is slurm.conf's); its figures of nodes,
# partitions' CPUs and memory and the cluster's GPUs equal the ones the
# commands give (SQUALL_METRICS=off, run right after; the workload runs,
# so a differing pair is tried again); the recording replays to the same
# overview; the source line says where the figures came from. On older
# releases (22.05, 24.11) the commands are used and the source line says
# why. The console's :overview too (in a private tmux server, local with
# --record): where they are served its lines come from the three GETs,
# with neither the nodes' sinfo nor sdiag run while it shows (r asks
# again, for the metrics); elsewhere from those commands, its source line
# saying why. Nothing is changed on the testbed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
sock=om-$$
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

ver=$(slurm sinfo -V | awk '{ print $2 }')
maj=${ver%%.*}
min=${ver#*.}
min=${min%%.*}
serves=0
if [ "$maj" -gt 25 ] || { [ "$maj" -eq 25 ] && [ "$min" -ge 11 ]; }; then
	serves=1
fi

# overview OUT [VAR=value...]: the overview through local as TSV
overview() {
	_o=$1
	shift
	env "$@" "$SQUALL" -b local --once --view overview --format tsv \
		>"$_o" 2>"$_o.err"
}

# the value of the row whose section/what is $2 in TSV $1
value() {
	tsv_cols "$1" section,key,value | awk -F'|' -v id="$2" \
		'$1 "/" $2 == id { print $3; exit }'
}

# the recorded commands (argv joined by spaces) of recording $1, in $1.cmds
commands() { cut -f4- "$1/index.tsv" | tr '\t' ' ' >"$1.cmds"; }
has() { grep -q -- "$2" "$1"; }
lacks() { ! grep -q -- "$2" "$1"; }

# console REC: the console (local, --record REC, the queue every 2 s) on
# its jobs view, then :overview until its node lines show, r (the
# overview's sources again: a second GET where the metrics are served)
# and q. $REC.cmds: the commands recorded from :overview on. 0 when the
# overview showed; the screen is in $tmp/screen.
console() {
	_rec=$1
	command -v tmux >/dev/null 2>&1 || return 1
	printf 'set refresh 2\n' >"$tmp/conf"
	T new-session -d -s t -x 200 -y 80 \
		"env SQUALL_CONFIG=$tmp/conf XDG_STATE_HOME=$tmp/state $SQUALL -b local --record $_rec; sleep 600"
	wait_for '^ squall  :jobs' 30 >/dev/null || return 1
	sleep 1
	_n=$(cat "$_rec/index.tsv" 2>/dev/null | wc -l)
	T send-keys -t t ":overview" Enter
	wait_for '^ squall  :overview' 10 || return 1
	wait_for 'nodes +total +[0-9]+ nodes' 30 || return 1
	wait_for 'source +metrics ' 10 || return 1
	cap >"$tmp/screen"
	_g=$(grep -c "	GET	/metrics/nodes\$" "$_rec/index.tsv")
	T send-keys -t t r
	_i=0
	while [ $_i -lt 50 ]; do
		[ "$(grep -c "	GET	/metrics/nodes\$" "$_rec/index.tsv")" -gt "$_g" ] &&
			break
		[ $serves = 0 ] && [ $_i -ge 15 ] && break
		sleep 0.2
		_i=$((_i + 1))
	done
	cap >>"$tmp/screen"
	T send-keys -t t q
	sleep 1
	T kill-server 2>/dev/null
	tail -n +$((_n + 1)) "$_rec/index.tsv" | cut -f4- | tr '\t' ' ' \
		>"$_rec.cmds"
	return 0
}
# on the screen $tmp/screen: the line matching $1
shown() { grep -Eq -- "$1" "$tmp/screen"; }

if [ $serves = 0 ]; then
	"$SQUALL" -b local --once --view overview --format tsv \
		--record "$tmp/rec" >"$tmp/ov.tsv" 2>"$tmp/ov.err"
	check "Slurm $ver: the overview runs" test -s "$tmp/ov.tsv"
	check "Slurm $ver: the source line says why not the metrics" \
		test "$(value "$tmp/ov.tsv" source/metrics)" = \
		"not used: Slurm $maj.$min has none (25.11+)"
	commands "$tmp/rec"
	check "Slurm $ver: no HTTP asked" lacks "$tmp/rec.cmds" '^GET '
	check "Slurm $ver: the nodes from their command" \
		has "$tmp/rec.cmds" '^scontrol -d -o show node'
	check "Slurm $ver: the node count is sinfo's" \
		test "$(value "$tmp/ov.tsv" nodes/total)" = \
		"$(slurm sinfo -h -N -o %N | sort -u | wc -l | tr -d ' ') nodes"
	if ! command -v tmux >/dev/null 2>&1; then
		echo "# tmux is not installed: the console's overview was not run"
	elif console "$tmp/crec"; then
		ok "Slurm $ver: console: :overview shows its lines"
		check "Slurm $ver: console: the source line says why not the metrics" \
			shown "source +metrics +not used: Slurm $maj\\.$min has none \\(25\\.11\\+\\)"
		check "Slurm $ver: console: no HTTP asked" \
			lacks "$tmp/crec.cmds" '^GET '
		check "Slurm $ver: console: the nodes from their command" \
			has "$tmp/crec.cmds" '^scontrol -d -o show node'
		check "Slurm $ver: console: the controller lines from sdiag" \
			has "$tmp/crec.cmds" '^sdiag'
	else
		notok "Slurm $ver: console: :overview shows its lines"
	fi
	finish
	exit
fi

# --- a release that serves them -----------------------------------------
"$SQUALL" -b local --once --view overview --format tsv --record "$tmp/rec" \
	>"$tmp/m.tsv" 2>"$tmp/m.err"
check "the source line says the metrics" \
	test "$(value "$tmp/m.tsv" source/metrics)" = "slurmctld /metrics"
for e in nodes partitions scheduler; do
	check "--record: GET /metrics/$e (HTTP 200)" \
		has "$tmp/rec/index.tsv" "	200	[^	]*	GET	/metrics/$e\$"
done
commands "$tmp/rec"
check "--record: no sinfo for the nodes" lacks "$tmp/rec.cmds" '^sinfo -h'
check "--record: no sdiag" lacks "$tmp/rec.cmds" '^sdiag'
check "--record: the queue still from squeue (reasons, users)" \
	has "$tmp/rec.cmds" '^squeue -h -a -O'
check "--record: the address from slurm.conf (no scontrol show config)" \
	lacks "$tmp/rec.cmds" '^scontrol show config'

# the same figures as the commands': nodes, partitions' CPUs and memory,
# GPUs idle and allocated; the node states from scontrol's base states
same_figures() {
	for _try in 1 2 3 4 5; do
		overview "$tmp/a.tsv"
		overview "$tmp/b.tsv" SQUALL_METRICS=off
		slurm scontrol -o show node | grep -o 'State=[A-Z_]*' |
			sed 's/State=//' | tr 'A-Z' 'a-z' | sort | uniq -c |
			awk '{ print $2 "|" $1 " of N" }' >"$tmp/st.want"
		_n=$(slurm scontrol -o show node | grep -c '^NodeName=')
		sed -i "s/ of N\$/ of $_n/" "$tmp/st.want"
		tsv_cols "$tmp/a.tsv" section,key,value |
			awk -F'|' '$1 == "nodes" && $2 != "total" && $2 !~ /^\+/ { print $2 "|" $3 }' |
			sort >"$tmp/st.got"
		for f in a b; do
			tsv_cols "$tmp/$f.tsv" section,key,value | grep -E \
				'^(nodes\|total|partition\|[^|]* (cpu|mem)|gpus\|(idle|allocated))\|' |
				sort >"$tmp/$f.fig"
		done
		if [ -s "$tmp/a.fig" ] && cmp -s "$tmp/a.fig" "$tmp/b.fig" &&
			cmp -s "$tmp/st.got" "$tmp/st.want"; then
			return 0
		fi
		echo "# try $_try: metrics vs commands"
		diff "$tmp/a.fig" "$tmp/b.fig" | sed 's/^/# /'
		diff "$tmp/st.got" "$tmp/st.want" | sed 's/^/# /'
		sleep 2
	done
	return 1
}
check "the metrics' figures equal the commands'" same_figures
check "SQUALL_METRICS=off: the source line says so" \
	test "$(value "$tmp/b.tsv" source/metrics)" = \
	"not used: SQUALL_METRICS=off"

# the recording replays to the same overview (the GETs served from it)
"$SQUALL" --replay "$tmp/rec" --once --view overview --format tsv \
	>"$tmp/r.tsv" 2>"$tmp/r.err"
# (but the longest GPU wait, which counts from now)
for f in m r; do grep -v 'longest wait' "$tmp/$f.tsv" >"$tmp/$f.cmp"; done
check "--replay: the same overview from the recording" \
	cmp "$tmp/m.cmp" "$tmp/r.cmp"

# the console's :overview reads them too, and neither sinfo nor sdiag
if ! command -v tmux >/dev/null 2>&1; then
	echo "# tmux is not installed: the console's overview was not run"
elif console "$tmp/crec"; then
	ok "console: :overview shows its lines"
	check "console: the source line says the metrics" \
		shown 'source +metrics +slurmctld /metrics'
	check "console: a partition's CPUs from /metrics/partitions" \
		shown 'partition +[^ ]+ cpu +[0-9]+/[0-9]+ CPUs'
	check "console: the controller's health from /metrics/scheduler" \
		shown 'ctld +server threads +[0-9]+'
	for e in nodes partitions scheduler; do
		check "console --record: GET /metrics/$e" \
			has "$tmp/crec.cmds" "^GET /metrics/$e\$"
	done
	check "console --record: r asks the metrics again" \
		test "$(grep -c '^GET /metrics/nodes$' "$tmp/crec.cmds")" -ge 2
	check "console --record: no sinfo -h -N while the overview shows" \
		lacks "$tmp/crec.cmds" '^sinfo -h -N'
	check "console --record: no sdiag while the overview shows" \
		lacks "$tmp/crec.cmds" '^sdiag'
	check "console --record: the queue still from squeue" \
		has "$tmp/crec.cmds" '^squeue '
else
	notok "console: :overview shows its lines"
fi

# the backends that do not read them say so: slurmrestd (the controller
# is another host's business), ssh (its port seldom reachable from here)
"$SQUALL" -b rest -u "http://127.0.0.1:${REST_PORT:-6820}" \
	--token-file "$TB/jwt/root.token" --once --view overview --format tsv \
	>"$tmp/rest.tsv" 2>"$tmp/rest.err"
check "rest: the source line says it does not read them" \
	test "$(value "$tmp/rest.tsv" source/metrics)" = \
	"not used: not read by the rest backend"
if [ -s "$TB/ssh/id_ed25519" ]; then
	cp "$TB/ssh/known_hosts" "$tmp/kh"
	: >"$tmp/empty_config"
	SQUALL_CONFIG=/dev/null "$SQUALL" -b ssh -H 127.0.0.1 \
		-p "${SSH_PORT:-2222}" -l opsadmin --ssh-config "$tmp/empty_config" \
		--identity "$TB/ssh/id_ed25519" --known-hosts "$tmp/kh" \
		--once --view overview --format tsv >"$tmp/ssh.tsv" \
		2>"$tmp/ssh.err"
	check "ssh: the source line says it does not read them" \
		test "$(value "$tmp/ssh.tsv" source/metrics)" = \
		"not used: not read by the ssh backend"
fi
finish
