#!/bin/sh
# tests/screen/test_idle.sh - a console nobody looks at queries nothing:
# with `set idle-pause 5` the console on the testbed (local backend, Slurm
# commands through a --slurm-bindir of wrappers that log each call) stops
# running squeue after 5 s without a key and says PAUSED; a key resumes
# and squeue runs again at once. A focus-out report (ESC [ O) slows the
# queue to refresh-slow (no squeue for seconds at `refresh 1`, status
# "unfocused"); focus-in (ESC [ I) refreshes at once.
# Env: SQUALL (default ./squall). Prints ok/not ok; exit 1 on a failure,
# 77 when tmux or the Slurm commands are missing.
TAG=idle
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
calls() { grep -c '^squeue' "$WORK/calls" 2>/dev/null || echo 0; }
need_tmux
need_binary
command -v squeue >/dev/null || skip "no Slurm commands in PATH"

# wrappers that log the command and run the real one
mkdir -p "$WORK/bin"
for c in squeue sinfo sprio scontrol sacct sacctmgr sshare sdiag; do
	real=$(command -v $c) || continue
	printf '#!/bin/sh\necho "%s $*" >> %s/calls\nexec %s "$@"\n' \
		"$c" "$WORK" "$real" >"$WORK/bin/$c"
	chmod +x "$WORK/bin/$c"
done
printf 'set refresh 1\nset idle-pause 5\n' >"$WORK/squall.conf"

T new-session -d -s t -x 120 -y 30 \
	"SQUALL_CONFIG=$WORK/squall.conf $SQUALL --slurm-bindir $WORK/bin; sleep 600"
check "the console runs squeue" wait_for 'q/min' 10
check "idle 5 s: the status line says PAUSED" wait_for 'PAUSED' 10
# a fetch the worker began as the pause came still runs: let it log
sleep 1
n1=$(calls)
sleep 4
n2=$(calls)
check "paused: no squeue in 4 s ($n1 -> $n2)" test "$n1" = "$n2"
check "paused: the message says how to resume" wait_for 'any key resumes' 1
T send-keys -t t j
check "a key resumes" wait_for 'resumed' 3
# look at once: the idle clock restarted with the key, and a slow
# wait_for plus a sleep could reach idle-pause again (CI saw that at 3 s)
check "resumed: PAUSED is gone" sh -c "! tmux -L $SOCK capture-pane -p -t t | grep -q PAUSED"
sleep 2
n3=$(calls)
check "resumed: squeue runs again ($n2 -> $n3)" test "$n3" -gt "$n2"

# focus out: refresh-slow (60 s) for the queue; the key j keeps it awake
# (the checks above can take longer than idle-pause on a loaded machine:
# a key just before, or the pause would show instead)
T send-keys -t t j
T send-keys -t t -l "$(printf '\033[O')"
check "focus out: the status line says unfocused" wait_for 'unfocused: every 60 s' 3
sleep 1
T send-keys -t t j
n4=$(calls)
sleep 2
T send-keys -t t k
sleep 2
n5=$(calls)
check "unfocused: no squeue in 4 s at refresh 1 ($n4 -> $n5)" test "$n5" -le $((n4 + 1))
T send-keys -t t -l "$(printf '\033[I')"
sleep 2
n6=$(calls)
check "focus in: squeue runs at once ($n5 -> $n6)" test "$n6" -gt "$n5"
check "focus in: unfocused is gone" sh -c "! tmux -L $SOCK capture-pane -p -t t | grep -q unfocused"
echo "1..$count"
exit $failed
