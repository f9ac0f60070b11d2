#!/usr/bin/env python3
"""How long an edit takes to become visible under `nimbook serve`: a measurement, not a test.

Usage: python3 examples/serve_latency.py BOOK_DIR [LESSON] [--runs R] [--nimbook PATH]

Copies BOOK_DIR to a temporary folder, starts `nimbook serve -p 0` on the copy, waits for the
first build, then R times appends a paragraph to LESSON (default: the middle chapter of
SUMMARY.md) and polls /__nimbook/version every 2 ms until it goes up: the time from the write
to the new version is the rebuild as a reader sees it (debounce, check, render, write). It
prints every time, the median and the server's own report of each rebuild.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def main():
    args = sys.argv[1:]
    runs, nimbook, rest = 10, "target/release/nimbook", []
    i = 0
    while i < len(args):
        if args[i] == "--runs":
            runs = int(args[i + 1]); i += 2
        elif args[i] == "--nimbook":
            nimbook = args[i + 1]; i += 2
        else:
            rest.append(args[i]); i += 1
    if not rest:
        sys.exit(__doc__)
    tmp = tempfile.mkdtemp(prefix="nimbook-serve-latency-")
    book = os.path.join(tmp, "book")
    shutil.copytree(rest[0], book)
    if len(rest) > 1:
        lesson = os.path.join(book, rest[1])
    else:
        summary = open(os.path.join(book, "src", "SUMMARY.md")).read()
        files = re.findall(r"\]\(\.?/?([^)]+\.md)\)", summary)
        lesson = os.path.join(book, "src", files[len(files) // 2])
    server = subprocess.Popen(
        [os.path.abspath(nimbook), "serve", "-p", "0", book, "-d", os.path.join(tmp, "out")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log = []
    threading.Thread(target=lambda: log.extend(server.stderr), daemon=True).start()
    try:
        line = server.stdout.readline()
        url = re.search(r"(http://\S+/)", line).group(1)

        def version():
            with urllib.request.urlopen(url + "__nimbook/version") as r:
                return int(r.read().decode().strip())

        while version() < 1:
            time.sleep(0.05)
        times = []
        for k in range(runs):
            before = version()
            time.sleep(0.3)
            start = time.perf_counter()
            with open(lesson, "a") as f:
                f.write(f"\nAn edit, number {k}.\n")
            while version() == before:
                time.sleep(0.002)
            times.append((time.perf_counter() - start) * 1000)
        print("edit visible after (ms):", " ".join(f"{t:.0f}" for t in times))
        print(f"median {statistics.median(times):.0f} ms, slowest {max(times):.0f} ms over {runs} edits")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    for l in log[-3:]:
        print("server:", l.rstrip())


if __name__ == "__main__":
    main()
