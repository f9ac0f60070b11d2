#!/usr/bin/env python3
"""Whether nimbook's cost grows linearly with hostile input: a measurement, not a test.

Usage: python3 examples/linearity.py [CASE...] [--nimbook PATH] [--runs R] [--budget S]

For each case it writes a book whose size is N (links in one paragraph, TeX nested N deep, a
SUMMARY.md of N entries, a book.toml of N keys, N includes, N LSP frames, ...), times
`nimbook check` (or `nimbook lsp` fed the frames) on it, doubles N until one run takes about
`--budget` seconds of CPU (default 0.4) or a file of the book would pass 3 MiB (under the
default `max-lesson-bytes`), and then times N and 4N, R times each (default 3). The time is
the CPU time (user and system) of the nimbook process, because wall time on a shared machine
measures the neighbours; the wall time is printed beside it. It prints the medians and their
ratio; the goal is a ratio of at most 4.5 for four times the input (linear, with room for
noise). Process start-up is included, which only lowers the ratio of a small N, so N is grown
until start-up is a small part of the time. `CASE` names a subset.
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOML = '[book]\ntitle = "t"\nsrc = "content"\n\n[nimbook]\n'


def lesson(text):
    return {"book.toml": TOML, "content/l.md": "# L\n\n" + text + "\n"}


def inline_links(n):
    return lesson("".join(f"See [x{i}](nope{i}.md) here. " for i in range(n)))


def reference_links(n):
    uses = "".join(f"See [x{i}][r{i}] here. " for i in range(n))
    defs = "".join(f"[r{i}]: nope{i}.md\n" for i in range(n))
    return lesson(uses + "\n\n" + defs)


def good_links(n):
    return lesson("".join(f"See [x{i}](l.md#l) and [y{i}][r]. " for i in range(n)) + "\n\n[r]: l.md\n")


def tex_nested(n):
    return lesson("$$" + "\\frac{1}{" * n + "x" + "}" * n + "$$")


def tex_braces(n):
    return lesson("$" + "{" * n + "x" + "}" * n + "$")


def tex_many(n):
    # Formulas as deep as allowed, side by side: linear in their number.
    deep = "\\frac{1}{" * 60 + "x" + "}" * 60
    return lesson("\n\n".join(f"$${deep}$$" for _ in range(n)))


def summary(n):
    files = {"book.toml": TOML, "content/a.md": "# A\n"}
    files["content/SUMMARY.md"] = "# Summary\n\n" + "".join(
        f"- [Chapter {i}](a.md)\n" for i in range(n)
    )
    return files


def summary_missing(n):
    files = {"book.toml": TOML}
    files["content/SUMMARY.md"] = "# Summary\n\n" + "".join(
        f"- [Chapter {i}](missing{i}.md)\n" for i in range(n)
    )
    return files


def summary_nested(n):
    files = {"book.toml": TOML, "content/a.md": "# A\n"}
    files["content/SUMMARY.md"] = "# Summary\n\n" + "".join(
        "  " * min(i, 200) + f"- [Chapter {i}](a.md)\n" for i in range(n)
    )
    return files


def toml_keys(n):
    # Keys nimbook accepts and warns about, each located in the file.
    keys = "".join(f"unknown-key-{i} = {i}\n" for i in range(n))
    return {"book.toml": TOML + "\n[output.html]\n" + keys, "content/l.md": "# L\n"}


def includes(n):
    return {
        "book.toml": TOML,
        "content/part.txt": "one line\n",
        "content/l.md": "# L\n\n" + "".join("{{#include part.txt}}\n" for _ in range(n)),
    }


def anchors(n):
    body = "".join(f"// ANCHOR: a{i}\nline {i}\n// ANCHOR_END: a{i}\n" for i in range(n))
    return {
        "book.toml": TOML,
        "content/code.rs": body,
        "content/l.md": "# L\n\n```rust\n{{#include code.rs:a%d}}\n```\n" % (n - 1),
    }


def crlf_lesson(n):
    text = "".join(f"Para {{{i}}} with `nim: 6 * 13 = 15` in it.\r\n\r\n" for i in range(n))
    return {"book.toml": TOML, "content/l.md": "# L\r\n\r\n" + text}


def lsp_frames(n):
    # Garbage headers, frames of invalid JSON and unknown requests, then a clean exit.
    parts = []
    for i in range(n):
        parts.append(b"this is not a header\r\n\r\n")
        body = b"{not json %d" % i
        parts.append(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        req = b'{"jsonrpc":"2.0","id":%d,"method":"nimbook/none","params":{}}' % i
        parts.append(b"Content-Length: %d\r\n\r\n%s" % (len(req), req))
    init = b'{"jsonrpc":"2.0","id":-1,"method":"initialize","params":{"capabilities":{}}}'
    done = [
        b'{"jsonrpc":"2.0","method":"initialized","params":{}}',
        b'{"jsonrpc":"2.0","id":-2,"method":"shutdown"}',
        b'{"jsonrpc":"2.0","method":"exit"}',
    ]
    frame = lambda b: b"Content-Length: %d\r\n\r\n%s" % (len(b), b)
    return frame(init) + frame(done[0]) + b"".join(parts) + frame(done[1]) + frame(done[2])


CASES = {
    "inline-links": inline_links,
    "reference-links": reference_links,
    "good-links": good_links,
    "tex-nested": tex_nested,
    "tex-braces": tex_braces,
    "tex-many": tex_many,
    "summary": summary,
    "summary-missing": summary_missing,
    "summary-nested": summary_nested,
    "toml-keys": toml_keys,
    "includes": includes,
    "anchors": anchors,
    "crlf-lesson": crlf_lesson,
    "lsp-frames": lsp_frames,
}


MAX_FILE = 3 << 20


def largest_file(n, case):
    made = CASES[case](n)
    if isinstance(made, bytes):
        return len(made)
    return max(len(t.encode()) for t in made.values())


def timed(command, **kw):
    """The CPU seconds (user and system) and the wall seconds of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, **kw)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def run_once(nimbook, case, n, tmp):
    made = CASES[case](n)
    if isinstance(made, bytes):
        return timed([nimbook, "lsp"], input=made, cwd=tmp)
    book = os.path.join(tmp, "book")
    shutil.rmtree(book, ignore_errors=True)
    for name, text in made.items():
        path = os.path.join(book, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as f:
            f.write(text)
    return timed([nimbook, "check", book])


def main():
    args = sys.argv[1:]
    nimbook, runs, budget, chosen = os.path.abspath("target/release/nimbook"), 3, 0.4, []
    i = 0
    while i < len(args):
        if args[i] == "--nimbook":
            nimbook = os.path.abspath(args[i + 1]); i += 2
        elif args[i] == "--runs":
            runs = int(args[i + 1]); i += 2
        elif args[i] == "--budget":
            budget = float(args[i + 1]); i += 2
        elif args[i] in CASES:
            chosen.append(args[i]); i += 1
        else:
            sys.exit(__doc__)
    tmp = tempfile.mkdtemp(prefix="nimbook-linearity-")
    worst = 0.0
    print(f"{'case':<17} {'N':>8} {'cpu(N)':>8} {'cpu(4N)':>8} {'ratio':>6}   wall(N) wall(4N)")
    for case in chosen or CASES:
        n = 250
        while (largest_file(8 * n, case) <= MAX_FILE
               and run_once(nimbook, case, n, tmp)[0] < budget):
            n *= 2
        small = [run_once(nimbook, case, n, tmp) for _ in range(runs)]
        large = [run_once(nimbook, case, 4 * n, tmp) for _ in range(runs)]
        cpu = [statistics.median(t[0] for t in r) for r in (small, large)]
        wall = [statistics.median(t[1] for t in r) for r in (small, large)]
        ratio = cpu[1] / cpu[0]
        worst = max(worst, ratio)
        flag = "" if ratio <= 4.5 else "  <-- more than linear"
        print(f"{case:<17} {n:>8} {cpu[0]:>8.3f} {cpu[1]:>8.3f} {ratio:>6.2f}"
              f"   {wall[0]:>7.3f} {wall[1]:>7.3f}{flag}", flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"worst ratio {worst:.2f} (goal: at most 4.5)")


if __name__ == "__main__":
    main()
