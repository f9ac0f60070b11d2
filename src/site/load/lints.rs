//! The lints of proof coverage and of links, and their levels, as `book.toml` and the command line set them.

/// How a lint's findings are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum LintLevel {
    /// Not reported (still counted).
    Allow,
    /// Reported as a warning; the build goes on.
    #[default]
    Warn,
    /// Reported as an error: exit 1, nothing written.
    Deny,
}

/// The lints: proof coverage, and links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lint {
    /// `unverified-numbers`: a numeral that nothing produced or checked.
    UnverifiedNumbers,
    /// `vacuous-claims`: a claim or span that computes nothing.
    VacuousClaims,
    /// `broken-links`: a link to a page, file or heading the book does not have.
    BrokenLinks,
}

impl Lint {
    /// Every lint.
    pub const ALL: [Lint; 3] = [
        Lint::UnverifiedNumbers,
        Lint::VacuousClaims,
        Lint::BrokenLinks,
    ];

    /// The name used in `book.toml` and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Lint::UnverifiedNumbers => "unverified-numbers",
            Lint::VacuousClaims => "vacuous-claims",
            Lint::BrokenLinks => "broken-links",
        }
    }

    /// The code of the lint's diagnostics (`broken-link`), which the command line also takes.
    fn code(self) -> crate::diag::Code {
        match self {
            Lint::UnverifiedNumbers => crate::diag::Code::UnverifiedNumber,
            Lint::VacuousClaims => crate::diag::Code::VacuousClaim,
            Lint::BrokenLinks => crate::diag::Code::BrokenLink,
        }
    }
}

impl std::str::FromStr for Lint {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lint::ALL
            .into_iter()
            .find(|l| l.name() == s || l.code().as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown lint `{s}`; the lints are `unverified-numbers`, `vacuous-claims` and `broken-links`"
                )
            })
    }
}

/// The level of each lint, from `[nimbook]` in `book.toml` and the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lints {
    /// `unverified-numbers`.
    pub unverified_numbers: LintLevel,
    /// `vacuous-claims`.
    pub vacuous_claims: LintLevel,
    /// `broken-links`: denied in a nimbook book, a warning in an mdBook book (mdBook does not
    /// check links at all).
    pub broken_links: LintLevel,
}

impl Lints {
    /// Every lint allowed: a book whose numerals are not claims.
    pub(crate) const ALLOW: Lints = Lints {
        unverified_numbers: LintLevel::Allow,
        vacuous_claims: LintLevel::Allow,
        broken_links: LintLevel::Allow,
    };

    /// One lint's level.
    pub(crate) fn get(self, lint: Lint) -> LintLevel {
        match lint {
            Lint::UnverifiedNumbers => self.unverified_numbers,
            Lint::VacuousClaims => self.vacuous_claims,
            Lint::BrokenLinks => self.broken_links,
        }
    }

    /// Sets one lint's level (a command-line `--deny` or `--warn`).
    pub fn set(&mut self, lint: Lint, level: LintLevel) {
        match lint {
            Lint::UnverifiedNumbers => self.unverified_numbers = level,
            Lint::VacuousClaims => self.vacuous_claims = level,
            Lint::BrokenLinks => self.broken_links = level,
        }
    }
}
