#!/usr/bin/env python3
"""Times `nimbook lsp` as an editor sees it: from a change to the diagnostics of that change.

    cargo build --release
    python3 examples/lsp_latency.py [--lines 2000] [--edits 20] [--binary target/release/nimbook]

Writes a book with one lesson of about LINES lines (prose with `nim:` spans, `nim` blocks with
claims, quantified claims and derivations, a table directive), opens it, then changes one claim
EDITS times, alternately true and false, and prints the median and worst time from sending
each change to receiving its final diagnostics (none still being checked), and checks that
each false version reports a `false-claim` on the changed line and each true one does not.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, threading, time, queue


def lesson(lines):
    out = ["# A long lesson", ""]
    i = 0
    while len(out) < lines:
        i += 1
        out += [
            f"## Part {{{i}}}",
            "",
            f"The nim-sum `nim: {i} + {i + 1}` and the product `nim: {i} * 3` are computed.",
            "",
            "```nim",
            f"let a{i} = {i} * 7",
            f"a{i} + a{i} = 0",
            f"forall x < 16: x * {i % 13 + 1} = {i % 13 + 1} * x",
            f"{i} * 2 + {i} = {i} * 3",
            "```",
            "",
        ]
    out += ["", "```nim", "6 * 13 = 15", "```", ""]
    return "\n".join(out) + "\n"


class Client:
    def __init__(self, binary, cwd):
        self.p = subprocess.Popen([binary, "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.q = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        self.id = 0

    def read(self):
        f = self.p.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.q.put(json.loads(f.read(length)))

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def request(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            m = self.q.get(timeout=60)
            if m.get("id") == self.id:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def final_diagnostics(self, uri, version):
        while True:
            m = self.q.get(timeout=120)
            p = m.get("params", {})
            if (m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri
                    and p.get("version") == version
                    and "still checking" not in json.dumps(p["diagnostics"])):
                return p["diagnostics"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--binary", default="target/release/nimbook")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, "content"))
        open(os.path.join(root, "book.toml"), "w").write('[book]\ntitle = "T"\nsrc = "content"\n\n[nimbook]\n')
        open(os.path.join(root, "content/SUMMARY.md"), "w").write("- [Long](long.md)\n")
        text = lesson(a.lines)
        path = os.path.join(root, "content/long.md")
        open(path, "w").write(text)
        uri = "file://" + path
        c = Client(binary, root)
        c.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
        c.notify("initialized", {})
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
        c.final_diagnostics(uri, 1)
        lines = text.split("\n")
        target = lines.index("6 * 13 = 15")
        times = []
        for v in range(2, a.edits + 2):
            wrong = v % 2 == 0
            new = "6 * 13 = 14" if wrong else "6 * 13 = 15"
            change = {"range": {"start": {"line": target, "character": 0},
                                "end": {"line": target, "character": len(lines[target])}},
                      "text": new}
            lines[target] = new
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [change]})
            d = c.final_diagnostics(uri, v)
            times.append(time.perf_counter() - t0)
            found = any(x.get("code") == "false-claim" and x["range"]["start"]["line"] == target for x in d)
            if found != wrong:
                sys.exit(f"version {v}: false-claim on line {target} expected {wrong}, got {d}")
        c.request("shutdown", None)
        c.notify("exit", None)
        c.p.wait(timeout=10)
        ms = [t * 1000 for t in times]
        print(f"{len(lines)} lines, {len(ms)} changes: median {statistics.median(ms):.1f} ms, "
              f"worst {max(ms):.1f} ms, best {min(ms):.1f} ms")


if __name__ == "__main__":
    main()
