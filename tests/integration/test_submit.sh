#!/bin/sh
# test_submit.sh - `squall --exec 'submit FILE ...' --yes` through the
# local (root), ssh (alice) and rest (alice's JWT) backends on the live
# testbed: each prints a job id that squeue shows with the partition, name
# and user asked for; the audit log has intent and result lines with the
# script's path, size and sha256 and the new id; --readonly and hostile
# option values submit nothing; and `--once --job ID` shows the live
# usage (sstat) of a running job, a permission note for a user who may
# not see it, and a note over REST (no sstat). Every job it submits is
# cancelled by id.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp"
export SQUALL_CONFIG=/dev/null XDG_STATE_HOME="$tmp/state"
unset SSH_AUTH_SOCK
audit=$XDG_STATE_HOME/squall/audit.log
name=sqsub-it-$$
REST=http://127.0.0.1:$REST_PORT
: >"$tmp/ids"
cleanup() {
	for j in $(cat "$tmp/ids"); do slurm scancel "$j" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
	cat "$tmp/out" "$tmp/err" 2>/dev/null | sed 's/^/#   /' | head -20
}

# the job: held (it never runs), so the checks only read the queue
cat >"$tmp/job.sh" <<'EOF'
#!/bin/bash
#SBATCH -o /dev/null
echo "submitted by test_submit.sh"
sleep 120
EOF
chmod 644 "$tmp/job.sh"
sha=$(sha256sum "$tmp/job.sh" | cut -d' ' -f1)
size=$(wc -c <"$tmp/job.sh" | tr -d ' ')

# the new job id from "submit: job N submitted"
new_id() { sed -n 's/^submit: job \([0-9][0-9]*\) submitted.*/\1/p' "$tmp/out" | head -1; }
queue_of() { slurm squeue -h -j "$1" -o '%P|%j|%u' 2>/dev/null; }
check_submit() { # check_submit BACKEND USER NAME
	id=$(new_id)
	if [ -z "$id" ]; then
		notok "$1: a job id is printed"
		return 1
	fi
	echo "$id" >>"$tmp/ids"
	ok "$1: job $id submitted"
	check "$1: squeue shows job $id in low, named $3, of $2" \
		test "$(queue_of "$id")" = "low|$3|$2"
	check "$1: the audit log has its result with the new id" \
		grep -q "\"event\":\"result\".*\"action\":\"submit\".*\"created\":\"$id\"" "$audit"
}

# --- local (as root)
"$SQUALL" -b local --exec "submit $tmp/job.sh -p low -t 5 -J $name-local -H" --yes >"$tmp/out" 2>"$tmp/err"
check "local: exit 0" test $? -eq 0
check "local: the preview is the sbatch line with the script on stdin" \
	grep -q "^sbatch --parsable --partition=low --time=5 --job-name=$name-local --hold < $tmp/job.sh ($size bytes, sha256 ${sha%"${sha#????????????????}"}...)\$" "$tmp/out"
check_submit local root "$name-local"
check "local: the audit intent names the script's path, size and sha256" \
	grep -q "\"event\":\"intent\".*\"script\":{\"path\":\"$tmp/job.sh\",\"size\":$size,\"sha256\":\"$sha\"}" "$audit"
check "local: the audit log holds no script text" sh -c "! grep -q 'submitted by test_submit' '$audit'"
check "local: undo is offered (cancel ID)" grep -q "^undo: cancel $(new_id)\$" "$tmp/out"

# --- ssh (as alice)
key=$TB/ssh/id_ed25519
if [ -r "$key" ] && ssh-keyscan -T 5 -p $SSH_PORT 127.0.0.1 >/dev/null 2>&1; then
	: >"$tmp/sshcfg"
	viassh() {
		u=$1
		shift
		"$SQUALL" -b ssh -H 127.0.0.1 -p $SSH_PORT -l "$u" --identity "$key" \
			--known-hosts "$TB/ssh/known_hosts" --ssh-config "$tmp/sshcfg" \
			"$@" >"$tmp/out" 2>"$tmp/err"
	}
	viassh alice --exec "submit $tmp/job.sh --partition=low --time 5 --job-name='$name ssh' --hold" --yes
	check "ssh: exit 0" test $? -eq 0
	check "ssh: the preview names the ssh target" grep -q "^\[ssh alice@127.0.0.1\] sbatch --parsable" "$tmp/out"
	check_submit ssh alice "$name ssh"
else
	notok "ssh: sshd on 127.0.0.1:$SSH_PORT or $key is not there"
fi

# --- rest (alice's token)
if curl -s -o /dev/null "$REST/openapi/v3" && [ -r "$TB/jwt/alice.token" ]; then
	cp "$TB/jwt/alice.token" "$tmp/alice.token" && chmod 600 "$tmp/alice.token"
	rest() { "$SQUALL" -b rest -u "$REST" --token-file "$tmp/alice.token" -l alice "$@" >"$tmp/out" 2>"$tmp/err"; }
	# the newest /slurm/ version squall speaks here: v0.0.38 (22.05) takes
	# plain numbers and an environment object, v0.0.40+ (24.11, 26.05)
	# {set, infinite, number} and a list, and can say --nodelist
	V=$(curl -s -H "X-SLURM-USER-NAME: alice" -H "X-SLURM-USER-TOKEN: $(cat "$tmp/alice.token")" "$REST/openapi/v3" |
		jq -r '.paths | keys[]' | sed -n 's,^/slurm/v0\.0\.\([0-9]*\)/job/submit/*$,\1,p' |
		awk '$1 <= 45' | sort -n | tail -1)
	if [ "$V" = 38 ]; then
		body="\"partition\":\"low\",\"time_limit\":5,\"name\":\"$name-rest\",\"hold\":true,\"memory_per_node\":100,\"current_working_directory\":\"/home/alice\",\"environment\":{\"PATH\":\"/usr/local/bin:/usr/bin:/bin\"}"
	else
		body="\"partition\":\"low\",\"time_limit\":{\"set\":true,\"infinite\":false,\"number\":5},\"name\":\"$name-rest\",\"hold\":true,\"memory_per_node\":{\"set\":true,\"infinite\":false,\"number\":100},\"current_working_directory\":\"/home/alice\",\"environment\":\\[\"PATH=/usr/local/bin:/usr/bin:/bin\"\\]"
	fi
	rest --exec "submit $tmp/job.sh -p low -t 5 -J $name-rest -H --mem=100M" --yes
	check "rest: exit 0 (22.05's 'held' error entry is not a failure)" test $? -eq 0
	check "rest: the preview is the POST with the script abbreviated" \
		grep -q "^POST /slurm/v0.0.$V/job/submit {\"script\":\"$tmp/job.sh ($size bytes, sha256 .*\",\"job\":{$body}}\$" "$tmp/out"
	check "rest: the preview does not hold the script's text" sh -c "! grep -q 'submitted by test_submit' '$tmp/out'"
	check_submit rest alice "$name-rest"
	id=$(new_id)
	[ -n "$id" ] && check "rest: the job has the working directory /home/alice" \
		sh -c "env LC_ALL=C scontrol -o show job $id | grep -q 'WorkDir=/home/alice '"
	rest --exec "submit $tmp/job.sh -p low -w n1 -H" --yes
	rc=$?
	if [ "$V" = 38 ]; then
		check "rest: an option v0.0.38 cannot express is refused (exit 1, --nodelist named)" \
			sh -c "test $rc -eq 1 && grep -q 'nodelist is not supported over REST' '$tmp/err'"
	else
		id=$(new_id)
		echo "$id" >>"$tmp/ids"
		check "rest: v0.0.$V says --nodelist (required_nodes): exit 0, ReqNodeList=n1" \
			sh -c "test $rc -eq 0 && env LC_ALL=C scontrol -o show job '$id' | grep -q 'ReqNodeList=n1 '"
	fi
else
	notok "rest: slurmrestd does not answer on $REST"
fi

# --- Slurm refuses: its words, exit 1, no job
"$SQUALL" -b local --exec "submit $tmp/job.sh -p low -A no_such_acct_$$ -J $name-bad -H" --yes >"$tmp/out" 2>"$tmp/err"
rc=$?
check "an invalid account: exit 1 with sbatch's words" \
	sh -c "test $rc -eq 1 && grep -q 'submit: not submitted: sbatch exited with status 1: sbatch: error: .*nvalid account' '$tmp/err'"
check "an invalid account: no job" test "$(slurm squeue -h -n "$name-bad" | wc -l)" -eq 0
check "an invalid account: the failed result is audited" \
	grep -q '"event":"result".*"action":"submit".*"ok":false' "$audit"

# --- read-only and hostile values: nothing reaches sbatch
before=$(slurm squeue -h -n "$name-ro" | wc -l)
"$SQUALL" -b local --readonly --exec "submit $tmp/job.sh -p low -J $name-ro -H" --yes >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--readonly: exit 1 and 'read-only' said" sh -c "test $rc -eq 1 && grep -q 'read-only' '$tmp/err'"
check "--readonly: no job was submitted" test "$(slurm squeue -h -n "$name-ro" | wc -l)" -eq "$before"
check "--readonly: the refusal is audited" grep -q '"event":"refused".*"action":"submit"' "$audit"
for bad in "-J '$name;id'" "-p 'low;id'" "-J '\$(id)'" "-o '/tmp/\`id\`'" "--wrap=id" "--uid=0"; do
	"$SQUALL" -b local --exec "submit $tmp/job.sh $bad" --yes >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "hostile '$bad': refused (exit $rc), nothing run" \
		sh -c "test $rc -ne 0 && ! grep -q '^sbatch' '$tmp/out'"
done
check "hostile: no job named $name;id exists" test "$(slurm squeue -h -n "$name;id" | wc -l)" -eq 0
printf '#!/bin/sh\necho a\0b\n' >"$tmp/nul.sh"
"$SQUALL" -b local --exec "submit $tmp/nul.sh" --yes >"$tmp/out" 2>"$tmp/err"
check "a script with a NUL byte is refused" sh -c "test $? -ne 0 && grep -q 'NUL' '$tmp/err'"
echo 'echo no interpreter' >"$tmp/plain.sh"
"$SQUALL" -b local --exec "submit $tmp/plain.sh" --yes >"$tmp/out" 2>"$tmp/err"
check "a script without #! is refused" sh -c "test $? -ne 0 && grep -q '#!' '$tmp/err'"

# --- live usage of a running job (root's job: a step holding ~20 MB).
# It goes to 'high' (PriorityTier=10): the workload the earlier suites
# left may fill every CPU of 'low', and a high job preempts a low one
# (after PreemptExemptTime, 10 s) rather than waiting for a day.
cat >"$tmp/live.sh" <<'EOF'
#!/bin/bash
#SBATCH -o /dev/null
srun --overlap -n1 sh -c 'x=$(head -c 20000000 /dev/zero | tr "\0" a); sleep 100' &
sleep 110
EOF
chmod 644 "$tmp/live.sh"
"$SQUALL" -b local --exec "submit $tmp/live.sh -p high -t 3 -J $name-live" --yes >"$tmp/out" 2>"$tmp/err"
live=$(new_id)
if [ -n "$live" ]; then
	echo "$live" >>"$tmp/ids"
	i=0
	until [ "$(slurm squeue -h -j "$live" -o %T)" = RUNNING ] || [ $i -ge 90 ]; do
		sleep 1
		i=$((i + 1))
	done
	i=0 # until the step reports (sstat needs the step's first sample)
	until slurm sstat -a -n -P -j "$live" -o JobID 2>/dev/null | grep -q "^$live\.0$" || [ $i -ge 30 ]; do
		sleep 1
		i=$((i + 1))
	done
	sleep 2
	"$SQUALL" -b local --once --job "$live" >"$tmp/out" 2>"$tmp/err"
	check "--once --job: 'live usage (sstat)' for the running job" grep -q '^live usage (sstat):' "$tmp/out"
	check "--once --job: its batch step and step 0 with a max RSS over 10M" \
		sh -c "grep -q '^  $live\.batch ' '$tmp/out' && grep -Eq '^  $live\.0 +1 .* [1-9][0-9]M +[0-9.]+[KMG] +n[0-9]' '$tmp/out'"
	"$SQUALL" -b local --once --job "$live" --format tsv >"$tmp/out" 2>"$tmp/err"
	check "--once --job --format tsv: live lines" grep -q "^live	$live\.0	1	" "$tmp/out"
	"$SQUALL" -b local --once --job "$live" --format json >"$tmp/out" 2>"$tmp/err"
	# sstat prints MaxRSS as it counts it: 20884K, or 20M when it is an
	# exact multiple of 1024K
	check "--once --job --format json: live.steps has step $live.0" \
		python3 -c "import json,re,sys; d=json.load(open('$tmp/out')); sys.exit(0 if any(s['step']=='$live.0' and re.fullmatch('[0-9.]+[KMG]', s['max_rss']) for s in d['live']['steps']) else (print(json.dumps(d['live'])) or 1))"
	if [ -r "$key" ]; then
		viassh alice --once --job "$live"
		check "ssh as alice: root's job gives the permission note" \
			grep -q 'sstat: permission denied' "$tmp/out"
	fi
	if [ -r "$tmp/alice.token" ]; then
		rest --once --job "$live"
		check "rest: the note says there is no sstat" \
			grep -q 'live usage: not available through the rest backend' "$tmp/out"
	fi
else
	notok "live: the job was submitted"
fi
finish
