#!/bin/sh
# tests/screen/test_rest_views.sh - the console through slurmrestd (the
# testbed's v0.0.38, root JWT) shows the views REST builds from several
# answers: :gpus, :limits and :priority show the rows `squall -b rest
# --once` prints, the priority view's status line says why its sprio
# columns are empty, :events shows the accounting rows with their
# inferred preemptor when there are any in the last day, and the jobs
# view's title says its ranks (not sprio data) are older than the queue.
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux, the testbed or slurmrestd is missing.
TAG=restviews
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed
REST=http://127.0.0.1:${REST_PORT:-6820}
TOKEN=$TB/jwt/root.token
[ -r "$TOKEN" ] || skip "no token at $TOKEN"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")" != 000 ] ||
	skip "slurmrestd does not answer on $REST"
ARGS="-b rest -u $REST --token-file $TOKEN"
H=50
once_ids() { # VIEW COLUMN: what --once prints through rest
	# shellcheck disable=SC2086
	SQUALL_CONFIG=/dev/null "$SQUALL" $ARGS --once --view "$1" \
		--format tsv --columns "$2" 2>/dev/null | sed 1d | sort -u
}
screen_ids() {
	cap | sed -n "3,$((H - 2))p" | awk 'NF { print $1 }' | sort -u
}
# VIEW COLUMN: the rows on screen are those of --once (read around it)
same_rows() {
	once_ids "$1" "$2" >"$WORK/a"
	keys r
	sleep 2
	screen_ids >"$WORK/s"
	once_ids "$1" "$2" >"$WORK/b"
	# nothing to show (an empty queue): the view says so, no rows
	if [ ! -s "$WORK/a" ] && [ ! -s "$WORK/b" ]; then
		cap | grep -q "No $1"
		return
	fi
	cmp -s "$WORK/s" "$WORK/a" || cmp -s "$WORK/s" "$WORK/b"
}

# the session is named from -b/-u (rest:HOST:PORT), not the config default
T new-session -d -s t -x 200 -y $H \
	"SQUALL_CONFIG=/dev/null $SQUALL $ARGS; sleep 600"
check "the console connects through rest" wait_for ' rest:[^ ]* rest \| [0-9]+s' 15
for vc in gpus:node gpus-partitions:partition limits:scope priority:job_id; do
	v=${vc%%:*}
	keys ":$v" Enter
	wait_for "^ squall  :$v " 5
	wait_for '^ +[^ ]' 15 >/dev/null
	check ":$v shows the rows of squall -b rest --once" same_rows "$v" "${vc#*:}"
	check ":$v is not refused" not wait_for 'not available' 1
done
check ":priority: the status line says slurmrestd has no sprio factors" \
	wait_for 'no sprio factors' 5
keys ":limits" Enter
check ":limits shows chemistry's GrpTRES gres/gpu of 6" \
	wait_for 'chemistry .*GrpTRES +gres/gpu +6' 10
keys ":events" Enter
wait_for '^ squall  :events ' 5
if [ -n "$(once_ids events victim_job)" ]; then
	check ":events shows a preemption with its inferred preemptor" \
		wait_for 'inferred' 15
else
	echo "# no preemption in the last day: :events shows its header only"
	check ":events is not refused" not wait_for 'not available' 5
fi
keys q

# the jobs view's title (issue 41): slurmrestd serves no sprio, so the
# priority rows beside the queue come from an earlier /jobs answer: the
# title says "rank:Ns older", never that it has sprio data ("sprio:")
T kill-server 2>/dev/null
sleep 0.3
T new-session -d -s t -x 200 -y $H \
	"SQUALL_CONFIG=/dev/null $SQUALL $ARGS -r 2; sleep 600"
wait_for ' rest:[^ ]* rest \| [0-9]+s' 15
check ":jobs over rest: the title says the ranks are older than the queue" \
	wait_for '^ squall  :jobs .*  rank:[0-9]+s older' 20
check ":jobs over rest: the title claims no sprio data" \
	not wait_for 'sprio:[0-9]+s older' 1
# o over REST (issue 41): slurmrestd serves no files: the pane says it
# cannot read them, never that a running or pending job ended
if cap | sed -n "3,$((H - 2))p" | grep -Eq '^ +[0-9]'; then
	keys o
	check "o over rest: the pane says it cannot read, not job ended" \
		wait_for 'stdout \(cannot read\)' 10
	check "o over rest: why (no file access)" wait_for 'no file access' 2
	keys Escape
else
	echo "# the queue is empty: o over rest not tried"
fi
keys q
exit $failed
