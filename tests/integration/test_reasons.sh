#!/bin/sh
# test_reasons.sh - reason templates on the live testbed: a config file
# (SQUALL_CONFIG) defines `reason maint Planned maintenance`; `squall --exec
# 'drain n2 reason=@maint' --yes` drains n2 with exactly that reason
# (scontrol, sinfo -R), the printed command and the audit log hold the text
# and never @maint; an unknown @NAME and a template refused for hostile text
# run nothing. n2 is resumed on exit, by this test only if it drained it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp"
export SQUALL_CONFIG="$tmp/config" XDG_STATE_HOME="$tmp/state"
audit=$XDG_STATE_HOME/squall/audit.log
node=n2
text="Planned maintenance"
disk="Disk failure: replace disk, ticket needed"
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}
reason_of() { slurm scontrol -o show node "$1" | sed -n 's/.* Reason=\(.*\) \[.*/\1/p'; }
state_of() { slurm scontrol -o show node "$1" | sed -n 's/.* State=\([^ ]*\).*/\1/p'; }
cleanup() {
	if [ -e "$tmp/drained" ]; then
		case $(reason_of "$node") in
		"$text" | "$disk") slurm scontrol update nodename="$node" state=resume 2>/dev/null ;;
		esac
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
sq() { "$SQUALL" "$@" >"$tmp/out" 2>"$tmp/err"; }
lines() { if [ -f "$audit" ]; then wc -l <"$audit"; else echo 0; fi; }

cat >"$SQUALL_CONFIG" <<'EOF'
# site reason templates
reason maint Planned maintenance
reason evil "it's $(reboot)"
reason disk "Disk failure: replace disk, ticket needed"
EOF

# another test (or engineer) may hold the node drained for a while
i=0
while state_of "$node" | grep -Eq 'DRAIN|DOWN' && [ $i -lt 60 ]; do
	sleep 2
	i=$((i + 2))
done
if state_of "$node" | grep -Eq 'DRAIN|DOWN'; then
	notok "$node is drained or down by someone else ($(reason_of "$node")); not touching it"
	finish
fi

# --- @maint expands to the template's text
touch "$tmp/drained"
sq --exec "drain $node reason=@maint" --yes
check "drain @maint: exit 0" test $? -eq 0
check "drain @maint: the printed command holds the text" \
	test "$(head -1 "$tmp/out")" = "scontrol update nodename=$node state=drain reason='$text'"
check "drain @maint: State has DRAIN (scontrol)" sh -c "echo '$(state_of "$node")' | grep -q DRAIN"
check "drain @maint: scontrol shows exactly the template's reason" \
	test "$(reason_of "$node")" = "$text"
check "drain @maint: sinfo -R shows it" \
	sh -c "env LC_ALL=C sinfo -R -h -o '%E|%N' | grep -qx '$text|$node'"
check "the config's hostile template was reported as file:line" \
	grep -q "config:3: reason evil: text may not contain quotes" "$tmp/err"
check "audit: an intent and a result line" test "$(lines)" -eq 2
check "audit: the intent's args hold the text" \
	grep -q "\"event\":\"intent\".*\"reason=$text\"" "$audit"
check "audit: the command holds the text" \
	grep -q "\"command\":\"scontrol update nodename=$node state=drain reason='$text'\"" "$audit"
check "audit: the result is ok" grep -q '"event":"result".*"ok":true' "$audit"
check "audit: @maint is not in the log" sh -c "! grep -q '@maint' '$audit'"

# --- unknown names run nothing
before=$(lines)
sq --exec "reason $node reason=@nope" --yes
check "unknown @nope: exit 2" test $? -eq 2
check "unknown @nope: named, with the defined names" \
	grep -q "unknown reason template '@nope' (defined: maint disk)" "$tmp/err"
sq --exec "reason $node reason=@evil" --yes
check "a template refused at definition does not exist: exit 2" test $? -eq 2
check "nothing reached the cluster: the reason is unchanged" \
	test "$(reason_of "$node")" = "$text"
check "nothing was audited" test "$(lines)" -eq "$before"

# --- another template as the node's new reason, then resume
sq --exec "reason $node reason=@disk" --yes
check "reason @disk: exit 0" test $? -eq 0
check "reason @disk: scontrol shows the new text" \
	test "$(reason_of "$node")" = "$disk"
check "reason @disk: the undo line restores the old text" \
	grep -q "^undo: reason $node reason=\"$text\"\$" "$tmp/out"
sq --exec "resume $node" --yes
check "resume: exit 0" test $? -eq 0
check "resume: DRAIN is gone (scontrol)" sh -c "! echo '$(state_of "$node")' | grep -q DRAIN"
check "resume: the undo line drains with the text, not @disk" \
	grep -q "^undo: drain $node reason=\"$disk\"\$" "$tmp/out"
finish
