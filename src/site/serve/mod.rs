//! `nimbook serve`: a preview server with live reload.
//!
//! The server builds the book once, serves the output folder on `127.0.0.1` (never on every
//! interface: a preview is for the author, not the network), and watches the sources — the
//! source folder, `book.toml` and `templates/` — with `notify`. A burst of file events (an
//! editor writes, renames and touches) is debounced into one rebuild. A rebuild goes through
//! [`LiveSite`]: the first build and any change beyond lessons and static files (the summary,
//! `book.toml`, templates) build the whole book, atomically, like `nimbook build`; an edit to
//! lessons checks and renders only those lessons and patches the pages, contents and search
//! index that changed (see [`live`]). Either way the site written is byte for byte what
//! `nimbook build` writes, and a failed rebuild leaves the previous site in place.
//!
//! After every successful rebuild a version number goes up. Pages are told to reload by a tiny
//! script that polls `/__nimbook/version`; the script is added to HTML *as it is sent*, never
//! written to disk, so the output folder of `serve` is byte for byte the output of `build`.
//!
//! HTTP is [`http`]'s: hyper's HTTP/1.1 server on a single-threaded tokio runtime of its own
//! thread, with keep-alive, a timeout on request heads, and a bound on open connections that
//! closes the longest-idle one first ([`connections`]). The runtime goes no further than that
//! thread; rebuilds run on the calling thread and rayon, as `nimbook build` does.
//!
//! Only files inside the output folder are served. [`resolve`] decodes the URL path, refuses
//! `..` segments, backslashes, NUL bytes and drive prefixes, and then canonicalises the result
//! and checks that it still lies under the canonical output folder, which also catches
//! symbolic links that point out of it. Anything else is a 404.

mod connections;
mod http;
pub(crate) mod live;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};

use crate::diag::{Code, Diagnostic};
use crate::site::html::{content_type, percent_decode};
use crate::site::lesson::book::Book;
use crate::site::lesson::report::{Progress, Report};
use crate::site::load::{Fatal, Options};
use crate::site::output::absolute;
use live::LiveSite;

/// The endpoint that answers with the current site version.
pub(super) const VERSION_PATH: &str = "/__nimbook/version";

/// How long the sources must be quiet before a rebuild starts.
const DEBOUNCE: Duration = Duration::from_millis(40);

/// The longest a stream of events may postpone a rebuild.
const MAX_DELAY: Duration = Duration::from_secs(2);

/// What the server reports to whoever started it (the command line prints it).
#[non_exhaustive]
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
        /// How many lessons were checked again: all of them for a whole build, only the
        /// edited ones for a rebuild after an edit to lessons.
        rechecked: usize,
    },
    /// A build failed before judging content (configuration or I/O); the old site stays.
    Failed(Fatal),
    /// A file watcher error; watching goes on.
    WatchError(String),
}

/// Builds the book, serves it and rebuilds on change, until the process is stopped. Returns
/// only on a failure to start (the book cannot be loaded, the port cannot be bound, the
/// sources cannot be watched).
/// `port` is on 127.0.0.1; 0 picks a free one.
pub fn serve(
    options: &Options,
    port: u16,
    on_event: &mut dyn FnMut(ServeEvent),
) -> Result<(), Fatal> {
    let (book, _) = Book::load(options)?;
    // The site's folder as `build` lays it out (`book/html/` beside other renderers).
    let layout = book.layout(options.output.as_deref());
    let out = layout.site();
    crate::site::output::guard(&book.root, &book.src, &out)?;
    // Rebuilds always go to the folder chosen now, so the server never loses its site.
    let out = absolute(&out);
    let root = absolute(&book.root);
    let src = absolute(&book.src);

    // Bind first, so that a busy port fails at once, and watch before the first build, so that
    // an edit made while it runs is not lost.
    let (listener, address) = bind(port)?;
    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    })
    .map_err(|e| watch_error(&src, e))?;
    let templates = root.join("templates");
    let (mut templates_watched, extra) = watch_sources(
        &mut watcher,
        &book.config.build.extra_watch_dirs,
        &root,
        &src,
        &out,
    )?;

    let version = Arc::new(AtomicU64::new(0));
    let build = Options {
        root: root.clone(),
        lints: options.lints.clone(),
        output: Some(absolute(&layout.build)),
        trust: options.trust,
        answer_key: false,
        cache: options.cache,
        handout_pdf: false,
    };
    let mut live = rebuild(&build, &version, on_event);

    listener
        .serve(out.clone(), Arc::clone(&version))
        .map_err(|e| {
            Box::new(Diagnostic::error(
                Code::IoError,
                format!("cannot start the server on {address}: {e}"),
            ))
        })?;
    on_event(ServeEvent::Listening(format!("http://{address}/")));

    let relevant = |event: &notify::Event| {
        !matches!(event.kind, notify::EventKind::Access(_))
            && event
                .paths
                .iter()
                .any(|p| is_source(p, &root, &src, &templates, &extra, &out))
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
        let mut changed: BTreeSet<PathBuf> = first.paths.into_iter().collect();
        let started = Instant::now();
        while started.elapsed() < MAX_DELAY {
            match rx.recv_timeout(DEBOUNCE) {
                Ok(Ok(event)) if relevant(&event) => changed.extend(event.paths),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        }
        changed.retain(|p| is_source(p, &root, &src, &templates, &extra, &out));
        let changed: Vec<PathBuf> = changed.into_iter().collect();
        let started = Instant::now();
        match live.as_mut().and_then(|l| l.update(&changed)) {
            Some(Ok(update)) => {
                let v = if update.report.errors == 0 && update.written > 0 {
                    version.fetch_add(1, Ordering::SeqCst) + 1
                } else {
                    version.load(Ordering::SeqCst)
                };
                on_event(ServeEvent::Built {
                    report: update.report,
                    elapsed: started.elapsed(),
                    version: v,
                    rechecked: update.rechecked,
                });
            }
            Some(Err(fatal)) => {
                // The site may be partly patched: build it whole on the next change.
                live = None;
                on_event(ServeEvent::Failed(fatal));
            }
            None => live = rebuild(&build, &version, on_event),
        }
    }
}

/// Listens on 127.0.0.1 at `port`: the listener and its address.
fn bind(port: u16) -> Result<(http::Listener, String), Fatal> {
    let listener = http::Listener::bind(port).map_err(|e| {
        Box::new(
            Diagnostic::error(
                Code::IoError,
                format!("cannot listen on 127.0.0.1:{}: {e}", port),
            )
            .help("choose another port with -p, or -p 0 for any free port"),
        )
    })?;
    let address = listener
        .address()
        .map_or_else(|_| format!("127.0.0.1:{}", port), |a| a.to_string());
    Ok((listener, address))
}

/// Watches the book's sources: the source folder, the root (alone, for `book.toml`),
/// `templates/` and the `[build] extra-watch-dirs`. Returns whether `templates/` is watched and
/// the extra folders.
fn watch_sources(
    watcher: &mut impl Watcher,
    extra_watch_dirs: &[PathBuf],
    root: &Path,
    src: &Path,
    out: &Path,
) -> Result<(bool, Vec<PathBuf>), Fatal> {
    watcher
        .watch(src, RecursiveMode::Recursive)
        .map_err(|e| watch_error(src, e))?;
    // The root is watched alone, not recursively, for book.toml (editors often replace a file
    // by renaming, which a watch on the file itself would lose).
    if src != root {
        watcher
            .watch(root, RecursiveMode::NonRecursive)
            .map_err(|e| watch_error(root, e))?;
    }
    let templates = root.join("templates");
    let mut templates_watched = false;
    if templates.is_dir() && !templates.starts_with(src) {
        watcher
            .watch(&templates, RecursiveMode::Recursive)
            .map_err(|e| watch_error(&templates, e))?;
        templates_watched = true;
    }
    // `[build] extra-watch-dirs`: folders whose changes also rebuild the book (files that
    // templates or lessons read from elsewhere).
    let extra: Vec<PathBuf> = extra_watch_dirs
        .iter()
        .map(|d| absolute(&root.join(d)))
        .filter(|d| d.is_dir() && !d.starts_with(src) && !d.starts_with(out))
        .collect();
    for dir in &extra {
        watcher
            .watch(dir, RecursiveMode::Recursive)
            .map_err(|e| watch_error(dir, e))?;
    }
    Ok((templates_watched, extra))
}

fn watch_error(path: &Path, e: notify::Error) -> Fatal {
    Box::new(Diagnostic::error(
        Code::IoError,
        format!("cannot watch {} for changes: {e}", path.display()),
    ))
}

/// Whether a changed path is one of the book's sources (and not the output or its staging
/// folders, which the build itself changes): under the source folder, `templates/` or an
/// extra watched folder, or `book.toml`.
fn is_source(
    path: &Path,
    root: &Path,
    src: &Path,
    templates: &Path,
    extra: &[PathBuf],
    out: &Path,
) -> bool {
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
    // The cache is nimbook's own, saved after every rebuild: not a source even when the source
    // folder is the book root.
    if path.starts_with(out) || staging(path) || path.starts_with(root.join(".nimbook")) {
        return false;
    }
    path.starts_with(src)
        || path.starts_with(templates)
        || extra.iter().any(|d| path.starts_with(d))
        || path == root.join("book.toml")
}

/// Builds the whole book; the live site, for the rebuilds that follow, when it succeeded.
fn rebuild(
    build: &Options,
    version: &AtomicU64,
    on_event: &mut dyn FnMut(ServeEvent),
) -> Option<LiveSite> {
    let started = Instant::now();
    match LiveSite::build(build, &Progress::none()) {
        Ok((live, report)) => {
            let elapsed = started.elapsed();
            let v = if report.errors == 0 {
                version.fetch_add(1, Ordering::SeqCst) + 1
            } else {
                version.load(Ordering::SeqCst)
            };
            let rechecked = report.lessons;
            on_event(ServeEvent::Built {
                report,
                elapsed,
                version: v,
                rechecked,
            });
            live
        }
        Err(fatal) => {
            on_event(ServeEvent::Failed(fatal));
            None
        }
    }
}

/// The file under `root` that the request target `url` names, or `None` (a 404).
///
/// The query and fragment are dropped and the path is percent-decoded; then a path with a `..`
/// segment, a backslash, a NUL byte or a `:` (a drive or scheme) is refused outright. A folder
/// stands for its `index.html`. The result is canonicalised, which resolves symbolic links, and
/// must still lie under the canonical `root` and be a file.
pub(super) fn resolve(root: &Path, url: &str) -> Option<PathBuf> {
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

/// The live-reload script (`templates/reload.js`), which `serve` adds to every HTML page it
/// sends and never writes to disk.
const RELOAD_JS: &str = include_str!("../../../templates/reload.js");

/// The live-reload script element for site version `version`.
pub(super) fn reload_script(version: u64) -> String {
    format!(
        "<script data-version=\"{version}\" data-endpoint=\"{VERSION_PATH}\">{RELOAD_JS}</script>\n"
    )
}

/// `html` with the reload script before its last `</body>` (or at the end).
pub(super) fn inject_reload(html: &str, version: u64) -> String {
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

/// Status, content type and body for a request.
pub(super) fn answer(
    method: &str,
    target: &str,
    out: &Path,
    version: &AtomicU64,
) -> (u16, &'static str, Vec<u8>) {
    const TEXT: &str = "text/plain; charset=utf-8";
    if method != "GET" && method != "HEAD" {
        return (405, TEXT, b"method not allowed\n".to_vec());
    }
    let path = target.split('?').next().unwrap_or("");
    if path == VERSION_PATH {
        let v = version.load(Ordering::SeqCst).to_string();
        return (200, TEXT, v.into_bytes());
    }
    let Some(file) = resolve(out, target) else {
        // Browsers ask for an icon on their own; a site without one should not log a 404.
        if path == "/favicon.ico" {
            return (204, TEXT, Vec::new());
        }
        return (404, TEXT, b"404 not found\n".to_vec());
    };
    let Ok(bytes) = std::fs::read(&file) else {
        return (404, TEXT, b"404 not found\n".to_vec());
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
    (200, ty, body)
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

    /// The name of the file that `url` resolves to under `out`.
    fn found(out: &Path, url: &str) -> Option<String> {
        resolve(out, url).and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    }

    #[test]
    fn files_under_the_root_are_found_and_folders_mean_their_index() {
        let dir = site();
        let out = dir.path().join("out");
        assert_eq!(found(&out, "/page.html").as_deref(), Some("page.html"));
        assert_eq!(found(&out, "/").as_deref(), Some("index.html"));
        assert_eq!(
            found(&out, "/page.html?x=1#top").as_deref(),
            Some("page.html")
        );
        assert_eq!(
            found(&out, "/sub/deep%20page.html").as_deref(),
            Some("deep page.html")
        );
        assert_eq!(
            found(&out, "//sub/./deep%20page.html").as_deref(),
            Some("deep page.html")
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
        assert_eq!(found(&out, "/alias.html").as_deref(), Some("page.html"));
    }

    #[test]
    fn missing_files_and_a_missing_root_are_not_found() {
        let dir = site();
        assert_eq!(resolve(&dir.path().join("out"), "/nope.html"), None);
        assert_eq!(resolve(&dir.path().join("gone"), "/index.html"), None);
    }

    #[test]
    fn the_reload_script_goes_before_the_last_body_end() {
        let html = "<html><body><p>x</p></body></html>";
        let got = inject_reload(html, 7);
        let script_at = got.find("<script").expect("script added");
        assert!(script_at < got.rfind("</body>").expect("body end"));
        assert!(got.contains("data-version=\"7\""));
        assert!(got.contains(&format!("data-endpoint=\"{VERSION_PATH}\"")));
        assert!(inject_reload("<p>no body", 1).starts_with("<p>no body<script"));
    }

    #[test]
    fn answers_follow_the_method_and_the_path() {
        let dir = site();
        let out = dir.path().join("out");
        let v = AtomicU64::new(3);
        let (status, _, body) = answer("GET", "/page.html", &out, &v);
        assert_eq!(status, 200);
        let body = String::from_utf8(body).expect("utf-8");
        assert!(body.starts_with("<p>page</p>") && body.contains("data-version=\"3\""));
        assert_eq!(answer("GET", VERSION_PATH, &out, &v).2, b"3".to_vec());
        assert_eq!(answer("POST", "/page.html", &out, &v).0, 405);
        assert_eq!(answer("GET", "/../secret.txt", &out, &v).0, 404);
        assert_eq!(answer("GET", "/favicon.ico", &out, &v).0, 204);
        let (status, ty, _) = answer("HEAD", "/sub/deep%20page.html", &out, &v);
        assert_eq!((status, ty), (200, "text/html; charset=utf-8"));
    }

    #[test]
    fn sources_are_told_apart_from_the_output() {
        let root = Path::new("/b");
        let (src, templates, out) = (
            root.join("content"),
            root.join("templates"),
            root.join("book"),
        );
        let extra = [root.join("data")];
        let is = |p: &str| is_source(Path::new(p), root, &src, &templates, &extra, &out);
        assert!(is("/b/content/a.md"));
        assert!(is("/b/book.toml"));
        assert!(is("/b/templates/page.html"));
        assert!(is("/b/data/values.csv"));
        assert!(!is("/b/book/a.html"));
        assert!(!is("/b/.book.nimbook-new-12/a.html"));
        assert!(!is("/b/README.md"));
        // A book whose sources are its root: the cache it saves after a rebuild is not one.
        let is = |p: &str| is_source(Path::new(p), root, root, &templates, &extra, &out);
        assert!(is("/b/a.md"));
        assert!(!is("/b/.nimbook/cache/results"));
        assert!(!is("/b/.nimbook/cache/.results.tmp"));
    }
}
