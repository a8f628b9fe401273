#!/bin/sh
# test_health.sh - who loads slurmctld (issue 46): the rpc-types and
# rpc-users views (sdiag's RPC counters with a rate per minute between two
# reads) through local and rest must count what `sdiag` (run right after)
# counts, allowing for the RPCs between the two; a burst this test makes
# (30 squeue as alice between --once's two reads, 5 s apart) must show as
# alice's rate and the job-info rate; the user squall runs as (root here)
# and the types squall sends (REQUEST_PING of its scontrol ping too) are
# marked `squall`. Nothing is changed on
# the testbed: the burst only reads.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
REST=http://127.0.0.1:${REST_PORT:-6820}
TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# sdiag's section (type or user) as "NAME COUNT" lines
sdiag_counts() { # sdiag_counts type|user
	slurm sdiag | awk -v want="$1" '
		/statistics by message type/ { s = "type"; next }
		/statistics by user/ { s = "user"; next }
		/^[^ \t]/ { s = "" }
		s == want && /count:/ {
			for (i = 1; i <= NF; i++) if ($i ~ /^count:/) c = substr($i, 7)
			print $1, c }'
}

# counts VIEW BACKEND...: squall's rows and, right after, sdiag's; every
# name squall lists is in sdiag with a count at most SLACK above squall's
# (the RPCs between the two reads: squall's own, the nodes' pings)
counts_agree() { # counts_agree VIEW SCOPE BACKEND-ARGS...
	_v=$1 _s=$2
	shift 2
	for _try in 1 2 3; do
		"$SQUALL" "$@" --once --view "$_v" --format tsv >"$tmp/v.tsv" \
			2>"$tmp/v.err" || { cat "$tmp/v.err"; return 1; }
		sdiag_counts "$_s" | sort >"$tmp/sd"
		tsv_cols "$tmp/v.tsv" name,count | tr '|' ' ' | sort >"$tmp/sq"
		[ -s "$tmp/sq" ] || { echo "# no rows"; return 1; }
		join -a 1 -e MISSING -o 0,1.2,2.2 "$tmp/sq" "$tmp/sd" >"$tmp/j"
		awk -v slack=15 '$3 == "MISSING" || $3 < $2 || $3 - $2 > slack { bad++; print "# " $0 }
			END { exit bad > 0 }' "$tmp/j" && return 0
		echo "# try $_try: name squall sdiag"
		sleep 1
	done
	return 1
}

check "rpc-users: local's counts are sdiag's" counts_agree rpc-users user -b local
check "rpc-types: local's counts are sdiag's" counts_agree rpc-types type -b local

# the rows' own marks
marked() { # marked TSV NAME: the row of NAME says squall
	tsv_cols "$1" name,own | grep -qx "$2|squall"
}
"$SQUALL" -b local --once --view rpc-users --format tsv >"$tmp/u.tsv" 2>"$tmp/u.err"
check "rpc-users: root (the user squall runs as) marked squall" \
	marked "$tmp/u.tsv" root
check "rpc-users: no other user marked" \
	test "$(tsv_col "$tmp/u.tsv" own | grep -c squall)" -eq 1
check "rpc-users: --once has a rate for root (two reads)" \
	test -n "$(tsv_cols "$tmp/u.tsv" name,rate | sed -n 's/^root|//p')"
"$SQUALL" -b local --once --view rpc-types --format tsv >"$tmp/t.tsv" 2>"$tmp/t.err"
check "rpc-types: REQUEST_STATS_INFO (squall's sdiag) marked squall" \
	marked "$tmp/t.tsv" REQUEST_STATS_INFO
# REQUEST_PING is squall's: its diag read runs `scontrol ping` (REST:
# /ping), one REQUEST_PING to this controller per read, as root. A backup
# slurmctld pings the primary with REQUEST_CONTROL_STATUS instead, as
# slurm, every few seconds (measured on the 22.05 testbed with sdiag's
# counters: 30 s idle, 10 REQUEST_CONTROL_STATUS by slurm and no
# REQUEST_PING; one scontrol ping, one REQUEST_PING by root)
check "rpc-types: REQUEST_PING (squall's scontrol ping) marked squall" \
	marked "$tmp/t.tsv" REQUEST_PING
check "rpc-types: REQUEST_CONTROL_STATUS (a backup's ping) not marked" \
	sh -c "! grep -q '^REQUEST_CONTROL_STATUS.*squall' '$tmp/t.tsv'"

# --- a burst: 30 squeue as alice between --once's two sdiag reads
burst() { # burst VIEW BACKEND-ARGS...: the view's tsv in $tmp/b.tsv
	_v=$1
	shift
	"$SQUALL" "$@" --once --view "$_v" --format tsv >"$tmp/b.tsv" 2>"$tmp/b.err" &
	_pid=$!
	sleep 1.5
	_i=0
	while [ $_i -lt 30 ]; do
		runuser -u alice -- env -u SQUEUE_FORMAT squeue -h >/dev/null 2>&1
		_i=$((_i + 1))
	done
	wait "$_pid"
}
rate_of() { # rate_of NAME: the rate column of that row in $tmp/b.tsv
	awk -F'\t' -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) p[$i] = i; next }
		$p["name"] == n { print $p["rate"] }' "$tmp/b.tsv"
}
# 30 RPCs (at least) in the 5 s between the reads: 360 a minute; the
# burst may straddle a read, so half of it is the least
rate_high() { # rate_high NAME MIN
	_r=$(rate_of "$1")
	echo "# $1: $_r a minute"
	[ -n "$_r" ] && awk -v r="$_r" -v m="$2" 'BEGIN { exit !(r >= m) }'
}
burst rpc-users -b local
check "rpc-users: alice's burst shows as her rate (local)" rate_high alice 180
burst rpc-types -b local
check "rpc-types: the burst shows as REQUEST_JOB_INFO's rate (local)" \
	rate_high REQUEST_JOB_INFO 180

# --- the same through slurmrestd's /diag
code=$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")
if [ "$code" = 000 ] || [ ! -r "$TOKEN" ]; then
	echo "# slurmrestd does not answer on $REST or $TOKEN is missing: rest checks left out"
else
	set -- -b rest -u "$REST" --token-file "$TOKEN"
	check "rpc-users: rest's counts are sdiag's" counts_agree rpc-users user "$@"
	check "rpc-types: rest's counts are sdiag's" counts_agree rpc-types type "$@"
	burst rpc-users "$@"
	check "rpc-users: alice's burst shows as her rate (rest)" rate_high alice 180
fi

# --- jobs stuck COMPLETING (completing-stuck, default 10 minutes): the
# overview's stuck line and the nodes' stuck_cg count what squeue says
stuck_agree() {
	for _ in 1 2 3; do
		_now=$(date +%s)
		_want=$(slurm squeue -h -a -t CG -o '%e' |
			awk -v now="$_now" '$1 ~ /^[0-9]+$/ && now - $1 >= 600 { n++ } END { print n + 0 }')
		"$SQUALL" -b local --once --view overview --format tsv >"$tmp/o.tsv" 2>"$tmp/o.err"
		_got=$(tsv_cols "$tmp/o.tsv" section,key,num | sed -n 's/^stuck|completing > 10 min|//p')
		"$SQUALL" -b local --once --view nodes --columns node,stuck_cg --format tsv >"$tmp/n.tsv" 2>"$tmp/n.err"
		_nodes=$(tsv_col "$tmp/n.tsv" stuck_cg | awk '{ n += $1 } END { print n + 0 }')
		echo "# stuck COMPLETING: squeue $_want, overview '$_got', on nodes $_nodes"
		[ "$_got" = "$_want" ] && { [ "$_want" -eq 0 ] && [ "$_nodes" -eq 0 ] || [ "$_nodes" -ge "$_want" ]; } && return 0
		sleep 2
	done
	return 1
}
check "overview and nodes: jobs stuck COMPLETING as squeue's" stuck_agree
finish
