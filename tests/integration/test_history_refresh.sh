#!/bin/sh
# test_history_refresh.sh - the console's history refreshes are
# incremental: the first fetch reads the whole window (sacct -S
# now-3600seconds for `--since 1h`), later ones only what changed since
# the last (with an overlap, SQUALL_HISTORY_OVERLAP=5 here) and merge it.
# In a private tmux server, local (--record keeping every command line)
# and rest (through tls_proxy.py in plain mode, logging request lines): a
# job of alice that ended 10 s before the console started is shown; one
# that ends while it runs appears after `r`; the first one is still shown
# after that although the later sacct did not return it (the merge kept
# it); the sacct lines and the /slurmdb/ jobs requests read one whole
# window, then shorter ones. Cancels only its own jobs, by id.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
sock=squall-histref-$$
cleanup() {
	T kill-server 2>/dev/null
	# shellcheck disable=SC2046
	[ -s "$tmp/mine" ] && scancel $(cat "$tmp/mine") 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v tmux >/dev/null 2>&1 || {
	echo "skip - tmux is not installed"
	exit 77
}
if ! slurm sacct -n -X -S now-60seconds -o JobID >/dev/null 2>&1; then
	echo "skip - sacct (slurmdbd) does not answer"
	exit 77
fi
tag=sqhr$$

# run NAME: a one-second job of alice in partition high; its id in $tmp/NAME
run() {
	_id=$(cd /tmp && runuser -u alice -- env -u SQUEUE_FORMAT sbatch -A astro \
		--parsable -o /dev/null -D /tmp -p high -c 1 -t 2 -J "$tag-$1" \
		--wrap 'sleep 1') || return 1
	echo "$_id" >>"$tmp/mine"
	echo "$_id" >"$tmp/$1"
}
# ended ID: accounting has the job as COMPLETED (within 60 s)
ended() {
	_i=0
	while [ $_i -lt 60 ]; do
		[ "$(slurm sacct -n -X -P -j "$1" -o State 2>/dev/null)" = COMPLETED ] &&
			return 0
		sleep 1
		_i=$((_i + 1))
	done
	return 1
}

# console LABEL ARGS...: the history view of a console started with ARGS;
# a job that ended 10 s before it, one that ends while it runs, r
console() {
	_l=$1
	shift
	run "before$_l" || {
		notok "$_l: sbatch as alice"
		return 1
	}
	jb=$(cat "$tmp/before$_l")
	check "$_l: a job that ends before the console starts ($jb)" ended "$jb"
	# out of reach of the later, short fetch (its overlap is 5 s)
	sleep 10
	# a tmux server each (a new session right after kill-server can talk
	# to the dying one)
	sock=squall-histref-$$-$_l
	T new-session -d -s t -x 200 -y 50 \
		"SQUALL_CONFIG=$tmp/conf SQUALL_HISTORY_OVERLAP=5 $SQUALL $* --since 1h; sleep 600"
	sleep 1
	T send-keys -t t ":history" Enter
	check "$_l: the history view shows the job that ended before" \
		wait_for "^ *$jb .*COMPLETED" 30
	run "during$_l" || notok "$_l: sbatch as alice (second job)"
	jd=$(cat "$tmp/during$_l")
	check "$_l: a job that ends while the console runs ($jd)" ended "$jd"
	# (names are a hidden column: the filter goes by id; newest end first)
	T send-keys -t t "/^ *($jb|$jd) " Enter
	# a run that ended in the second of the query may come only with the
	# next one (the overlap of the next refresh covers it): a moment
	# first, and r twice at most
	sleep 3
	T send-keys -t t r
	wait_for "^ *$jd .*COMPLETED" 15 || T send-keys -t t r
	check "$_l: after r, the new job is in the history view" \
		wait_for "^ *$jd .*COMPLETED" 15
	check "$_l: after r, the job that ended before is still shown (merged)" \
		wait_for "^ *$jb .*COMPLETED" 2
	T send-keys -t t q
	sleep 1
	T kill-server 2>/dev/null
}

chmod 755 "$tmp"
printf 'set refresh 2\n' >"$tmp/conf"

# --- local: --record keeps the sacct lines and their outputs
rec=$tmp/rec
console local --record "$rec"
# the -S values of the history fetches (the events view uses sacct too,
# with -s PR,RQ)
awk -F'\t' '$4 == "sacct" && $0 !~ /PR,RQ/ {
	for (i = 5; i <= NF; i++) if ($i == "-S") print $(i + 1) }' \
	"$rec/index.tsv" >"$tmp/starts"
check "local: the first history fetch reads the whole window (now-3600seconds)" \
	test "$(head -1 "$tmp/starts")" = now-3600seconds
secs=$(sed -n '2,$s/^now-\([0-9]*\)seconds$/\1/p' "$tmp/starts" | head -1)
check "local: a later one reads only the time since the last, and an overlap ($(sed -n 2p "$tmp/starts"))" \
	test -n "$secs" -a "${secs:-99999}" -lt 3600
# the last one's output lacks the job that ended before, which the
# console still showed
last=$(awk -F'\t' '$4 == "sacct" && $0 !~ /PR,RQ/ { f = $3 } END { print f }' \
	"$rec/index.tsv")
check "local: the later sacct did not return the job that ended before ($last)" \
	sh -c "! grep -q '^$(cat "$tmp/beforelocal")|' '$rec/$last'"

# --- rest: through a proxy that logs the request lines (tls_proxy.py -)

python3 "$here/tls_proxy.py" - - "$REST_PORT" "$tmp/proxy.port" \
	"$tmp/proxy.log" 2>"$tmp/proxy.err" &
proxy=$!
i=0
while [ ! -s "$tmp/proxy.port" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
console rest -b rest -u "http://127.0.0.1:$(cat "$tmp/proxy.port")" \
	--token-file "$TB/jwt/root.token"
kill $proxy 2>/dev/null
sed -n 's/^request GET .*\/jobs?start_time=\([^&]*\).*/\1/p' "$tmp/proxy.log" \
	>"$tmp/rstarts"
check "rest: the first /slurmdb/ jobs request reads the whole window ($(head -1 "$tmp/rstarts"))" \
	test "$(head -1 "$tmp/rstarts")" = now-3600seconds
secs=$(sed -n '2,$s/^now-\([0-9]*\)seconds$/\1/p' "$tmp/rstarts" | head -1)
check "rest: a later one reads only the time since the last ($(sed -n 2p "$tmp/rstarts"))" \
	test -n "$secs" -a "${secs:-99999}" -lt 3600
finish
