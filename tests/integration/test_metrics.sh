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
# saying why. Where they are served: slurmctld refuses them (HTTP 401)
# under MetricsAuthUsers=alice, then PrivateData=nodes (slurm.conf
# changed, reconfigured, put back when the test ends, even on failure),
# and the overview, batch and console, falls back to the commands and
# says why, without asking again; a stand-in standby on loopback (the
# testbed has no backup on this release; SQUALL_METRICS=http://...)
# answers 303, which is not followed: the commands, and why.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
sock=om-$$
spid=
trap 'conf_restore; [ -z "$spid" ] || kill "$spid" 2>/dev/null
	T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
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
		[ "$again" = 0 ] && [ $_i -ge 15 ] && break
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

# the console's r asks the metrics again only where they are served
again=$serves
# reconf: scontrol reconfigure. It re-executes slurmctld and the slurmds
# (new PIDs), so the testbed's own PID files ($TB/pids, which
# tests/testbed/status and run-release read) follow Slurm's once each
# has changed; without that the testbed reads as down
reconf() {
	for _f in "$TB"/run/slurm/slurmctld.pid "$TB"/run/slurm/slurmd-*.pid; do
		head -n 1 "$_f" >"$tmp/${_f##*/}.old" 2>/dev/null
	done
	slurm scontrol reconfigure >/dev/null || return 1
	# each daemon gets its own 60 s, and its PID is the file's first
	# line: 26.05's re-executed slurmctld writes a shorter PID over the
	# old one without truncating it ("388\n8\n"; ci-local, where the
	# testbed then read as down)
	for _f in "$TB"/run/slurm/slurmctld.pid "$TB"/run/slurm/slurmd-*.pid; do
		[ -f "$_f" ] || continue
		_i=0
		while [ $_i -lt 120 ]; do
			_p=$(head -n 1 "$_f" 2>/dev/null)
			[ -n "$_p" ] &&
				[ "$_p" != "$(cat "$tmp/${_f##*/}.old")" ] &&
				kill -0 "$_p" 2>/dev/null && break
			sleep 0.5
			_i=$((_i + 1))
		done
		if [ $_i -ge 120 ]; then
			echo "# reconfigure: ${_f##*/}'s PID did not change in 60 s"
		elif [ -f "$TB/pids/${_f##*/}" ]; then
			echo "$_p" >"$TB/pids/${_f##*/}"
		fi
	done
}
# slurm.conf changed for the refusals (below), put back when the test ends
conf=${SLURM_CONF:-/etc/slurm/slurm.conf}
conf_restore() {
	[ -f "$tmp/slurm.conf" ] || return 0
	cp -p "$tmp/slurm.conf" "$conf" && rm -f "$tmp/slurm.conf"
	reconf
	ctld_answers 200 || echo "# slurmctld's /metrics/nodes does not answer 200 again"
}

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
# the nodes fetch starts with it (fetch.c); the GPU lines' own read runs
# scontrol -d -o show node, so that one is no sign of the nodes fetch
check "--record: no nodes fetch (scontrol -o show partition)" \
	lacks "$tmp/rec.cmds" '^scontrol -o show partition'
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
	check "console --record: no nodes fetch while the overview shows" \
		lacks "$tmp/crec.cmds" '^scontrol -o show partition'
	check "console --record: no sdiag while the overview shows" \
		lacks "$tmp/crec.cmds" '^sdiag'
	check "console --record: the queue still from squeue" \
		has "$tmp/crec.cmds" '^squeue '
else
	notok "console: :overview shows its lines"
fi

# --- refused and a standby: the commands instead, and why -----------------
# slurmctld's /metrics answer (curl) is STATUS within 30 s, and the
# controller answers commands (a reconfigure restarts slurmctld)
ctld_answers() { # ctld_answers STATUS
	_i=0
	while [ $_i -lt 60 ]; do
		_c=$(curl -s -o /dev/null -w '%{http_code}' \
			"http://127.0.0.1:${CTLD_PORT:-6817}/metrics/nodes")
		[ "$_c" = "$1" ] && slurm sinfo -h -o %P >/dev/null 2>&1 && return 0
		sleep 0.5
		_i=$((_i + 1))
	done
	echo "# /metrics/nodes answers $_c, not $1"
	return 1
}
# conf_set LINE: LINE appended to slurm.conf (the original kept in $tmp),
# slurmctld reconfigured and refusing (HTTP 401)
conf_set() {
	[ -f "$tmp/slurm.conf" ] || cp -p "$conf" "$tmp/slurm.conf" || return 1
	cp -p "$tmp/slurm.conf" "$conf" &&
		printf '# test_metrics.sh, removed when it ends\n%s\n' "$1" >>"$conf" &&
		reconf && ctld_answers 401
}
# fallback OUT [VAR=value...]: the overview (--record OUT.rec), its
# commands in OUT.rec.cmds
fallback() {
	_o=$1
	shift
	rm -rf "$_o.rec"
	env "$@" "$SQUALL" -b local --once --view overview --format tsv \
		--record "$_o.rec" >"$_o" 2>"$_o.err"
	commands "$_o.rec"
}
# the overview OUT fell back to the commands: the nodes from scontrol
# show partition and show node (fetch.c) and sdiag's controller lines, the
# node count sinfo's
fell_back() { # fell_back OUT WHAT
	check "$2: the nodes from their command" sh -c \
		"grep -q '^scontrol -o show partition' '$1.rec.cmds' &&
		 grep -q '^scontrol -d -o show node' '$1.rec.cmds'"
	check "$2: the controller lines from sdiag" has "$1.rec.cmds" '^sdiag'
	check "$2: the node count is sinfo's" \
		test "$(value "$1" nodes/total)" = \
		"$(slurm sinfo -h -N -o %N | sort -u | wc -l | tr -d ' ') nodes"
}
refused_why="not used: refused (HTTP 401: MetricsAuthUsers or PrivateData want a JWT)"

if [ ! -w "$conf" ] || ! command -v curl >/dev/null 2>&1; then
	echo "# $conf not writable or no curl: the refusals were not made"
elif ! conf_set "MetricsAuthUsers=alice"; then
	notok "MetricsAuthUsers=alice: slurmctld refuses /metrics (HTTP 401)"
else
	# squall sends no token (plain HTTP), so even root is refused
	ok "MetricsAuthUsers=alice: slurmctld refuses /metrics (HTTP 401)"
	fallback "$tmp/ra.tsv"
	check "MetricsAuthUsers: the source line says refused and why" \
		test "$(value "$tmp/ra.tsv" source/metrics)" = "$refused_why"
	check "MetricsAuthUsers --record: GET /metrics/nodes answered 401" \
		has "$tmp/ra.tsv.rec/index.tsv" "	401	[^	]*	GET	/metrics/nodes\$"
	check "MetricsAuthUsers --record: not asked again after the refusal" \
		test "$(grep -c '^GET ' "$tmp/ra.tsv.rec.cmds")" -eq 1
	fell_back "$tmp/ra.tsv" MetricsAuthUsers
	if command -v tmux >/dev/null 2>&1 && again=0 && console "$tmp/rcrec"; then
		ok "MetricsAuthUsers: console: :overview shows its lines"
		check "MetricsAuthUsers: console: the source line says refused" \
			shown 'source +metrics +not used: refused \(HTTP 401'
		check "MetricsAuthUsers: console: the nodes from their command" \
			has "$tmp/rcrec.cmds" '^scontrol -o show partition'
		check "MetricsAuthUsers: console: the controller lines from sdiag" \
			has "$tmp/rcrec.cmds" '^sdiag'
		check "MetricsAuthUsers: console: r does not ask again (one GET)" \
			test "$(grep -c '^GET ' "$tmp/rcrec.cmds")" -eq 1
	elif command -v tmux >/dev/null 2>&1; then
		notok "MetricsAuthUsers: console: :overview shows its lines"
	fi
	if conf_set "PrivateData=nodes"; then
		ok "PrivateData=nodes: slurmctld refuses /metrics (HTTP 401)"
		fallback "$tmp/rp.tsv"
		check "PrivateData: the source line says refused and why" \
			test "$(value "$tmp/rp.tsv" source/metrics)" = "$refused_why"
		fell_back "$tmp/rp.tsv" PrivateData
	else
		notok "PrivateData=nodes: slurmctld refuses /metrics (HTTP 401)"
	fi
	conf_restore
	check "slurm.conf put back: /metrics served again" ctld_answers 200
	check "the testbed's PID files follow the reconfigured daemons" \
		sh -c '"$1" >/dev/null || { sleep 5; "$1"; }' status \
		"$here/../testbed/status"
fi

# a standby's 303: the testbed has no backup controller on this release,
# so a stand-in on loopback answers every GET with 303 to the primary
# (Location as slurmctld's), reached through SQUALL_METRICS=http://...;
# the commands still reach the real primary
if ! command -v python3 >/dev/null 2>&1; then
	echo "# no python3: the standby's 303 was not tried"
else
	cat >"$tmp/standby.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(sys.argv[2], "a") as f:
            f.write(self.path + "\n")
        self.send_response(303)
        self.send_header("Location", sys.argv[1] + self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
PY
	python3 "$tmp/standby.py" "http://127.0.0.1:${CTLD_PORT:-6817}" \
		"$tmp/standby.log" >"$tmp/standby.port" &
	spid=$!
	_i=0
	while [ ! -s "$tmp/standby.port" ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	sport=$(cat "$tmp/standby.port")
	fallback "$tmp/rs.tsv" SQUALL_METRICS="http://127.0.0.1:$sport"
	check "standby (303): the source line says a standby" \
		test "$(value "$tmp/rs.tsv" source/metrics)" = \
		"not used: a standby controller (HTTP 303 to the primary)"
	check "standby (303): the stand-in was asked GET /metrics/nodes" \
		grep -qx /metrics/nodes "$tmp/standby.log"
	check "standby (303) --record: its GET answered 303" \
		has "$tmp/rs.tsv.rec/index.tsv" "	303	[^	]*	GET	/metrics/nodes\$"
	check "standby (303) --record: not followed (no GET answered 200)" \
		lacks "$tmp/rs.tsv.rec/index.tsv" "	200	[^	]*	GET	"
	fell_back "$tmp/rs.tsv" "standby (303)"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=
	# the same variable naming the real controller: served
	overview "$tmp/ru.tsv" SQUALL_METRICS="http://127.0.0.1:${CTLD_PORT:-6817}"
	check "SQUALL_METRICS=http://(the controller): the metrics" \
		test "$(value "$tmp/ru.tsv" source/metrics)" = "slurmctld /metrics"
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
