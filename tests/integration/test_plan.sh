#!/bin/sh
# test_plan.sh - one fetch plan for both front ends, on the live testbed:
# after a real preemption (preempt.sh) the events view's rows are the same
# in the console's path (the worker thread and the table widget, through
# tests/unit/test_plan VIEW) and in `squall --once`, and the victim's row
# names the preemptor's user and the restart count in both
# (the console once left them empty: only batch mode joined the queue).
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
. "$here/preempt.sh"
trap preempt_cleanup EXIT INT TERM

cmp_bin=$root/tests/unit/test_plan
if [ ! -x "$cmp_bin" ]; then
	(cd "$root" && make -s tests/unit/test_plan) >"$tmp/make" 2>&1 ||
		notok "build tests/unit/test_plan: $(tail -1 "$tmp/make")"
fi

if ! preempt_make; then
	echo "# no node free of other users' jobs for 90 s: comparing the events view as it is"
	victim="" pre=""
fi
# the row appears in accounting within seconds: retry the comparison
same_and_named() {
	(cd "$root" && "$cmp_bin" events local) >"$tmp/rows" 2>&1 || return 1
	[ -z "$victim" ] && return 0
	tsv_cols "$tmp/rows" victim_job,preemptor_job,mode,victim_user,preemptor_user,victim_partition,restarts >"$tmp/ev"
	grep -q "^$victim|$pre|REQUEUE|alice|opsadmin|low|1\$" "$tmp/ev"
}
if wait_until 30 same_and_named; then
	ok "events: console rows = --once rows ($(grep -c . "$tmp/rows") lines)"
	[ -n "$victim" ] && ok "events: $victim preempted by $pre: users, partitions, restarts in both"
else
	notok "events: console rows = --once rows, victim row named"
	sed 's/^/# /' "$tmp/rows"
	[ -s "$tmp/ev" ] && sed 's/^/# ev: /' "$tmp/ev"
fi
[ -n "$victim" ] && scancel "$victim" "$pre" 2>/dev/null
# the other views the plan joins, on the live cluster too
for v in jobs partitions gpus-users; do
	check "$v: console rows = --once rows" sh -c "cd '$root' && '$cmp_bin' $v local >'$tmp/$v' 2>&1"
done
finish
