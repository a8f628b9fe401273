#!/bin/sh
# tests/screen/test_node_events.sh - a node's history in the console: the
# real binary in a private tmux server on the live testbed. The nodes
# view's detail pane lists the node's last events as `sacctmgr show
# event` has them (local backend); the events column shows when chosen
# with :columns; X in the nodes view previews `scontrol cancel_reboot`
# (answered No: nothing changes); through slurmrestd the pane says there
# is no event history and shows what /nodes gives.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=nodeevents
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed
export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state

# the node with the newest down/drain event of the last day, and its reason
last=$(S sacctmgr -n -P show event event=node start=now-24hours end=now \
	format=Start,NodeName,State,Reason | sort -r |
	awk -F'|' 'toupper($3) ~ /DOWN|DRAIN/ && $4 != "" { print $2 "|" $4; exit }')
node=${last%%|*}
reason=${last#*|}
[ -n "$node" ] || node=n1

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":nodes" Enter
wait_for '^ squall  :nodes ' 5
keys / "@node=$node" Enter
sleep 0.5
keys Enter
check "the detail pane has the node's last events" \
	wait_for 'Last events of this node' 5
if [ -n "$last" ]; then
	check "the pane lists $node's newest event ($reason)" \
		wait_for "$(printf '%s' "$reason" | cut -c1-30 | sed 's/[][\\.*^$()+?{}|]/\\&/g')" 10
else
	check "no event in the day: the pane says none" \
		wait_for 'none in the history window' 10
fi
keys Escape
sleep 0.3
keys X
check "X in the nodes view previews scontrol cancel_reboot $node" \
	wait_for "scontrol cancel_reboot $node" 5
keys n
sleep 0.3
check "answered No: $node has no reboot pending" \
	not sh -c "scontrol -o show node $node | grep -q REBOOT"
T kill-session -t t 2>/dev/null

REST=http://127.0.0.1:${REST_PORT:-6820}
TOKEN=$TB/jwt/root.token
if [ -r "$TOKEN" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")" != 000 ]; then
	T new-session -d -s t -x 200 -y 50 \
		"$SQUALL -b rest -u $REST --token-file $TOKEN; sleep 600"
	wait_for ' default rest [0-9]' 15
	keys ":nodes" Enter
	wait_for '^ squall  :nodes ' 5
	keys / "@node=$node" Enter
	sleep 0.5
	keys Enter
	check "rest: the pane says slurmrestd serves no event history" \
		wait_for 'slurmrestd serves no event history' 10
	check "rest: and shows what /nodes gives" wait_for '/nodes gives:' 3
else
	ok "rest: not checked # slurmrestd does not answer on $REST"
fi

T send-keys -t t q
echo "1..$count"
exit $failed
