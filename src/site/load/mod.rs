//! The load stage: `book.toml` (typed, with what happens to each mdBook key), the chapter list
//! from `SUMMARY.md` or the source folder, `{{#include}}` and friends, and the source map that
//! carries every byte of a rewritten chapter back to the file the author wrote.

pub(crate) mod book;
pub(crate) mod compat;
pub(crate) mod config;
pub(crate) mod include;
pub(crate) mod sourcemap;
