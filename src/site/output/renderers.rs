//! The book's renderers besides the site (`[output.NAME]`), run after the site is written, in
//! the order of their names, each in its folder of the [`Layout`].
//!
//! Each gets the book as mdBook hands it to that renderer: the chain of preprocessors run
//! again for it (`supports NAME`), as mdBook runs it once per renderer. mdBook's `markdown`
//! renderer is built in: each chapter's text after the chain, at its path (a `README.md` is
//! `index.md`, as the `index` preprocessor renames it), written to a staging folder that
//! replaces its folder whole, like the site. Any other renderer is a command
//! ([`process::render`]) that reads mdBook's render context (`version`, `root`, `book`,
//! `config`, `destination`) on its standard input; its folder is made if missing and never
//! emptied, since it is the command's to keep. Under `--untrusted` no command runs.

use std::path::Path;

use serde_json::{json, Value};

use super::{guard, guard_sources, Staging};
use crate::diag::{Code, Diagnostic};
use crate::site::lesson::book::Book;
use crate::site::lesson::report::Report;
use crate::site::load::confine::Trust;
use crate::site::load::layout::{Kind, Layout, Renderer};
use crate::site::load::Fatal;
use crate::site::preprocess::{self, process};

/// Runs every renderer of `layout` other than HTML. Warnings (an optional renderer that is
/// missing, a command that `--untrusted` did not run) go into `report`; a failure is fatal.
pub(crate) fn run(book: &Book, layout: &Layout, report: &mut Report) -> Result<(), Fatal> {
    for renderer in layout.others() {
        if let Some(warning) = run_one(book, renderer, &layout.build)? {
            report.diagnostics.push(warning);
        }
    }
    Ok(())
}

/// Runs one renderer in its folder; `build` is the build folder in use. `Some` warning when
/// the renderer was not run (under `--untrusted`, or an optional command that is missing).
fn run_one(book: &Book, renderer: &Renderer, build: &Path) -> Result<Option<Diagnostic>, Fatal> {
    let name = renderer.name.as_str();
    // The book as the preprocessors that support this renderer leave it.
    let tree = || {
        preprocess::book_for(
            &book.files,
            &book.config,
            &book.src,
            book.summary.clone(),
            name,
        )
    };
    let (command, optional) = match &renderer.kind {
        Kind::Html => return Ok(None),
        Kind::Markdown => return markdown(book, &renderer.folder, &tree()?).map(|()| None),
        Kind::Command { command, optional } => (command.as_str(), *optional),
    };
    if book.trust == Trust::Untrusted {
        return Ok(Some(Diagnostic::warning(
            Code::RendererError,
            format!("the renderer `{name}` was not run: --untrusted runs no command (`{command}`)"),
        )));
    }
    let tree = tree()?;
    let folder = &renderer.folder;
    guard_sources(&book.root, &book.src, folder)?;
    std::fs::create_dir_all(folder).map_err(|e| {
        Box::new(Diagnostic::error(
            Code::IoError,
            format!("cannot create {}: {e}", folder.display()),
        ))
    })?;
    let root = std::path::absolute(&book.root).unwrap_or_else(|_| book.root.clone());
    let destination = std::path::absolute(folder).unwrap_or_else(|_| folder.clone());
    // As mdBook's `-d` does, the build folder in use is the configuration's `build-dir`.
    let mut config = preprocess::config_json(&book.config);
    config["build"]["build-dir"] =
        json!(std::path::absolute(build).unwrap_or_else(|_| build.to_path_buf()));
    let context = json!({
        "version": preprocess::MDBOOK_VERSION,
        "root": root,
        "book": tree,
        "config": config,
        "destination": destination,
    });
    process::render(
        &root,
        &destination,
        (name, command, optional),
        &context.to_string(),
        book.config.renderer_limit(),
    )
}

/// mdBook's `markdown` renderer: every chapter of `tree` (the book as JSON) written at its
/// path under `folder`, which is replaced whole.
fn markdown(book: &Book, folder: &Path, tree: &Value) -> Result<(), Fatal> {
    guard(&book.root, &book.src, folder)?;
    let staging = Staging::begin(folder)?;
    let mut stack: Vec<&Value> = tree
        .get("items")
        .and_then(Value::as_array)
        .map(|items| items.iter().rev().collect())
        .unwrap_or_default();
    while let Some(item) = stack.pop() {
        let Some(chapter) = item.get("Chapter") else {
            continue;
        };
        if let (Some(path), Some(content)) = (
            chapter.get("path").and_then(Value::as_str),
            chapter.get("content").and_then(Value::as_str),
        ) {
            staging.write(Path::new(path), content.as_bytes())?;
        }
        if let Some(subs) = chapter.get("sub_items").and_then(Value::as_array) {
            stack.extend(subs.iter().rev());
        }
    }
    staging.commit()
}
