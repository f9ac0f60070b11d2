#!/usr/bin/env python3
"""Ordinary GETs to `nimbook serve` under hostile clients: a measurement, not a test.

Usage: python3 examples/serve_hostile.py [BOOK_DIR] [--idle N] [--loris N] [--busy N]
                                         [--gets N] [--nimbook PATH]

Copies BOOK_DIR (default tests/fixtures/basic) to a temporary folder, starts
`nimbook serve -p 0` on the copy and waits for the first build. Then it holds open --idle
sockets that send nothing (default 150) and --loris slow-loris sockets that send one byte of a
never-ending request head every 2 s (default 100; one the server closes is opened again at
once, as an attacker would), and starts --busy clients (default 0) that each send GETs back to
back, a new connection each, counting replies that come back empty. While all that runs, it
sends --gets ordinary GETs (default 400) from a process of its own, one after another, each on a new connection, and
times each from connect to the last byte of the reply. It prints how many were answered and
the 50th, 90th and 99th percentile and the largest time, and the busy clients' counts.
Everything goes to 127.0.0.1 only, and every loop is bounded in count and time.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import multiprocessing
import threading
import time

GET = b"GET /01-sums.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def get(port, timeout=10.0):
    """One GET on a new connection: (reply bytes, seconds), or (None, seconds) on failure."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(GET)
            reply = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                reply += chunk
    except OSError:
        return None, time.perf_counter() - start
    return reply, time.perf_counter() - start


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def hostile(port, idle, loris, stop, out):
    """Holds the idle and slow-loris sockets until `stop` is set."""
    reopened = 0
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(idle)]
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(loris)]
    for s in slow:
        s.sendall(b"GET / HTTP/1.1\r\n")
    while not stop.wait(2.0):
        for i, s in enumerate(slow):
            try:
                s.sendall(b"X")
            except OSError:
                reopened += 1
                s.close()
                try:
                    slow[i] = socket.create_connection(("127.0.0.1", port), timeout=2)
                    slow[i].sendall(b"GET / HTTP/1.1\r\n")
                except OSError:
                    pass
    for s in held + slow:
        s.close()
    out.put(("loris reopened", reopened))


def busy(port, clients, stop, out):
    """`clients` threads sending GETs back to back until `stop` is set."""
    counts, lock = {"busy replies": 0, "busy empty": 0}, threading.Lock()

    def client():
        while not stop.is_set():
            reply, _ = get(port)
            with lock:
                counts["busy replies"] += 1
                counts["busy empty"] += not reply

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for item in counts.items():
        out.put(item)


def main():
    args = sys.argv[1:]
    opts = {"--idle": 150, "--loris": 100, "--busy": 0, "--gets": 400}
    nimbook, rest, i = "target/release/nimbook", [], 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = int(args[i + 1]); i += 2
        elif args[i] == "--nimbook":
            nimbook = args[i + 1]; i += 2
        elif args[i].startswith("-"):
            sys.exit(__doc__)
        else:
            rest.append(args[i]); i += 1
    source = rest[0] if rest else "tests/fixtures/basic"
    tmp = tempfile.mkdtemp(prefix="nimbook-serve-hostile-")
    book = os.path.join(tmp, "book")
    shutil.copytree(source, book)
    server = subprocess.Popen(
        [os.path.abspath(nimbook), "serve", "-p", "0", book],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        port = int(url.group(1))
        deadline = time.time() + 60
        while time.time() < deadline and not (get(port)[0] or b"").startswith(b"HTTP/1.1 200"):
            time.sleep(0.1)
        # The load runs in processes of its own, so that its threads do not hold up the
        # measuring one (Python runs one thread at a time).
        stop, out = multiprocessing.Event(), multiprocessing.Queue()
        loads = [multiprocessing.Process(
            target=hostile, args=(port, opts["--idle"], opts["--loris"], stop, out))]
        if opts["--busy"]:
            loads.append(multiprocessing.Process(
                target=busy, args=(port, opts["--busy"], stop, out)))
        for p in loads:
            p.start()
        time.sleep(1.0)
        times, answered = [], 0
        for _ in range(opts["--gets"]):
            reply, seconds = get(port)
            times.append(seconds)
            if reply and reply.startswith(b"HTTP/1.1 200"):
                answered += 1
            time.sleep(0.01)
        stop.set()
        counts = {"loris reopened": 0, "busy replies": 0, "busy empty": 0}
        for _ in range(3 if opts["--busy"] else 1):
            key, value = out.get(timeout=60)
            counts[key] = value
        for p in loads:
            p.join(timeout=30)
        times.sort()
        ms = lambda s: f"{s * 1000:.1f} ms"
        print(f"hostile: {opts['--idle']} idle, {opts['--loris']} slow-loris "
              f"(reopened {counts['loris reopened']} times), {opts['--busy']} busy clients")
        print(f"ordinary GETs answered: {answered} of {len(times)}")
        print(f"latency: p50 {ms(percentile(times, 0.50))}, p90 {ms(percentile(times, 0.90))}, "
              f"p99 {ms(percentile(times, 0.99))}, max {ms(times[-1])}")
        if opts["--busy"]:
            print(f"busy clients: {counts['busy replies']} replies, "
                  f"{counts['busy empty']} empty")
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
