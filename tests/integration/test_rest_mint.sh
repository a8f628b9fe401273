#!/bin/sh
# test_rest_mint.sh - the rest backend with an ssh companion: no token file
# and no SLURM_JWT, but the cluster names a login node, so squall mints a
# token there with `scontrol token` over ssh. The token never shows in
# output, errors or any argv; a failing companion gives a clear error.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ssh_opts="-H 127.0.0.1 -p $SSH_PORT -l alice --identity $TB/ssh/id_ed25519 --known-hosts $TB/ssh/known_hosts"
rest="-b rest -u http://127.0.0.1:$REST_PORT"

# shellcheck disable=SC2086
env -u SLURM_JWT SQUALL_CONFIG=/dev/null "$SQUALL" $rest $ssh_opts --once --view partitions --format tsv >"$tmp/rest.tsv" 2>"$tmp/err"
check "minted over ssh: exit 0" test $? -eq 0
SQUALL_CONFIG=/dev/null "$SQUALL" --once --view partitions --format tsv >"$tmp/local.tsv"
check "minted over ssh: partitions agree with local" \
	test "$(tsv_cols "$tmp/rest.tsv" partition,state,nodes)" = "$(tsv_cols "$tmp/local.tsv" partition,state,nodes)"
check "minted over ssh: no token in output or errors" sh -c "! grep -q 'eyJ' '$tmp/rest.tsv' '$tmp/err'"

# watch the argv of every process while a session runs
# shellcheck disable=SC2086
env -u SLURM_JWT SQUALL_CONFIG=/dev/null "$SQUALL" $rest $ssh_opts --once --view jobs >/dev/null 2>&1 &
pid=$!
found=0
# squall and its children (ssh runs in-process; local tools would be
# children); the pattern is bracketed so grep does not find itself
while kill -0 $pid 2>/dev/null; do
	for p in /proc/[0-9]*; do
		pp=$(awk '{ print $4 }' "$p/stat" 2>/dev/null)
		[ "${p#/proc/}" = "$pid" ] || [ "$pp" = "$pid" ] || continue
		if tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q 'ey[J]'; then
			found=1
		fi
	done
done
wait $pid
check "minted over ssh: the token is in no process's argv" test $found -eq 0

# a companion that cannot log in: clear error, exit 1
ssh-keygen -q -t ed25519 -N '' -f "$tmp/wrongkey"
env -u SLURM_JWT SQUALL_CONFIG=/dev/null "$SQUALL" $rest -H 127.0.0.1 -p $SSH_PORT -l alice \
	--identity "$tmp/wrongkey" --known-hosts "$TB/ssh/known_hosts" --once --view jobs >/dev/null 2>"$tmp/err"
check "companion refused: exit 1" test $? -eq 1
check "companion refused: one line naming the ssh login" sh -c "test \$(wc -l <'$tmp/err') -eq 1 && grep -qi 'auth\|key\|denied' '$tmp/err'"
finish
