#!/usr/bin/env python3
"""tls_proxy.py - a TLS terminator in front of the testbed's slurmrestd,
as an ingress or a Kubernetes service gives a site (test_https.sh), or
with CERT "-" a plain one that only logs (test_history_refresh.sh).

Usage: tls_proxy.py CERT KEY BACKEND_PORT PORT_FILE LOG_FILE

Listens on 127.0.0.1 (a free port, written to PORT_FILE), serves CERT,
and relays each connection to 127.0.0.1:BACKEND_PORT. LOG_FILE gets
"handshake failed: ..." when the client refused the certificate (nothing
was relayed), and "request METHOD PATH" for each request that came
through (the request line only: never a header, so never a token). Runs
until killed. Loopback only.
"""
import os
import re
import socket
import ssl
import sys
import threading


REQ = re.compile(rb"^(GET|POST|PUT|DELETE|HEAD) (\S+) HTTP/1\.[01]\r\n")


def log_requests(logfile, data):
    m = REQ.match(data)
    if m and logfile:
        log(logfile, "request %s %s" % (m.group(1).decode(),
                                         m.group(2).decode("ascii", "replace")))


def pipe(src, dst, logfile=None):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            log_requests(logfile, data)
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def log(path, line):
    with open(path, "a") as f:
        f.write(line + "\n")


def serve(conn, ctx, backend, logfile):
    try:
        tls = ctx.wrap_socket(conn, server_side=True) if ctx else conn
    except (ssl.SSLError, OSError) as e:
        log(logfile, "handshake failed: %s" % e.__class__.__name__)
        conn.close()
        return
    try:
        first = tls.recv(65536)
    except (ssl.SSLError, OSError) as e:
        log(logfile, "handshake failed: %s" % e.__class__.__name__)
        tls.close()
        return
    if not first:
        log(logfile, "closed without a request")
        tls.close()
        return
    log_requests(logfile, first)
    up = socket.create_connection(("127.0.0.1", backend))
    up.sendall(first)
    t = threading.Thread(target=pipe, args=(up, tls), daemon=True)
    t.start()
    pipe(tls, up, logfile)
    t.join(5)
    tls.close()
    up.close()


def main():
    cert, key, backend, port_file, logfile = sys.argv[1:6]
    ctx = None
    if cert != "-":
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % srv.getsockname()[1])
    os.rename(port_file + ".tmp", port_file)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn, ctx, int(backend), logfile),
                         daemon=True).start()


if __name__ == "__main__":
    main()
