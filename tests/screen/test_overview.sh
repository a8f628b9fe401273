#!/bin/sh
# tests/screen/test_overview.sh - the at-a-glance views on the testbed
# (local backend) at 80x24 and 200x50: :overview shows the node, partition
# and queue lines with bars, sparklines appear after refreshes (Unicode
# blocks; ASCII levels with NO_COLOR), Enter on a partition line opens
# :jobs filtered by it; :clusters lists every configured cluster (the
# testbed and an unreachable one with its error) and Enter switches.
# Env: SQUALL (default ./squall). Exit 1 on a failure, 77 to skip.
TAG=overview
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_tmux
need_binary
need_testbed
command -v sinfo >/dev/null || skip "no Slurm commands in PATH"

part=$(S sinfo -h -o %R | head -1)
printf 'set refresh 2\ncluster tb backend=local\ncluster nowhere backend=ssh host=127.0.0.1 port=9 timeout=3\nset cluster tb\n' >"$WORK/conf"

for size in 80x24 200x50; do
	x=${size%x*}
	y=${size#*x}
	for mode in color mono; do
		env=""
		[ $mode = mono ] && env="NO_COLOR=1"
		T new-session -d -s t -x "$x" -y "$y" \
			"env $env SQUALL_CONFIG=$WORK/conf $SQUALL --view overview; sleep 600"
		check "$size $mode: the overview title" wait_for ':overview' 10
		check "$size $mode: nodes total line" wait_for 'nodes +total' 10
		check "$size $mode: a cpu line for partition $part" wait_for "partition +$part cpu" 5
		check "$size $mode: bars" wait_for '[#.]{8}' 5
		# every figure has its unit (issue 41, defect 9)
		check "$size $mode: the cpu line says CPUs" wait_for "partition +$part cpu +[0-9]+/[0-9]+ CPUs" 5
		check "$size $mode: the mem line says MB or GB" wait_for "partition +$part mem +[0-9]+/[0-9]+ [MG]B" 5
		if [ "$y" -ge 50 ]; then
			check "$size $mode: idle GPUs say GPUs" wait_for 'gpus +idle +[0-9]+ of [0-9]+ GPUs' 5
			check "$size $mode: a jobs line has no bar" \
				not sh -c "tmux -L $SOCK capture-pane -p -t t | grep -E 'partition +$part jobs +[0-9]+ R [0-9]+ PD +[#.]{8}'"
		fi
		# one sample per 10 s: three samples within 30 s
		if [ $mode = mono ]; then
			# on a queue line (refreshed every 2 s here; the nodes'
			# lines take a sample a minute): no bar there, the
			# sparkline at the end
			check "$size $mode: ASCII sparklines" wait_for ' PD +[_.~=+*#-]{2,} *$' 30
			check "$size $mode: no Unicode blocks" not sh -c "tmux -L $SOCK capture-pane -p -t t | grep -q '[▁▂▃▄▅▆▇█]'"
		else
			check "$size $mode: sparklines" wait_for '[▁▂▃▄▅▆▇█]{2,}' 30
		fi
		if [ "$y" -ge 50 ]; then
			check "$size $mode: controller health fits" wait_for 'ctld +server threads' 5
		fi
		# Enter on the first line of the partition: :jobs filtered
		keys "/"
		T send-keys -t t -l "$part jobs"
		keys Enter
		sleep 0.5
		keys Enter
		check "$size $mode: Enter opens :jobs with @partition=$part" \
			wait_for ":jobs .*@partition=$part" 5
		keys Escape
		keys Escape
		sleep 0.3
		keys Escape
		check "$size $mode: Esc goes back to the overview" wait_for ':overview' 5
		T kill-server
		sleep 0.3
	done
	# the clusters view
	T new-session -d -s t -x "$x" -y "$y" \
		"SQUALL_CONFIG=$WORK/conf $SQUALL --view clusters; sleep 600"
	check "$size: :clusters lists the testbed" wait_for '^ *tb +local +22\.05' 15
	check "$size: the unreachable cluster has its error" wait_for 'nowhere +ssh .*(refused|connect)' 15
	keys j
	keys Enter
	check "$size: Enter switches to the cluster" wait_for 'connecting to nowhere' 5
	T kill-server
	sleep 0.3
done
exit $failed
