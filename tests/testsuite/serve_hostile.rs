//! `nimbook serve` under hostile clients: idle and slow-loris sockets held open, a full table
//! of connections, two hundred busy clients, and requests that are garbage or malformed on
//! purpose (proptest). Only 127.0.0.1 is ever contacted. Every socket has read and write
//! timeouts and every loop a bound, so a server that hangs fails a test instead of stalling
//! it; the deadlines are generous, because they detect hangs and time nothing.

use crate::serve::{fixture, Server};

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// The longest any single read or write may block: far beyond a healthy reply.
const IO_LIMIT: Duration = Duration::from_secs(30);

/// An ordinary GET of a lesson on a connection of its own.
const GET: &[u8] = b"GET /01-sums.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

fn connect(port: u16) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(IO_LIMIT)).expect("timeout");
    stream.set_write_timeout(Some(IO_LIMIT)).expect("timeout");
    stream
}

/// Everything the server sends until it closes the connection; `Err` if it neither sends
/// nor closes within [`IO_LIMIT`] (a hang).
fn read_to_close(stream: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut reply = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return Ok(reply),
            Ok(n) => reply.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(format!("no reply and no close within {IO_LIMIT:?}"))
            }
            // A reset closes the connection too (the server dropped it with bytes unread).
            Err(_) => return Ok(reply),
        }
    }
}

/// One ordinary GET on a new connection: the reply, empty if the server closed without one.
fn get(port: u16) -> Vec<u8> {
    let mut stream = connect(port);
    if stream.write_all(GET).is_err() {
        return Vec::new();
    }
    read_to_close(&mut stream).unwrap_or_default()
}

fn is_ok_page(reply: &[u8]) -> bool {
    reply.starts_with(b"HTTP/1.1 200 ") && reply.ends_with(b"</html>\n")
}

/// Whether the server has closed `stream`, waiting at most `wait` for it to do so (bytes it
/// sends first, such as a timeout reply, are read and dropped).
fn closed_by_server(stream: &mut TcpStream, wait: Duration) -> bool {
    stream
        .set_read_timeout(Some(wait.max(Duration::from_millis(1))))
        .expect("timeout");
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return false
            }
            Err(_) => return true,
        }
    }
}

fn started() -> (tempfile::TempDir, Server) {
    let (tmp, book) = fixture();
    let server = Server::start(&book);
    server.wait_for("the first build", crate::serve::STARTUP, |s| {
        s.version() >= 1
    });
    (tmp, server)
}

/// Slow-loris clients: each has sent the start of a request head and adds one byte every two
/// seconds until `stop` is set. Returns the sockets.
fn slow_loris(
    port: u16,
    count: usize,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<TcpStream>> {
    let mut sockets: Vec<TcpStream> = (0..count).map(|_| connect(port)).collect();
    for s in &mut sockets {
        s.write_all(b"GET /01-sums.html HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .expect("start a head");
    }
    std::thread::spawn(move || {
        let started = Instant::now();
        // Bounded: the test stops it long before this.
        while !stop.load(Ordering::SeqCst) && started.elapsed() < Duration::from_secs(120) {
            for s in &mut sockets {
                let _ = s.write(b"X");
            }
            for _ in 0..20 {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        sockets
    })
}

#[test]
fn idle_and_slow_loris_sockets_lock_no_one_out_and_are_cut_off() {
    let (_tmp, server) = started();
    let idle: Vec<TcpStream> = (0..150).map(|_| connect(server.port)).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let loris = slow_loris(server.port, 100, Arc::clone(&stop));
    let held_since = Instant::now();

    // Ordinary GETs, spread over twelve seconds of hostile load.
    let mut answered = 0;
    for _ in 0..40 {
        answered += usize::from(is_ok_page(&get(server.port)));
        std::thread::sleep(Duration::from_millis(300));
    }
    assert_eq!(answered, 40, "every ordinary GET is answered");

    // A request on a kept-alive connection, then a second on the same one.
    let mut stream = connect(server.port);
    let keep_alive = b"GET /01-sums.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    stream.write_all(keep_alive).expect("first request");
    stream.write_all(GET).expect("second request");
    let replies = read_to_close(&mut stream).expect("both replies");
    let text = String::from_utf8_lossy(&replies);
    assert_eq!(
        text.matches("HTTP/1.1 200 OK").count(),
        2,
        "two replies on one connection"
    );

    // Heads that never end, and sockets that never send one, are cut off by the server.
    stop.store(true, Ordering::SeqCst);
    let loris = loris.join().expect("the slow-loris thread");
    let limit = held_since + Duration::from_secs(60);
    let open: Vec<&str> = (loris.into_iter().map(|s| ("slow-loris", s)))
        .chain(idle.into_iter().map(|s| ("idle", s)))
        .filter_map(|(kind, mut s)| {
            let wait = limit.saturating_duration_since(Instant::now());
            (!closed_by_server(&mut s, wait)).then_some(kind)
        })
        .collect();
    assert!(open.is_empty(), "sockets never closed: {open:?}");
}

#[test]
fn a_full_table_closes_the_longest_idle_sockets_first() {
    let (_tmp, server) = started();
    // More idle sockets than the server keeps, opened one after another.
    let mut idle: Vec<TcpStream> = (0..400).map(|_| connect(server.port)).collect();
    assert!(is_ok_page(&get(server.port)), "a GET is answered");
    std::thread::sleep(Duration::from_millis(500));
    let closed: Vec<bool> = idle
        .iter_mut()
        .map(|s| closed_by_server(s, Duration::from_millis(20)))
        .collect();
    let first_open = closed
        .iter()
        .position(|c| !c)
        .expect("some sockets stay open");
    assert!(
        first_open > 0,
        "the table was full, so some sockets were closed"
    );
    assert!(
        closed[first_open..].iter().all(|c| !c),
        "the closed sockets are the oldest: {closed:?}"
    );
}

#[test]
fn two_hundred_busy_clients_get_no_empty_replies() {
    let (_tmp, server) = started();
    let port = server.port;
    let (empty, wrong) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let clients: Vec<_> = (0..200)
        .map(|_| {
            let (empty, wrong) = (Arc::clone(&empty), Arc::clone(&wrong));
            std::thread::spawn(move || {
                for _ in 0..15 {
                    let reply = get(port);
                    if reply.is_empty() {
                        empty.fetch_add(1, Ordering::SeqCst);
                    } else if !is_ok_page(&reply) {
                        wrong.fetch_add(1, Ordering::SeqCst);
                    }
                }
            })
        })
        .collect();
    for client in clients {
        client.join().expect("a client thread");
    }
    assert_eq!(empty.load(Ordering::SeqCst), 0, "empty replies of 3000");
    assert_eq!(
        wrong.load(Ordering::SeqCst),
        0,
        "replies other than the page"
    );
}

/// A request built to be almost right: a method, a target, a version, headers and a body,
/// each drawn from spellings that servers get wrong, joined by one kind of line ending.
fn malformed_request() -> impl Strategy<Value = Vec<u8>> {
    let method = prop_oneof![
        Just("GET".to_string()),
        Just("HEAD".to_string()),
        Just("POST".to_string()),
        Just("PRI".to_string()),
        Just("get".to_string()),
        "[A-Z]{0,10}",
        "[ -~]{0,10}",
    ];
    let target = prop_oneof![
        Just("/".to_string()),
        Just("/01-sums.html".to_string()),
        Just("/../Cargo.toml".to_string()),
        Just("/%2e%2e/Cargo.toml".to_string()),
        Just("/..\\Cargo.toml".to_string()),
        Just("*".to_string()),
        Just("http://127.0.0.1/../Cargo.toml".to_string()),
        "/[a-z0-9%./\\\\:?#-]{0,40}",
        "[ -~]{0,60}",
        "/%[0-9a-fA-F]{0,2}%[0-9a-fA-F]{0,2}[./]{0,6}",
    ];
    let version = prop_oneof![
        Just("HTTP/1.1"),
        Just("HTTP/1.0"),
        Just("HTTP/2.0"),
        Just("HTTP/0.9"),
        Just("HTTP/1.10"),
        Just("HTTP/"),
        Just(""),
    ];
    let name = prop_oneof![
        Just("Host".to_string()),
        Just("Content-Length".to_string()),
        Just("Transfer-Encoding".to_string()),
        Just("Connection".to_string()),
        Just("Expect".to_string()),
        Just("Upgrade".to_string()),
        "[!-~]{0,16}",
        "[ -~\t]{0,16}",
    ];
    let value = prop_oneof![
        Just("-1".to_string()),
        Just("18446744073709551616".to_string()),
        Just("chunked".to_string()),
        Just("chunked, identity".to_string()),
        Just("100-continue".to_string()),
        Just("keep-alive".to_string()),
        Just("h2c".to_string()),
        "[0-9]{0,6}",
        "[ -~\t]{0,40}",
    ];
    let eol = prop_oneof![Just("\r\n"), Just("\n"), Just("\r"), Just("\r\r\n")];
    let headers = proptest::collection::vec((name, value), 0..80);
    let body = proptest::collection::vec(any::<u8>(), 0..200);
    (method, target, version, headers, eol, body, 1..4usize).prop_map(
        |(method, target, version, headers, eol, body, times)| {
            let mut request = format!("{method} {target} {version}{eol}");
            for (name, value) in &headers {
                request.push_str(&format!("{name}: {value}{eol}"));
            }
            request.push_str(eol);
            let mut bytes = request.into_bytes();
            bytes.extend_from_slice(&body);
            bytes.repeat(times)
        },
    )
}

/// Sends `bytes`, closes the sending half, and checks what comes back: nothing, or HTTP, and
/// never the file that lies beside the site.
fn throw(port: u16, bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut stream = connect(port);
    // The server may close early on a request it refuses; what it sent is still read.
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(Shutdown::Write);
    let reply = read_to_close(&mut stream).map_err(TestCaseError::fail)?;
    prop_assert!(
        reply.is_empty() || reply.starts_with(b"HTTP/1."),
        "not HTTP: {:?}",
        String::from_utf8_lossy(&reply[..reply.len().min(200)])
    );
    prop_assert!(
        !String::from_utf8_lossy(&reply).contains("SECRET"),
        "the file beside the site was served"
    );
    Ok(())
}

#[test]
fn garbage_and_malformed_requests_never_break_the_server() {
    let (_tmp, mut server) = started();
    let port = server.port;
    let requests = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..4096),
        malformed_request(),
    ];
    let mut runner = TestRunner::new(Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&requests, |bytes| throw(port, &bytes))
        .unwrap_or_else(|e| panic!("{e}; server stderr:\n{}", server.stderr()));
    assert!(server.is_running(), "the server is still running");
    assert!(is_ok_page(&get(port)), "and still answers");
    assert!(
        !server.stderr().contains("panicked"),
        "no panic: {}",
        server.stderr()
    );
}
