#!/bin/sh
# tests/screen/test_output.sh - a job's output in the console (local
# backend, live testbed): o on a running job of alice's opens its stdout,
# which grows on screen (a token a second) while following; scrolling up
# pauses, G resumes; / finds a line; escape sequences in the file are
# shown escaped; O shows stderr; b shows the batch script; Esc goes back;
# ! (and :ssh) leave the screen for the user's ssh to the job's node (a
# stand-in ssh that prints its arguments) and come back; o on a pending
# job says it has not started and where its file will be.
# Only this test's job is cancelled.
#
# Env: SQUALL (default ./squall), TB. Prints ok/not ok; exit 1 on a
# failure, 77 when tmux or the testbed is not there.
TAG=output
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
NAME=sqo-scr-$$
cleanup() {
	S scancel --name="$NAME" 2>/dev/null
}
on_exit=cleanup
need_tmux
need_binary
need_testbed

export LANG=C.UTF-8 LC_ALL=C.UTF-8 SQUALL_CONFIG=/dev/null
export XDG_STATE_HOME=$WORK/state
chmod 1777 "$WORK"
cat >"$WORK/tok.sh" <<'EOF'
#!/bin/sh
printf 'esc \033[31mred\033[0m \033]0;title\007 end\n'
echo "err-line" >&2
i=0
while [ $i -lt 120 ]; do echo "tok$i"; i=$((i + 1)); sleep 1; done
EOF
chmod 644 "$WORK/tok.sh"
# partition high: the top tier, not preempted by the other tests' jobs
J=$(cd "$WORK" && runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable \
	-p high -t 3 -J "$NAME" -o "$WORK/o-%j.out" -e "$WORK/e-%j.err" "$WORK/tok.sh")
i=0
until grep -q tok2 "$WORK/o-$J.out" 2>/dev/null || [ $i -gt 60 ]; do
	sleep 0.5
	i=$((i + 1))
done

# a stand-in for the user's ssh: prints its arguments (a real ssh to a
# node needs node names that resolve, which the testbed's do not)
mkdir -p "$WORK/bin"
printf '#!/bin/sh\necho "FAKE-SSH ARGS: $*"\nsleep 2\nexit 3\n' >"$WORK/bin/ssh"
chmod 755 "$WORK/bin/ssh"
T new-session -d -s t -x 120 -y 14 "PATH=$WORK/bin:\$PATH $SQUALL; sleep 600"
wait_for ' default local [0-9]' 15 || {
	notok "the console starts"
	exit 1
}
keys ":jobs" Enter
wait_for '^ squall  :jobs ' 5
keys / "@job_id=$J" Enter
wait_for "^ +$J " 10

keys o
check "o: the pane titles the job, stdout and the file" \
	wait_for "job $J stdout \\(following\\): .*o-$J.out" 10
check "o: the tokens written so far" wait_for '^ *tok[0-9]+ *$' 10
n=$(cap | grep -Eo 'tok[0-9]+' | tail -1 | tr -dc 0-9)
check "o: a token written after the pane opened appears (tok$((n + 2)))" \
	wait_for "^ *tok$((n + 2)) *\$" 10
# more lines than the pane holds, then scroll up
wait_for '^ *tok1[4-9] *$' 20
keys k k k
check "k: scrolling up pauses" wait_for 'stdout \(paused: G follows\)' 5
m=$(cap | grep -Eo 'tok[0-9]+' | tail -1)
sleep 3
check "paused: the screen stays where it was" sh -c "cap() { tmux -L '$SOCK' capture-pane -p -t t; }; cap | grep -Eo 'tok[0-9]+' | tail -1 | grep -qx '$m'"
keys g
check "g: the start of the file, escape sequences shown escaped" \
	wait_for '^ *esc \\x1b\[31mred\\x1b\[0m \\x1b\]0;title\\x07 end *$' 5
keys G
check "G: following again" wait_for 'stdout \(following\)' 5
keys / tok1 Enter
check "/: a search goes to a matching line" wait_for '/tok1: line [0-9]+' 5
keys Escape
check "Esc: back to the jobs table" wait_for "^ +$J " 5
keys O
check "O: stderr" wait_for '^ *err-line *$' 10
check "O: the title says stderr" wait_for "job $J stderr" 2
keys Escape
wait_for "^ +$J " 5
keys b
check "b: the batch script" wait_for 'while \[ \$i -lt 120 \]' 10
check "b: the title says batch script" wait_for "job $J: batch script" 2
keys Escape
check "Esc: back again" wait_for "^ +$J " 5
keys !
check "!: the command is shown first (the job's node)" \
	wait_for '^squall: ssh -- n[0-9]+$' 5
check "!: the user's ssh runs with it" wait_for '^FAKE-SSH ARGS: -- n[0-9]+$' 5
check "!: its failure is shown, Enter returns" \
	wait_for 'ssh exited with status 3' 5
keys Enter
check "!: back in the console, the status in the message line" \
	wait_for 'ssh n[0-9]+: exit status 3' 5
check "!: the table is drawn again" wait_for "^ +$J " 5
keys : "ssh -oProxyCommand=x" Enter
check ":ssh refuses an option as a node name" wait_for 'ssh: not a node name' 5
# a job that has not started (issue 41): not "job ended" and an errno,
# but that it has not started and where its file will be
P=$(cd "$WORK" && runuser -u alice -- env -u SQUEUE_FORMAT sbatch --parsable \
	-H -p high -t 3 -J "$NAME" -o "$WORK/p-%j.out" --wrap 'echo p')
keys / "@job_id=$P" Enter
wait_for "^ +$P " 15
keys o
check "o on a pending job: the title says not started, not job ended" \
	wait_for "job $P stdout \\(not started\\): .*p-$P.out" 10
check "o on a pending job: where its stdout will be written" \
	wait_for "has not started \\(PENDING\\): its stdout will be written to" 5
check "o on a pending job: no errno" not wait_for 'No such file' 1
keys Escape
keys q
exit $failed
