//! Where a build writes, as mdBook 0.5 lays it out: one decision for `build`, `build -d` and
//! `serve`.
//!
//! Every `[output.NAME]` table of `book.toml` is a renderer: `html` is nimbook's site,
//! `markdown` is mdBook's built-in renderer of the preprocessed chapters, and any other name is
//! a command (`command`, by default `mdbook-NAME`) that gets mdBook's render context as JSON
//! on its standard input. A book without `[output]` tables has the HTML renderer alone. With
//! one renderer, it writes into the build folder itself (`book/`); with several, each writes
//! into a folder of its own name inside it (`book/html/`, `book/linkcheck/`), so deploy
//! scripts written for mdBook find the site where mdBook puts it. `[output.pdf]` is no
//! renderer of its own: it asks for the book as a PDF inside the site. Renderers run in the order
//! of their names, as mdBook runs them.

use std::path::{Path, PathBuf};

use super::config::Config;

/// What one renderer is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// nimbook's site.
    Html,
    /// mdBook's `markdown` renderer: each chapter's text after the preprocessors.
    Markdown,
    /// A command, run in its folder with the render context on its standard input.
    Command {
        /// The command line (`command`, or `mdbook-NAME`).
        command: String,
        /// Whether a missing command is only a warning (`optional`).
        optional: bool,
    },
}

/// One renderer of the book and the folder it writes into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Renderer {
    /// Its name, the `NAME` of `[output.NAME]`.
    pub(crate) name: String,
    /// What it is.
    pub(crate) kind: Kind,
    /// The folder it writes into.
    pub(crate) folder: PathBuf,
}

/// Where a build writes.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// The build folder: the one given with `-d`, else `[build] build-dir` in the book root.
    pub(crate) build: PathBuf,
    /// The renderers in the order they run, each with its folder.
    pub(crate) renderers: Vec<Renderer>,
}

impl Layout {
    /// The layout of the book configured by `config` at `root`, writing under `dest` (`-d`)
    /// or its `build-dir`.
    pub(crate) fn of(config: &Config, root: &Path, dest: Option<&Path>) -> Layout {
        let build = dest.map_or_else(|| root.join(&config.build.build_dir), Path::to_path_buf);
        let mut named: Vec<(String, Kind)> = config
            .renderers
            .iter()
            // `[output.pdf]` is the site's own PDF (`site::print`), written into the site.
            .filter(|(name, _)| name.as_str() != "pdf")
            .map(|(name, table)| {
                let kind = match name.as_str() {
                    "html" => Kind::Html,
                    "markdown" => Kind::Markdown,
                    _ => Kind::Command {
                        command: table
                            .command
                            .clone()
                            .unwrap_or_else(|| format!("mdbook-{name}")),
                        optional: table.optional,
                    },
                };
                (name.clone(), kind)
            })
            .collect();
        if named.is_empty() {
            named.push(("html".into(), Kind::Html));
        }
        let several = named.len() > 1;
        let renderers = named
            .into_iter()
            .map(|(name, kind)| Renderer {
                folder: if several {
                    build.join(&name)
                } else {
                    build.clone()
                },
                name,
                kind,
            })
            .collect();
        Layout { build, renderers }
    }

    /// Whether the book has the HTML renderer (a book whose `[output]` tables name only other
    /// renderers has no site, as in mdBook).
    pub(crate) fn has_site(&self) -> bool {
        self.renderers.iter().any(|r| r.kind == Kind::Html)
    }

    /// The folder of the site: the HTML renderer's. A book without one is still previewed by
    /// `serve`, in the folder its HTML renderer would have.
    pub(crate) fn site(&self) -> PathBuf {
        match self.renderers.iter().find(|r| r.kind == Kind::Html) {
            Some(r) => r.folder.clone(),
            None => self.build.join("html"),
        }
    }

    /// The renderers other than HTML, in the order they run.
    pub(crate) fn others(&self) -> impl Iterator<Item = &Renderer> {
        self.renderers.iter().filter(|r| r.kind != Kind::Html)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(toml: &str, dest: Option<&str>) -> Layout {
        let config = Config::parse(toml, "book.toml").expect("book.toml parses");
        Layout::of(&config, Path::new("/b"), dest.map(Path::new))
    }

    fn folders(l: &Layout) -> Vec<(String, String)> {
        l.renderers
            .iter()
            .map(|r| (r.name.clone(), r.folder.display().to_string()))
            .collect()
    }

    #[test]
    fn one_renderer_writes_into_the_build_folder() {
        let l = layout("[book]\n", None);
        assert_eq!(folders(&l), [("html".to_string(), "/b/book".to_string())]);
        let l = layout("[output.html]\n[build]\nbuild-dir = \"out\"\n", None);
        assert_eq!(l.site(), PathBuf::from("/b/out"));
        assert_eq!(layout("[book]\n", Some("/d")).site(), PathBuf::from("/d"));
    }

    #[test]
    fn several_renderers_write_into_folders_of_their_names_in_name_order() {
        let l = layout(
            "[output.linkcheck]\nfollow-web-links = true\n[output.html]\n[output.pandoc]\ncommand = \"x --y\"\noptional = true\n",
            Some("/d"),
        );
        assert_eq!(
            folders(&l),
            [
                ("html".to_string(), "/d/html".to_string()),
                ("linkcheck".to_string(), "/d/linkcheck".to_string()),
                ("pandoc".to_string(), "/d/pandoc".to_string()),
            ]
        );
        assert_eq!(
            l.renderers[2].kind,
            Kind::Command {
                command: "x --y".into(),
                optional: true
            }
        );
        assert_eq!(
            l.renderers[1].kind,
            Kind::Command {
                command: "mdbook-linkcheck".into(),
                optional: false
            }
        );
    }

    #[test]
    fn a_book_without_html_has_no_site_and_serve_previews_beside_the_others() {
        let l = layout("[output.markdown]\n", None);
        assert!(!l.has_site());
        assert_eq!(
            folders(&l),
            [("markdown".to_string(), "/b/book".to_string())]
        );
        assert_eq!(l.site(), PathBuf::from("/b/book/html"));
    }
}
