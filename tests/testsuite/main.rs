//! nimbook's integration tests, in one binary (as mdBook and ripgrep do): one build of the
//! crate, one set of shared helpers (`common`), fixtures built once.
//!
//! - engines: `nim_*` (nimber arithmetic against the naive definitions, field laws, published
//!   values), `ordinal_*` (ordinals below ω^(ω^ω)), `game_oracle` (the game engine against
//!   brute-force oracles written from the rules), `game_theorems` (theorems and published
//!   results);
//! - site (with the `site` feature, running the real binary): `site` (fixture books), `diagrams`
//!   (generated tables and drawings), `diagnostics` (one fixture per error kind, snapshotted),
//!   `handout`, `serve`.

mod common;

mod game_oracle;
mod game_theorems;
mod nim_arith;
mod nim_expand;
mod nim_field;
mod ordinal_field;
mod ordinal_naive;
mod ordinal_notation;
mod ordinal_robust;
mod ordinal_values;

#[cfg(feature = "site")]
mod diagnostics;
#[cfg(feature = "site")]
mod diagrams;
#[cfg(feature = "site")]
mod handout;
#[cfg(feature = "site")]
mod serve;
#[cfg(feature = "site")]
mod site;
