#!/bin/sh
# tests/screen/test_since.sh - the console's history window (issue 42:
# the window goes with each fetch, no process-wide global): `:since W`
# (W the shortest of 10m, 30m, 1h, 3h with fewer runs than the day's)
# makes the history view show the runs `squall --once --since W`
# prints, through local and through slurmrestd (the testbed's v0.0.38,
# root JWT); `:since` alone says the window; a cluster connected to
# afterwards (`:cluster NAME`) keeps it; `:since 24h` widens it again.
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is missing.
TAG=since
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed
REST=http://127.0.0.1:${REST_PORT:-6820}
TOKEN=$TB/jwt/root.token
H=100
# BACKEND-ARGS WINDOW: the job ids --once prints for the window
once_ids() {
	# shellcheck disable=SC2086
	SQUALL_CONFIG=/dev/null "$SQUALL" $1 --once --view history \
		--since "$2" --format tsv --columns job_id 2>/dev/null |
		sed 1d | sort -u
}
screen_ids() {
	cap | sed -n "3,$((H - 2))p" | awk '$1 ~ /^[0-9]/ { print $1 }' |
		sort -u
}
# BACKEND-ARGS WINDOW: the screen's rows are those of --once (read
# around it: the cluster may move), after a refresh
same_rows() {
	once_ids "$1" "$2" >"$WORK/a"
	keys r
	sleep 3
	screen_ids >"$WORK/s"
	once_ids "$1" "$2" >"$WORK/b"
	[ -s "$WORK/s" ] || return 1
	cmp -s "$WORK/s" "$WORK/a" || cmp -s "$WORK/s" "$WORK/b"
}
# more runs on the screen than --once has in the window (it was wider)
wider() {
	[ "$(screen_ids | wc -l)" -gt "$(once_ids "$1" "$2" | wc -l)" ]
}

window() { # NAME BACKEND-ARGS CLUSTER-SETTINGS
	name=$1
	args=$2
	day=$(once_ids "$args" 24h | wc -l)
	w=
	for try in 10m 30m 1h 3h; do
		n=$(once_ids "$args" $try | wc -l)
		if [ "$n" -gt 0 ] && [ "$n" -lt $((H - 6)) ] && [ "$n" -lt "$day" ]; then
			w=$try
			break
		fi
	done
	if [ -z "$w" ]; then
		echo "# $name: no window of 10m to 3h has some runs but fewer" \
			"than the day's $day: not tried"
		return
	fi
	T kill-server 2>/dev/null
	sleep 0.3
	# shellcheck disable=SC2086
	T new-session -d -s t -x 200 -y $H \
		"SQUALL_CONFIG=/dev/null $SQUALL $args -r 2; sleep 600"
	wait_for ' \| [0-9]+s' 15
	keys ":history" Enter
	wait_for '^ squall  :history ' 5
	wait_for '^ +[0-9]' 30 >/dev/null
	check "$name: :history holds more than the last $w" wider "$args" $w
	keys ":since $w" Enter
	check "$name: :since $w says so" wait_for "history since $w" 5
	check "$name: :since $w shows the runs of --once --since $w" \
		same_rows "$args" $w
	keys ":since" Enter
	check "$name: :since alone says the window" \
		wait_for "history since $w" 5
	# another cluster (the same one, by a name): the window holds there
	keys ":cluster again $3" Enter
	wait_for 'defined cluster' 5 >/dev/null
	keys ":cluster again" Enter
	wait_for '^ squall  :history ' 10 >/dev/null
	wait_for '^ +[0-9]' 30 >/dev/null
	check "$name: a cluster connected to keeps :since $w" \
		same_rows "$args" $w
	keys ":since 24h" Enter
	wait_for 'history since 24h' 5 >/dev/null
	sleep 3
	check "$name: :since 24h holds more again" wider "$args" $w
	keys q
}

window local "-b local" "backend=local"
if [ -r "$TOKEN" ] &&
	[ "$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")" != 000 ]; then
	window rest "-b rest -u $REST --token-file $TOKEN" \
		"backend=rest url=$REST token-file=$TOKEN"
else
	echo "# slurmrestd does not answer on $REST or $TOKEN is missing: rest not tried"
fi
exit $failed
