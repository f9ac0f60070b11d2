//! Integration test of `nimbook serve`: start the real binary on a free port, request pages
//! and hostile paths, edit a lesson and watch the version go up, then stop the server. Every
//! wait is bounded, and the server is killed when the test ends, pass or fail. [`Server`] and
//! [`fixture`] are shared with `serve_hostile`.

use crate::common::copy_dir;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Generous, because CI machines are slow and shared; a healthy run takes a second or two.
pub(crate) const STARTUP: Duration = Duration::from_secs(60);
const REBUILD: Duration = Duration::from_secs(60);

/// The server process, killed on drop.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
    stderr: Arc<Mutex<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub(crate) fn start(book: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(["serve", "-p", "0"])
            .arg(book)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start nimbook serve");
        let stdout = child.stdout.take().expect("stdout");
        let stderr_pipe = child.stderr.take().expect("stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                let mut s = sink.lock().expect("lock");
                s.push_str(&line);
                s.push('\n');
            }
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            port: 0,
            stderr,
        };
        let deadline = Instant::now() + STARTUP;
        while Instant::now() < deadline {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("serving at http://127.0.0.1:") {
                        let port: String = rest.chars().take_while(char::is_ascii_digit).collect();
                        server.port = port.parse().expect("port number");
                        return server;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        panic!(
            "the server did not say where it listens; stderr:\n{}",
            server.stderr()
        );
    }

    /// Whether the server process is still running.
    pub(crate) fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub(crate) fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Sends a raw GET (the target as written, not normalised) and returns status and body.
    pub(crate) fn get(&self, target: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        write!(
            stream,
            "GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .expect("send");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).expect("read response");
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("status line");
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    pub(crate) fn version(&self) -> u64 {
        let (status, body) = self.get("/__nimbook/version");
        assert_eq!(status, 200);
        body.trim().parse().expect("a version number")
    }

    /// Polls until `done` holds or the time is up.
    pub(crate) fn wait_for(
        &self,
        what: &str,
        limit: Duration,
        mut done: impl FnMut(&Server) -> bool,
    ) {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if done(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("timed out waiting for {what}; stderr:\n{}", self.stderr());
    }
}

pub(crate) fn fixture() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic"),
        tmp.path(),
    );
    // Files beside the output folder (`out/`) that a traversal would reach.
    std::fs::write(tmp.path().join("Cargo.toml"), "SECRET-beside-the-site\n").expect("write");
    let root = tmp.path().to_path_buf();
    (tmp, root)
}

#[test]
fn serve_builds_serves_only_the_site_and_reloads_after_an_edit() {
    let (_tmp, book) = fixture();
    let server = Server::start(&book);
    server.wait_for("the first build", STARTUP, |s| s.version() >= 1);
    let first = server.version();

    // Pages are served, with the live-reload script added on the way out only.
    let (status, page) = server.get("/01-sums.html");
    assert_eq!(status, 200);
    assert!(page.contains("<h1"), "{page}");
    assert!(
        page.contains("/__nimbook/version"),
        "reload script injected"
    );
    let on_disk = std::fs::read_to_string(book.join("out/01-sums.html")).expect("built page");
    assert!(
        !on_disk.contains("__nimbook"),
        "the built site has no reload script"
    );
    assert_eq!(server.get("/").0, 200, "the index");
    assert_eq!(server.get("/searchindex.js").0, 200);

    // Nothing outside the output folder, however the path is spelled.
    for target in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%2E%2E/Cargo.toml",
        "/..%2fCargo.toml",
        "/..%5cCargo.toml",
        "/..\\Cargo.toml",
        "/out/../../Cargo.toml",
    ] {
        let (status, body) = server.get(target);
        assert_eq!(status, 404, "{target} must be a 404");
        assert!(!body.contains("SECRET"), "{target} leaked the file");
    }
    let absolute = format!("/{}", book.join("Cargo.toml").display());
    assert_eq!(server.get(&absolute).0, 404, "{absolute}");

    // Edit a lesson: the site is rebuilt and the version goes up.
    let lesson = book.join("content/01-sums.md");
    let mut text = std::fs::read_to_string(&lesson).expect("read lesson");
    text.push_str("\nAn edit made while serving: `nim: 3 + 5 = 6`.\n");
    std::fs::write(&lesson, &text).expect("edit lesson");
    server.wait_for("the version to go up", REBUILD, |s| s.version() > first);
    let (_, page) = server.get("/01-sums.html");
    assert!(
        page.contains("An edit made while serving"),
        "new content served"
    );
    assert!(
        server.stderr().contains("built in"),
        "rebuild time printed: {}",
        server.stderr()
    );

    // A failed rebuild reports the error and keeps the previous site.
    let second = server.version();
    text.push_str("\n```nim\n3 + 5 = 7\n```\n");
    std::fs::write(&lesson, &text).expect("break lesson");
    server.wait_for("the failed build to be reported", REBUILD, |s| {
        s.stderr().contains("still serving the previous site")
    });
    assert!(server.stderr().contains("claim does not hold"));
    assert_eq!(server.version(), second, "a failed build bumps nothing");
    let (status, page) = server.get("/01-sums.html");
    assert_eq!(status, 200);
    assert!(page.contains("An edit made while serving"));
}
