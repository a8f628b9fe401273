# shellcheck shell=bash disable=SC2034
# release.sh - the newer Slurm releases' testbeds, sourced by start, stop,
# jobs, status and run-release after lib.sh.  22.05 runs on the host; 24.11
# (Debian trixie) and 26.05 (Debian sid) each run in a Debian minbase chroot
# cached under $SQ_TB_CACHE/<release>/root, on loopback ports offset from
# 22.05's so that all three run at once.  Nothing here runs by itself.

SQ_TB_CACHE=${SQ_TB_CACHE:-/var/cache/squall-testbed}
RELEASES="22.05 24.11 26.05"
REL=22.05
ROOT=
# squall's build and test dependencies inside a chroot (tests/deps is the
# host's list; clang, valgrind and the linters stay on the host)
CHROOT_PKGS="gcc make pkg-config libc6-dev libncurses-dev libpcre2-dev
libcurl4-openssl-dev libjson-c-dev libssh-dev libcmocka-dev jq tmux curl
openssh-client python3 openssl procps rsync ca-certificates"
# what only the newer releases' testbeds run on: Slurm's gpu/rsmi plugin,
# which measures the fake GPUs of fake_rsmi.c (it pulls the real
# librocm-smi64; the stand-in comes first in slurmd's LD_LIBRARY_PATH)
RELEASE_PKGS="slurm-wlm-rsmi-plugin"

# release_args ARGS...: take --slurm R (or --slurm=R) out of ARGS; set REL
# and the array ARGS to what is left
release_args() {
	ARGS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--slurm)
			[ $# -ge 2 ] || {
				echo "--slurm needs a release ($RELEASES)" >&2
				exit 2
			}
			REL=$2
			shift
			;;
		--slurm=*) REL=${1#--slurm=} ;;
		*) ARGS+=("$1") ;;
		esac
		shift
	done
	release_select "$REL"
}

# release_select R: set SUITE, ROOT, TB and every port for release R.
# 22.05 keeps lib.sh's values (the host's testbed).
release_select() {
	local off
	case $1 in
	22.05) return 0 ;;
	24.11) SUITE=trixie off=100 ;;
	26.05) SUITE=sid off=200 ;;
	*)
		echo "unknown Slurm release '$1' (known: $RELEASES)" >&2
		exit 2
		;;
	esac
	REL=$1
	ROOT=$SQ_TB_CACHE/$REL/root
	SSH_PORT=$((2222 + off)) REST_PORT=$((6820 + off))
	MYSQL_PORT=$((3306 + off)) CTLD_PORT=$((6817 + off))
	SLURMD_PORT=$((6818 + off)) DBD_PORT=$((6819 + off))
	NODE_PORT0=$((17000 + off))
	TB_IN=/tmp/slurmtb # the state directory inside the chroot
	TB=$ROOT$TB_IN     # the same, seen from the host
}

# in_root CMD...: run CMD inside the release's chroot with a clean
# environment carrying the testbed's ports (on the host for 22.05).
# Extra VAR=value words may precede CMD.
in_root() {
	if [ -z "$ROOT" ]; then
		"$@"
		return
	fi
	chroot "$ROOT" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM="${TERM:-xterm}" TB="$TB_IN" \
		SQ_TB_RELEASE="$REL" SSH_PORT="$SSH_PORT" REST_PORT="$REST_PORT" \
		MYSQL_PORT="$MYSQL_PORT" CTLD_PORT="$CTLD_PORT" \
		SLURMD_PORT="$SLURMD_PORT" DBD_PORT="$DBD_PORT" \
		NODE_PORT0="$NODE_PORT0" ${CI:+CI="$CI"} "$@"
}

# host_mirror: the Debian archive URI the host's apt uses (deb822 .sources
# first, then sources.list), never a security or updates-only entry
host_mirror() {
	local u
	u=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v RS= '
		/(^|\n)Suites:/ && !/Suites:[^\n]*-security/ && match($0, /URIs:[ \t]*[^ \t\n]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", s); print s; exit }')
	[ -n "$u" ] || u=$(awk '$1 == "deb" && !/security/ {
		for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
		/etc/apt/sources.list 2>/dev/null)
	[ -n "$u" ] || {
		echo "no Debian mirror found in the host's apt sources" >&2
		return 1
	}
	echo "$u"
}

# release_mounted: anything is mounted under the chroot
release_mounted() {
	awk -v r="$ROOT/" 'index($2, r) == 1 { f = 1 } END { exit !f }' /proc/mounts
}

# release_mount: /proc, /sys, /dev and /dev/pts inside the chroot
release_mount() {
	mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
	mountpoint -q "$ROOT/sys" || mount -t sysfs sysfs "$ROOT/sys"
	mountpoint -q "$ROOT/dev" || mount --bind /dev "$ROOT/dev"
	mountpoint -q "$ROOT/dev/pts" || mount --bind /dev/pts "$ROOT/dev/pts"
}

# release_umount: undo release_mount (lazily when something still holds a
# mount; the processes whose root is the chroot are listed then)
release_umount() {
	local m
	for m in dev/pts dev sys proc; do
		mountpoint -q "$ROOT/$m" || continue
		if ! umount "$ROOT/$m" 2>/dev/null; then
			echo "umount $ROOT/$m: busy; processes in the chroot:" \
				"$(release_pids | tr '\n' ' ')" >&2
			umount -l "$ROOT/$m"
		fi
	done
}

# release_pids: PIDs of the processes whose root directory is the chroot
release_pids() {
	local p r
	r=$(readlink -f "$ROOT")
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$r" ] && echo "${p#/proc/}"
	done
	return 0
}

# release_build: debootstrap the chroot and install squall's build and test
# packages in it, once (the marker .squall-ready says it is complete; a
# half-built root is removed and built again)
release_build() {
	local mirror
	[ -e "$ROOT/.squall-ready" ] && return 0
	if release_mounted; then
		release_umount
	fi
	if release_mounted; then
		echo "$ROOT is half-built and still has mounts: not removing it" >&2
		exit 1
	fi
	release_host_tool debootstrap
	mirror=$(host_mirror)
	if [ ! -e "$ROOT/.squall-debootstrap" ]; then
		step "debootstrap $SUITE from $mirror into $ROOT (once)"
		rm -rf "$ROOT"
		mkdir -p "$ROOT"
		debootstrap --variant=minbase "$SUITE" "$ROOT" "$mirror" \
			>"$ROOT.debootstrap.log" 2>&1 || {
			tail -20 "$ROOT.debootstrap.log" >&2
			exit 1
		}
		touch "$ROOT/.squall-debootstrap"
	fi
	# sid's Release files are past their Valid-Until in the archive;
	# nothing in the chroot may start a daemon from a package's postinst
	echo 'Acquire::Check-Valid-Until "false";' \
		>"$ROOT/etc/apt/apt.conf.d/99squall-testbed"
	printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
	chmod 755 "$ROOT/usr/sbin/policy-rc.d"
	release_mount
	step "apt-get install in the $REL chroot (once)"
	# shellcheck disable=SC2086 # package lists
	in_root apt-get update -qq &&
		in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $CHROOT_PKGS $TESTBED_PKGS \
			$RELEASE_PKGS >/dev/null
	touch "$ROOT/.squall-ready"
}

# release_pkgs: install what RELEASE_PKGS names and a root built before it
# was listed lacks (once; the root's policy-rc.d keeps daemons down)
release_pkgs() {
	local p missing=
	for p in $RELEASE_PKGS; do
		# shellcheck disable=SC2016 # dpkg-query's own format
		in_root dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	step "apt-get install$missing in the $REL chroot (once)"
	# shellcheck disable=SC2086 # a package list
	in_root apt-get update -qq &&
		in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $missing >/dev/null
}

# release_gpu_minor0: the first render minor of this release's fake GPUs
# (n3: 4 from it, n4: the next 4). The chroots share the host's /dev, so
# each release has its own range: 24.11 128-135, 26.05 160-167.
release_gpu_minor0() {
	case $1 in
	24.11) echo 128 ;;
	26.05) echo 160 ;;
	esac
}

# release_host_tool T: install the host's package T when its command is
# missing (tests/deps has both, but a release's testbed may start first).
release_host_tool() {
	command -v "$1" >/dev/null ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
}

# release_sync: copy squall's source tree (the files git knows, without
# build products) to /src/squall in the chroot. Files whose bytes changed
# get the time of the copy, not their own (no -t): another checkout synced
# in between (a worktree) leaves objects newer than an edit made before,
# and make would keep them.
release_sync() {
	local src
	src=$(cd "$HERE/../.." && pwd)
	release_host_tool rsync
	mkdir -p "$ROOT/src/squall"
	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$src" ls-files -z --cached --others --exclude-standard |
			rsync -rlpc --ignore-missing-args --from0 --files-from=- "$src/" "$ROOT/src/squall/"
		# sources another checkout (a worktree) synced there and this
		# one lacks: the build compiles every core/*/*.c, tests/integration/run
		# runs every test_*.sh
		(cd "$ROOT/src/squall" && find . -type f \( -name '*.c' -o \
			-name '*.h' -o -name '*.sh' \) ! -name config.h | sed 's,^\./,,' |
			sort) >"$ROOT/src/.squall-have"
		git -C "$src" ls-files --cached --others --exclude-standard |
			sort >"$ROOT/src/.squall-want"
		comm -23 "$ROOT/src/.squall-have" "$ROOT/src/.squall-want" |
			while read -r f; do rm -f "$ROOT/src/squall/$f"; done
		rm -f "$ROOT/src/.squall-have" "$ROOT/src/.squall-want"
	else
		rsync -rlpc --exclude='*.o' --exclude='*.d' --exclude=/squall \
			"$src/" "$ROOT/src/squall/"
	fi
}
