//! The HTTP side of `nimbook serve`: hyper's HTTP/1.1 server on a single-threaded tokio runtime,
//! on a thread of its own.
//!
//! This is the only async code in nimbook, and it stays at the edge: the runtime is made here,
//! runs on the server's thread, and never reaches the build, which stays synchronous on the
//! main thread and rayon's pool. Each request is answered by [`super::answer`] (resolve the
//! path, read the file, add the reload script) on tokio's small pool for blocking work, so a
//! slow disk never stalls the thread that moves bytes for every other connection.
//!
//! hyper parses requests, keeps connections alive and closes one whose request head does not
//! arrive whole within [`HEAD_TIMEOUT`] (an idle keep-alive socket or a slow-loris client
//! alike). Request bodies are never read: every answer depends on the method and path alone,
//! and hyper closes a connection whose unread body is still arriving once the reply is sent,
//! so a trickled body costs no waiting either. [`super::connections`] bounds the open
//! connections, closing the longest-waiting one when the table is full.

use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::pin::{pin, Pin};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpSocket;
use tokio::runtime::Runtime;

use super::connections::{Answering, Connections};

/// The longest a request head may take to arrive, counted from when the connection starts
/// waiting for it (so also how long an idle keep-alive connection stays open).
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest request head read, in bytes; a longer one is answered 431.
const MAX_HEAD: usize = 16 * 1024;

/// The most header lines in a request head.
const MAX_HEADERS: usize = 64;

/// How often connections that overstayed are looked for.
const SWEEP: Duration = Duration::from_secs(1);

/// How many connections the kernel queues before they are accepted. A burst from many clients
/// at once must not overflow it: a dropped connection attempt is retried only after a second.
const BACKLOG: u32 = 1024;

/// The server's runtime and its listening socket on 127.0.0.1, made before the server is
/// announced, so that a busy port or a failure to start is reported at once.
pub(super) struct Listener {
    runtime: Runtime,
    listener: tokio::net::TcpListener,
}

impl Listener {
    /// Listens on 127.0.0.1 at `port` (0 picks a free one).
    pub(super) fn bind(port: u16) -> std::io::Result<Listener> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(4)
            .thread_name("nimbook-serve")
            .build()?;
        let listener = {
            // The socket registers with the runtime's reactor as it starts listening.
            let _entered = runtime.enter();
            let socket = TcpSocket::new_v4()?;
            // As std does for a listener on Unix: a restarted server may take its port back at
            // once. (On Windows the option would let another program share the port.)
            #[cfg(unix)]
            socket.set_reuseaddr(true)?;
            socket.bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
            socket.listen(BACKLOG)?
        };
        Ok(Listener { runtime, listener })
    }

    /// The address listened on.
    pub(super) fn address(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves the files of `out` on a thread of its own, until the process ends.
    pub(super) fn serve(self, out: PathBuf, version: Arc<AtomicU64>) -> std::io::Result<()> {
        let Listener { runtime, listener } = self;
        std::thread::Builder::new()
            .name("nimbook-serve".into())
            .spawn(move || runtime.block_on(accept(listener, Arc::new(out), version)))?;
        Ok(())
    }
}

/// Accepts connections and gives each a task, a slot in the connection table first.
async fn accept(listener: tokio::net::TcpListener, out: Arc<PathBuf>, version: Arc<AtomicU64>) {
    let connections = Arc::new(Connections::default());
    {
        let connections = Arc::clone(&connections);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(SWEEP).await;
                connections.expire(Instant::now());
            }
        });
    }
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .keep_alive(true);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, most likely: give connections time to close.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // While every slot is answering, this connection waits for one, and the ones after
        // it wait in the kernel's queue instead of being accepted and dropped.
        let (ticket, closed) = connections.admit().await;
        // Small replies on a kept-alive connection must not wait for the next segment.
        let _ = stream.set_nodelay(true);
        let ticket = Arc::new(ticket);
        let (out, version) = (Arc::clone(&out), Arc::clone(&version));
        let service = {
            let ticket = Arc::clone(&ticket);
            service_fn(move |request| {
                respond(
                    request,
                    ticket.answering(),
                    Arc::clone(&out),
                    Arc::clone(&version),
                )
            })
        };
        let connection = http.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            let mut connection = pin!(connection);
            let mut closed = closed;
            // Runs the connection until it ends or the table closes it; dropping it closes the
            // socket. Its error (a bad request already answered 400, a timeout, a closed tab)
            // is nobody's to report.
            poll_fn(|cx| {
                if Pin::new(&mut closed).poll(cx).is_ready() {
                    return Poll::Ready(());
                }
                connection.as_mut().poll(cx).map(|_| ())
            })
            .await;
            drop(ticket);
        });
    }
}

/// Answers one request from the files of `out`, off the server's thread.
async fn respond(
    request: Request<Incoming>,
    answering: Answering,
    out: Arc<PathBuf>,
    version: Arc<AtomicU64>,
) -> Result<Response<Reply>, Infallible> {
    let method = request.method().as_str().to_string();
    let target = request
        .uri()
        .path_and_query()
        .map_or_else(String::new, |p| p.as_str().to_string());
    let answered =
        tokio::task::spawn_blocking(move || super::answer(&method, &target, &out, &version)).await;
    let (status, ty, body) = answered.unwrap_or_else(|_| {
        let text = b"500 the server failed to answer\n".to_vec();
        (500, "text/plain; charset=utf-8", text)
    });
    let mut response = Response::new(Reply {
        data: (!body.is_empty()).then(|| Bytes::from(body)),
        _answering: answering,
    });
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(ty));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    Ok(response)
}

/// A reply's body: its bytes in one frame. It carries the connection's answering mark, which
/// hyper drops once it has taken the bytes (or, for `HEAD` and `204`, not wanted them).
struct Reply {
    data: Option<Bytes>,
    _answering: Answering,
}

impl Body for Reply {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.get_mut().data.take().map(|d| Ok(Frame::data(d))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.data.as_ref().map_or(0, |d| d.len() as u64))
    }
}
