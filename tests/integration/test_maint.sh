#!/bin/sh
# test_maint.sh - the maintenance views against the testbed: `squall
# --once --view licenses` prints what `scontrol show licenses` shows
# (name, total, used, free, reserved, remote; an empty list too) through
# local, ssh (alice, key only) and slurmrestd where it answers; the jobs
# pending on Licenses (the view's detail link, @reason=Licenses) are
# squeue's. node-events: after a drain with a reason of our own and a
# resume, the view lists that drain with its reason and user (root) as
# `sacctmgr show event` does, through local and ssh; rest refuses it with
# the reason. The nodes view's events column counts sacctmgr's down/drain
# events, and sacctmgr runs only when it shows. reboot: an ASAP reboot of
# a busy node reaches Slurm (REBOOT_REQUESTED) and cancel-reboot takes it
# back; both appear in node-events from squall's audit log.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
REST=http://127.0.0.1:$REST_PORT
TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
export SQUALL_CONFIG=/dev/null
# squall's audit log (node-events lists its node actions): this test's own
export XDG_STATE_HOME="$tmp/state"
unset SSH_AUTH_SOCK
: >"$tmp/empty_config"
cols=name,total,used,free,reserved,remote

# scontrol's licenses as name|total|used|free|reserved|remote, sorted
want_licenses() {
	slurm scontrol -o show licenses | awk '/^LicenseName=/ {
		delete v
		for (i = 1; i <= NF; i++) {
			k = $i; sub(/=.*/, "", k); x = $i; sub(/^[^=]*=/, "", x); v[k] = x
		}
		print v["LicenseName"] "|" v["Total"] "|" v["Used"] "|" v["Free"] "|" v["Reserved"] "|" v["Remote"]
	}' | sort
}
# same NAME CMD...: CMD (squall) prints scontrol's licenses; retried while
# jobs take or free licenses between the two reads
same() {
	_n=$1
	shift
	for _try in 1 2 3 4 5; do
		want_licenses >"$tmp/want"
		"$@" --once --view licenses --format tsv >"$tmp/$_n.tsv" 2>"$tmp/$_n.err" || {
			cat "$tmp/$_n.err"
			return 1
		}
		tsv_cols "$tmp/$_n.tsv" "$cols" | sort >"$tmp/$_n"
		cmp -s "$tmp/want" "$tmp/$_n" && return 0
		sleep 1
	done
	diff "$tmp/want" "$tmp/$_n" | head -10
	return 1
}

want_licenses >"$tmp/want0"
echo "# scontrol show licenses: $(wc -l <"$tmp/want0") license(s) $(tr '\n' ' ' <"$tmp/want0")"
check "licenses: local prints scontrol show licenses" same local "$SQUALL" -b local

key=$TB/ssh/id_ed25519
if [ -r "$key" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; then
	check "licenses: ssh prints scontrol show licenses" same ssh \
		"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l alice \
		--ssh-config "$tmp/empty_config" --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts"
else
	notok "licenses: the testbed's sshd on 127.0.0.1:$SSH_PORT does not answer"
fi

code=$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")
if [ "$code" != 000 ] && [ -r "$TOKEN" ]; then
	check "licenses: rest prints scontrol show licenses" same rest \
		"$SQUALL" -b rest -u "$REST" --token-file "$TOKEN"
else
	notok "licenses: slurmrestd does not answer on $REST or $TOKEN is missing"
fi

# the jobs waiting on a license (tests/testbed/jobs: lic-wait, when the
# testbed declares matlab), as the licenses view's link shows them
lic_jobs() {
	slurm squeue -h -a -t PD -o '%i|%r' | awk -F'|' '$2 == "Licenses" { print $1 }' | sort
}
sq_lic_jobs() {
	"$SQUALL" -b local --once --view jobs --filter '@reason=Licenses' \
		--format tsv >"$tmp/jobs.tsv" 2>"$tmp/jobs.err" || return 1
	tsv_col "$tmp/jobs.tsv" job_id | sort
}
same_jobs() {
	for _try in 1 2 3; do
		lic_jobs >"$tmp/jw"
		sq_lic_jobs >"$tmp/jg"
		cmp -s "$tmp/jw" "$tmp/jg" && return 0
		sleep 1
	done
	diff "$tmp/jw" "$tmp/jg" | head -5
	return 1
}
check "licenses: jobs pending on Licenses are squeue's ($(lic_jobs | wc -l))" same_jobs

# --- node-events: drain a node without jobs with our reason, resume it
# (Slurm records a drain once the node is drained: a node with jobs stays
# DRAINING and leaves no event until they end)
reason="sq-maint-$$-$(date +%s)"
node=$(slurm sinfo -h -N -o '%N %C %t' | awk '$2 ~ /^0\// && $3 == "idle" { print $1; exit }')
resumed=
cleanup_node() {
	[ -n "$resumed" ] || [ -z "$node" ] ||
		slurm scontrol update nodename="$node" state=resume >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup_node EXIT
if [ -n "$node" ]; then
	slurm scontrol update nodename="$node" state=drain reason="$reason"
	sleep 2
	slurm scontrol update nodename="$node" state=resume && resumed=1
fi
# sacctmgr's events with our reason: node|state|user|start|end|reason
want_events() {
	slurm sacctmgr -n -P show event event=node start=now-1hours end=now \
		format=NodeName,State,User,Start,End,Reason |
		awk -F'|' -v r="$reason" 'r == "" || $6 == r { sub(/\(.*/, "", $3); if ($5 == "Unknown") $5 = ""; print $1 "|" $2 "|" $3 "|" $4 "|" $5 "|" $6 }' | sort
}
# squall's, with the same fields (times as epoch seconds)
got_events() {
	"$@" --once --view node-events --since 1h --format json >"$tmp/ne.json" 2>"$tmp/ne.err" || {
		cat "$tmp/ne.err"
		return 1
	}
	jq -r --arg r "$reason" '.[] | select(.state | startswith("squall ") | not) |
		select($r == "" or .reason == $r) |
		"\(.node)|\(.state)|\(.set_by)|\(.start)|\(.end // "")|\(.reason)"' "$tmp/ne.json" | sort
}
same_events() {
	_n=$1
	shift
	for _try in 1 2 3 4 5 6 7 8 9 10; do
		want_events >"$tmp/ew"
		got_events "$@" >"$tmp/eg.$_n" || return 1
		{ [ -z "$node" ] || grep -q "^$node|" "$tmp/ew"; } &&
			cmp -s "$tmp/ew" "$tmp/eg.$_n" && return 0
		sleep 1
	done
	echo "# sacctmgr:"; cat "$tmp/ew"; echo "# squall:"; cat "$tmp/eg.$_n"
	return 1
}
if [ -z "$node" ]; then
	# compare the hour's events, whatever they are
	reason=
	ok "node-events: drain and resume # not here: every node has jobs (the workload), so Slurm records no drain"
	check "node-events: local lists the hour's events as sacctmgr show event" \
		same_events local "$SQUALL" -b local
else
check "node-events: local lists the drain of $node as sacctmgr show event" \
	same_events local "$SQUALL" -b local
check "node-events: the drain was set by root" grep -q "^$node|[^|]*|root|" "$tmp/eg.local"
fi
# the nodes view's events column: each node's down/drain events of the
# window, as sacctmgr counts them (after the drain above, when there was
# one); read only when the column shows (--record lists the commands)
want_counts() {
	slurm sacctmgr -n -P show event event=node start=now-1hours end=now \
		format=NodeName,State | awk -F'|' '{ s = toupper($2)
		if (s ~ /(^|\+)(DOWN|DRAIN|FAIL)/) n[$1]++ } END { for (k in n) print k "|" n[k] }' | sort
}
got_counts() {
	"$SQUALL" -b local --once --view nodes --since 1h --columns node,events \
		--format tsv >"$tmp/nc.tsv" 2>"$tmp/nc.err" || { cat "$tmp/nc.err"; return 1; }
	tsv_cols "$tmp/nc.tsv" node,events | awk -F'|' '{ sub(/ .*/, "", $2); if ($2 > 0) print $1 "|" $2 }' | sort
}
same_counts() {
	for _try in 1 2 3 4 5; do
		want_counts >"$tmp/cw"
		got_counts >"$tmp/cg" || return 1
		cmp -s "$tmp/cw" "$tmp/cg" && return 0
		sleep 1
	done
	echo "# sacctmgr:"; cat "$tmp/cw"; echo "# squall:"; cat "$tmp/cg"
	return 1
}
check "nodes: the events column counts sacctmgr's down/drain events ($(want_counts | tr '\n' ' '))" same_counts
if [ -n "$node" ]; then
	has_drain() { awk -F'\t' -v n="$node" 'NR > 1 && $1 == n && $2 + 0 >= 1 { f = 1 } END { exit !f }' "$tmp/nc.tsv"; }
	check "nodes: $node counts at least the drain of this test" has_drain
fi
no_events_fetch() {
	rm -rf "$tmp/rec1" "$tmp/rec2"
	"$SQUALL" -b local --record "$tmp/rec1" --once --view nodes --columns node,state >/dev/null 2>&1 &&
		"$SQUALL" -b local --record "$tmp/rec2" --once --view nodes --columns node,events >/dev/null 2>&1 &&
		! ls "$tmp/rec1" | grep -q sacctmgr && ls "$tmp/rec2" | grep -q sacctmgr
}
check "nodes: sacctmgr show event runs only when the events column shows" no_events_fetch
if [ -n "$node" ] && [ -r "$key" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; then
	check "node-events: ssh lists the drain of $node as sacctmgr show event" \
		same_events ssh "$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l alice \
		--ssh-config "$tmp/empty_config" --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts"
fi
if [ "$code" != 000 ] && [ -r "$TOKEN" ]; then
	rest_refuses() {
		! "$SQUALL" -b rest -u "$REST" --token-file "$TOKEN" --once \
			--view node-events >/dev/null 2>"$tmp/rr.err" &&
			grep -q "serves no node event history" "$tmp/rr.err"
	}
	check "node-events: rest refuses with the reason" rest_refuses
fi
# --- reboot and cancel-reboot (the testbed's RebootProgram only records):
# ASAP on a node whose job runs on for 10 minutes more, so Slurm holds the
# reboot as REBOOT_REQUESTED (and drains the node) and never issues it;
# then cancel-reboot takes it back. The node is restored whatever happens.
audit=$XDG_STATE_HOME/squall/audit.log
nstate() { slurm scontrol -o show node "$1" | sed -n 's/.* State=\([^ ]*\).*/\1/p'; }
# seconds left of squeue's %L (D-HH:MM:SS, HH:MM:SS, MM:SS)
rnode=$(slurm squeue -h -t R -o '%N %L' | awk '$1 ~ /^n[0-9]+$/ {
	d = 0; t = $2
	if (t ~ /-/) { split(t, p, "-"); d = p[1]; t = p[2] }
	n = split(t, f, ":"); s = 0
	for (i = 1; i <= n; i++) s = s * 60 + f[i]
	if (d * 86400 + s >= 600) { print $1; exit }
}')
case $(nstate "$rnode" 2>/dev/null) in *DRAIN* | *REBOOT* | *DOWN*) rnode= ;; esac
rreason="sq-reboot-$$"
restore_reboot() {
	[ -n "$rnode" ] || return 0
	case $(nstate "$rnode") in
	*REBOOT_REQUESTED*) slurm scontrol cancel_reboot "$rnode" ;;
	esac
	case $(nstate "$rnode") in
	*REBOOT_ISSUED* | *DOWN* | *DRAIN*)
		slurm scontrol -o show node "$rnode" | grep -q "Reason=$rreason\|Reason=reboot" &&
			slurm scontrol update nodename="$rnode" state=resume
		;;
	esac
	return 0
}
trap 'restore_reboot; cleanup_node' EXIT
sqx() { "$SQUALL" -b local --exec "$1" --yes >"$tmp/x.out" 2>"$tmp/x.err"; }
if [ -z "$rnode" ]; then
	ok "reboot: request and cancel # not here: no node runs a job with 10 minutes left, and an ASAP reboot of an idle node would be issued"
else
	nlog=$(wc -l <"$TB/log/reboot.log" 2>/dev/null)
	sqx "reboot $rnode asap nextstate=resume reason=$rreason"
	check "reboot: exit 0 and verified" test $? -eq 0
	check "reboot: the preview is the scontrol line" \
		grep -qx "scontrol reboot ASAP nextstate=resume reason=$rreason $rnode" "$tmp/x.out"
	check "reboot: the preview lists the jobs running there" \
		sh -c "grep -q '^Running on the target nodes:' '$tmp/x.out' && grep -Eq '^  [0-9_]+ .* $rnode\$' '$tmp/x.out'"
	check "reboot: scontrol shows REBOOT_REQUESTED on $rnode ($(nstate "$rnode"))" \
		sh -c "echo '$(nstate "$rnode")' | grep -q REBOOT_REQUESTED"
	check "reboot: the undo is cancelreboot $rnode" grep -qx "undo: cancelreboot $rnode" "$tmp/x.out"
	"$SQUALL" -b local --once --view nodes --filter "@node=$rnode" --columns node,state \
		--format tsv >"$tmp/rn.tsv" 2>&1
	check "reboot: the nodes view says REBOOT_REQUESTED" grep -q "REBOOT_REQUESTED" "$tmp/rn.tsv"
	sqx "cancel-reboot $rnode"
	check "cancel-reboot: exit 0 and verified" test $? -eq 0
	check "cancel-reboot: the preview is scontrol cancel_reboot" \
		grep -qx "scontrol cancel_reboot $rnode" "$tmp/x.out"
	check "cancel-reboot: no REBOOT_REQUESTED left ($(nstate "$rnode"))" \
		sh -c "! echo '$(nstate "$rnode")' | grep -q REBOOT"
	check "reboot: both audited (intent and result each)" \
		test "$(grep -c '"action":"reboot"' "$audit" 2>/dev/null)/$(grep -c '"action":"cancelreboot"' "$audit" 2>/dev/null)" = 2/2
	check "reboot: RebootProgram was never run (reboot.log has as many lines)" \
		test "$(wc -l <"$TB/log/reboot.log" 2>/dev/null)" = "$nlog"
	# squall's own actions beside Slurm's events (the audit log of this
	# test, $XDG_STATE_HOME): who asked, on which cluster
	"$SQUALL" -b local --once --view node-events --since 1h --format json \
		>"$tmp/na.json" 2>"$tmp/na.err"
	audit_rows() {
		jq -r --arg n "$rnode" '.[] | select(.node == $n and (.state | startswith("squall "))) |
			"\(.state)|\(.set_by)|\(.reason)"' "$tmp/na.json" | sort
	}
	audit_rows >"$tmp/ar"
	check "node-events: squall's reboot of $rnode beside the events (root, on default, verified)" \
		grep -qx "squall reboot|root|$rreason (squall on default, verified)" "$tmp/ar"
	check "node-events: and its cancel-reboot" \
		grep -qx "squall cancelreboot|root|(squall on default, verified)" "$tmp/ar"
	# cancel-reboot through slurmrestd (API v0.0.39+): a POST of state
	# REBOOT_CANCELED to the node, checked with scontrol
	RV=$(curl -s -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $(cat "$TOKEN" 2>/dev/null)" "$REST/openapi/v3" 2>/dev/null |
		jq -r '.paths | keys[]' 2>/dev/null | sed -n 's,^/slurm/v0\.0\.\([0-9]*\)/jobs/*$,\1,p' |
		awk '$1 <= 45' | sort -n | tail -1)
	if [ "${RV:-0}" -ge 39 ]; then
		sqx "reboot $rnode asap nextstate=resume reason=$rreason"
		check "reboot (again, local): REBOOT_REQUESTED ($(nstate "$rnode"))" \
			sh -c "echo '$(nstate "$rnode")' | grep -q REBOOT_REQUESTED"
		"$SQUALL" -b rest -u "$REST" --token-file "$TOKEN" --exec "cancelreboot $rnode" \
			--yes >"$tmp/x.out" 2>"$tmp/x.err"
		check "cancel-reboot: rest: exit 0 and verified" \
			sh -c "test $? -eq 0 && grep -q '^cancelreboot: 1 of 1 done and verified' '$tmp/x.out'"
		check "cancel-reboot: rest: the preview is the POST" \
			grep -qx "POST /slurm/v0.0.$RV/node/$rnode {\"state\":\[\"REBOOT_CANCELED\"\]}" "$tmp/x.out"
		check "cancel-reboot: rest: no REBOOT_REQUESTED left ($(nstate "$rnode"))" \
			sh -c "! echo '$(nstate "$rnode")' | grep -q REBOOT"
	fi
	restore_reboot
fi
if [ "$code" != 000 ] && [ -r "$TOKEN" ]; then
	rest_reboot_refused() {
		! "$SQUALL" -b rest -u "$REST" --token-file "$TOKEN" --exec "reboot n1 asap" \
			--yes >/dev/null 2>"$tmp/rb.err" &&
			grep -q "POST /node answers 405\|slurmrestd has no reboot call" "$tmp/rb.err"
	}
	check "reboot: rest refuses with the reason" rest_reboot_refused
fi
finish
