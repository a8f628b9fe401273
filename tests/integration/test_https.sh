#!/bin/sh
# test_https.sh - the rest backend over https, as a site reaches a
# slurmrestd behind an ingress (or the Kubernetes operator's service): a
# throw-away CA and certificates made with openssl, tls_proxy.py (python3)
# terminating TLS on 127.0.0.1 in front of the testbed's slurmrestd.
# Checks: a certificate of the site's own CA is refused without --ca-file
# (the system's CAs do not know it) and the token never reaches the
# server (the proxy saw no request); with --ca-file the jobs view is the
# one plain http gives; a certificate of that CA for another host name is
# refused, and so is the right certificate checked against another CA;
# the cluster key ca-file works as the option; --ca-file on an http://
# URL or with a FIFO is a usage error, not a hang.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

TOKEN=$TB/jwt/root.token
tmp=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$REST_PORT/openapi/v3")
if [ "$code" = 000 ] || [ ! -r "$TOKEN" ]; then
	echo "skip - slurmrestd does not answer on port $REST_PORT or $TOKEN is missing"
	exit 77
fi
for c in openssl python3; do
	command -v $c >/dev/null || {
		echo "skip - $c is not installed"
		exit 77
	}
done

# --- a site CA, a server certificate for 127.0.0.1 and localhost, one for
# another host, and a second CA that signed nothing here
cd "$tmp" || exit 1
mkca() { # mkca NAME
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.pem" \
		-days 2 -subj "/CN=squall test $1" \
		-addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}
mkcert() { # mkcert NAME SAN
	openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" \
		-subj "/CN=$1" 2>/dev/null &&
		printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "$2" >"$1.ext" &&
		openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key \
			-CAcreateserial -out "$1.pem" -days 2 -extfile "$1.ext" 2>/dev/null
}
mkca ca && mkca otherca && mkcert srv "IP:127.0.0.1,DNS:localhost" &&
	mkcert elsewhere "DNS:rest.elsewhere.example"
check "openssl made the CA and the certificates" \
	test -s ca.pem -a -s srv.pem -a -s elsewhere.pem -a -s otherca.pem
cd - >/dev/null || exit 1

# proxy NAME CERT: start a TLS terminator; its port in $tmp/NAME.port
proxy() {
	python3 "$here/tls_proxy.py" "$tmp/$2.pem" "$tmp/$2.key" "$REST_PORT" \
		"$tmp/$1.port" "$tmp/$1.log" 2>"$tmp/$1.err" &
	pids="$pids $!"
	i=0
	while [ ! -s "$tmp/$1.port" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$tmp/$1.port" ]
}
check "the TLS proxy with the host's certificate starts" proxy good srv
check "the TLS proxy with another host's certificate starts" proxy bad elsewhere
GOOD=https://127.0.0.1:$(cat "$tmp/good.port")
BAD=https://127.0.0.1:$(cat "$tmp/bad.port")

rest() { # rest URL [ARGS...]
	u=$1
	shift
	"$SQUALL" -b rest -u "$u" --token-file "$TOKEN" --timeout 10 "$@"
}
requests() { # requests NAME: how many requests came through proxy NAME
	n=$(grep -c '^request' "$tmp/$1.log" 2>/dev/null)
	echo "${n:-0}"
}

# --- without --ca-file: the site's CA is unknown to the system
: >"$tmp/good.log"
rest "$GOOD" --once --view jobs >"$tmp/o1" 2>"$tmp/e1"
rc=$?
check "no --ca-file: refused (exit $rc)" test $rc -ne 0
check "no --ca-file: the message names the certificate problem" \
	grep -qiE 'certificate|SSL|TLS' "$tmp/e1"
check "no --ca-file: no request reached the server (the token stayed home)" \
	test "$(requests good)" -eq 0
check "no --ca-file: no rows printed" test ! -s "$tmp/o1"

# --- with --ca-file: the same jobs as over plain http
rest "$GOOD" --ca-file "$tmp/ca.pem" --once --view jobs --format tsv \
	>"$tmp/o2" 2>"$tmp/e2"
rc=$?
check "--ca-file: exit 0 (exit $rc: $(head -c 200 "$tmp/e2"))" test $rc -eq 0
check "--ca-file: requests went through the proxy" test "$(requests good)" -gt 0
rest "http://127.0.0.1:$REST_PORT" --once --view jobs --format tsv \
	>"$tmp/o3" 2>/dev/null
tsv_col "$tmp/o2" job_id | sort >"$tmp/ids2"
tsv_col "$tmp/o3" job_id | sort >"$tmp/ids3"
check "--ca-file: the job ids are the ones plain http gives" \
	cmp -s "$tmp/ids2" "$tmp/ids3"
check "--ca-file: the header is the jobs view's" \
	sh -c "head -1 '$tmp/o2' | grep -q '^job_id	user	'"

# --- a certificate of the same CA for another host name
: >"$tmp/bad.log"
rest "$BAD" --ca-file "$tmp/ca.pem" --once --view jobs >"$tmp/o4" 2>"$tmp/e4"
rc=$?
check "wrong host name: refused (exit $rc)" test $rc -ne 0
check "wrong host name: the message says so" \
	grep -qiE 'certificate|name|host' "$tmp/e4"
check "wrong host name: no request reached the server" \
	test "$(requests bad)" -eq 0

# --- the right certificate checked against another CA
: >"$tmp/good.log"
rest "$GOOD" --ca-file "$tmp/otherca.pem" --once --view jobs >/dev/null 2>"$tmp/e5"
rc=$?
check "another CA: refused (exit $rc)" test $rc -ne 0
check "another CA: no request reached the server" test "$(requests good)" -eq 0

# --- the cluster key, in a config file
printf 'cluster site backend=rest url=%s token-file=%s ca-file=%s timeout=10\n' \
	"$GOOD" "$TOKEN" "$tmp/ca.pem" >"$tmp/conf"
SQUALL_CONFIG=$tmp/conf "$SQUALL" -c site --once --view jobs --format tsv \
	>"$tmp/o6" 2>"$tmp/e6"
rc=$?
check "cluster ... ca-file=: exit 0 (exit $rc: $(head -c 200 "$tmp/e6"))" \
	test $rc -eq 0
tsv_col "$tmp/o6" job_id | sort >"$tmp/ids6"
check "cluster ... ca-file=: the same job ids" cmp -s "$tmp/ids6" "$tmp/ids3"

# --- misuse
rest "http://127.0.0.1:$REST_PORT" --ca-file "$tmp/ca.pem" --once \
	--view jobs >/dev/null 2>"$tmp/e7"
rc=$?
check "--ca-file with http://: usage error (exit $rc)" test $rc -ne 0
check "--ca-file with http://: says why" grep -q 'only an https:// URL' "$tmp/e7"
mkfifo "$tmp/fifo"
timeout 20 "$SQUALL" -b rest -u "$GOOD" --token-file "$TOKEN" \
	--ca-file "$tmp/fifo" --once --view jobs >/dev/null 2>"$tmp/e8"
rc=$?
check "--ca-file a FIFO: refused at once, no hang (exit $rc)" \
	test $rc -ne 0 -a $rc -ne 124
check "--ca-file a FIFO: says why" grep -q 'not a regular file' "$tmp/e8"
finish
