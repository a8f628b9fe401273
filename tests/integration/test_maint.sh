#!/bin/sh
# test_maint.sh - the maintenance views against the testbed: `squall
# --once --view licenses` prints what `scontrol show licenses` shows
# (name, total, used, free, reserved, remote; an empty list too) through
# local, ssh (alice, key only) and slurmrestd where it answers; the jobs
# pending on Licenses (the view's detail link, @reason=Licenses) are
# squeue's.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
TB=${TB:-/tmp/slurmtb}
SQUALL=${SQUALL:-$root/squall}
REST=http://127.0.0.1:$REST_PORT
TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
export SQUALL_CONFIG=/dev/null
unset SSH_AUTH_SOCK
: >"$tmp/empty_config"
cols=name,total,used,free,reserved,remote

# scontrol's licenses as name|total|used|free|reserved|remote, sorted
want_licenses() {
	slurm scontrol -o show licenses | awk '/^LicenseName=/ {
		delete v
		for (i = 1; i <= NF; i++) {
			k = $i; sub(/=.*/, "", k); x = $i; sub(/^[^=]*=/, "", x); v[k] = x
		}
		print v["LicenseName"] "|" v["Total"] "|" v["Used"] "|" v["Free"] "|" v["Reserved"] "|" v["Remote"]
	}' | sort
}
# same NAME CMD...: CMD (squall) prints scontrol's licenses; retried while
# jobs take or free licenses between the two reads
same() {
	_n=$1
	shift
	for _try in 1 2 3 4 5; do
		want_licenses >"$tmp/want"
		"$@" --once --view licenses --format tsv >"$tmp/$_n.tsv" 2>"$tmp/$_n.err" || {
			cat "$tmp/$_n.err"
			return 1
		}
		tsv_cols "$tmp/$_n.tsv" "$cols" | sort >"$tmp/$_n"
		cmp -s "$tmp/want" "$tmp/$_n" && return 0
		sleep 1
	done
	diff "$tmp/want" "$tmp/$_n" | head -10
	return 1
}

want_licenses >"$tmp/want0"
echo "# scontrol show licenses: $(wc -l <"$tmp/want0") license(s) $(tr '\n' ' ' <"$tmp/want0")"
check "licenses: local prints scontrol show licenses" same local "$SQUALL" -b local

key=$TB/ssh/id_ed25519
if [ -r "$key" ] && ssh-keyscan -T 5 -p "$SSH_PORT" 127.0.0.1 >/dev/null 2>&1; then
	check "licenses: ssh prints scontrol show licenses" same ssh \
		"$SQUALL" -b ssh -H 127.0.0.1 -p "$SSH_PORT" -l alice \
		--ssh-config "$tmp/empty_config" --identity "$key" \
		--known-hosts "$TB/ssh/known_hosts"
else
	notok "licenses: the testbed's sshd on 127.0.0.1:$SSH_PORT does not answer"
fi

code=$(curl -s -o /dev/null -w '%{http_code}' "$REST/openapi/v3")
if [ "$code" != 000 ] && [ -r "$TOKEN" ]; then
	check "licenses: rest prints scontrol show licenses" same rest \
		"$SQUALL" -b rest -u "$REST" --token-file "$TOKEN"
else
	notok "licenses: slurmrestd does not answer on $REST or $TOKEN is missing"
fi

# the jobs waiting on a license (tests/testbed/jobs: lic-wait, when the
# testbed declares matlab), as the licenses view's link shows them
lic_jobs() {
	slurm squeue -h -a -t PD -o '%i|%r' | awk -F'|' '$2 == "Licenses" { print $1 }' | sort
}
sq_lic_jobs() {
	"$SQUALL" -b local --once --view jobs --filter '@reason=Licenses' \
		--format tsv >"$tmp/jobs.tsv" 2>"$tmp/jobs.err" || return 1
	tsv_col "$tmp/jobs.tsv" job_id | sort
}
same_jobs() {
	for _try in 1 2 3; do
		lic_jobs >"$tmp/jw"
		sq_lic_jobs >"$tmp/jg"
		cmp -s "$tmp/jw" "$tmp/jg" && return 0
		sleep 1
	done
	diff "$tmp/jw" "$tmp/jg" | head -5
	return 1
}
check "licenses: jobs pending on Licenses are squeue's ($(lic_jobs | wc -l))" same_jobs
finish
