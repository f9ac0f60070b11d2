//! What `--untrusted` takes from a book's `book.toml` before anything is read or run: a
//! stranger's book may run no command, write nowhere outside itself, read nothing outside its
//! root and raise no budget.

use std::path::PathBuf;

use super::config::Config;
use crate::diag::{Code, Diagnostic};

/// Takes away from `config` what an untrusted book may not ask for, and says so in one warning
/// for each thing taken: external preprocessors (each named), a `build-dir` outside the book,
/// `include-roots`, and budgets above their defaults (brought down to them).
pub(crate) fn restrict(config: &mut Config, shown: &str) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let external: Vec<(String, String)> = config
        .preprocessor
        .iter()
        .filter(|(name, t)| !t.is_builtin(name))
        .map(|(name, t)| (name.clone(), t.command_line(name)))
        .collect();
    for (name, command) in external {
        config.preprocessor.remove(&name);
        warnings.push(
            Diagnostic::warning(
                Code::PreprocessorError,
                format!("the preprocessor `{name}` was not run: --untrusted runs no command (`{command}`)"),
            )
            .note(format!("[preprocessor.{name}] in {shown}")),
        );
    }
    let out = &config.build.build_dir;
    if !out.components().all(|c| {
        matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    }) {
        warnings.push(Diagnostic::warning(
            Code::InvalidConfig,
            format!(
                "`build-dir = {}` in {shown} is outside the book: --untrusted writes to `book` in the book root instead (or to the folder given with -d)",
                out.display()
            ),
        ));
        config.build.build_dir = PathBuf::from("book");
    }
    let Some(n) = config.nimbook.as_mut() else {
        return warnings;
    };
    if !n.include_roots.is_empty() {
        n.include_roots.clear();
        warnings.push(
            Diagnostic::warning(
                Code::InvalidConfig,
                format!("`include-roots` in {shown} is ignored: --untrusted reads nothing outside the book root"),
            ),
        );
    }
    let limits = crate::claim::Limits::default();
    let mut lowered = Vec::new();
    let mut cap = |name: &'static str, value: &mut Option<u64>, default: u64| {
        if value.is_some_and(|v| v > default) {
            *value = Some(default);
            lowered.push(format!("`{name}` to {default}"));
        }
    };
    cap("max-bits", &mut n.max_bits, limits.max_bits);
    cap("max-cases", &mut n.max_cases, limits.max_cases);
    cap("max-table", &mut n.max_table, limits.max_table);
    cap(
        "max-positions",
        &mut n.max_positions,
        limits.game.max_positions,
    );
    cap(
        "max-seconds",
        &mut n.max_seconds,
        limits.game.max_time.as_secs(),
    );
    cap(
        "max-lesson-bytes",
        &mut n.max_lesson_bytes,
        super::confine::DEFAULT_MAX_LESSON_BYTES,
    );
    cap(
        "preprocessor-seconds",
        &mut n.preprocessor_seconds,
        super::config::DEFAULT_PREPROCESSOR_SECONDS,
    );
    cap("max-terms", &mut n.max_terms, limits.max_terms as u64);
    if !lowered.is_empty() {
        warnings.push(Diagnostic::warning(
            Code::InvalidConfig,
            format!(
                "--untrusted keeps every budget at its default or lower: {} lowers {}",
                shown,
                lowered.join(", ")
            ),
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untrusted_drops_commands_and_include_roots_and_caps_budgets() {
        let text = "[nimbook]\nmax-bits = 8000\nmax-cases = 5\ninclude-roots = [\"..\"]\n[preprocessor.evil]\ncommand = \"touch x\"\n[preprocessor.links]\n";
        let mut c = Config::parse(text, "book.toml")
            .map_err(|d| d.message.clone())
            .expect("config");
        let w = restrict(&mut c, "book.toml");
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].message.contains("`evil`") && w[0].message.contains("touch x"));
        assert!(!c.preprocessor.contains_key("evil") && c.preprocessor.contains_key("links"));
        let n = c.nimbook.as_ref().expect("table");
        assert!(n.include_roots.is_empty());
        assert_eq!(n.max_bits, Some(crate::claim::Limits::default().max_bits));
        assert_eq!(n.max_cases, Some(5));
    }
}
