//! nimbook's integration tests, in one binary (as mdBook and ripgrep do): one build of the
//! crate, one set of shared helpers (`common`), fixtures built once.
//!
//! - engines: `nim_*` (nimber arithmetic against the naive definitions, field laws, published
//!   values), `ordinal_*` (ordinals below ω^(ω^ω)), `cram` (the Cram engine against the plain
//!   search, the brute force and Beling's published values), `game_oracle` (the game engine against
//!   brute-force oracles written from the rules), `game_classics` (Wythoff, Moore, Staircase,
//!   Poker, Welter, Mock Turtles: oracles and theorems), `game_loopy` (Smith's values against
//!   won, lost and drawn positions of whole sums), `game_theorems` (theorems and published
//!   results), `sparse` (the sparse-space engine against the plain mex below 10⁵ and published
//!   values);
//! - site (with the `site` feature, running the real binary): `builtins` (`calc --list` held to
//!   the guide's reference tables), `guide` (the user's manual in `guide/`, built with both lints
//!   denied: every command, option, code and key named; `nimbook explain`; failing examples; the
//!   README as a front door), `site` (fixture books), `diagrams`
//!   (generated tables and drawings), `diagnostics` (one fixture per error kind, snapshotted),
//!   `handout`, `serve`, `serve_hostile` (idle, slow-loris, busy and malformed clients), `live`, `init` (a new course), `exercises`, `coverage`, `lesson_api` (one
//!   lesson checked through the library, no book on disk), `line_endings` (every fixture and
//!   the course with `\r\n`, `\r` and mixed line endings, against `\n`), `mdbook` (nimbook as mdBook's
//!   preprocessor, built by the real mdBook), `mdbook_compat` (mdBook's markdown and
//!   book.toml), `mdbook_parity` and `mdbook_page` (minimal books held side by side with mdBook
//!   0.5.4: links, redirects, `SUMMARY.md`, the top bar's links, code blocks, `theme/head.hbs`,
//!   includes), `renderers` (`[output.NAME]` laid out and run as mdBook runs them),
//!   `realbooks` (the shared real books against mdBook's own output), `security`
//!   (a stranger's book cannot read outside itself, hang the build, or run commands under
//!   `--untrusted`), `cache` (the cache of decided results: each input of a key, poisoned
//!   entries, garbled files, builds at once, the course byte for byte with and without it);
//! - with the `pdf` feature: `pdf` (the printed book read back by poppler's tools against the
//!   site's own text).

#[cfg(test)]
mod common;

#[cfg(test)]
mod cram;
#[cfg(test)]
mod game_classics;
#[cfg(test)]
mod game_loopy;
#[cfg(test)]
mod game_oracle;
#[cfg(test)]
mod game_theorems;
#[cfg(test)]
mod nim_arith;
#[cfg(test)]
mod nim_expand;
#[cfg(test)]
mod nim_field;
#[cfg(test)]
mod ordinal_field;
#[cfg(test)]
mod ordinal_naive;
#[cfg(test)]
mod ordinal_notation;
#[cfg(test)]
mod ordinal_robust;
#[cfg(test)]
mod ordinal_values;
#[cfg(test)]
mod sparse;

#[cfg(all(test, feature = "site"))]
mod bad_input;
#[cfg(all(test, feature = "site"))]
mod builtins;
#[cfg(all(test, feature = "site"))]
mod cache;
#[cfg(all(test, feature = "site"))]
mod coverage;
#[cfg(all(test, feature = "site"))]
mod diagnostics;
#[cfg(all(test, feature = "site"))]
mod diagrams;
#[cfg(all(test, feature = "site"))]
mod exercises;
#[cfg(all(test, feature = "site"))]
mod guide;
#[cfg(all(test, feature = "site"))]
mod handout;
#[cfg(all(test, feature = "site"))]
mod init;
#[cfg(all(test, feature = "site"))]
mod lesson_api;
#[cfg(all(test, feature = "site"))]
mod line_endings;
#[cfg(all(test, feature = "site"))]
mod live;
#[cfg(all(test, feature = "site"))]
mod lsp;
#[cfg(all(test, feature = "site"))]
mod mdbook;
#[cfg(all(test, feature = "site"))]
mod mdbook_compat;
#[cfg(all(test, feature = "site"))]
mod mdbook_page;
#[cfg(all(test, feature = "site"))]
mod mdbook_parity;
#[cfg(all(test, feature = "pdf"))]
mod pdf;
#[cfg(all(test, feature = "site"))]
mod realbooks;
#[cfg(all(test, feature = "site"))]
mod renderers;
mod results;
#[cfg(all(test, feature = "site", unix))]
mod security;
#[cfg(all(test, feature = "site"))]
mod serve;
#[cfg(all(test, feature = "site"))]
mod serve_hostile;
#[cfg(all(test, feature = "site"))]
mod site;
