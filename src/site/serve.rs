//! `nimbook serve`: a preview server with live reload.
//!
//! The server builds the book once, serves the output folder on `127.0.0.1` (never on every
//! interface: a preview is for the author, not the network), and watches the sources — the
//! source folder, `book.toml` and `templates/` — with `notify`. A burst of file events (an
//! editor writes, renames and touches) is debounced into one rebuild. A rebuild goes through
//! the same [`super::build`] as `nimbook build`, so it writes the same bytes and is just as
//! atomic: a failed rebuild leaves the previous site in place, and the server keeps serving it.
//!
//! After every successful rebuild a version number goes up. Pages are told to reload by a tiny
//! script that polls `/__nimbook/version`; the script is added to HTML *as it is sent*, never
//! written to disk, so the output folder of `serve` is byte for byte the output of `build`.
//!
//! Only files inside the output folder are served. [`resolve`] decodes the URL path, refuses
//! `..` segments, backslashes, NUL bytes and drive prefixes, and then canonicalises the result
//! and checks that it still lies under the canonical output folder, which also catches
//! symbolic links that point out of it. Anything else is a 404.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};

use super::{Fatal, Report};
use crate::diag::Diagnostic;

/// The endpoint that answers with the current site version.
pub const VERSION_PATH: &str = "/__nimbook/version";

/// How long the sources must be quiet before a rebuild starts.
const DEBOUNCE: Duration = Duration::from_millis(100);

/// The longest a stream of events may postpone a rebuild.
const MAX_DELAY: Duration = Duration::from_secs(2);

/// Worker threads answering requests.
const WORKERS: usize = 4;

/// What the server reports to whoever started it (the command line prints it).
pub enum ServeEvent {
    /// The server is listening at this URL.
    Listening(String),
    /// A build or rebuild finished (successfully or with content errors).
    Built {
        /// What the build found.
        report: Report,
        /// Wall time of the build, from reading the sources to the written site.
        elapsed: Duration,
        /// The version pages now see (unchanged when the build failed).
        version: u64,
    },
    /// A build failed before judging content (configuration or I/O); the old site stays.
    Failed(Fatal),
    /// A file watcher error; watching goes on.
    WatchError(String),
}

/// Options of `nimbook serve`.
pub struct ServeOptions {
    /// The book root, the folder of `book.toml`.
    pub root: PathBuf,
    /// The port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// The output folder instead of the configured `build-dir`.
    pub dest: Option<PathBuf>,
}

/// Builds the book, serves it and rebuilds on change, until the process is stopped. Returns
/// only on a failure to start (the book cannot be loaded, the port cannot be bound, the
/// sources cannot be watched).
pub fn serve(options: &ServeOptions, on_event: &mut dyn FnMut(ServeEvent)) -> Result<(), Fatal> {
    let (book, _) = super::Book::load(&options.root)?;
    let out = book.output_dir(options.dest.as_deref());
    super::output::guard(&book.root, &book.src, &out)?;
    // Rebuilds always go to the folder chosen now, so the server never loses its site.
    let out = absolute(&out);
    let root = absolute(&book.root);
    let src = absolute(&book.src);

    // Bind first, so that a busy port fails at once, and watch before the first build, so that
    // an edit made while it runs is not lost.
    let server = tiny_http::Server::http(("127.0.0.1", options.port)).map_err(|e| {
        Box::new(
            Diagnostic::error(format!("cannot listen on 127.0.0.1:{}: {e}", options.port))
                .help("choose another port with -p, or -p 0 for any free port"),
        )
    })?;
    let address = server
        .server_addr()
        .to_ip()
        .map_or_else(|| format!("127.0.0.1:{}", options.port), |a| a.to_string());

    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    })
    .map_err(|e| watch_error(&src, e))?;
    watcher
        .watch(&src, RecursiveMode::Recursive)
        .map_err(|e| watch_error(&src, e))?;
    // The root is watched alone, not recursively, for book.toml (editors often replace a file
    // by renaming, which a watch on the file itself would lose).
    if src != root {
        watcher
            .watch(&root, RecursiveMode::NonRecursive)
            .map_err(|e| watch_error(&root, e))?;
    }
    let templates = root.join("templates");
    let mut templates_watched = false;
    if templates.is_dir() && !templates.starts_with(&src) {
        watcher
            .watch(&templates, RecursiveMode::Recursive)
            .map_err(|e| watch_error(&templates, e))?;
        templates_watched = true;
    }

    let version = Arc::new(AtomicU64::new(0));
    rebuild(&root, &out, &version, on_event);

    let server = Arc::new(server);
    for _ in 0..WORKERS {
        let server = Arc::clone(&server);
        let out = out.clone();
        let version = Arc::clone(&version);
        std::thread::spawn(move || {
            for request in server.incoming_requests() {
                respond(request, &out, &version);
            }
        });
    }
    on_event(ServeEvent::Listening(format!("http://{address}/")));

    let relevant = |event: &notify::Event| {
        !matches!(event.kind, notify::EventKind::Access(_))
            && event
                .paths
                .iter()
                .any(|p| is_source(p, &root, &src, &templates, &out))
    };
    loop {
        // Wait for a relevant change, then for quiet.
        let first = match rx.recv() {
            Ok(Ok(event)) => event,
            Ok(Err(e)) => {
                on_event(ServeEvent::WatchError(e.to_string()));
                continue;
            }
            Err(_) => return Ok(()),
        };
        if !relevant(&first) {
            continue;
        }
        // A templates/ folder made while serving is watched from then on.
        if !templates_watched && templates.is_dir() && !templates.starts_with(&src) {
            match watcher.watch(&templates, RecursiveMode::Recursive) {
                Ok(()) => templates_watched = true,
                Err(e) => on_event(ServeEvent::WatchError(e.to_string())),
            }
        }
        let started = Instant::now();
        while started.elapsed() < MAX_DELAY {
            match rx.recv_timeout(DEBOUNCE) {
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        }
        rebuild(&root, &out, &version, on_event);
    }
}

fn watch_error(path: &Path, e: notify::Error) -> Fatal {
    Box::new(Diagnostic::error(format!(
        "cannot watch {} for changes: {e}",
        path.display()
    )))
}

/// Whether a changed path is one of the book's sources (and not the output or its staging
/// folders, which the build itself changes).
fn is_source(path: &Path, root: &Path, src: &Path, templates: &Path, out: &Path) -> bool {
    let out_name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staging = |p: &Path| {
        p.ancestors().any(|a| {
            a.file_name().is_some_and(|n| {
                n.to_string_lossy()
                    .starts_with(&format!(".{out_name}.nimbook-"))
            })
        })
    };
    if path.starts_with(out) || staging(path) {
        return false;
    }
    path.starts_with(src) || path.starts_with(templates) || path == root.join("book.toml")
}

fn rebuild(root: &Path, out: &Path, version: &AtomicU64, on_event: &mut dyn FnMut(ServeEvent)) {
    let started = Instant::now();
    match super::build(root, Some(out), &super::Progress::none()) {
        Ok(report) => {
            let elapsed = started.elapsed();
            let v = if report.errors == 0 {
                version.fetch_add(1, Ordering::SeqCst) + 1
            } else {
                version.load(Ordering::SeqCst)
            };
            on_event(ServeEvent::Built {
                report,
                elapsed,
                version: v,
            });
        }
        Err(fatal) => on_event(ServeEvent::Failed(fatal)),
    }
}

/// Absolute form of a path, canonical when it exists.
fn absolute(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    }
}

/// Decodes `%XX` escapes. `None` for a malformed escape or bytes that are not UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file under `root` that the request target `url` names, or `None` (a 404).
///
/// The query and fragment are dropped and the path is percent-decoded; then a path with a `..`
/// segment, a backslash, a NUL byte or a `:` (a drive or scheme) is refused outright. A folder
/// stands for its `index.html`. The result is canonicalised, which resolves symbolic links, and
/// must still lie under the canonical `root` and be a file.
pub fn resolve(root: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    let mut rel = PathBuf::new();
    for segment in decoded.split('/') {
        if segment.contains(['\\', '\0', ':']) || segment == ".." {
            return None;
        }
        if segment.is_empty() || segment == "." {
            continue;
        }
        rel.push(segment);
    }
    let root = std::fs::canonicalize(root).ok()?;
    let mut candidate = root.join(&rel);
    if candidate.is_dir() {
        candidate.push("index.html");
    }
    let real = std::fs::canonicalize(&candidate).ok()?;
    (real.starts_with(&root) && real.is_file()).then_some(real)
}

/// The `Content-Type` for a file, by extension.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The live-reload script added to every HTML page the server sends.
pub fn reload_script(version: u64) -> String {
    format!(
        "<script>/* nimbook serve: live reload */(function(){{var v=\"{version}\";\
function poll(){{fetch(\"{VERSION_PATH}\",{{cache:\"no-store\"}}).then(function(r){{return r.text();}})\
.then(function(t){{if(t!==v){{location.reload();}}else{{setTimeout(poll,300);}}}})\
.catch(function(){{setTimeout(poll,1000);}});}}setTimeout(poll,300);}})();</script>\n"
    )
}

/// `html` with the reload script before its last `</body>` (or at the end).
pub fn inject_reload(html: &str, version: u64) -> String {
    let script = reload_script(version);
    let at = html
        .to_ascii_lowercase()
        .rfind("</body>")
        .unwrap_or(html.len());
    let mut out = String::with_capacity(html.len() + script.len());
    out.push_str(&html[..at]);
    out.push_str(&script);
    out.push_str(&html[at..]);
    out
}

fn header(name: &str, value: &str) -> Option<tiny_http::Header> {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn respond(request: tiny_http::Request, out: &Path, version: &AtomicU64) {
    use tiny_http::{Method, Response};
    let method = request.method().clone();
    if method != Method::Get && method != Method::Head {
        let _ = request.respond(Response::from_string("method not allowed").with_status_code(405));
        return;
    }
    let url = request.url().to_string();
    let no_store = header("Cache-Control", "no-store");
    let nosniff = header("X-Content-Type-Options", "nosniff");
    let with = |mut r: Response<std::io::Cursor<Vec<u8>>>, ty: &str| {
        for h in [
            header("Content-Type", ty),
            no_store.clone(),
            nosniff.clone(),
        ]
        .into_iter()
        .flatten()
        {
            r.add_header(h);
        }
        r
    };
    if url.split('?').next() == Some(VERSION_PATH) {
        let v = version.load(Ordering::SeqCst).to_string();
        let _ = request.respond(with(
            Response::from_data(v.into_bytes()),
            "text/plain; charset=utf-8",
        ));
        return;
    }
    let not_found = || {
        with(
            Response::from_data(b"404 not found\n".to_vec()).with_status_code(404),
            "text/plain; charset=utf-8",
        )
    };
    let Some(file) = resolve(out, &url) else {
        let _ = request.respond(not_found());
        return;
    };
    let Ok(bytes) = std::fs::read(&file) else {
        let _ = request.respond(not_found());
        return;
    };
    let ty = content_type(&file);
    let body = if ty.starts_with("text/html") {
        match String::from_utf8(bytes) {
            Ok(html) => inject_reload(&html, version.load(Ordering::SeqCst)).into_bytes(),
            Err(e) => e.into_bytes(),
        }
    } else {
        bytes
    };
    let _ = request.respond(with(Response::from_data(body), ty));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("out");
        std::fs::create_dir_all(out.join("sub")).expect("mkdir");
        std::fs::write(out.join("index.html"), "<p>home</p>").expect("write");
        std::fs::write(out.join("page.html"), "<p>page</p>").expect("write");
        std::fs::write(out.join("sub/deep page.html"), "x").expect("write");
        std::fs::write(dir.path().join("secret.txt"), "secret").expect("write");
        dir
    }

    fn name_of(p: Option<PathBuf>) -> Option<String> {
        p.and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    }

    #[test]
    fn files_under_the_root_are_found_and_folders_mean_their_index() {
        let dir = site();
        let out = dir.path().join("out");
        assert_eq!(
            name_of(resolve(&out, "/page.html")),
            Some("page.html".into())
        );
        assert_eq!(name_of(resolve(&out, "/")), Some("index.html".into()));
        assert_eq!(
            name_of(resolve(&out, "/page.html?x=1#top")),
            Some("page.html".into())
        );
        assert_eq!(
            name_of(resolve(&out, "/sub/deep%20page.html")),
            Some("deep page.html".into())
        );
        assert_eq!(
            name_of(resolve(&out, "//sub/./deep%20page.html")),
            Some("deep page.html".into())
        );
    }

    #[test]
    fn traversal_in_every_spelling_is_refused() {
        let dir = site();
        let out = dir.path().join("out");
        assert!(out.join("../secret.txt").is_file(), "the target exists");
        for url in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E/secret.txt",
            "/.%2e/secret.txt",
            "/sub/../../secret.txt",
            "/sub/%2e%2e/%2e%2e/secret.txt",
            "/..%2fsecret.txt",
            "/..%5csecret.txt",
            "/..\\secret.txt",
            "/sub\\..\\..\\secret.txt",
            "/%00",
            "/page.html%00",
            "/C:/Windows",
            "/%ff",
            "/%zz",
            "/%2",
            "page.html",
            "",
            "http://example.com/page.html",
        ] {
            assert_eq!(resolve(&out, url), None, "{url} must not resolve");
        }
    }

    #[test]
    fn absolute_paths_are_taken_relative_to_the_root() {
        let dir = site();
        let out = dir.path().join("out");
        let secret = dir.path().join("secret.txt");
        let url = format!("/{}", secret.display());
        assert_eq!(resolve(&out, &url), None);
        assert_eq!(resolve(&out, "//etc/passwd"), None);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_that_escape_the_root_are_refused() {
        let dir = site();
        let out = dir.path().join("out");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), out.join("leak.txt"))
            .expect("symlink");
        std::os::unix::fs::symlink(dir.path(), out.join("up")).expect("symlink");
        std::os::unix::fs::symlink(out.join("page.html"), out.join("alias.html")).expect("symlink");
        assert_eq!(resolve(&out, "/leak.txt"), None);
        assert_eq!(resolve(&out, "/up/secret.txt"), None);
        // A link that stays inside is fine.
        assert_eq!(
            name_of(resolve(&out, "/alias.html")),
            Some("page.html".into())
        );
    }

    #[test]
    fn missing_files_and_a_missing_root_are_not_found() {
        let dir = site();
        assert_eq!(resolve(&dir.path().join("out"), "/nope.html"), None);
        assert_eq!(resolve(&dir.path().join("gone"), "/index.html"), None);
    }

    #[test]
    fn percent_decoding_is_strict() {
        assert_eq!(percent_decode("a%20b%2F").as_deref(), Some("a b/"));
        assert_eq!(percent_decode("%e2%8a%95").as_deref(), Some("⊕"));
        assert_eq!(percent_decode("%"), None);
        assert_eq!(percent_decode("%g0"), None);
        assert_eq!(percent_decode("%c3"), None);
    }

    #[test]
    fn content_types_follow_the_extension() {
        for (file, ty) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.svg", "image/svg+xml"),
            ("fonts/x.woff2", "font/woff2"),
            ("a.PNG", "image/png"),
            ("noext", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(file)), ty, "{file}");
        }
    }

    #[test]
    fn the_reload_script_goes_before_the_last_body_end() {
        let html = "<html><body><p>x</p></body></html>";
        let got = inject_reload(html, 7);
        let script_at = got.find("<script>").expect("script added");
        assert!(script_at < got.rfind("</body>").expect("body end"));
        assert!(got.contains("var v=\"7\""));
        assert!(got.contains(VERSION_PATH));
        assert!(inject_reload("<p>no body", 1).starts_with("<p>no body<script>"));
    }

    #[test]
    fn sources_are_told_apart_from_the_output() {
        let root = Path::new("/b");
        let (src, templates, out) = (
            root.join("content"),
            root.join("templates"),
            root.join("book"),
        );
        let is = |p: &str| is_source(Path::new(p), root, &src, &templates, &out);
        assert!(is("/b/content/a.md"));
        assert!(is("/b/book.toml"));
        assert!(is("/b/templates/page.html"));
        assert!(!is("/b/book/a.html"));
        assert!(!is("/b/.book.nimbook-new-12/a.html"));
        assert!(!is("/b/README.md"));
    }
}
