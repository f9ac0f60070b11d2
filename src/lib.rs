//! nimbook: a static-site and proof-verification generator for a course on nimbers and
//! impartial games.
//!
//! The crate is layered, and dependencies point one way:
//!
//! ```text
//! nim  <-  game  <-  claim  <-  site  <-  init, mdbook  <-  cli (the binary)
//! ```
//!
//! `diag` (spans, source files and rustc-style diagnostics) is shared by every layer. Only
//! `site` and the binary touch the file system; the lower layers build without the `site`
//! feature. See ARCHITECTURE.md for the pipeline and the invariants.

pub mod claim;
pub mod diag;
pub mod game;
#[cfg(feature = "site")]
pub mod init;
#[cfg(feature = "site")]
pub mod mdbook;
pub mod nim;
#[cfg(feature = "site")]
pub mod site;
