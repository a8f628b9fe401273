#!/bin/sh
# test_hostile.sh - hostile text from the cluster on the live testbed. Real
# jobs of alice (held, cancelled by id at exit) carry names with quotes,
# ';', $(...), backticks, '|', a tab, a newline, OSC and CSI escape
# sequences, invalid UTF-8, 1000 bytes and a whole forged squeue record
# after a line break. What Slurm 22.05 takes: all
# of these in sbatch -J (a newline too) and in scontrol update name= or
# comment=; it refuses names and comments over 1024 bytes, so the 4 KB
# strings go through a --record directory replayed with --replay, as a
# job name, user and reason, a node reason and an account description. Checks: the table has no ESC or other control byte and is
# valid UTF-8, one row a job; tsv escapes them and keeps its columns; JSON
# is valid UTF-8 and gives the names back; the console sets no window
# title; the same values offered to actions (--exec, local and ssh) are
# refused before anything runs, and values that are only dangerous to a
# shell (';', '|') arrive quoted, never executed: /tmp/pwned never appears.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
ids=
sock=
cleanup() {
	for j in $ids; do scancel "$j" 2>/dev/null; done
	[ -n "$sock" ] && tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME=$tmp/state
export LANG=C.UTF-8

rm -f /tmp/pwned
E=$(printf '\033')
BEL=$(printf '\007')
TAB=$(printf '\t')
NL='
'
BAD=$(printf 'bad\377\376\302\2332J')
LONG=$(head -c 1000 /dev/zero | tr '\0' L)
K4=$(head -c 4096 /dev/zero | tr '\0' K)

# sub VAR NAME: a held job of alice named NAME; its id in VAR
sub() {
	id=$(cd /tmp && runuser -u alice -- sbatch --parsable --hold \
		-o /dev/null -D /tmp -p low -c 1 -t 5 -J "$2" --wrap 'sleep 300' \
		2>"$tmp/sbatch.err")
	id=${id%%;*}
	if [ -z "$id" ]; then
		notok "submit $1: $(cat "$tmp/sbatch.err")"
		return 1
	fi
	ids="$ids $id"
	eval "$1=\$id"
}
sub J1 "sqh1 q'uo\"te"
sub J2 "sqh2 a;touch /tmp/pwned;b"
sub J3 'sqh3 $(touch /tmp/pwned)'
sub J4 'sqh4 `touch /tmp/pwned`'
sub J5 'sqh5 a|b|c'
sub J6 "sqh6 a${TAB}b"
sub J7 "sqh7 ${E}]0;pwned${BEL}${E}[2J${E}[31mred${E}[0m"
sub J8 "sqh8 $BAD"
sub J9 "sqh9 line1${NL}line2"
sub J10 "sqh10 $LONG"
# a line break and a whole well-formed squeue record of a running job
# 999998 of root: without the nonce of squall's squeue line it was a job
FORGED='999998|999998|N/A|N/A|root|physics|high|normal|R|RUNNING|99999|1|64|N/A|UNLIMITED|1:00|1796013499|1796013499|n1|0|None|forged'
sub J11 "sqh11 forge${NL}$FORGED"
check "eleven hostile jobs submitted" test "$(echo $ids | wc -w)" -eq 11
# a comment with a newline and an escape (read back by actions)
scontrol update jobid="$J1" comment="c1${NL}c2 ${E}]0;pwned${BEL}" 2>/dev/null

# safe FILE [ALLOWED]: no ESC, no control byte but newlines (and the
# ones in ALLOWED, e.g. '\t' for tsv), no C1 control, valid UTF-8
safe() {
	! LC_ALL=C grep -q "$E" "$1" &&
		! LC_ALL=C tr -d "\\n${2:-}" <"$1" |
		LC_ALL=C grep -q '[[:cntrl:]]' &&
		utf8 "$1" &&
		! LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"
}
utf8() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }
safe_tsv() { safe "$1" '\t'; }
# one_row FILE ID: the id starts exactly one line
one_row() { [ "$(grep -ac "^$2[ $TAB]" "$1")" -eq 1 ]; }
# same_fields FILE: every tsv line has the header's number of fields
same_fields() {
	awk -F'\t' 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$1"
}
not_row() { ! grep -aq "^$2[ $TAB]" "$1"; }
all_rows() { # all_rows FILE: each hostile job on one line
	for j in $ids; do one_row "$1" "$j" || return 1; done
}

# --- table, tsv, json of the jobs view
"$SQUALL" --once --view jobs >"$tmp/t" 2>"$tmp/t.err"
check "table: exit 0" test $? -eq 0
check "table: no escape or control byte, valid UTF-8" safe "$tmp/t"
check "table: one row per hostile job (tab, newline, '|' keep it whole)" \
	all_rows "$tmp/t"
check "table: the 1000-byte name is shown (cut, not dropped)" \
	grep -aq "sqh10 LLLL" "$tmp/t"
check "table: a forged record in a name is no job (no row 999998)" \
	not_row "$tmp/t" 999998

"$SQUALL" --once --view jobs --format tsv >"$tmp/v" 2>/dev/null
check "tsv: exit 0" test $? -eq 0
check "tsv: no raw escape or control byte, valid UTF-8" safe_tsv "$tmp/v"
check "tsv: every line has the header's columns" same_fields "$tmp/v"
check "tsv: one line per hostile job" all_rows "$tmp/v"
check "tsv: OSC and CSI escaped (backslash x1b)" \
	grep -aqF 'sqh7 \x1b]0;pwned\x07\x1b[2J' "$tmp/v"
check "tsv: tab escaped (backslash t)" grep -aqF 'sqh6 a\tb' "$tmp/v"
check "tsv: newline escaped (backslash n)" grep -aqF 'sqh9 line1\nline2' "$tmp/v"
check "tsv: invalid UTF-8 and C1 escaped (backslash xNN)" \
	grep -aqF 'sqh8 bad\xff\xfe\xc2\x9b2J' "$tmp/v"
check "tsv: the 1000-byte name whole" grep -aqF "sqh10 $LONG" "$tmp/v"
check "tsv: no row 999998, the forged record is in J11's name" sh -c \
	"! grep -aq '^999998$TAB' '$tmp/v' && grep -aqF 'sqh11 forge\\n999998|' '$tmp/v'"

"$SQUALL" --once --view jobs --format json >"$tmp/j" 2>/dev/null
check "json: exit 0" test $? -eq 0
check "json: valid (jq)" sh -c "jq -e 'type == \"array\"' '$tmp/j' >/dev/null"
check "json: valid UTF-8" utf8 "$tmp/j"
check "json: no raw escape byte" sh -c "! LC_ALL=C grep -q '$E' '$tmp/j'"
name_of() { jq -r --arg id "$1" '.[] | select(.job_id == $id) | .name' "$tmp/j"; }
for v in J1 J2 J3 J4 J5 J6 J7 J9 J10 J11; do
	eval "id=\$$v"
	want=$(squeue -h -j "$id" -o %j)
	check "json: the name of $v comes back exactly" \
		test "$(name_of "$id")" = "$want"
done
check "json: invalid UTF-8 becomes U+FFFD" \
	test "$(name_of "$J8")" = "sqh8 bad$(printf '\357\277\275\357\277\275\302\233')2J"

# --- the console: an OSC 0 would set the window (pane) title
if command -v tmux >/dev/null 2>&1; then
	sock=squall-hostile-$$
	T() { tmux -L "$sock" -f /dev/null "$@"; }
	T new-session -d -s h -x 200 -y 50 "$SQUALL -r 2; sleep 30"
	T set -t h allow-rename on 2>/dev/null
	before=$(T display -p -t h '#{pane_title}')
	i=0
	until T capture-pane -p -t h | grep -q 'JOBID'; do
		sleep 0.5
		i=$((i + 1))
		[ $i -ge 40 ] && break
	done
	T send-keys -t h '/' 'sqh' Enter
	sleep 3
	T capture-pane -p -t h >"$tmp/screen"
	T capture-pane -p -e -t h >"$tmp/screen.e"
	if grep -q 'sqh7' "$tmp/screen"; then
		ok "console: the hostile rows are on screen"
	else
		notok "console: the hostile rows are on screen"
		sed 's/^/#   /' "$tmp/screen" | head -20
	fi
	check "console: no OSC sequence reached the terminal" \
		test "$(T display -p -t h '#{pane_title}')" = "$before"
	check "console: the screen holds no OSC" \
		sh -c "! grep -aq '$E]' '$tmp/screen.e'"
	T send-keys -t h q
	T kill-server 2>/dev/null
	sock=
fi

# --- actions: hostile values are refused before anything runs
# ex NAME LINE [BACKEND ARGS]: --exec without --yes and without a terminal
ex() {
	name=$1 line=$2
	shift 2
	"$SQUALL" "$@" --exec "$line" </dev/null >"$tmp/x.out" 2>"$tmp/x.err"
	rc=$?
	if [ $rc -ne 0 ] && grep -qE 'may not contain|control characters|invalid|too long' \
		"$tmp/x.err" && ! grep -q 'no terminal to confirm' "$tmp/x.err" &&
		safe "$tmp/x.out" && safe "$tmp/x.err"; then
		ok "refused: $name"
	else
		notok "refused: $name (exit $rc: $(head -c 200 "$tmp/x.err"))"
	fi
}
ssh_args="-b ssh -H 127.0.0.1 -p $SSH_PORT -l alice --identity $TB/ssh/id_ed25519 --known-hosts $TB/ssh/known_hosts"
# shellcheck disable=SC2086
"$SQUALL" $ssh_args --once --view jobs --format tsv >"$tmp/sv" 2>/dev/null
check "ssh: no row 999998, J11 is one row (the same squeue line)" sh -c \
	"! grep -aq '^999998$TAB' '$tmp/sv' && [ \$(grep -ac '^$J11$TAB' '$tmp/sv') -eq 1 ]"
# --- sacct: forged records after a line break in a job name. J12 ends
# at once (a run in the history), J13 is requeued while it runs (an event)
FORGED_H='999997|999997|root|physics|high|normal|COMPLETED|0:0|1796013499|1796013499|1796013599|100|64|1G|cpu=64|1|1|n1|00:01:00|1K|forged'
FORGED_E='999996|999996|root|physics|high|normal|PREEMPTED|1796013499|1796013599|n1|forged'
run_job() { # run_job VAR NAME CMD
	id=$(cd /tmp && runuser -u alice -- sbatch --parsable -o /dev/null \
		-D /tmp -p low -c 1 -t 5 -J "$2" --wrap "$3" 2>"$tmp/sbatch.err")
	id=${id%%;*}
	[ -n "$id" ] && ids="$ids $id"
	eval "$1=\$id"
}
run_job J12 "sqh12 forge${NL}$FORGED_H${NL}$FORGED_E" true
run_job J13 "sqh13 forge${NL}$FORGED_E${NL}$FORGED_H" 'sleep 300'
i=0
until [ "$(squeue -h -j "$J13" -o %T 2>/dev/null)" = RUNNING ] ||
	[ $i -ge 60 ]; do
	sleep 0.5
	i=$((i + 1))
done
scontrol requeue "$J13" 2>/dev/null
i=0
until [ "$(sacct -n -X -P -D -j "$J13" -o State 2>/dev/null | head -1)" = REQUEUED ] &&
	[ "$(sacct -n -X -P -j "$J12" -o State 2>/dev/null)" = COMPLETED ] ||
	[ $i -ge 60 ]; do
	sleep 0.5
	i=$((i + 1))
done
check "sacct: J12 completed, J13 requeued (sacct agrees)" test $i -lt 60
for b in local ssh; do
	args=
	[ $b = ssh ] && args=$ssh_args
	# a run that has just ended can take a few seconds to show in a
	# sacct -S/-E window (slurmdbd): ask again until J12 is there
	i=0
	while :; do
		# shellcheck disable=SC2086
		"$SQUALL" $args --once --view history --since 30m --format tsv \
			>"$tmp/h.$b" 2>"$tmp/h.$b.err"
		grep -aq "^$J12$TAB" "$tmp/h.$b" || [ $i -ge 30 ] && break
		sleep 1
		i=$((i + 1))
	done
	check "$b: history: J12 is there, no run 999997 (sacct -P's nonce)" \
		sh -c "grep -aq '^$J12$TAB' '$tmp/h.$b' && ! grep -aq 99999[67] '$tmp/h.$b'"
	grep -a "99999[67]" "$tmp/h.$b" | head -3 | sed 's/^/# /'
	head -3 "$tmp/h.$b.err" | sed 's/^/# stderr: /'
	[ $i -gt 0 ] && echo "# $b: J12 showed after $i more fetch(es)"
	# as for the history: a requeue can take a moment to show in sacct
	i=0
	while :; do
		# shellcheck disable=SC2086
		"$SQUALL" $args --once --view events --format tsv \
			>"$tmp/e.$b" 2>"$tmp/e.$b.err"
		grep -aq "$TAB$J13$TAB" "$tmp/e.$b" || [ $i -ge 30 ] && break
		sleep 1
		i=$((i + 1))
	done
	check "$b: events: J13's requeue is there, no event of 999996" \
		sh -c "grep -aq '$TAB$J13$TAB' '$tmp/e.$b' && ! grep -aq 99999[67] '$tmp/e.$b'"
done

for b in local ssh; do
	args=
	[ $b = ssh ] && args=$ssh_args
	# shellcheck disable=SC2086
	{
		ex "$b: comment with a single quote" "update $J1 comment=\"a'b\"" $args
		ex "$b: comment with \$(...)" "update $J1 comment=\"\$(touch /tmp/pwned)\"" $args
		ex "$b: comment with backticks" "update $J1 comment=\"\`touch /tmp/pwned\`\"" $args
		ex "$b: comment with ESC ]" "update $J1 comment=\"${E}]0;pwned${BEL}\"" $args
		ex "$b: comment with CSI" "update $J1 comment=\"${E}[2J\"" $args
		ex "$b: comment with a tab" "update $J1 comment=\"a${TAB}b\"" $args
		ex "$b: comment with a newline" "update $J1 comment=\"a${NL}b\"" $args
		ex "$b: comment of 4 KB" "update $J1 comment=$K4" $args
		ex "$b: comment with invalid UTF-8" "update $J1 comment=\"$BAD\"" $args
		ex "$b: drain reason with \$(...)" "drain n1 reason=\$(touch /tmp/pwned)" $args
		ex "$b: drain reason with an escape" "drain n1 reason=${E}[2Jx" $args
		ex "$b: job name as a target" "hold $J7 ${E}]0;x${BEL}" $args
	}
done

# values a shell would act on but Slurm takes as text: quoted, not run
for b in local ssh; do
	args=
	[ $b = ssh ] && args=$ssh_args
	val="x; touch /tmp/pwned | cat && touch /tmp/pwned"
	# shellcheck disable=SC2086
	"$SQUALL" $args --yes --exec "update $J2 comment=\"$val\"" \
		>"$tmp/y.out" 2>"$tmp/y.err"
	rc=$?
	got=$(scontrol show job "$J2" | sed -n 's/^ *Comment=\(.*[^ ]\) *$/\1/p')
	check "$b: ';' and '|' in a comment arrive as text (exit $rc)" \
		test "$got" = "$val"
	check "$b: the --exec output is safe" safe "$tmp/y.out"
	scontrol update jobid="$J2" comment=reset 2>/dev/null
done

# --- the audit log: JSON lines, escapes escaped
log=$XDG_STATE_HOME/squall/audit.log
check "audit: written" test -s "$log"
check "audit: no raw escape or control byte" safe "$log"
check "audit: every line is JSON" sh -c "jq -e . '$log' >/dev/null"

# --- 4 KB strings: a recording with hostile rows, replayed
rec=$tmp/rec
for v in jobs nodes accounts; do
	"$SQUALL" --record "$rec" --once --view $v >/dev/null 2>&1
done
HOST="${E}]0;pwned${BEL}${E}[2J$K4$BAD;\$(touch /tmp/pwned)"
f=$(grep -l '' "$rec"/*-squeue.out | head -1)
# a record of job 999999 made from the first line, its nonce (field 2,
# see backends/cli/parse_squeue.c) kept
head -1 "$f" | awk -F'|' -v h="$HOST" 'BEGIN { OFS = "|" }
	{ $1 = $3 = $4 = 999999; $6 = "u" h; $22 = "r" h; NF = 22; print $0 "|n" h }' \
	>>"$f"
# the nodes' own read (scontrol -d -o show node): the first node's reason
f=$rec/$(awk -F'\t' '$4 == "scontrol" && $5 == "-d" && $8 == "node" { print $3; exit }' "$rec/index.tsv")
awk -v h="$HOST" 'NR == 1 { sub(/ Reason=.*/, ""); print $0 " Reason=" h " [root@1700000000]"; next } { print }' \
	"$f" >"$f.new" && mv "$f.new" "$f"
# the accounts' own read (the nodes view's --once, every column, reads
# sacctmgr's node events too): the file index.tsv names for it
f=$rec/$(awk -F'\t' '$4 == "sacctmgr" && $7 == "show" && $8 == "account" { print $3; exit }' "$rec/index.tsv")
awk -F'|' -v h="$HOST" 'BEGIN { OFS = "|" } NR == 1 { $7 = "d" h } { print }' \
	"$f" >"$f.new" && mv "$f.new" "$f"
tsv_ok() {
	grep -aqF 'pwned\x07\x1b[2JKKKK' "$1" && safe_tsv "$1" && same_fields "$1"
}
json_ok() {
	jq -e . "$1" >/dev/null && utf8 "$1" &&
		grep -aq 'KKKKKKKK' "$1"
}
for v in jobs nodes accounts; do
	"$SQUALL" --replay "$rec" --once --view $v >"$tmp/r.$v" 2>"$tmp/r.$v.err"
	check "replay $v: exit 0" test $? -eq 0
	check "replay $v: 4 KB of hostile text shown safely" safe "$tmp/r.$v"
	"$SQUALL" --replay "$rec" --once --view $v --format tsv \
		>"$tmp/r.$v.tsv" 2>/dev/null
	check "replay $v: tsv safe, columns kept" tsv_ok "$tmp/r.$v.tsv"
	"$SQUALL" --replay "$rec" --once --view $v --format json \
		>"$tmp/r.$v.json" 2>/dev/null
	check "replay $v: json valid UTF-8 holding the 4 KB" \
		json_ok "$tmp/r.$v.json"
done
check "replay jobs: the hostile job is one row" one_row "$tmp/r.jobs" 999999

check "nothing was executed (/tmp/pwned does not exist)" test ! -e /tmp/pwned
finish
