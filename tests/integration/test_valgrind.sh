#!/bin/sh
# test_valgrind.sh - every view once (`squall --once`) under valgrind on the
# live testbed: no definite or indirect leak and no invalid access. The
# views come from `squall --help`; spec and nodesets get the testbed's
# spec. Also a few runs through the ssh and rest backends, the detail of
# a job (--job) and a refused action (--exec), which take other paths.
# An ASan-built squall (valgrind cannot run it) is rebuilt without.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SQUALL_CONFIG=/dev/null

if ! command -v valgrind >/dev/null 2>&1; then
	echo "skip - valgrind is not installed (tests/deps installs it)"
	exit 77
fi

# valgrind cannot run an ASan binary (CI builds with --enable-sanitizers):
# then build one without sanitizers from the same sources, apart
if grep -q __asan_init "$SQUALL"; then
	mkdir "$tmp/src"
	(cd "$root" && tar cf - --exclude='*.o' --exclude='*.d' \
		--exclude='*.a' configure Makefile.in squall.c core spec session \
		batch backends tui themes man) | (cd "$tmp/src" && tar xf -)
	if (cd "$tmp/src" && ./configure >"$tmp/build.log" 2>&1 &&
		make -j2 squall >>"$tmp/build.log" 2>&1); then
		ok "built a copy without sanitizers for valgrind"
		SQUALL=$tmp/src/squall
	else
		notok "build a copy without sanitizers for valgrind"
		tail -20 "$tmp/build.log"
		finish
	fi
fi

# vg NAME ARGS...: run squall under valgrind; ok when valgrind found no
# error (exit 99 is valgrind's, anything else is squall's own status;
# valgrind's warnings, e.g. about large allocations, are not errors)
vg() {
	name=$1
	shift
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --error-exitcode=99 \
		--track-origins=yes --log-file="$tmp/vg.$name" \
		"$SQUALL" "$@" >"$tmp/out.$name" 2>"$tmp/err.$name"
	rc=$?
	if [ $rc -eq 99 ] || grep -qE 'Invalid (read|write|free)|uninitialised|Mismatched|definitely lost|indirectly lost|Syscall param|overlap' "$tmp/vg.$name"; then
		notok "valgrind: $name (exit $rc)"
		head -40 "$tmp/vg.$name" | sed 's/^/#   /'
		return 1
	fi
	ok "valgrind: $name (squall exit $rc)"
	return 0
}

views=$("$SQUALL" --help | sed -n '/^ *--view VIEW/,/^ *--format/p' | sed '$d' |
	sed 's/--view VIEW//; s/([^)]*)//g' | tr ',' '\n' | tr -d ' ' |
	grep -v '^$')
n=$(echo "$views" | wc -l)
check "the view list from --help has views ($n)" test "$n" -ge 10
spec=$root/tests/fixtures/spec/testbed.json
for v in $views; do
	case $v in
	spec | nodesets) vg "$v" --once --view "$v" --spec "$spec" ;;
	*) vg "$v" --once --view "$v" ;;
	esac
	# a view that printed nothing and failed is not the point here, but
	# say so: it would hide the paths valgrind should see
	if [ ! -s "$tmp/out.$v" ]; then
		echo "# $v printed nothing: $(head -1 "$tmp/err.$v")"
	fi
done
vg jobs-tsv --once --view jobs --format tsv
vg jobs-json --once --view jobs --format json

# one job's detail and why it pends
job=$(slurm squeue -h -t PD -o %i | head -1)
if [ -n "$job" ]; then
	vg job-detail --once --view jobs --job "$job"
fi
# a refused action: read-only
vg exec-readonly --readonly --exec "hold 1" --yes

# the other backends
KEY=$TB/ssh/id_ed25519
KH=$TB/ssh/known_hosts
if [ -f "$KEY" ]; then
	vg ssh-jobs -b ssh -H 127.0.0.1 -p $SSH_PORT -l alice --identity "$KEY" \
		--known-hosts "$KH" --once --view jobs
	vg ssh-nodes -b ssh -H 127.0.0.1 -p $SSH_PORT -l alice \
		--identity "$KEY" --known-hosts "$KH" --once --view nodes
fi
if [ -f "$TB/jwt/root.token" ]; then
	vg rest-jobs -b rest -u http://127.0.0.1:$REST_PORT -l root \
		--token-file "$TB/jwt/root.token" --once --view jobs
	vg rest-accounts -b rest -u http://127.0.0.1:$REST_PORT -l root \
		--token-file "$TB/jwt/root.token" --once --view assocs
fi
finish
