# shellcheck shell=sh disable=SC2154,SC2034
# preempt.sh - a real preemption on the live testbed, for the tests that
# need one (sourced after lib.sh; test_admin.sh, test_plan.sh). The caller
# sets tmp (a private directory) and traps preempt_cleanup at exit.
# preempt_make: our job in partition low alone on a node, then opsadmin's
# job in high on that node; sets victim, pre, node and t0 (the time just
# before the preemptor was submitted); 1 when no node ran none of other
# people's jobs for 90 s (preempt/partition_prio picks its victims among
# all low jobs of the node, tier then node count, ties to the oldest: only
# a node without other people's jobs preempts ours and nobody else's).

# every job we submit is listed in $tmp/mine (sub runs in a subshell);
# preempt_cleanup cancels them and removes $tmp (the callers' exit trap)
preempt_cleanup() {
	# shellcheck disable=SC2046
	[ -s "$tmp/mine" ] && scancel $(cat "$tmp/mine") 2>/dev/null
	rm -rf "$tmp"
}

# sub USER ARGS...: submit a job of ours as USER; prints its id
sub() {
	_sub_user=$1
	shift
	_sub_id=$(cd /tmp && runuser -u "$_sub_user" -- sbatch --parsable \
		-o /dev/null -D /tmp "$@") || return 1
	_sub_id=${_sub_id%%;*}
	echo "$_sub_id" >>"$tmp/mine"
	echo "$_sub_id"
}
state() { slurm squeue -h -j "$1" -o %T 2>/dev/null | head -1; }
reason() { slurm squeue -h -j "$1" -o %r 2>/dev/null | head -1; }
# wait_until SECONDS CMD...: poll every second (sh functions share
# variables: the counter has a name no caller uses)
wait_until() {
	_wu_left=$1
	shift
	while [ "$_wu_left" -gt 0 ]; do
		"$@" && return 0
		sleep 1
		_wu_left=$((_wu_left - 1))
	done
	return 1
}
is_state() { [ "$(state "$1")" = "$2" ]; }
is_reason() { [ "$(reason "$1")" = "$2" ]; }
foreign_free() { # NODE: no job of anybody else runs on it
	for _fj in $(slurm squeue -h -a -t R,S,CG -w "$1" -o %A 2>/dev/null); do
		grep -qx "$_fj" "$tmp/mine" 2>/dev/null || return 1
	done
	return 0
}
victim=""
node=""
pre=""
t0=""
try_node() {
	for _tn in n1 n2 n3 n4; do
		foreign_free "$_tn" || continue
		_tv=$(sub alice -p low -w "$_tn" -c 1 -t 10 -J sqa-victim \
			--wrap 'sleep 600') || continue
		if wait_until 20 is_state "$_tv" RUNNING && foreign_free "$_tn"; then
			victim=$_tv
			node=$_tn
			return 0
		fi
		scancel "$_tv" 2>/dev/null
	done
	return 1
}
requeued() {
	[ "$(slurm squeue -h -j "$victim" -O RestartCnt:0 2>/dev/null)" -ge 1 ] 2>/dev/null
}
preempt_make() {
	: >>"$tmp/mine"
	wait_until 90 try_node || return 1
	ok "victim $victim runs alone on $node (partition low)"
	t0=$(date +%s)
	sleep 13 # past PreemptExemptTime (10 s)
	_pm_cpus=$(slurm sinfo -h -n "$node" -p high -o %c | head -1)
	pre=$(sub opsadmin -p high -w "$node" -c "$_pm_cpus" -t 5 \
		-J sqa-preemptor --wrap 'sleep 600')
	check "preemptor $pre submitted to high on $node (-c $_pm_cpus)" \
		test -n "$pre"
	check "victim $victim requeued (restart count 1)" wait_until 40 requeued
	return 0
}
