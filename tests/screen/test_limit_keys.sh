#!/bin/sh
# tests/screen/test_limit_keys.sh - Tab completes the limit keys of an
# action in the `:` prompt (the vocabulary of core/action/limit_keys.h): the real
# binary in a private tmux server on the live testbed (local backend), in
# the qos view (setqos, modqos, addqos) and with setlimit in assocs. Nothing is run:
# each line is cleared before Enter.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=limit_keys
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed

export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":qos" Enter
wait_for '^ squall  :qos ' 5

keys ":setqos low maxtrespu" Tab
check "Tab completes maxtrespu to maxtrespu=" \
	wait_for '^:setqos low maxtrespu= *$' 3
keys C-u "modqos low preemptm" Tab
check "modqos: Tab completes preemptm to preemptmode=" \
	wait_for '^:modqos low preemptmode= *$' 3
keys C-u "addqos x usagef" Tab
check "addqos: Tab completes usagef to usagefactor=" \
	wait_for '^:addqos x usagefactor= *$' 3
keys C-u Escape
# in the qos view setlimit is setqos (an alias); in assocs the association's
keys ":assocs" Enter
wait_for '^ squall  :assocs ' 5
keys ":setlimit account=physics maxsub" Tab
check "setlimit: Tab completes maxsub to maxsubmit= (the association key)" \
	wait_for '^:setlimit account=physics maxsubmit= *$' 3
keys C-u Escape

T send-keys -t t q
echo "1..$count"
exit $failed
