# lib.sh - helpers for the integration tests (sourced).
# ok/notok print TAP-like lines and count failures; finish exits with the
# result. The Slurm commands run with the same environment squall uses.
n_fail=0
# the testbed's sshd and slurmrestd ports (tests/testbed/run-release sets
# them for the newer releases' testbeds)
SSH_PORT=${SSH_PORT:-2222}
REST_PORT=${REST_PORT:-6820}
ok() { echo "ok - $*"; }
notok() {
	echo "not ok - $*"
	n_fail=$((n_fail + 1))
}
check() { # check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
finish() {
	[ "$n_fail" -eq 0 ] && exit 0
	echo "$n_fail check(s) failed"
	exit 1
}
slurm() { env -u SQUEUE_FORMAT -u SQUEUE_FORMAT2 -u SINFO_FORMAT -u SPRIO_FORMAT LC_ALL=C SLURM_TIME_FORMAT=%s "$@"; }
# tsv_col FILE ID: print the column named ID of a squall tsv file (no header)
tsv_col() {
	awk -F'\t' -v id="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == id) c = i; next } { print $c }' "$1"
}
# tsv_cols FILE ID1,ID2,...: those columns joined with '|'
tsv_cols() {
	awk -F'\t' -v ids="$2" 'NR == 1 { n = split(ids, want, ","); for (i = 1; i <= NF; i++) pos[$i] = i; next }
		{ line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "|" : "") $(pos[want[k]]); print line }' "$1"
}
# The console in a private tmux server: tests set sock (the -L name) and
# start pane t with `T new-session -d -s t ...`.
T() { tmux -L "$sock" -f /dev/null "$@"; }
cap() { T capture-pane -p -t t; }
wait_for() { # wait_for PATTERN [SECONDS]: until the screen matches (grep -E)
	_w=0
	while [ $_w -lt $((${2:-10} * 5)) ]; do
		cap | grep -Eq -- "$1" && return 0
		sleep 0.2
		_w=$((_w + 1))
	done
	# what the screen held instead, for the log
	echo "# the screen, waiting for '$1':"
	cap | sed 's/^/#   /'
	return 1
}
