#!/bin/sh
# test_ssh.sh - the ssh backend against the testbed's sshd (127.0.0.1:$SSH_PORT,
# alice, key only): `--once` through ssh equals local for every view; a
# wrong key, a changed host key and an unknown host key are refused with a
# clear message and exit 1; --accept-new-host-key trusts an unknown key and
# writes it; ~/.ssh/config-style aliases work. Then a private sshd (started
# and stopped here, by PID) whose sshd_config sets the user's format
# variables proves they never reach the Slurm commands, and is stopped and
# restarted under a live backend (tests/unit/test_ssh live tests).
#
# Everything ssh reads is named explicitly: --ssh-config (an empty file, so
# root's ~/.ssh/config and /etc/ssh/ssh_config do not apply), --known-hosts
# (copies in $tmp), --identity; SSH_AUTH_SOCK is unset.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
tmp=$(mktemp -d)
key=$TB/ssh/id_ed25519
hostpub=$TB/ssh/host_ed25519.pub
myjob=

stop_private_sshd() {
	[ -x "$tmp/stop" ] && "$tmp/stop"
}
cleanup() {
	stop_private_sshd
	[ -n "$myjob" ] && scancel "$myjob" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ ! -r "$key" ] || [ ! -r "$hostpub" ]; then
	echo "skip - no testbed ssh keys in $TB/ssh"
	exit 77
fi
if ! ssh-keyscan -T 5 -p $SSH_PORT 127.0.0.1 >/dev/null 2>&1; then
	echo "skip - sshd on 127.0.0.1:$SSH_PORT does not answer"
	exit 77
fi

: >"$tmp/empty_config"
cp "$TB/ssh/known_hosts" "$tmp/kh"
fp=$(ssh-keygen -lf "$hostpub" | awk '{ print $2 }')
blob=$(awk '{ print $2 }' "$hostpub")
export SQUALL_CONFIG=/dev/null
unset SSH_AUTH_SOCK

# sq_ssh PORT ARGS...: squall over ssh as alice, nothing implicit
sq_ssh() {
	port=$1
	shift
	"$SQUALL" -b ssh -H 127.0.0.1 -p "$port" -l alice \
		--ssh-config "$tmp/empty_config" "$@"
}
ok_ssh() { sq_ssh $SSH_PORT --identity "$key" --known-hosts "$tmp/kh" "$@"; }

# one job of our own so the queue is never empty (held: it never runs)
myjob=$(cd /tmp && runuser -u alice -- sbatch --parsable --hold -p low \
	-t 5 -J sqssh-held --wrap 'sleep 60' 2>/dev/null)

# norm FILE: sort the items of a tsv "partitions" column in place; sinfo -N
# lists a node's partitions in no stable order, and the nodes view keeps it
norm() {
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "partitions") c = i }
	NR > 1 && c { n = split($c, a, ","); for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		$c = a[1]; for (i = 2; i <= n; i++) $c = $c "," a[i] }
	{ print }' "$1" >"$1.n" && mv "$1.n" "$1"
}

# same_view NAME PORT FORMAT [EXCLUDED,COLUMNS]: local, ssh, local again;
# when both local runs agree (the cluster did not move meanwhile), ssh must
# print exactly the same. Retried while the cluster moves. Returns 0 equal,
# 1 different or failed, 2 never stable (then $tmp/l1 and $tmp/s hold the
# last local and ssh output).
same_view() {
	v=$1 port=$2 fmt=$3 drop=${4:-}
	cols=
	if [ -n "$drop" ]; then
		"$SQUALL" --once --view "$v" --format tsv | head -1 |
			tr '\t' '\n' >"$tmp/allcols"
		cols=$(echo "$drop" | tr ',' '\n' | grep -vxF -f - "$tmp/allcols" |
			paste -sd, -)
	fi
	for try in 1 2 3 4 5 6 7 8; do
		"$SQUALL" --once --view "$v" --format "$fmt" ${cols:+--columns "$cols"} >"$tmp/l1" 2>&1 || return 1
		sq_ssh "$port" --identity "$key" --known-hosts "$tmp/kh" \
			--once --view "$v" --format "$fmt" ${cols:+--columns "$cols"} >"$tmp/s" 2>&1 || {
			sed 's/^/# /' "$tmp/s"
			return 1
		}
		"$SQUALL" --once --view "$v" --format "$fmt" ${cols:+--columns "$cols"} >"$tmp/l2" 2>&1 || return 1
		if [ "$fmt" = tsv ]; then
			norm "$tmp/l1"
			norm "$tmp/s"
			norm "$tmp/l2"
		fi
		if [ "$fmt" = json ]; then
			rows=$(jq length "$tmp/l1")
		else
			rows=$(($(wc -l <"$tmp/l1") - 1))
		fi
		cmp -s "$tmp/l1" "$tmp/l2" || {
			sleep 1
			continue
		}
		if cmp -s "$tmp/l1" "$tmp/s"; then
			return 0
		fi
		diff "$tmp/l1" "$tmp/s" | head -10 | sed 's/^/# /'
		return 1
	done
	return 2
}

# check_same DESCRIPTION ARGS...: same_view, reporting the rows compared
check_same() {
	d=$1
	shift
	rows=0
	same_view "$@"
	case $? in
	0) ok "$d ($rows rows)" ;;
	2) notok "$d: the cluster kept moving, no stable comparison" ;;
	*) notok "$d" ;;
	esac
}

# --- every view through ssh equals local: the main four strictly (without
# the seconds-ticking time_used), then every other view this build has
main_views="partitions nodes jobs priority"
# live GPU use is read with sstat, which answers alice over ssh for her
# own jobs only (root locally reads every job's): left out of the
# comparison, as the controller log's columns of events are
gpulive=gpu_util,gpu_mem,gpu_util_max,gpu_mem_max
for v in $main_views; do
	check_same "ssh = local: $v, tsv without time_used" "$v" $SSH_PORT tsv time_used,$gpulive
done
check_same "ssh = local: partitions, table" partitions $SSH_PORT table
check_same "ssh = local: jobs, json without time_used" jobs $SSH_PORT json time_used,$gpulive
for v in accounts users assocs qos fairshare events gpus gpus-partitions \
	gpus-users gpus-accounts limits reservations diag config; do
	"$SQUALL" --once --view "$v" --format tsv >"$tmp/probe" 2>&1
	case $? in
	2) continue ;; # not a view of this build
	0) ;;
	*)
		echo "# $v: the local backend cannot serve it here: $(head -1 "$tmp/probe")"
		continue
		;;
	esac
	drop=
	# preemptors come from the controller log, which only root and
	# SlurmUser may read; alice over ssh sees the sacct side (and a note
	# that says the log could not be read)
	[ "$v" = events ] && drop=preemptor_job,preemptor_user,preemptor_partition,mode,source,note
	# live GPU use and what is judged from it (sstat: see above)
	case $v in gpus*) drop=util,idle ;; esac
	rows=0
	same_view "$v" $SSH_PORT tsv $drop
	case $? in
	0) ok "ssh = local: $v, tsv${drop:+ without $drop} ($rows rows)" ;;
	2)
		# counters that move with every query (diag): same columns
		# and the same row keys at least
		head -1 "$tmp/l1" >"$tmp/h1"
		head -1 "$tmp/s" >"$tmp/h2"
		# slurmdbd's statistics (diag's dbd sections) are refused to
		# alice, and their rows grow with every query: test_dbd
		# checks them over ssh as opsadmin
		cut -f1 "$tmp/l1" | grep -v '^dbd' | sort >"$tmp/k1"
		cut -f1 "$tmp/s" | grep -v '^dbd' | sort >"$tmp/k2"
		if cmp -s "$tmp/h1" "$tmp/h2" && cmp -s "$tmp/k1" "$tmp/k2"; then
			ok "ssh = local: $v, same columns and row keys (values move with every query)"
		else
			notok "ssh = local: $v (columns or row keys differ)"
		fi
		;;
	*) notok "ssh = local: $v, tsv" ;;
	esac
done
# --- actions through ssh (describe/act of the CLI layer): alice holds,
# releases and cancels a job of her own that waits for its begin time
XDG_STATE_HOME=$tmp/state
export XDG_STATE_HOME
actjob=$(cd /tmp && runuser -u alice -- sbatch --parsable -p low -t 5 \
	-J sqssh-act --begin=now+3600 --wrap 'sleep 30' 2>/dev/null)
if [ -n "$actjob" ]; then
	ok_ssh --exec "hold $actjob" --yes >"$tmp/out" 2>&1
	check "action over ssh: hold $actjob, exit 0" test $? -eq 0
	check "action over ssh: previewed as the remote command" grep -q "^\[ssh alice@127.0.0.1\] scontrol hold $actjob\$" "$tmp/out"
	check "action over ssh: squeue shows JobHeldUser" test "$(squeue -h -j "$actjob" -o %r)" = JobHeldUser
	ok_ssh --exec "release $actjob" --yes >"$tmp/out" 2>&1
	check "action over ssh: release, exit 0" test $? -eq 0
	check "action over ssh: the hold is gone" test "$(squeue -h -j "$actjob" -o %r)" != JobHeldUser
	ok_ssh --exec "cancel $actjob" --yes >"$tmp/out" 2>&1
	check "action over ssh: cancel, exit 0" test $? -eq 0
	check "action over ssh: audited with backend ssh" grep -q '"backend":"ssh","action":"cancel"' "$tmp/state/squall/audit.log"
	scancel "$actjob" 2>/dev/null
else
	notok "submit a job for the action tests"
fi

# --- usage
"$SQUALL" --help >"$tmp/help"
check "--help names the ssh backend" grep -q 'built in: local ssh' "$tmp/help"
for o in --identity --known-hosts --ssh-config --accept-new-host-key; do
	check "--help documents $o" grep -q -- "$o" "$tmp/help"
done
"$SQUALL" -b ssh --once --view nodes >/dev/null 2>"$tmp/err"
check "no --host: exit 2" test $? -eq 2
check "no --host: says so" grep -q 'needs a host' "$tmp/err"
sq_ssh $SSH_PORT -H '127.0.0.1;touch /tmp/sqssh-pwned' --once >/dev/null 2>"$tmp/err"
check "hostile host: exit 2" test $? -eq 2
sq_ssh $SSH_PORT -l 'alice$(id)' --identity "$key" --known-hosts "$tmp/kh" --once >/dev/null 2>&1
check "hostile user: exit 2" test $? -eq 2
ok_ssh --slurm-bindir 'bin;id' --once >/dev/null 2>&1
check "relative or hostile --slurm-bindir: exit 2" test $? -eq 2
check "nothing ran from a hostile value" test ! -e /tmp/sqssh-pwned

# --- wrong key
ssh-keygen -q -t ed25519 -N '' -C wrong -f "$tmp/wrong"
sq_ssh $SSH_PORT --identity "$tmp/wrong" --known-hosts "$tmp/kh" --once --view nodes >"$tmp/out" 2>"$tmp/err"
rc=$?
check "wrong key: exit 1" test $rc -eq 1
check "wrong key: one line on stderr" test "$(wc -l <"$tmp/err")" -eq 1
check "wrong key: says authentication as alice failed" grep -q "authentication as alice@127.0.0.1:$SSH_PORT failed" "$tmp/err"
check "wrong key: nothing on stdout" test ! -s "$tmp/out"
sed 's/^/# /' "$tmp/err"

# --- changed host key: refused, known_hosts untouched, even with the flag
ssh-keygen -q -t ed25519 -N '' -C other -f "$tmp/otherhost"
echo "[127.0.0.1]:$SSH_PORT $(awk '{ print $1, $2 }' "$tmp/otherhost.pub")" >"$tmp/kh_changed"
cp "$tmp/kh_changed" "$tmp/kh_changed.orig"
for flag in "" --accept-new-host-key; do
	sq_ssh $SSH_PORT --identity "$key" --known-hosts "$tmp/kh_changed" $flag --once --view nodes >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "changed host key ${flag:-(no flag)}: exit 1" test $rc -eq 1
	check "changed host key ${flag:-(no flag)}: loud message" grep -q "HOST KEY OF \[127.0.0.1\]:$SSH_PORT HAS CHANGED" "$tmp/err"
	check "changed host key ${flag:-(no flag)}: shows the new fingerprint" grep -qF "$fp" "$tmp/err"
	check "changed host key ${flag:-(no flag)}: known_hosts not updated" cmp -s "$tmp/kh_changed" "$tmp/kh_changed.orig"
	# issue 45 item 6: the file given is the one named, and the removal
	# command is the one that edits it
	check "changed host key ${flag:-(no flag)}: names --known-hosts FILE" grep -qF -- "does not match --known-hosts $tmp/kh_changed." "$tmp/err"
	check "changed host key ${flag:-(no flag)}: ssh-keygen -R ... -f FILE" grep -qF -- "ssh-keygen -R '[127.0.0.1]:$SSH_PORT' -f '$tmp/kh_changed'" "$tmp/err"
done
sed 's/^/# /' "$tmp/err"

# --- unknown host key: refused in batch mode, accepted with the flag
: >"$tmp/kh_new"
sq_ssh $SSH_PORT --identity "$key" --known-hosts "$tmp/kh_new" --once --view nodes >"$tmp/out" 2>"$tmp/err"
rc=$?
check "unknown host key: exit 1" test $rc -eq 1
check "unknown host key: shows the SHA256 fingerprint" grep -qF "$fp" "$tmp/err"
check "unknown host key: names --accept-new-host-key" grep -q -- '--accept-new-host-key' "$tmp/err"
check "unknown host key: known_hosts left empty" test ! -s "$tmp/kh_new"
check "unknown host key: names --known-hosts FILE" grep -qF -- "add the key to --known-hosts $tmp/kh_new" "$tmp/err"
sed 's/^/# /' "$tmp/err"
sq_ssh $SSH_PORT --identity "$key" --known-hosts "$tmp/kh_missing" --once --view nodes >/dev/null 2>&1
check "no known_hosts file at all: exit 1" test $? -eq 1
sq_ssh $SSH_PORT --identity "$key" --known-hosts "$tmp/kh_new" --accept-new-host-key --once --view partitions >"$tmp/out" 2>"$tmp/err"
rc=$?
check "unknown host key + --accept-new-host-key: exit 0" test $rc -eq 0
check "unknown host key + --accept-new-host-key: partitions printed" grep -q '^low ' "$tmp/out"
check "--accept-new-host-key wrote the key to known_hosts" grep -qF "[127.0.0.1]:$SSH_PORT ssh-ed25519 $blob" "$tmp/kh_new"
sq_ssh $SSH_PORT --identity "$key" --known-hosts "$tmp/kh_new" --once --view partitions >/dev/null 2>&1
check "the accepted key is known on the next run" test $? -eq 0

# --- an ssh config alias (HostName, Port, User, IdentityFile, UserKnownHostsFile)
cat >"$tmp/alias_config" <<EOF
Host tb-login
	HostName 127.0.0.1
	Port $SSH_PORT
	User alice
	IdentityFile $key
	UserKnownHostsFile $tmp/kh
EOF
"$SQUALL" -b ssh -H tb-login --ssh-config "$tmp/alias_config" --once --view partitions >"$tmp/out" 2>"$tmp/err"
check "ssh config alias: exit 0" test $? -eq 0
check "ssh config alias: partitions printed" grep -q '^low ' "$tmp/out"
"$SQUALL" -b ssh -H tb-login -p 1 --ssh-config "$tmp/alias_config" --once >/dev/null 2>"$tmp/err"
check "command line beats the config file (-p 1 refused)" grep -q 'port 1:' "$tmp/err"

# --- absolute Slurm bin dir
ok_ssh --slurm-bindir /usr/bin --once --view nodes >/dev/null 2>&1
check "--slurm-bindir /usr/bin: exit 0" test $? -eq 0
ok_ssh --slurm-bindir /nonexistent --once --view nodes >/dev/null 2>"$tmp/err"
check "--slurm-bindir /nonexistent: exit 1" test $? -eq 1
check "--slurm-bindir /nonexistent: names the path" grep -q '/nonexistent/sinfo' "$tmp/err"

# --- a private sshd whose sessions carry the user's Slurm format variables
port=
for p in $(seq 2223 2299); do
	if ! ss -ltnH "sport = :$p" | grep -q .; then
		port=$p
		break
	fi
done
if [ -z "$port" ]; then
	notok "private sshd: no free port in 2223-2299"
	finish
fi
setenv="SQUEUE_FORMAT=%i SQUEUE_FORMAT2=JobID SQUEUE_SORT=-u SQUEUE_STATES=RUNNING SINFO_FORMAT=%P SINFO_SORT=-P SPRIO_FORMAT=%i SACCT_FORMAT=JobID SSHARE_FORMAT=Account SLURM_TIME_FORMAT=relative"
cat >"$tmp/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $TB/ssh/host_ed25519
PidFile $tmp/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin no
AllowUsers alice
UsePAM no
StrictModes yes
SetEnv $setenv
EOF
cat >"$tmp/start" <<EOF
#!/bin/sh
/usr/sbin/sshd -f "$tmp/sshd_config" -E "$tmp/sshd.log" || exit 1
i=0
while ! ss -ltnH "sport = :$port" | grep -q .; do
	i=\$((i + 1)); [ \$i -gt 50 ] && exit 1; sleep 0.1
done
EOF
# stop: the daemon and every process under it (the sessions), by PID
cat >"$tmp/stop" <<EOF
#!/bin/sh
[ -s "$tmp/sshd.pid" ] || exit 0
pid=\$(cat "$tmp/sshd.pid")
tree() { for c in \$(ps -o pid= --ppid "\$1"); do tree "\$c"; echo "\$c"; done; }
kill \$(tree "\$pid") "\$pid" 2>/dev/null
rm -f "$tmp/sshd.pid"
i=0
while ss -ltnH "sport = :$port" | grep -q .; do
	i=\$((i + 1)); [ \$i -gt 50 ] && exit 1; sleep 0.1
done
EOF
chmod +x "$tmp/start" "$tmp/stop"
echo "[127.0.0.1]:$port $(awk '{ print $1, $2 }' "$hostpub")" >>"$tmp/kh"
if ! "$tmp/start"; then
	notok "private sshd on 127.0.0.1:$port starts"
	cat "$tmp/sshd.log"
	finish
fi
ok "private sshd on 127.0.0.1:$port started (pid $(cat "$tmp/sshd.pid"))"
remote=$(ssh -F /dev/null -p "$port" -i "$key" -o BatchMode=yes \
	-o UserKnownHostsFile="$tmp/kh" -o GlobalKnownHostsFile=/dev/null \
	alice@127.0.0.1 printenv SQUEUE_FORMAT 2>&1)
check "private sshd: a plain ssh session sees SQUEUE_FORMAT=$remote" test "$remote" = "%i"
for v in $main_views; do
	check_same "ssh = local despite the user's *_FORMAT variables: $v" "$v" "$port" tsv time_used,$gpulive
done

unit=$root/tests/unit/test_ssh
[ -x "$unit" ] || make -C "$root" tests/unit/test_ssh >/dev/null 2>&1
if [ -x "$unit" ]; then
	# SLURM_TIME_FORMAT is overridden (the test checks it is %s), not unset
	names=$(echo "$setenv" | tr ' ' '\n' | sed 's/=.*//' |
		grep -v '^SLURM_TIME_FORMAT$' | paste -sd' ' -)
	SQ_TEST_SSH_PORT=$port SQ_TEST_SSH_USER=alice SQ_TEST_SSH_IDENTITY=$key \
		SQ_TEST_SSH_KNOWN_HOSTS=$tmp/kh SQ_TEST_SSH_SERVER_SETS="$names" \
		SQ_TEST_SSH_STOP="$tmp/stop" SQ_TEST_SSH_START="$tmp/start" \
		"$unit" >"$tmp/unit.log" 2>&1
	rc=$?
	grep -E '^\[ +(OK|FAILED|SKIPPED|ERROR|LINE) +\]|^# ' "$tmp/unit.log" |
		sed 's/^/# /'
	check "transport and restart tests (tests/unit/test_ssh live)" test $rc -eq 0
	check "no live test skipped" test "$(grep -c 'SKIPPED \]' "$tmp/unit.log")" -eq 0
	check "recovered after sshd was stopped and started" grep -q '^# recovered after [0-9]* s' "$tmp/unit.log"
else
	notok "tests/unit/test_ssh is not built (make check builds it)"
fi

finish
