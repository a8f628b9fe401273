#!/bin/sh
# build-check.sh - checks of the build system itself, in a scratch copy of
# the tree: a missing library is an error naming its Debian package,
# config.h is rewritten only when it changes, --without-ssh/--without-rest
# build, clang builds warning-free, and install/uninstall honour DESTDIR.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $*"; }
notok() {
	echo "not ok - $*"
	fail=1
}
cd "$root" || exit 1
git ls-files | grep -v '^tests/fixtures/' | cpio -pdm --quiet "$tmp/src" 2>/dev/null ||
	{ mkdir -p "$tmp/src" && git ls-files | tar -cf - -T - | tar -xf - -C "$tmp/src"; }
cd "$tmp/src" || exit 1

# a pkg-config that does not know cmocka
cat >"$tmp/pkgconf" <<'PC'
#!/bin/sh
for a in "$@"; do [ "$a" = cmocka ] && exit 1; done
exec pkg-config "$@"
PC
chmod +x "$tmp/pkgconf"
if PKG_CONFIG="$tmp/pkgconf" ./configure >"$tmp/out" 2>&1; then
	notok "configure fails when cmocka is missing"
else
	grep -q 'libcmocka-dev' "$tmp/out" && ok "missing cmocka names libcmocka-dev" ||
		notok "missing cmocka names libcmocka-dev: $(tail -1 "$tmp/out")"
fi
./configure --bogus >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown configure option: exit 2" || notok "unknown configure option: exit 2"

./configure >/dev/null 2>&1 || notok "configure"
touch -d '2000-01-01' config.h
./configure >/dev/null 2>&1
[ "$(stat -c %Y config.h)" = "$(date -d '2000-01-01' +%s)" ] &&
	ok "config.h untouched when unchanged" || notok "config.h untouched when unchanged"
[ -s config.log ] && ok "config.log written" || notok "config.log written"

if ./configure --without-ssh --without-rest >/dev/null 2>&1 && make -s -j2 >"$tmp/b1" 2>&1; then
	./squall --help | grep -q 'built in: local replay)' && ok "--without-ssh --without-rest builds (local only)" ||
		notok "--without-ssh --without-rest: backend list $(./squall --help | grep 'built in')"
else
	notok "--without-ssh --without-rest builds: $(tail -3 "$tmp/b1")"
fi
make -s clean
if command -v clang >/dev/null; then
	if CC=clang ./configure --enable-werror >/dev/null 2>&1 && make -s -j2 >"$tmp/b2" 2>&1; then
		ok "clang -Wall -Wextra -Werror build"
	else
		notok "clang build: $(grep -m3 -E 'error|warning' "$tmp/b2")"
	fi
fi
# objects depend on the configured flags: a new configure with other
# flags leaves nothing up to date (else the sanitizers asked for are
# silently missing from the binaries the tests run)
[ -x squall ] && make -q squall 2>/dev/null || make -s -j2 >/dev/null 2>&1
cc_now=$(sed -n 's/^CC = //p' Makefile)
if make -q squall 2>/dev/null; then
	CC=$cc_now ./configure --enable-debug >/dev/null 2>&1
	if make -q squall 2>/dev/null; then
		notok "configure with other flags rebuilds the objects"
	else
		ok "configure with other flags rebuilds the objects"
	fi
	make -s -j2 >/dev/null 2>&1
else
	notok "make leaves squall up to date"
fi
make -s install DESTDIR="$tmp/dest" >/dev/null 2>&1
if [ -x "$tmp/dest/usr/local/bin/squall" ] && [ -f "$tmp/dest/usr/local/share/man/man1/squall.1" ]; then
	ok "install honours DESTDIR"
else
	notok "install honours DESTDIR"
fi
make -s uninstall DESTDIR="$tmp/dest" >/dev/null 2>&1
[ ! -e "$tmp/dest/usr/local/bin/squall" ] && ok "uninstall honours DESTDIR" || notok "uninstall honours DESTDIR"
make -s distclean
[ ! -e Makefile ] && [ ! -e config.h ] && ok "distclean" || notok "distclean"
exit $fail
