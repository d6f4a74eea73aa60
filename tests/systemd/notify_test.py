#!/usr/bin/env python3
"""The server speaks systemd's notify protocol as a Type=notify unit needs (issue 18).

Starts the real binary with NOTIFY_SOCKET pointing at a datagram socket this test owns and
checks: READY=1 arrives once the port answers, WATCHDOG=1 arrives at about half of
WATCHDOG_USEC while it serves, and SIGTERM brings STOPPING=1 and exit status 0.
Usage: notify_test.py path/to/datapipelines
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def main():
    binary = os.path.realpath(sys.argv[1])
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "notify.sock")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.settimeout(30)
        env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="400000",
                   DATAPIPELINES_DATA_DIR=os.path.join(work, "data"),
                   SERVER_PORT="0")
        env.pop("WATCHDOG_PID", None)
        log = open(os.path.join(work, "server.log"), "w+")
        server = subprocess.Popen([binary, "serve"], env=env, stdout=log, stderr=log)
        try:
            assert sock.recv(256) == b"READY=1", "first notification is READY=1"
            log.flush()
            log.seek(0)
            port = re.search(r"listening on http://[^:]+:(\d+)", log.read()).group(1)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                assert r.status == 200, "the port answers once READY=1 is sent"
            started = time.monotonic()
            pings = [sock.recv(256) for _ in range(3)]
            elapsed = time.monotonic() - started
            assert pings == [b"WATCHDOG=1"] * 3, pings
            assert elapsed < 2.0, f"three watchdog pings took {elapsed:.2f} s (interval 0.2 s)"
            server.send_signal(signal.SIGTERM)
            while (message := sock.recv(256)) == b"WATCHDOG=1":
                pass
            assert message == b"STOPPING=1", message
            assert server.wait(timeout=30) == 0, "SIGTERM ends with status 0"
        except Exception:
            log.flush()
            log.seek(0)
            sys.stderr.write(log.read())
            raise
        finally:
            if server.poll() is None:
                server.kill()
    print("systemd notify: READY, WATCHDOG and STOPPING as expected")


if __name__ == "__main__":
    main()
