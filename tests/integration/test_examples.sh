#!/bin/sh
# test_examples.sh - the documented examples, run on the testbed (issue
# 41: the saved view `view gpujobs of=jobs filter='@gres=gpu'` matched
# nothing). The EXAMPLES block of squall.conf(5), read from the man page,
# is a user's ~/.config/squall/config (the file it sources names the
# testbed): it loads without a message, the console opens on the view it
# sets, F5 is bound, the jobs view shows the columns it names and
# :gpujobs lists exactly the jobs squeue lists with a GPU (one held GPU
# job of ours among them, our held plain job left out); the README's
# saved views the same; and every `$ squall` line of squall(1)'s
# EXAMPLES runs: the --once ones exit 0 with output (the ssh one through
# the testbed's sshd as alice), the console ones open their view (prod,
# the conf example's cluster, is the testbed) and take the lines the
# example types.
# Only the two jobs submitted here are cancelled.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
tmp=$(mktemp -d /tmp/sq-examples.XXXXXX)
sock=
jobs=
cleanup() {
	[ -n "$sock" ] && tmux -L "$sock" kill-server 2>/dev/null
	[ -n "$jobs" ] && scancel $jobs 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
command -v tmux >/dev/null 2>&1 || {
	echo "not ok - tmux is not installed: the console examples cannot run"
	exit 1
}

# mdoc to text: the escapes the examples use
deroff() { sed 's/\\(dq/"/g; s/\\e/\\/g; s/\\ / /g; s/\\-/-/g; s/\\&//g'; }

# --- squall.conf(5): the EXAMPLES block as a user's config
home=$tmp/home
mkdir -p "$home/.config/squall"
awk '/^\.Sh EXAMPLES/ { e = 1 } e && /^\.Bd -literal/ { b = 1; next }
	b && /^\.Ed/ { exit } b' "$root/man/squall.conf.5" | deroff \
	>"$home/.config/squall/config"
check "squall.conf(5) has an example with saved views" \
	grep -q '^view gpujobs of=jobs' "$home/.config/squall/config"
cat >"$home/.config/squall/local" <<'EOF'
# the example sources this file: here the site's prod is the testbed
cluster prod backend=local readonly
EOF
as_user() { # the example's user: that HOME, no SQUALL_CONFIG
	env -u SQUALL_CONFIG -u XDG_CONFIG_HOME HOME="$home" \
		XDG_STATE_HOME="$tmp/state" "$@"
}
user_env="env -u SQUALL_CONFIG -u XDG_CONFIG_HOME HOME='$home' XDG_STATE_HOME='$tmp/state'"
as_user "$SQUALL" --once --view partitions >"$tmp/o" 2>"$tmp/e"
rc=$?
check "the example config loads without a message (exit $rc)" \
	sh -c "test $rc -eq 0 && test ! -s '$tmp/e' && test -s '$tmp/o'"
[ -s "$tmp/e" ] && sed 's/^/#   /' "$tmp/e"

# a held GPU job and a held plain one (they take nothing)
gid=$(slurm sbatch --parsable -H -p gpu --gres=gpu:1 -t 5 -J sq-ex-gpu \
	-o /dev/null --wrap 'sleep 1' | cut -d';' -f1)
pid=$(slurm sbatch --parsable -H -p low -t 5 -J sq-ex-plain \
	-o /dev/null --wrap 'sleep 1' | cut -d';' -f1)
jobs="$gid $pid"
# squeue's jobs with a GPU (tres-per-node gres:gpu:1, gres/gpu:a100:2 ...)
gpu_jobs() {
	slurm squeue -h -a -O JobID:30,tres-per-node:80 |
		awk '$2 ~ /(^|[:\/,])gpu([:,]|$)/ { print $1 }' | sort -u
}
body_ids() { # the first word of each body row of a 50-row screen
	cap | sed -n '3,48p' | awk 'NF { print $1 }' | sed 's/^[-+*]//' |
		grep -E '^[0-9]' | sort -u
}
# gpujobs_rows: the screen's :gpujobs rows are squeue's GPU jobs (read
# around it: a job of another test may come or go)
gpujobs_rows() {
	gpu_jobs >"$tmp/a"
	T send-keys -t t r
	sleep 2
	body_ids >"$tmp/s"
	gpu_jobs >"$tmp/b"
	grep -qx "$gid" "$tmp/s" &&
		{ cmp -s "$tmp/s" "$tmp/a" || cmp -s "$tmp/s" "$tmp/b"; }
}
console() { # console CMD...: a fresh console at 200x50
	[ -n "$sock" ] && T kill-server 2>/dev/null
	sock=sq-examples-$$
	sleep 0.3
	T new-session -d -s t -x 200 -y 50 "$*; sleep 120"
}

console "$user_env '$SQUALL'"
check "set view nodes: the console opens on the nodes view" \
	wait_for '^ squall  :nodes ' 15
T send-keys -t t ":gpujobs" Enter
check ":gpujobs opens the saved view" wait_for '^ squall  :gpujobs ' 5
wait_for "^ +$gid " 15 >/dev/null
check ":gpujobs (filter='@gres=gpu') lists squeue's GPU jobs, ours too" \
	gpujobs_rows
check ":gpujobs leaves out the plain job" sh -c "! grep -qx '$pid' '$tmp/s'"
T send-keys -t t ":jobs" Enter
wait_for '^ squall  :jobs ' 5 >/dev/null
check "view jobs columns=...: the jobs view shows those columns" sh -c \
	"tmux -L $sock -f /dev/null capture-pane -p -t t | sed -n 2p | tr -s ' ' | sed 's/ *\$//' | grep -qx ' JOBID NAME USER STATE TIME NODELIST(REASON)'"
T send-keys -t t F5
check "bind F5 \":view nodes\": F5 opens the nodes view" \
	wait_for '^ squall  :nodes ' 5

# --- the README's saved views, the same way (a home of their own)
home2=$tmp/home2
mkdir -p "$home2/.config/squall"
tr '\n' ' ' <"$root/README.md" | grep -o '`view [^`]*`' | tr -d '`' \
	>"$home2/.config/squall/config"
check "the README has the gpujobs saved view" \
	grep -q '^view gpujobs of=jobs' "$home2/.config/squall/config"
env -u SQUALL_CONFIG -u XDG_CONFIG_HOME HOME="$home2" \
	XDG_STATE_HOME="$tmp/state" "$SQUALL" --once --view partitions \
	>"$tmp/o" 2>"$tmp/e"
check "the README's views load without a message" \
	sh -c "test $? -eq 0 && test ! -s '$tmp/e'"
console "env -u SQUALL_CONFIG -u XDG_CONFIG_HOME HOME='$home2' XDG_STATE_HOME='$tmp/state' '$SQUALL'"
wait_for '^ squall  :jobs ' 15 >/dev/null
T send-keys -t t ":gpujobs" Enter
wait_for "^ +$gid " 15 >/dev/null
check "README :gpujobs lists squeue's GPU jobs" gpujobs_rows

# --- squall(1): every `$ squall` line of EXAMPLES, and the lines typed
# into the console after one
awk '/^\.Sh EXAMPLES/ { e = 1; next } e && /^\.Sh / { exit }
	e && /^\.Dl / { sub(/^\.Dl /, ""); line = line $0
		if (line ~ /\\e$/) { sub(/ *\\e$/, " ", line); next }
		print line; line = "" }' "$root/man/squall.1" | deroff |
	sed 's/^\([^$]\)/> \1/' >"$tmp/ex1"
check "squall(1) has examples to run" \
	test "$(grep -c '^\$ ' "$tmp/ex1")" -ge 5
key=$TB/ssh/id_ed25519
: >"$tmp/sshcfg"
ssh_args="-H 127.0.0.1 -p $SSH_PORT -l alice --identity $key --known-hosts $TB/ssh/known_hosts --ssh-config $tmp/sshcfg"
n=0
while IFS= read -r ex; do
	n=$((n + 1))
	case $ex in
	'> '*) # typed into the console of the example before
		ex=${ex#> }
		T send-keys -t t -l "$ex"
		T send-keys -t t Enter
		check "squall(1) console example: '$ex' is applied" \
			wait_for "^ squall  :.*${ex##*[ /:]}" 10
		continue
		;;
	esac
	ex=${ex#\$ }
	# the binary for `squall`; the testbed's sshd for the example's host
	cmd=$(printf '%s\n' "$ex" | sed "s|^squall |'$SQUALL' |; s| squall | '$SQUALL' |; s|-H login1|$ssh_args|")
	case $ex in
	*" -c prod"*) # the cluster of squall.conf(5)'s example: the testbed
		console "cd '$tmp' && $user_env $cmd"
		check "squall(1) console example opens on prod: $ex" \
			wait_for '^ squall  :.*\[read-only\]' 15
		;;
	*--once*)
		(cd "$tmp" && eval "SQUALL_CONFIG=/dev/null $cmd") \
			>"$tmp/x$n" 2>"$tmp/x$n.err" </dev/null
		rc=$?
		check "squall(1) example exits 0 with output: $ex" \
			sh -c "test $rc -eq 0 && test -s '$tmp/x$n'"
		[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/x$n.err"
		;;
	*)
		view=$(printf '%s\n' "$ex" | sed -n 's/.*--view \([a-z-]*\).*/\1/p')
		console "cd '$tmp' && $cmd"
		check "squall(1) console example opens :${view:-jobs}: $ex" \
			wait_for "^ squall  :${view:-jobs} " 15
		;;
	esac
done <"$tmp/ex1"
finish
