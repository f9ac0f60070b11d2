//! One fixture book per kind of content error, under `tests/fixtures/errors/<kind>/`. Each must
//! fail `nimbook check` with exit code 1, and its full diagnostic text is snapshotted, so any
//! change to a message shows up in review.

use std::path::Path;
use std::process::Command;

#[test]
fn every_error_kind_has_a_located_diagnostic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errors");
    let mut kinds: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    kinds.sort();
    assert!(kinds.len() >= 15, "{kinds:?}");
    for kind in kinds {
        let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(["check"])
            .arg(dir.join(&kind))
            .env("NO_COLOR", "1")
            .output()
            .expect("run nimbook");
        let err = String::from_utf8_lossy(&o.stderr).replace('\\', "/");
        assert_eq!(o.status.code(), Some(1), "{kind}: {err}");
        assert!(
            err.contains("--> content/"),
            "{kind} has no location: {err}"
        );
        insta::assert_snapshot!(kind.clone(), err);

        // The same diagnostics as JSON: one object per line, with a position.
        let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(["check", "--message-format", "json"])
            .arg(dir.join(&kind))
            .output()
            .expect("run nimbook");
        let out = String::from_utf8_lossy(&o.stdout);
        for line in out.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            assert!(v["line"].as_u64().is_some_and(|l| l >= 1), "{kind}: {line}");
            assert!(
                v["column"].as_u64().is_some_and(|c| c >= 1),
                "{kind}: {line}"
            );
            // Every diagnostic names its kind with a stable code.
            assert!(
                v["code"].as_str().is_some_and(|c| !c.is_empty()
                    && c.chars()
                        .all(|ch| ch.is_ascii_lowercase() || ch == '-' || ch.is_ascii_digit())),
                "{kind}: {line}"
            );
        }
        // And as GitHub annotations.
        let o = Command::new(env!("CARGO_BIN_EXE_nimbook"))
            .args(["check", "--message-format", "github"])
            .arg(dir.join(&kind))
            .output()
            .expect("run nimbook");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("::error file=content/"), "{kind}: {out}");
    }
}
