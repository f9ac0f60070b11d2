//! nimbook's integration tests, in one binary (as mdBook and ripgrep do): one build of the
//! crate, one set of shared helpers (`common`), fixtures built once.
//!
//! - engines: `nim_*` (nimber arithmetic against the naive definitions, field laws, published
//!   values), `ordinal_*` (ordinals below ω^(ω^ω)), `game_oracle` (the game engine against
//!   brute-force oracles written from the rules), `game_theorems` (theorems and published
//!   results), `sparse` (the sparse-space engine against the plain mex below 10⁵ and published
//!   values);
//! - site (with the `site` feature, running the real binary): `site` (fixture books), `diagrams`
//!   (generated tables and drawings), `diagnostics` (one fixture per error kind, snapshotted),
//!   `handout`, `serve`, `live`, `exercises`, `coverage`, `mdbook_compat` (mdBook's markdown and
//!   book.toml), `realbooks` (the shared real books against mdBook's own output).

#[cfg(test)]
mod common;

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
mod coverage;
#[cfg(all(test, feature = "site"))]
mod diagnostics;
#[cfg(all(test, feature = "site"))]
mod diagrams;
#[cfg(all(test, feature = "site"))]
mod exercises;
#[cfg(all(test, feature = "site"))]
mod handout;
#[cfg(all(test, feature = "site"))]
mod live;
#[cfg(all(test, feature = "site"))]
mod mdbook_compat;
#[cfg(all(test, feature = "site"))]
mod realbooks;
#[cfg(all(test, feature = "site"))]
mod serve;
#[cfg(all(test, feature = "site"))]
mod site;
