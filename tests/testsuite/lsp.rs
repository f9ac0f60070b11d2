//! `nimbook lsp` driven as an editor drives it: the real binary on pipes, framed JSON-RPC, and
//! every wait bounded.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const WAIT: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Notifications read while waiting for something else.
    notifications: Vec<Value>,
    next_id: i64,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start(dir: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .arg("lsp")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("nimbook lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_message(&mut r) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            incoming,
            notifications: Vec::new(),
            next_id: 1,
        };
        let root = format!("file://{}", dir.display());
        let init = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": root, "capabilities": {} }),
        );
        assert!(
            init["result"]["capabilities"]["hoverProvider"] == json!(true),
            "{init}"
        );
        client.notify("initialized", json!({}));
        client
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn next(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        self.incoming
            .recv_timeout(left)
            .expect("the server answers in time")
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let deadline = Instant::now() + WAIT;
        loop {
            let v = self.next(deadline);
            if v["id"] == json!(id) {
                return v;
            }
            self.notifications.push(v);
        }
    }

    /// The final diagnostics of `uri` at `version` (no claim still being checked).
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let deadline = Instant::now() + WAIT;
        let is_final = |v: &Value| {
            v["method"] == "textDocument/publishDiagnostics"
                && v["params"]["uri"] == uri
                && v["params"]["version"] == json!(version)
                && !v["params"]["diagnostics"]
                    .to_string()
                    .contains("still checking")
        };
        if let Some(i) = self.notifications.iter().position(is_final) {
            let v = self.notifications.remove(i);
            return v["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
        }
        loop {
            let v = self.next(deadline);
            if is_final(&v) {
                return v["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
            self.notifications.push(v);
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "markdown", "version": 1, "text": text } }),
        );
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        )
    }

    /// Shuts the server down and returns its exit status.
    fn shutdown(mut self) -> std::process::ExitStatus {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

const LESSON: &str = "# Products\n\nThe product is below.\n\n```nim\nlet f = 16\n6 * 13 = 14\nlet g = f * f\n```\n\nSee [the other lesson](other.md#nope) and [its top](other.md#sums).\n";

fn book() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(
        root.join("book.toml"),
        "[book]\ntitle = \"T\"\nsrc = \"content\"\n\n[nimbook]\n",
    )
    .expect("write");
    std::fs::create_dir(root.join("content")).expect("mkdir");
    std::fs::write(
        root.join("content/SUMMARY.md"),
        "# Summary\n\n- [Products](lesson.md)\n- [Other](other.md)\n",
    )
    .expect("write");
    std::fs::write(root.join("content/lesson.md"), LESSON).expect("write");
    std::fs::write(
        root.join("content/other.md"),
        "# Other\n\n## Sums\n\n`nim: 7 + 14 = 9`\n",
    )
    .expect("write");
    dir
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn codes(diagnostics: &[Value]) -> Vec<(String, u64)> {
    diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(u64::MAX),
            )
        })
        .collect()
}

#[test]
fn a_false_claim_is_reported_on_its_line_and_clears_when_fixed() {
    let dir = book();
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    c.open(&u, LESSON);
    let first = codes(&c.diagnostics(&u, 1));
    assert!(first.contains(&("false-claim".into(), 6)), "{first:?}");
    assert!(first.contains(&("broken-link".into(), 10)), "{first:?}");
    assert_eq!(first.len(), 2, "the good link is not broken: {first:?}");
    let fixed = LESSON.replace("6 * 13 = 14", "6 * 13 = 15");
    c.change(&u, 2, &fixed);
    let second = codes(&c.diagnostics(&u, 2));
    assert_eq!(second, [("broken-link".to_string(), 10)]);
    assert!(c.shutdown().success());
}

#[test]
fn hover_completion_and_definition_answer_from_the_check() {
    let dir = book();
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    let text = LESSON.replace("6 * 13 = 14", "6 * 13 = 15");
    c.open(&u, &text);
    c.diagnostics(&u, 1);
    // Line 6 is `6 * 13 = 15`: the hover renders it with ⊗ and its verdict.
    let hover = c.at("textDocument/hover", &u, 6, 2);
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        shown.contains("6 ⊗ 13 = 15") && shown.contains("holds"),
        "{hover}"
    );
    // Line 7 is `let g = f * f`: its value is 16 ⊗ 16 = 24.
    let value = c.at("textDocument/hover", &u, 7, 9);
    assert!(
        value["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .contains("24"),
        "{value}"
    );
    // Completion inside the block offers builtins and the binding; none in prose.
    let items = c.at("textDocument/completion", &u, 7, 8);
    let labels: Vec<&str> = items["result"]
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    for expected in ["grundy", "nim", "sqrt", "addition_table", "f"] {
        assert!(
            labels.contains(&expected),
            "{expected} missing from {labels:?}"
        );
    }
    let prose = c.at("textDocument/completion", &u, 2, 3);
    assert_eq!(prose["result"], json!([]), "{prose}");
    // `f` on line 7 goes to `let f` on line 5.
    let def = c.at("textDocument/definition", &u, 7, 8);
    assert_eq!(def["result"]["uri"], json!(u));
    assert_eq!(
        def["result"]["range"]["start"],
        json!({ "line": 5, "character": 4 })
    );
    // The link to `other.md#sums` goes to the heading on line 2 of the other lesson.
    let link = c.at("textDocument/definition", &u, 10, 45);
    assert_eq!(
        link["result"]["uri"],
        json!(uri(&dir.path().join("content/other.md"))),
        "{link}"
    );
    assert_eq!(link["result"]["range"]["start"]["line"], json!(2), "{link}");
    assert!(c.shutdown().success());
}

#[test]
fn positions_count_utf16_units() {
    let dir = book();
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    // `𝔽` is two UTF-16 units and four bytes, `⊕` one unit and three bytes.
    let text = "# T\n\n```nim\n𝔽 # a comment ⊕\n5 ⊕ 11 = 10\n```\n";
    c.open(&u, text);
    let d = c.diagnostics(&u, 1);
    let bad = d
        .iter()
        .find(|d| d["code"] == "false-claim")
        .expect("false claim");
    assert_eq!(
        bad["range"]["start"],
        json!({ "line": 4, "character": 0 }),
        "{bad}"
    );
    assert_eq!(
        bad["range"]["end"],
        json!({ "line": 4, "character": 11 }),
        "{bad}"
    );
    assert!(c.shutdown().success());
}

#[test]
fn garbage_unknown_methods_and_loose_files_do_not_bring_it_down() {
    let dir = book();
    let mut c = Client::start(dir.path());
    c.raw(b"this is not a header\r\n\r\n");
    c.raw(b"Content-Length: 9\r\n\r\n{not json");
    let unknown = c.request("nimbook/whatever", json!({}));
    assert_eq!(unknown["error"]["code"], json!(-32601), "{unknown}");
    let bad_params = c.request("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(bad_params["error"]["code"], json!(-32602), "{bad_params}");
    // A hover on a document never opened has no answer, and no error.
    let nothing = c.at("textDocument/hover", "file:///nowhere.md", 0, 0);
    assert_eq!(nothing["result"], Value::Null, "{nothing}");
    // A file outside any book is checked with the default settings, and says so.
    let outside = tempfile::tempdir().expect("temp dir");
    let loose = uri(&outside.path().join("loose.md"));
    c.open(&loose, "```nim\n2 * 2 = 2\n```\n");
    let d = c.diagnostics(&loose, 1);
    assert!(d.iter().any(|d| d["code"] == "false-claim"), "{d:?}");
    assert!(
        d.iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("no book.toml")),
        "{d:?}"
    );
    // A half-typed claim is a syntax error, not a crash.
    c.change(&loose, 2, "```nim\nforall a < 4: a * (\n```\n");
    let d = c.diagnostics(&loose, 2);
    assert!(d.iter().any(|d| d["code"] == "syntax-error"), "{d:?}");
    assert!(c.shutdown().success());
}

#[test]
fn the_server_exits_when_its_input_closes() {
    let dir = book();
    let c = Client::start(dir.path());
    let Client {
        mut child, stdin, ..
    } = c;
    drop(stdin);
    let deadline = Instant::now() + WAIT;
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn book_with(toml_extra: &str, lesson: &str) -> tempfile::TempDir {
    let dir = book();
    let root = dir.path();
    std::fs::write(
        root.join("book.toml"),
        format!("[book]\ntitle = \"T\"\nsrc = \"content\"\n\n[nimbook]\n{toml_extra}"),
    )
    .expect("write");
    std::fs::write(root.join("content/lesson.md"), lesson).expect("write");
    dir
}

#[test]
fn an_unverified_number_gets_the_quick_fixes_its_help_names() {
    let text = "# Sums\n\nThe nim-sum 5 + 7 = 2 holds.\n";
    let dir = book_with("unverified-numbers = \"deny\"\n", text);
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    c.open(&u, text);
    let d = c.diagnostics(&u, 1);
    assert!(d.iter().all(|d| d["code"] == "unverified-number"), "{d:?}");
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": u },
            "range": { "start": { "line": 2, "character": 0 }, "end": { "line": 2, "character": 28 } },
            "context": { "diagnostics": [] }
        }),
    );
    let actions = actions["result"].as_array().cloned().unwrap_or_default();
    let check = actions
        .iter()
        .find(|a| a["title"] == "check it with `nim: 5 + 7 = 2`")
        .expect("a check action");
    let edit = &check["edit"]["changes"][&u][0];
    assert_eq!(edit["newText"], "`nim: 5 + 7 = 2`");
    assert_eq!(
        edit["range"]["start"],
        json!({ "line": 2, "character": 12 })
    );
    assert_eq!(edit["range"]["end"], json!({ "line": 2, "character": 21 }));
    let exempt: Vec<&Value> = actions
        .iter()
        .filter(|a| a["title"] == "exempt it with braces")
        .collect();
    assert!(!exempt.is_empty(), "{actions:?}");
    assert!(exempt
        .iter()
        .any(|a| a["edit"]["changes"][&u][0]["newText"] == "{7}"));
    assert!(c.shutdown().success());
}

#[test]
fn a_slow_claim_neither_holds_back_the_rest_nor_outlives_a_newer_edit() {
    // Far more cases than either the quick pass or this test's wait can get through: only
    // cancellation lets the second version be checked at all.
    let slow = "# Slow\n\n```nim\nforall a, b < 2^20: a * b = b * a\n6 * 13 = 14\n```\n";
    let dir = book_with("max-cases = 1099511627776\nmax-seconds = 3600\n", slow);
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    c.open(&u, slow);
    // The quick pass: the false claim now, the slow one marked as still being checked.
    let deadline = Instant::now() + WAIT;
    let quick = loop {
        let v = c.next(deadline);
        if v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == u {
            break v["params"]["diagnostics"].clone();
        }
    };
    let text = quick.to_string();
    assert!(
        text.contains("false-claim") && text.contains("still checking"),
        "{quick}"
    );
    // A newer version without the slow claim is checked at once.
    c.change(&u, 2, "# Slow\n\n```nim\n6 * 13 = 15\n```\n");
    let d = c.diagnostics(&u, 2);
    assert!(d.is_empty(), "{d:?}");
    assert!(c.shutdown().success());
}

#[test]
fn hover_over_a_directive_shows_what_the_build_drew() {
    let text = "# Tables\n\n```nimbook\naddition_table(4)\nexpansion(6, 13)\n```\n";
    let dir = book_with("", text);
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    c.open(&u, text);
    c.diagnostics(&u, 1);
    let table = c.at("textDocument/hover", &u, 3, 3);
    let shown = table["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        shown.contains("addition_table(n)") && shown.contains("the build drew"),
        "{shown}"
    );
    // 3 ⊕ 2 = 1 is in the 4 × 4 table the build drew.
    assert!(shown.contains('3') && shown.contains('1'), "{shown}");
    let expansion = c.at("textDocument/hover", &u, 4, 2);
    let shown = expansion["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        shown.contains("15"),
        "the expansion ends at 6 ⊗ 13 = 15: {shown}"
    );
    assert!(c.shutdown().success());
}

/// The code block of a hover (the lines between its fences).
fn hover_block(hover: &Value) -> Vec<String> {
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    let mut lines = shown.lines().skip_while(|l| !l.starts_with("```"));
    lines.next();
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

#[test]
fn hover_over_a_directive_keeps_the_rows_it_drew() {
    let text = "# Tables\n\n```nimbook\naddition_table(4)\nexpansion(6, 13)\n```\n";
    let dir = book_with("", text);
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    c.open(&u, text);
    c.diagnostics(&u, 1);
    let table = hover_block(&c.at("textDocument/hover", &u, 3, 3));
    // Each row of the nim-addition table, computed here with XOR, is one line of the hover.
    for r in 0..4u32 {
        let row: Vec<String> = [r]
            .into_iter()
            .chain((0..4).map(|c| r ^ c))
            .map(|v| v.to_string())
            .collect();
        assert!(
            table
                .iter()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == row),
            "row {r} ({row:?}) is not a line of {table:#?}"
        );
    }
    // One line per step, from the product to its value.
    let expansion = hover_block(&c.at("textDocument/hover", &u, 4, 2));
    assert!(expansion.len() >= 3, "{expansion:?}");
    assert!(expansion[0].starts_with("6 ⊗ 13 "), "{expansion:?}");
    assert!(
        expansion.last().is_some_and(|l| l.starts_with("15 ")),
        "the expansion ends at 6 ⊗ 13 = 15: {expansion:?}"
    );
    assert!(c.shutdown().success());
}

#[test]
fn completion_right_after_an_edit_offers_its_new_names() {
    // A claim that keeps the check busy far longer than this test waits: whatever is running,
    // completion answers from the text just sent.
    let slow = "# Slow\n\n```nim\nforall a, b < 2^20: a * b = b * a\nlet f = 16\n```\n";
    let dir = book_with("max-cases = 1099511627776\nmax-seconds = 3600\n", slow);
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    c.open(&u, slow);
    let edited = slow.replace(
        "let f = 16\n",
        "let f = 16\nlet fresh_name = f * f\nlet other = fr\n",
    );
    c.change(&u, 2, &edited);
    // Line 6 is `let other = fr`: the cursor after `fr`.
    let items = c.at("textDocument/completion", &u, 6, 14);
    let labels: Vec<&str> = items["result"]
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    for name in ["f", "fresh_name", "grundy"] {
        assert!(labels.contains(&name), "{name} missing from {labels:?}");
    }
    assert!(
        !labels.contains(&"other"),
        "`other` is bound after the cursor: {labels:?}"
    );
    assert!(c.shutdown().success());
}

#[test]
fn positions_are_the_same_whatever_the_line_endings() {
    let dir = book();
    let lesson = dir.path().join("content/lesson.md");
    let mut c = Client::start(dir.path());
    let u = uri(&lesson);
    let ranges = |d: &[Value]| {
        let mut r: Vec<String> = d
            .iter()
            .map(|d| format!("{} {}", d["code"], d["range"]))
            .collect();
        r.sort();
        r
    };
    c.open(&u, LESSON);
    let lf = ranges(&c.diagnostics(&u, 1));
    assert_eq!(lf.len(), 2, "{lf:?}");
    for (version, ending) in [(2, "\r\n"), (3, "\r")] {
        c.change(&u, version, &LESSON.replace('\n', ending));
        assert_eq!(ranges(&c.diagnostics(&u, version)), lf, "{ending:?}");
    }
    // An edit by range in the `\r` text: `14` on line 6 becomes `15`, and the claim holds.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": u, "version": 4 },
            "contentChanges": [{
                "range": { "start": { "line": 6, "character": 9 }, "end": { "line": 6, "character": 11 } },
                "text": "15"
            }]
        }),
    );
    let after = codes(&c.diagnostics(&u, 4));
    assert_eq!(after, [("broken-link".to_string(), 10)]);
    assert!(c.shutdown().success());
}
