#!/bin/sh
# tests/screen/test_reasons.sh - reason templates in the console: the real
# binary in a private tmux server on the live testbed (local backend) with
# a config file defining two templates. `:reason` alone lists them, Tab
# completes @NAME (and reason=@NAME), `:drain @maint` previews the
# template's text (n answers No: n2 is not drained, checked with scontrol)
# and an unknown @NAME is reported with the defined names. Nothing on the
# cluster is changed.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=reasons
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed

cat >"$WORK/config" <<'EOF'
reason maint Planned maintenance
reason disk "Disk failure: replace disk, ticket needed"
EOF
export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=$WORK/config
export XDG_STATE_HOME=$WORK/state

drained() { S scontrol -o show node n2 | grep -q 'State=[A-Z+]*DRAIN'; }
was_drained=no
drained && was_drained=yes

T new-session -d -s t -x 200 -y 50 "$SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":nodes" Enter
wait_for '^ squall  :nodes ' 5
keys / '@node=n2' Enter
sleep 0.5

keys ":reason" Enter
check ":reason alone lists the templates" \
	wait_for '@maint +Planned maintenance' 3
check ":reason: every template, with its text" \
	wait_for '@disk +Disk failure: replace disk, ticket needed' 1
keys Escape

keys ":drain @m" Tab
check "Tab completes @m to @maint" wait_for '^:drain @maint *$' 3
keys C-u "drain reason=@d" Tab
check "Tab completes reason=@d to reason=@disk" \
	wait_for '^:drain reason=@disk *$' 3
keys C-u "drain @" Tab
check "Tab on @ gives the first template" wait_for '^:drain @disk *$' 3
keys Tab
check "Tab again the next one" wait_for '^:drain @maint *$' 3
keys Escape

keys D
wait_for ':drain' 3
keys '@maint' Enter
check "the preview shows the template's text, not @maint" \
	wait_for "scontrol update nodename=n2 state=drain reason='Planned maintenance'" 5
keys n
check "n answers No" wait_for 'drain: not run' 3
if [ $was_drained = no ]; then
	check "n2 is not drained (scontrol)" not drained
fi

keys ":drain @nope" Enter
check "an unknown @NAME is named, with the defined names" \
	wait_for "unknown reason template '@nope' \(defined: maint disk\)" 3

T send-keys -t t q
echo "1..$count"
exit $failed
