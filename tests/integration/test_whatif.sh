#!/bin/sh
# test_whatif.sh - the priority what-if on the live testbed, through the
# local and the ssh backend: with the weights in force the view gives
# sprio's priority for every pending job (job, partition), its model
# (factors x weights alone) is within 1 of it, and nothing moves; with
# --weights PriorityWeightFairshare=0 every new priority is sprio's minus
# its weighted fairshare factor (within sprio's rounding) and the new
# ranks follow from the new priorities (per partition, higher first, then
# the smaller job id). Over REST the view says in one line why it is
# unavailable. Two pending jobs of our own (QOS low, over its per-user
# CPU limit: they never run) are submitted and cancelled here.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
REST=http://127.0.0.1:${REST_PORT:-6820}
tmp=$(mktemp -d)
chmod 755 "$tmp"
mine=
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$mine" ] && scancel $mine 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export SQUALL_CONFIG=/dev/null
unset SSH_AUTH_SOCK

for u in alice bob; do
	id=$(cd /tmp && runuser -u "$u" -- sbatch --parsable -J whatif-test \
		-q low -n 9 -t 10 --wrap 'sleep 60' 2>"$tmp/sbatch.err")
	if [ -z "$id" ]; then
		echo "skip - cannot submit a pending job as $u: $(cat "$tmp/sbatch.err")"
		exit 77
	fi
	mine="$mine $id"
done
# sprio lists a job once the controller has computed its priority
n=0
while [ $n -lt 20 ]; do
	# shellcheck disable=SC2086
	[ "$(slurm sprio -h -o %i -j "$(echo $mine | tr ' ' ,)" | wc -l)" -ge 2 ] && break
	sleep 0.5
	n=$((n + 1))
done

: >"$tmp/empty_config"
cp "$TB/ssh/known_hosts" "$tmp/kh" 2>/dev/null
have_ssh=0
if [ -r "$TB/ssh/id_ed25519" ] &&
	ssh-keyscan -T 5 -p $SSH_PORT 127.0.0.1 >/dev/null 2>&1; then
	have_ssh=1
fi
run_sq() { # run_sq BACKEND ARGS...
	b=$1
	shift
	if [ "$b" = ssh ]; then
		"$SQUALL" -b ssh -H 127.0.0.1 -p $SSH_PORT -l alice \
			--ssh-config "$tmp/empty_config" \
			--identity "$TB/ssh/id_ed25519" --known-hosts "$tmp/kh" "$@"
	else
		"$SQUALL" -b local "$@"
	fi
}
sprio_now() { slurm sprio -h -o '%i|%r|%Y|%F' | tr -d ' ' | sort; }

# snapshot BACKEND WEIGHTS OUT: squall's rows and sprio's around them,
# retried until sprio did not change meanwhile (ages move every minute)
snapshot() {
	for _try in 1 2 3 4 5; do
		sprio_now >"$tmp/before"
		run_sq "$1" --once --view whatif --format tsv ${2:+--weights "$2"} \
			--columns job_id,partition,priority,priority_new,priority_model,rank,rank_new,move \
			>"$3" 2>"$tmp/err" || return 1
		sprio_now >"$tmp/after"
		cmp -s "$tmp/before" "$tmp/after" && return 0
		sleep 2
	done
	return 1
}

# ranks_follow FILE: rank_new is the place by priority_new in the partition
ranks_follow() {
	tail -n +2 "$1" | sort -t "$(printf '\t')" -k2,2 -k4,4nr -k1,1n |
		awk -F'\t' '$2 != p { p = $2; r = 0 } { r++; if ($7 != r) bad++ } END { exit bad > 0 }'
}

for b in local ssh; do
	if [ $b = ssh ] && [ $have_ssh = 0 ]; then
		echo "# ssh: skipped, sshd on 127.0.0.1:$SSH_PORT or the testbed key missing"
		[ -n "${CI:-}" ] && notok "ssh: sshd reachable"
		continue
	fi
	check "$b: today's weights: squall and sprio agree on a quiet queue" \
		snapshot $b "" "$tmp/today.tsv"
	tail -n +2 "$tmp/today.tsv" | awk -F'\t' '{ print $1 "|" $2 "|" $3 }' | sort >"$tmp/got"
	awk -F'|' '{ print $1 "|" $2 "|" $3 }' "$tmp/after" | sort >"$tmp/want"
	check "$b: a row per sprio line, with sprio's priority ($(wc -l <"$tmp/want") rows)" \
		cmp -s "$tmp/got" "$tmp/want"
	check "$b: our two pending jobs are among them" \
		test "$(grep -c . "$tmp/got")" -ge 2
	check "$b: today's weights: priority_new = priority, nothing moves" \
		awk -F'\t' 'NR > 1 && ($4 != $3 || $7 != $6 || $8 != 0) { bad++ } END { exit bad > 0 }' "$tmp/today.tsv"
	check "$b: the model (factors x weights) is within 1 of sprio" \
		awk -F'\t' 'NR > 1 { d = $5 - $3; if (d < -1 || d > 1) bad++ } END { exit bad > 0 }' "$tmp/today.tsv"

	check "$b: fairshare 0: squall and sprio agree on a quiet queue" \
		snapshot $b PriorityWeightFairshare=0 "$tmp/fs0.tsv"
	# sprio's priority minus sprio's weighted fairshare, per (job, partition)
	tail -n +2 "$tmp/fs0.tsv" | awk -F'\t' '{ print $1 "|" $2 "|" $4 }' | sort >"$tmp/got"
	awk -F'|' '{ print $1 "|" $2 "|" ($3 - $4 < 1 ? 1 : $3 - $4) }' "$tmp/after" | sort >"$tmp/want"
	cut -d'|' -f1,2 "$tmp/got" >"$tmp/g2"
	cut -d'|' -f1,2 "$tmp/want" >"$tmp/w2"
	check "$b: fairshare 0: same rows" cmp -s "$tmp/g2" "$tmp/w2"
	awk -F'|' '{ print $1 "/" $2 "|" $3 }' "$tmp/got" | sort >"$tmp/g3"
	awk -F'|' '{ print $1 "/" $2 "|" $3 }' "$tmp/want" | sort >"$tmp/w3"
	join -t'|' -j1 "$tmp/g3" "$tmp/w3" >"$tmp/joined"
	check "$b: fairshare 0: every priority_new is sprio's minus its weighted fairshare (within 1)" \
		awk -F'|' '{ d = $2 - $3; if (d < -1 || d > 1) bad++ } END { exit bad > 0 || NR == 0 }' "$tmp/joined"
	check "$b: fairshare 0: the new ranks follow from the new priorities" \
		ranks_follow "$tmp/fs0.tsv"
	check "$b: fairshare 0: some job changes priority" \
		awk -F'\t' 'NR > 1 && $4 != $3 { n++ } END { exit n == 0 }' "$tmp/fs0.tsv"
done

# a table prints the summary above the rows
run_sq local --once --view whatif --weights 'PriorityWeightFairshare=2000,PriorityWeightAge=5000' >"$tmp/table" 2>"$tmp/err"
check "table: summary lines (today, tried, moves, model check)" \
	sh -c "grep -q '^# today: .*fairshare=10000' '$tmp/table' &&
		grep -q '^# tried: .*age=5000 fairshare=2000' '$tmp/table' &&
		grep -Eq '^# [0-9]+ jobs?, [0-9]+ changes? rank' '$tmp/table' &&
		grep -q '^# model check' '$tmp/table'"
run_sq local --once --view whatif --weights 'PriorityWeightBogus=1' >"$tmp/out" 2>"$tmp/err"
check "a bad key: exit 2, says which" \
	sh -c "test $? -eq 2 && grep -q 'unknown key' '$tmp/err'"

# --weights spec: the testbed spec's config map holds the weights in force
# (PriorityWeightAge=1000, PriorityWeightFairshare=10000): nothing changes
run_sq local --once --view whatif --format tsv --weights spec \
	--spec "$root/tests/fixtures/spec/testbed.json" \
	--columns job_id,priority,priority_new >"$tmp/spec.tsv" 2>"$tmp/err"
check "--weights spec: read from the spec, the priorities in force" \
	awk -F'\t' 'NR > 1 && $2 != $3 { bad++ } END { exit bad > 0 || NR < 2 }' "$tmp/spec.tsv"
run_sq local --once --view whatif --weights spec >"$tmp/out" 2>"$tmp/err"
check "--weights spec without --spec: exit 1, says --spec" \
	sh -c "test $? -eq 1 && grep -q -- '--spec' '$tmp/err'"

# REST: one line saying why
if [ "$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")" != 000 ] &&
	[ -r "$TB/jwt/root.token" ]; then
	"$SQUALL" -b rest -u "$REST" --token-file "$TB/jwt/root.token" \
		--once --view whatif >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "rest: exit 1" test $rc -eq 1
	check "rest: one line naming sprio -n and slurmrestd" \
		sh -c "test \$(wc -l <'$tmp/err') -eq 1 && grep -q 'sprio -n' '$tmp/err' && grep -q slurmrestd '$tmp/err'"
else
	echo "# rest: skipped, slurmrestd does not answer"
fi
finish
