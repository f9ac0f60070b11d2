//! The engine's version: a SHA-256 of every file the library is built from (`src/`,
//! `templates/`, `Cargo.toml`, `Cargo.lock` and this script), given to the crate as
//! `NIMBOOK_ENGINE`. The cache of decided results (`site::cache`) keys every entry by it, so a
//! build of nimbook from other sources, or with other dependencies, never reads an entry that
//! an older engine decided.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The inputs of the engine, relative to the package root.
const INPUTS: &[&str] = &["src", "templates", "Cargo.toml", "Cargo.lock", "build.rs"];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for input in INPUTS {
        println!("cargo:rerun-if-changed={input}");
        collect(&root.join(input), &mut files);
    }
    // Sorted, with each file's path hashed before its bytes, so that the digest depends only
    // on the tree's contents and names, never on the order the file system lists them.
    files.sort();
    let mut hash = Sha256::new();
    for file in &files {
        let name = file.strip_prefix(&root).unwrap_or(file);
        let bytes = fs::read(file).unwrap_or_default();
        hash.update(name.to_string_lossy().as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    let digest: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=NIMBOOK_ENGINE={digest}");
}

/// Every regular file at or under `path`.
fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            collect(&entry.path(), out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}
