//! Every key of the `book.toml` tables that nimbook reads itself (`[book]`, `[build]`,
//! `[nimbook]`): what it takes, its default and its ceiling, and what it means. This is the
//! source of the guide's configuration reference (the directive `reference("configuration")`).
//!
//! The defaults are not written here: each is read from the value the code itself starts from
//! (`Limits::default()`, the tables' `Default`, the lint levels of a parsed `[nimbook]`), so the
//! reference cannot state a default the build does not use. The key names are held to the
//! typed tables of [`super::config`] by a test that asks serde for their fields, in both
//! directions. mdBook's other tables (`[output.html]`, `[preprocessor.NAME]`) are described key
//! by key in [`super::compat`].

use super::config::{
    BookTable, BuildTable, Config, CEILINGS, DEFAULT_PREPROCESSOR_SECONDS, DEFAULT_RENDERER_SECONDS,
};
use super::confine::DEFAULT_MAX_LESSON_BYTES;
use super::lints::Lint;
use crate::claim::Limits;

/// One key of `book.toml`.
pub(crate) struct Key {
    /// Its table: `book`, `build` or `nimbook`.
    pub(crate) table: &'static str,
    /// Its name, as written in `book.toml`.
    pub(crate) name: &'static str,
    /// What it takes, in a few words.
    pub(crate) takes: &'static str,
    /// Its default, read from the code.
    pub(crate) default: fn() -> String,
    /// What it does.
    pub(crate) meaning: &'static str,
}

impl Key {
    /// The key `table.name`.
    const fn new(
        table: &'static str,
        name: &'static str,
        takes: &'static str,
        default: fn() -> String,
        meaning: &'static str,
    ) -> Self {
        Key {
            table,
            name,
            takes,
            default,
            meaning,
        }
    }

    /// The largest value it accepts and why, where there is one: the ceiling `book.toml` is
    /// held to (`config::CEILINGS`).
    pub(crate) fn ceiling(&self) -> Option<(u64, &'static str)> {
        let (_, max, why) = CEILINGS
            .iter()
            .find(|(name, _, _)| self.table == "nimbook" && *name == self.name)?;
        Some((*max, why))
    }
}

fn none() -> String {
    "none".into()
}

fn no() -> String {
    "false".into()
}

/// The level a lint starts at in a nimbook book, and in a book without `[nimbook]` when that
/// differs.
fn lint_default(lint: Lint) -> String {
    let level = |config: &Config| {
        let level = config.lints().get(lint);
        format!("{level:?}").to_lowercase()
    };
    let nimbook = Config::parse("[nimbook]\n", "book.toml").map(|c| level(&c));
    let plain = level(&Config::default());
    match nimbook {
        Ok(n) if n == plain => format!("\"{n}\""),
        Ok(n) => format!("\"{n}\" (\"{plain}\" in a book without [nimbook])"),
        Err(_) => format!("\"{plain}\""),
    }
}

/// Every key of `[book]`, `[build]` and `[nimbook]`, in the order the guide lists them.
pub(crate) const KEYS: &[Key] = &[
    Key::new("book", "title", "a string", none, "the book's title, shown on every page"),
    Key::new("book", "authors", "a list of strings", || "[]".into(), "the authors, in the page metadata"),
    Key::new("book", "description", "a string", none, "a one-line description, in the page metadata"),
    Key::new("book", "language", "a language tag", || format!("\"{}\"", BookTable::default().language), "the language of the text, written as <html lang=…>"),
    Key::new("book", "text-direction", "\"ltr\" or \"rtl\"", || format!("\"{}\"", format!("{:?}", BookTable::default().text_direction).to_lowercase()), "the direction of the text, written as <html dir=…>; \"rtl\" is accepted and warned about (pages are laid out left to right)"),
    Key::new("book", "src", "a folder", || "\"src\", or \"content\" when only that folder exists".into(), "the folder of the lessons, relative to the book root; lessons in content/ make a nimbook book"),
    Key::new("book", "multilingual", "true or false", none, "mdBook's old flag: accepted, with a warning, and not used"),
    Key::new("build", "build-dir", "a folder", || format!("\"{}\"", BuildTable::default().build_dir.display()), "where the site is written, relative to the book root"),
    Key::new("build", "create-missing", "true or false", no, "false works; true warns, since a missing chapter is an error and nimbook never writes into the sources"),
    Key::new("build", "use-default-preprocessors", "true or false", || "true".into(), "false turns off mdBook's own links and index preprocessors"),
    Key::new("build", "extra-watch-dirs", "a list of folders", || "[]".into(), "accepted, with a warning: nimbook serve watches the sources, book.toml and templates/"),
    Key::new("nimbook", "max-bits", "a whole number", || Limits::default().max_bits.to_string(), "the largest number, in bits, that a claim may write or compute"),
    Key::new("nimbook", "max-cases", "a whole number", || Limits::default().max_cases.to_string(), "the most cases one quantified claim may check, and the widest window of a periodic proof"),
    Key::new("nimbook", "max-terms", "a whole number", || Limits::default().max_terms.to_string(), "the most terms of a polynomial expanded to prove an identity"),
    Key::new("nimbook", "max-table", "a whole number", || Limits::default().max_table.to_string(), "the largest side of a generated table, and the largest heap of a practice widget"),
    Key::new("nimbook", "max-positions", "a whole number", || Limits::default().game.max_positions.to_string(), "the most positions one game search may examine"),
    Key::new("nimbook", "max-seconds", "a whole number", || Limits::default().game.max_time.as_secs().to_string(), "the most seconds one game search may run"),
    Key::new("nimbook", "max-table-bytes", "a whole number", || Limits::default().game.max_table_bytes.to_string(), "the most memory, in bytes, the Cram transposition tables of one search may take; when full they forget entries, which costs time, never a wrong value"),
    Key::new("nimbook", "max-lesson-bytes", "a whole number", || DEFAULT_MAX_LESSON_BYTES.to_string(), "the longest lesson or SUMMARY.md, in bytes"),
    Key::new("nimbook", "preprocessor-seconds", "a whole number", || DEFAULT_PREPROCESSOR_SECONDS.to_string(), "the most seconds one external preprocessor may run"),
    Key::new("nimbook", "renderer-seconds", "a whole number", || DEFAULT_RENDERER_SECONDS.to_string(), "the most seconds one renderer command of `[output.NAME]` may run"),
    Key::new("nimbook", "unverified-numbers", "\"allow\", \"warn\" or \"deny\"", || lint_default(Lint::UnverifiedNumbers), "the level of the lint that reports a number nothing computes or checks"),
    Key::new("nimbook", "vacuous-claims", "\"allow\", \"warn\" or \"deny\"", || lint_default(Lint::VacuousClaims), "the level of the lint that reports a claim that computes nothing"),
    Key::new("nimbook", "broken-links", "\"allow\", \"warn\" or \"deny\"", || lint_default(Lint::BrokenLinks), "the level of the lint that reports a link to a page, file or heading the book does not have"),
    Key::new("nimbook", "include-roots", "a list of folders", || "[]".into(), "folders outside the book root, relative to it, that includes may read; ignored under --untrusted"),
    Key::new("nimbook", "answers", "\"shown\" or \"hidden\"", || "\"shown\"".into(), "\"hidden\" is graded mode: the pages carry a salted hash of each answer and no key"),
];

#[cfg(test)]
mod tests {
    use super::super::lints::LintLevel;
    use super::*;
    use serde::de::{self, Deserializer, Visitor};
    use std::collections::BTreeSet;

    /// A deserializer that answers nothing and records the fields a struct asks for: serde's
    /// derive names every field it accepts, after renaming, in `deserialize_struct`.
    struct Fields(Vec<&'static str>);

    #[derive(Debug)]
    struct Stop;
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("stop")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<T: std::fmt::Display>(_: T) -> Self {
            Stop
        }
    }

    impl<'de> Deserializer<'de> for &mut Fields {
        type Error = Stop;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            self.0.extend(fields);
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }

    fn fields<'de, T: serde::Deserialize<'de>>() -> BTreeSet<&'static str> {
        let mut f = Fields(Vec::new());
        let _ = T::deserialize(&mut f);
        f.0.into_iter().collect()
    }

    fn listed(table: &str) -> BTreeSet<&'static str> {
        KEYS.iter()
            .filter(|k| k.table == table)
            .map(|k| k.name)
            .collect()
    }

    #[test]
    fn every_key_of_the_typed_tables_is_listed_and_nothing_else() {
        use super::super::config::NimbookTable;
        for (table, typed) in [
            ("book", fields::<BookTable>()),
            ("build", fields::<BuildTable>()),
            ("nimbook", fields::<NimbookTable>()),
        ] {
            assert!(
                typed.len() >= 4,
                "serde named the fields of [{table}]: {typed:?}"
            );
            assert_eq!(listed(table), typed, "[{table}]");
        }
        let tables: BTreeSet<&str> = KEYS.iter().map(|k| k.table).collect();
        assert_eq!(tables, BTreeSet::from(["book", "build", "nimbook"]));
    }

    /// The defaults shown are the ones a book without the key gets, read back through the
    /// parser (an oracle that does not call the default functions above).
    #[test]
    fn the_defaults_shown_are_the_ones_a_book_gets() {
        let empty = Config::parse("[nimbook]\n", "book.toml").map_err(|d| d.message.clone());
        let Ok(empty) = empty else {
            panic!("an empty [nimbook] parses");
        };
        let shown = |name: &str| {
            KEYS.iter()
                .find(|k| k.name == name)
                .map(|k| (k.default)())
                .unwrap_or_default()
        };
        let limits = empty.limits();
        assert_eq!(shown("max-bits"), limits.max_bits.to_string());
        assert_eq!(shown("max-cases"), limits.max_cases.to_string());
        assert_eq!(shown("max-table"), limits.max_table.to_string());
        assert_eq!(shown("max-terms"), limits.max_terms.to_string());
        assert_eq!(
            shown("max-positions"),
            limits.game.max_positions.to_string()
        );
        assert_eq!(
            shown("max-seconds"),
            limits.game.max_time.as_secs().to_string()
        );
        assert_eq!(
            shown("max-table-bytes"),
            limits.game.max_table_bytes.to_string()
        );
        assert_eq!(
            shown("max-lesson-bytes"),
            empty.max_lesson_bytes().to_string()
        );
        assert_eq!(shown("language"), format!("\"{}\"", empty.book.language));
        assert_eq!(
            shown("build-dir"),
            format!("\"{}\"", empty.build.build_dir.display())
        );
        let lints = empty.lints();
        assert!(shown("broken-links").starts_with("\"deny\""));
        assert_eq!(lints.broken_links, LintLevel::Deny);
        assert_eq!(shown("vacuous-claims"), "\"warn\"");
        assert_eq!(lints.vacuous_claims, LintLevel::Warn);
        assert!(!empty.answers_hidden());
        assert_eq!(shown("answers"), "\"shown\"");
    }

    #[test]
    fn every_ceiling_belongs_to_a_listed_key() {
        for (name, max, _) in CEILINGS {
            let key = KEYS.iter().find(|k| k.name == *name);
            assert_eq!(
                key.and_then(Key::ceiling).map(|(m, _)| m),
                Some(*max),
                "{name}"
            );
        }
        let with_ceiling = KEYS.iter().filter(|k| k.ceiling().is_some()).count();
        assert_eq!(with_ceiling, CEILINGS.len());
    }
}
