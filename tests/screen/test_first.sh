#!/bin/sh
# tests/screen/test_first.sh - the first screen, at 80x24 and 200x50 on
# the live testbed (local backend): the jobs view's columns fit the
# terminal (squeue's JOBID NAME USER STATE TIME NODES NODELIST(REASON) at
# 80, ACCOUNT PARTITION PRIORITY and the sprio factors at 200; a '>'
# marks more columns, `l` scrolls to them and '<' marks the left), a
# pending job shows (its reason), the detail pane shows times as local
# time with their age and no epoch; and saved views: `view jobs
# columns=job_id,name,user,state` in the config shows exactly those
# columns, `:w` writes the view's line back in place (the other lines
# stay) and, on a fresh home, makes ~/.config/squall (0700), and `view heldjobs of=jobs filter=...` opens with :heldjobs, is
# completed by Tab and listed by ?; a pending job's priority breakdown
# (read when its detail opens) adds up to the PRIORITY beside it. One
# held job of our own, cancelled by id at exit. The node map (m): groups,
# bars, legend, Enter.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=first
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed
command -v sbatch >/dev/null 2>&1 || skip "no Slurm commands in PATH"

JOB=$(sbatch --parsable -H -p low -t 5 -J "sqfirst-$$" -o /dev/null \
	--wrap 'sleep 1' 2>/dev/null | cut -d';' -f1)
[ -n "$JOB" ] || skip "sbatch failed: cannot make a job to look at"
cleanup() { scancel "$JOB" 2>/dev/null; }
on_exit=cleanup

export LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=
export XDG_STATE_HOME=$WORK/state

start() { # start W H CONFIG
	T kill-server 2>/dev/null
	sleep 0.3
	SQUALL_CONFIG=$3 T new-session -d -s t -x "$1" -y "$2" \
		"SQUALL_CONFIG=$3 $SQUALL; sleep 600"
	wait_for ' default local [0-9]' 15 && wait_for '^ +[0-9]' 10
}
header() { cap | sed -n 2p; }
# header_has WORD...: the header holds these titles in this order
header_has() {
	h=" $(header) "
	for w in "$@"; do
		case $h in
		*" $w"[" ▲▼>"]*) h=${h#*" $w"} ;;
		*) return 1 ;;
		esac
	done
}
# seek PATTERN: page down a pane until the pattern shows
seek() {
	# the help grew with the actions of sessions 22-23 (reservations,
	# QOS, moduser, reboots): at 80x24 it is more than 8 pages
	for i in $(seq 1 16); do
		wait_for "$1" 1 && return 0
		keys PgDn
	done
	return 1
}
fits() { [ "$(cap | wc -L)" -le "$1" ]; }
# the detail pane's SUBMIT line: HH:MM:SS (Ns ago) or a day before it,
# never an epoch
submit_readable() {
	l=$(cap | grep '^ *SUBMIT ')
	printf '%s\n' "$l" | grep -Eq 'SUBMIT +([A-Z][a-z]{2} [0-9]{2} )?[0-9]{2}:[0-9]{2}:[0-9]{2} \([0-9]+[smhd] ago\)' &&
		! printf '%s\n' "$l" | grep -Eq '[0-9]{9,}'
}

: >"$WORK/empty"
for size in "80 24" "200 50"; do
	set -- $size
	W=$1 H=$2
	tag="${W}x${H}"
	start "$W" "$H" "$WORK/empty" || notok "$tag: the console starts"
	check "$tag: the jobs view shows squeue's columns in order" \
		header_has JOBID NAME USER STATE TIME NODES 'NODELIST(REASON)'
	if [ "$W" -ge 200 ]; then
		check "$tag: ACCOUNT PARTITION PRIORITY fit too" \
			header_has JOBID ACCOUNT PARTITION PRIORITY
		check "$tag: and the sprio factors" header_has AGE FAIRSH
	else
		check "$tag: no sprio factor at 80 cells" not header_has FAIRSH
		check "$tag: a '>' says there are more columns" \
			sh -c "tmux -L $SOCK -f /dev/null capture-pane -p -t t | sed -n 2p | grep -q '>\$'"
	fi
	check "$tag: the screen fits the terminal" fits "$W"
	keys / "@job_id=$JOB" Enter
	check "$tag: a pending job shows its reason in NODELIST(REASON)" \
		wait_for "^ +$JOB +.*\\(JobHeldUser\\)" 5
	if [ "$W" -lt 200 ]; then
		for i in 1 2 3 4 5 6 7 8 9 10 11 12; do keys l; done
		check "$tag: l scrolls to the columns that did not fit" \
			wait_for '^<' 3
		keys g
		for i in 1 2 3 4 5 6 7 8 9 10 11 12; do keys h; done
		check "$tag: h scrolls back" wait_for '^ JOBID' 3
	fi
	keys Enter
	check "$tag: the detail pane opens" wait_for 'Fields' 5
	seek '^ *SUBMIT ' >/dev/null
	check "$tag: the detail pane shows the submit time and its age, no epoch" \
		submit_readable
	keys Escape Escape q
done

# one moment per screen: a pending job's breakdown adds up to the
# priority beside it (sprio rounds each factor: 8 of them, 1 each)
# (a job held by a limit or a dependency stays pending while we look)
S sprio -h -o %i 2>/dev/null | awk '{ print $1 }' | sort -u >"$WORK/sprio"
S squeue -h -t PD -o '%i %r' 2>/dev/null | sort >"$WORK/pd"
PJ=$(awk '$2 !~ /^(Resources|Priority|None)$/ { print $1 }' "$WORK/pd" |
	sort -u | comm -12 - "$WORK/sprio" | head -1)
[ -n "$PJ" ] || PJ=$(awk '{ print $1 }' "$WORK/pd" | sort -u |
	comm -12 - "$WORK/sprio" | head -1)
adds_up() {
	seek '^ *sum +-?[0-9]+ = PRIORITY' >/dev/null || return 1
	sleep 2 # the refresh Enter asked for: sprio, then the queue
	sum=$(cap | sed -n 's/^ *sum *\(-*[0-9]*\) = PRIORITY \([0-9]*\).*/\1 \2/p')
	keys g
	sleep 0.3
	shown=$(cap | sed -n 's/^ *PRIORITY *\([0-9][0-9]*\) *$/\1/p' | head -1)
	[ -n "$sum" ] && [ -n "$shown" ] || return 1
	set -- $sum
	echo "# breakdown $1, sprio's priority $2, the PRIORITY field $shown"
	d=$(($1 - shown))
	[ "$2" = "$shown" ] && [ "${d#-}" -le 8 ]
}
for size in "80 24" "200 50"; do
	set -- $size
	W=$1 H=$2
	tag="${W}x${H}"
	if [ -z "$PJ" ]; then
		echo "# $tag: no pending job in sprio now: the breakdown check is left out"
		continue
	fi
	start "$W" "$H" "$WORK/empty" || notok "$tag: the console starts"
	keys / "@job_id=$PJ" Enter
	wait_for "^ +$PJ " 5
	keys Enter
	check "$tag: the breakdown of job $PJ adds up to its PRIORITY" adds_up
	check "$tag: the breakdown says when sprio was read" \
		seek 'Priority \(sprio, read [0-9]{2}:[0-9]{2}:[0-9]{2} \([0-9]+s ago\)\)'
	keys Escape q
done

# the node map: groups by partitions with their CPUs, a cell per node
# with its bars, a legend; the arrows move in the grid, Enter opens it
for size in "80 24" "200 50"; do
	set -- $size
	tag="${1}x${2}"
	start "$1" "$2" "$WORK/empty" || notok "$tag: the console starts"
	keys ":nodes" Enter
	wait_for '^ squall  :nodes ' 5
	keys m
	check "$tag: m shows the map grouped by partitions" \
		wait_for '^ [a-z*,]+  [0-9]+ nodes?  CPUs [0-9]+/[0-9]+' 5
	check "$tag: each node has a cell with its CPU bar" \
		wait_for '^ n1 +[█░]{4}' 3
	check "$tag: the map has a legend" wait_for 'idle  mixed  alloc' 3
	keys g l
	sleep 0.3
	keys Enter
	check "$tag: Enter opens the node under the cursor" \
		wait_for '^ nodes n2 ' 3
	keys Escape q
done

# saved views
cat >"$WORK/config" <<EOF
# the first screen's test
set refresh 5
view jobs columns=job_id,name,user,state
bind F5 ":view nodes"
view heldjobs of=jobs filter="@job_id=$JOB" columns=job_id,state,nodelist_reason
EOF
cp "$WORK/config" "$WORK/config.orig"
for size in "80 24" "200 50"; do
	set -- $size
	W=$1 H=$2
	tag="${W}x${H}"
	cp "$WORK/config.orig" "$WORK/config"
	start "$W" "$H" "$WORK/config" || notok "$tag: the console starts"
	check "$tag: view jobs columns=... shows exactly those columns" \
		sh -c "[ \"\$(tmux -L $SOCK -f /dev/null capture-pane -p -t t | sed -n 2p | sed 's/ *\$//')\" = ' JOBID NAME USER STATE' ] ||
			[ \"\$(tmux -L $SOCK -f /dev/null capture-pane -p -t t | sed -n 2p | sed 's/ *\$//' | tr -s ' ')\" = ' JOBID NAME USER STATE' ]"
	keys ":sort user" Enter
	keys ":w" Enter
	check "$tag: :w says where it wrote" wait_for 'wrote .*view jobs' 3
	check "$tag: :w replaced the jobs line in the config" \
		grep -qx 'view jobs columns=job_id,name,user,state sort=user' \
		"$WORK/config"
	check "$tag: :w kept the other lines" sh -c "
		grep -v '^view jobs ' '$WORK/config' >'$WORK/a'
		grep -v '^view jobs ' '$WORK/config.orig' >'$WORK/b'
		cmp -s '$WORK/a' '$WORK/b'"
	keys ":heldj" Tab
	check "$tag: Tab completes a saved view's name" wait_for ':heldjobs' 3
	keys Enter
	check "$tag: :heldjobs opens the saved view" \
		wait_for '^ squall  :heldjobs ' 3
	check "$tag: with its filter and columns" \
		wait_for "^ +$JOB +PENDING +\\(JobHeldUser\\)" 5
	keys '?'
	check "$tag: ? lists the saved view" \
		seek 'heldjobs +saved view of jobs'
	keys Escape
	keys ":jobs" Enter
	check "$tag: :jobs is the jobs view again" \
		wait_for '^ squall  :jobs ' 3
	keys q
done

# :w on a fresh home (issue 41): no ~/.config/squall yet; it is made
# 0700, as the audit log's state directory, and the line written there
for env in "HOME=$WORK/fresh1" "HOME=$WORK/nohome XDG_CONFIG_HOME=$WORK/fresh2/xdg"; do
	case $env in
	*XDG*) conf=$WORK/fresh2/xdg/squall/config tag=XDG_CONFIG_HOME ;;
	*) conf=$WORK/fresh1/.config/squall/config tag=HOME ;;
	esac
	mkdir -p "$WORK/fresh1" "$WORK/nohome"
	T kill-server 2>/dev/null
	sleep 0.3
	T new-session -d -s t -x 200 -y 24 \
		"env -u SQUALL_CONFIG -u XDG_CONFIG_HOME $env $SQUALL; sleep 600"
	wait_for ' default local [0-9]' 15 || notok "fresh $tag: the console starts"
	keys ":sort user" Enter
	keys ":w" Enter
	check "fresh $tag: :w writes the config" wait_for 'wrote "view jobs' 5
	check "fresh $tag: no such-file error" not wait_for 'No such file' 1
	check "fresh $tag: the file holds the view's line" \
		grep -q '^view jobs .*sort=user' "$conf"
	check "fresh $tag: its directory was made 0700" \
		sh -c "[ \"\$(stat -c %a '${conf%/config}')\" = 700 ]"
	keys q
done

echo "1..$count"
exit $failed
