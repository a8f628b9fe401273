#!/bin/sh
# test_replay.sh - --record DIR keeps the raw outputs of a session (private
# files, no secrets) and --replay DIR shows them again without a cluster:
# the same rows, views not recorded say so, actions are refused.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rec=$tmp/rec/session

for v in jobs nodes partitions; do
	"$SQUALL" --record "$rec" --once --view $v --format tsv >"$tmp/$v.live" ||
		notok "record $v"
done
check "record: the directory is private (0700)" test "$(stat -c %a "$rec")" = 700
check "record: files are private (0600)" test -z "$(find "$rec" -type f ! -perm 600)"
check "record: an index line per command" test "$(wc -l <"$rec/index.tsv")" -ge 8
check "record: the squeue output is kept" grep -q '	squeue	' "$rec/index.tsv"

for v in jobs nodes partitions; do
	"$SQUALL" --replay "$rec" --once --view $v --format tsv >"$tmp/$v.replay"
	check "replay $v: exit 0" test $? -eq 0
	check "replay $v: the recorded rows" cmp -s "$tmp/$v.live" "$tmp/$v.replay"
done
# a second recording session continues the sequence (nothing overwritten)
n=$(wc -l <"$rec/index.tsv")
"$SQUALL" --record "$rec" --once --view jobs >/dev/null
check "record: a second session appends" test "$(wc -l <"$rec/index.tsv")" -gt "$n"
check "record: sequence numbers stay unique" test -z "$(cut -f1 "$rec/index.tsv" | sort | uniq -d)"

"$SQUALL" --replay "$rec" --once --view qos >/dev/null 2>"$tmp/err"
check "replay of a view never recorded: exit 1" test $? -eq 1
check "replay of a view never recorded: says so" grep -q 'recording has no output' "$tmp/err"
# issue 45 item 6: which command, and what the recording holds
check "replay of a view never recorded: names sacctmgr show qos" grep -q "no output of 'sacctmgr show qos'" "$tmp/err"
check "replay of a view never recorded: lists what it holds" grep -q 'it holds: .*squeue.*sinfo\|it holds: .*sinfo.*squeue' "$tmp/err"
"$SQUALL" --replay "$rec" --exec "hold 1" --yes >"$tmp/out" 2>&1
check "replay: actions are refused" test $? -eq 1
check "replay: says why" grep -q 'cannot change the cluster' "$tmp/out"
"$SQUALL" --replay "$tmp/nothing" --once --view jobs >/dev/null 2>"$tmp/err"
check "replay of a missing directory: exit 1" test $? -eq 1
check "replay of a missing directory: one line" test "$(wc -l <"$tmp/err")" -eq 1
printf 'garbage\n' >"$tmp/bad.tsv"
mkdir -p "$tmp/bad" && cp "$tmp/bad.tsv" "$tmp/bad/index.tsv"
"$SQUALL" --replay "$tmp/bad" --once --view jobs >/dev/null 2>"$tmp/err"
check "replay of a malformed index: exit 1, line named" grep -q 'index.tsv:1' "$tmp/err"
printf '000001\t0\t../../etc/passwd\tsinfo\t-V\n' >"$tmp/bad/index.tsv"
"$SQUALL" --replay "$tmp/bad" --once --view jobs >/dev/null 2>"$tmp/err"
check "replay refuses a file outside its directory" grep -q 'malformed' "$tmp/err"
finish
