//! The memory of decided results that a build's lessons share: what earlier builds decided
//! (loaded from `.nimbook/cache/` by the store, `site::cache`, before the lessons are checked)
//! and what this build decides, kept in memory until the front end has the store save it. The
//! lesson stage reads and adds to it and touches no file.
//!
//! Two kinds of result are remembered, each under the SHA-256 of the engine's version
//! ([`ENGINE`]) and its [`MemoKey`]:
//!
//! - a statement of a `nim` block or a `nim:` span, through the claim checker's seam
//!   ([`Recall`]): its status and value, an `exists`'s witness, how a `forall` was established;
//! - a directive of a `nimbook` block, through [`directive`], the one wrapper around running a
//!   directive: its output (of any type that serde can write and read back), the claims it
//!   checked (verified steps, decided options) and the questions it added to the answer key.
//!   Its key holds the directive as parsed, its arguments' values and the limits; what it read
//!   of the lesson beyond them ([`Reads`]) is written into the entry and compared before the
//!   entry is believed: the bindings in scope when it evaluated, verified or decided anything,
//!   its place among the questions when it asked for it, where it stands when it asked for
//!   that (`DirectiveEnv::place`, for ids unique in the page). A directive that read the
//!   lesson's text, or that reported anything, is not remembered.
//!
//! A recalled result restores all that the computation gave the lesson, so a page built from
//! the memory is byte for byte the page built without it. Only what was decided without a
//! diagnostic is remembered; a failure, an error or a budget that ran out is computed again.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::context::{AnswerKey, DirectiveEnv, Reads};
use crate::claim::memo::{Decided, MemoKey, Recall};
use crate::claim::{Directive, Established, Limits, Status, Value};
use crate::diag::Diagnostic;
use crate::nim::ordinal::Ordinal;
use crate::nim::Nimber;

/// The engine's version: a SHA-256 of the sources nimbook was built from (see `build.rs`).
pub(crate) const ENGINE: &str = env!("NIMBOOK_ENGINE");

/// The hex SHA-256 of the engine's version and `text`.
fn digest(text: &str) -> String {
    let mut h = Sha256::new();
    h.update(ENGINE.as_bytes());
    h.update(b"\n");
    h.update(text.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// One remembered result, as the store writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum Stored {
    /// A statement of the claim language.
    Statement {
        /// `holds`, `bound` or `value`.
        status: StoredStatus,
        /// The value of a binding or a bare expression.
        value: Option<StoredValue>,
        /// An `exists`'s witness.
        witness: Option<String>,
        /// How a quantified claim was established.
        established: Option<Established>,
    },
    /// A directive of a `nimbook` block.
    Directive {
        /// The digest of the bindings in scope, when the directive read them.
        scope: Option<String>,
        /// Its place among the lesson's questions, when it asked for it.
        position: Option<Position>,
        /// Where it stood in the lesson, when it asked for it (see `DirectiveEnv::place`).
        place: Option<usize>,
        /// Claims it checked.
        claims: usize,
        /// The questions it added, each standing where the directive stands.
        answers: Vec<StoredAnswer>,
        /// Its output.
        output: serde_json::Value,
    },
}

/// What became of a remembered statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum StoredStatus {
    /// A claim that holds.
    Holds,
    /// A `let` binding.
    Bound,
    /// A bare expression.
    Value,
}

/// A value of the claim language that can be written and read back exactly. Games and
/// polynomials are not among them: a statement whose value is one is not remembered (making a
/// game value is cheap; what is costly about games are the numbers computed from them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum StoredValue {
    /// A number, in decimal.
    Num(String),
    /// `P`, `N` or `D`.
    Outcome(char),
    /// A list.
    List(Vec<StoredValue>),
    /// A string.
    Str(String),
    /// A truth value.
    Bool(bool),
    /// An infinite ordinal, in its notation.
    Ordinal(String),
}

impl StoredValue {
    /// The value, if it is of a kind that reads back exactly.
    fn of(v: &Value) -> Option<StoredValue> {
        use crate::claim::ast::OutcomeClass;
        Some(match v {
            Value::Num(n) => StoredValue::Num(n.to_string()),
            Value::Outcome(c) => StoredValue::Outcome(match c {
                OutcomeClass::P => 'P',
                OutcomeClass::N => 'N',
                OutcomeClass::D => 'D',
            }),
            Value::List(items) => {
                StoredValue::List(items.iter().map(StoredValue::of).collect::<Option<_>>()?)
            }
            Value::Str(s) => StoredValue::Str(s.clone()),
            Value::Bool(b) => StoredValue::Bool(*b),
            Value::Ordinal(o) => StoredValue::Ordinal(o.to_string()),
            Value::Poly(_) | Value::Game(_) => return None,
        })
    }

    /// The value back; `None` for text that is not exactly what [`StoredValue::of`] writes
    /// (a number with a leading zero, an ordinal spelled another way).
    fn value(&self) -> Option<Value> {
        use crate::claim::ast::OutcomeClass;
        Some(match self {
            StoredValue::Num(s) => {
                let n: Nimber = s.parse().ok()?;
                (n.to_string() == *s).then_some(Value::Num(n))?
            }
            StoredValue::Outcome('P') => Value::Outcome(OutcomeClass::P),
            StoredValue::Outcome('N') => Value::Outcome(OutcomeClass::N),
            StoredValue::Outcome('D') => Value::Outcome(OutcomeClass::D),
            StoredValue::Outcome(_) => return None,
            StoredValue::List(items) => Value::List(
                items
                    .iter()
                    .map(StoredValue::value)
                    .collect::<Option<_>>()?,
            ),
            StoredValue::Str(s) => Value::Str(s.clone()),
            StoredValue::Bool(b) => Value::Bool(*b),
            StoredValue::Ordinal(s) => {
                let o = Ordinal::parse(s).ok()?;
                (o.to_string() == *s && !o.is_finite()).then_some(Value::Ordinal(o))?
            }
        })
    }
}

impl Stored {
    /// A decided statement as an entry; `None` when its value cannot be written exactly.
    fn of_decided(d: &Decided) -> Option<Stored> {
        let status = match d.status {
            Status::Holds => StoredStatus::Holds,
            Status::Bound => StoredStatus::Bound,
            Status::Value => StoredStatus::Value,
            Status::Fails | Status::Error => return None,
        };
        let value = match &d.value {
            Some(v) => Some(StoredValue::of(v)?),
            None => None,
        };
        Some(Stored::Statement {
            status,
            value,
            witness: d.witness.clone(),
            established: d.established,
        })
    }

    /// The decided statement of an entry; `None` for a directive's entry, or a value that does
    /// not read back.
    fn decided(&self) -> Option<Decided> {
        let Stored::Statement {
            status,
            value,
            witness,
            established,
        } = self
        else {
            return None;
        };
        let value = match value {
            Some(v) => Some(v.value()?),
            None => None,
        };
        Some(Decided {
            status: match status {
                StoredStatus::Holds => Status::Holds,
                StoredStatus::Bound => Status::Bound,
                StoredStatus::Value => Status::Value,
            },
            value,
            witness: witness.clone(),
            established: *established,
        })
    }
}

/// A directive's place among the lesson's questions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Position {
    /// Questions before it.
    pub(crate) before: usize,
    /// The graded-mode salt, if the answers are hidden.
    pub(crate) salt: Option<String>,
}

/// A question of the answer key, without its place (it stands where its directive stands).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoredAnswer {
    id: String,
    question: String,
    source: String,
    answer: String,
    options: Vec<(String, bool)>,
    shown: String,
}

impl StoredAnswer {
    fn of(a: &AnswerKey) -> StoredAnswer {
        StoredAnswer {
            id: a.id.clone(),
            question: a.question.clone(),
            source: a.source.clone(),
            answer: a.answer.clone(),
            options: a.options.clone(),
            shown: a.shown.clone(),
        }
    }

    fn answer(&self, d: &Directive) -> AnswerKey {
        AnswerKey {
            id: self.id.clone(),
            question: self.question.clone(),
            source: self.source.clone(),
            answer: self.answer.clone(),
            options: self.options.clone(),
            shown: self.shown.clone(),
            span: d.span.clone(),
        }
    }
}

/// The results decided in this process, and which loaded ones were recalled.
#[derive(Default)]
struct Fresh {
    entries: HashMap<String, Stored>,
    recalled: HashSet<String>,
    /// Entries remembered since the store last saved.
    unsaved: usize,
}

/// The memory of one build, or of a server's life: the entries loaded from the store, and those
/// decided since (see the module docs).
#[derive(Default)]
pub(crate) struct Memo {
    loaded: HashMap<String, Stored>,
    fresh: Mutex<Fresh>,
}

impl fmt::Debug for Memo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Memo({} entries loaded)", self.loaded.len())
    }
}

/// How much of a memory was used: results recalled, and decided and remembered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheUse {
    /// Results recalled instead of computed.
    pub recalled: usize,
    /// Results computed and remembered.
    pub remembered: usize,
}

impl Memo {
    /// A memory holding the entries of the store, by digest.
    pub(crate) fn new(loaded: HashMap<String, Stored>) -> Memo {
        Memo {
            loaded,
            fresh: Mutex::new(Fresh::default()),
        }
    }

    fn fresh(&self) -> std::sync::MutexGuard<'_, Fresh> {
        // A panic elsewhere cannot leave the map half-changed: every change is one insert.
        self.fresh.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The entry under `digest`, counted as recalled.
    fn recall(&self, digest: &str) -> Option<Stored> {
        let mut fresh = self.fresh();
        if let Some(entry) = fresh.entries.get(digest).cloned() {
            fresh.recalled.insert(digest.to_string());
            return Some(entry);
        }
        let entry = self.loaded.get(digest)?.clone();
        fresh.recalled.insert(digest.to_string());
        Some(entry)
    }

    fn remember(&self, digest: String, entry: Stored) {
        let mut fresh = self.fresh();
        fresh.unsaved += 1;
        fresh.entries.insert(digest, entry);
    }

    /// Every entry the memory holds, loaded or fresh, each with whether this process used it
    /// (decided or recalled it), by digest.
    pub(crate) fn entries(&self) -> Vec<(String, Stored, bool)> {
        let fresh = self.fresh();
        let mut out: Vec<(String, Stored, bool)> = fresh
            .entries
            .iter()
            .map(|(k, e)| (k.clone(), e.clone(), true))
            .collect();
        out.extend(
            self.loaded
                .iter()
                .filter(|(k, _)| !fresh.entries.contains_key(*k))
                .map(|(k, e)| (k.clone(), e.clone(), fresh.recalled.contains(k))),
        );
        out
    }

    /// Whether results were remembered since the store last saved.
    pub(crate) fn unsaved(&self) -> bool {
        self.fresh().unsaved > 0
    }

    /// Notes that the store saved everything remembered so far.
    pub(crate) fn saved(&self) {
        self.fresh().unsaved = 0;
    }

    /// How much of the memory this process used so far.
    pub(crate) fn usage(&self) -> CacheUse {
        let fresh = self.fresh();
        CacheUse {
            recalled: fresh.recalled.len(),
            remembered: fresh.entries.len(),
        }
    }
}

/// A lesson's way into the build's [`Memo`]: keys made with the check's own limits, or, for an
/// editor's quick pass, with the full limits of a build, in which case it remembers nothing
/// (what it decided, it decided under a smaller budget).
#[derive(Clone)]
pub(crate) struct MemoView {
    memo: Arc<Memo>,
    key_limits: Option<Limits>,
}

impl fmt::Debug for MemoView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoView")
            .field("memo", &self.memo)
            .field("read_only", &self.key_limits.is_some())
            .finish()
    }
}

impl MemoView {
    /// The view of a check under its own limits, which remembers what it decides.
    pub(crate) fn new(memo: Arc<Memo>) -> MemoView {
        MemoView {
            memo,
            key_limits: None,
        }
    }

    /// The view of a check under a smaller budget that recalls what a check under `full`
    /// decided, and remembers nothing.
    pub(crate) fn read_only(memo: Arc<Memo>, full: Limits) -> MemoView {
        MemoView {
            memo,
            key_limits: Some(full),
        }
    }

    /// The limits keys are made with, when the check's own are `own`.
    pub(crate) fn key_limits<'a>(&'a self, own: &'a Limits) -> &'a Limits {
        self.key_limits.as_ref().unwrap_or(own)
    }

    fn remembers(&self) -> bool {
        self.key_limits.is_none()
    }
}

impl Recall for MemoView {
    fn recall(&self, key: &MemoKey) -> Option<Decided> {
        self.memo.recall(&digest(key.as_str()))?.decided()
    }

    fn remember(&self, key: &MemoKey, decided: &Decided) {
        if let (true, Some(entry)) = (self.remembers(), Stored::of_decided(decided)) {
            self.memo.remember(digest(key.as_str()), entry);
        }
    }
}

/// Runs directive `d` with `run`, or recalls what it gave before: the one place where
/// directives meet the memory. The output may be of any type serde writes and reads back.
pub(crate) fn directive<T, F>(
    env: &mut DirectiveEnv<'_>,
    d: &Directive,
    run: F,
) -> Result<T, Diagnostic>
where
    T: Serialize + DeserializeOwned,
    F: FnOnce(&mut DirectiveEnv<'_>, &Directive) -> Result<T, Diagnostic>,
{
    let Some(view) = env.memo().cloned() else {
        return run(env, d);
    };
    let digest = digest(MemoKey::directive(d, view.key_limits(env.limits())).as_str());
    if let Some(output) = view
        .memo
        .recall(&digest)
        .and_then(|entry| restore(env, d, entry))
    {
        return Ok(output);
    }
    let before = env.tally();
    let result = run(env, d);
    if let (Ok(output), true) = (&result, view.remembers()) {
        if let Some(entry) = remembered(env, d, before, output) {
            view.memo.remember(digest, entry);
        }
    }
    result
}

/// A recalled directive's output, with its claims and questions put back into the lesson;
/// `None`, and nothing put back, when the entry's conditions do not hold here.
fn restore<T: DeserializeOwned>(
    env: &mut DirectiveEnv<'_>,
    d: &Directive,
    entry: Stored,
) -> Option<T> {
    let Stored::Directive {
        scope,
        position,
        place,
        claims,
        answers,
        output,
    } = entry
    else {
        return None;
    };
    if place.is_some_and(|p| p != d.span.start) {
        return None;
    }
    if scope.is_some_and(|s| s != self::digest(&env.scope_text())) {
        return None;
    }
    let here = Position {
        before: env.tally().answers,
        salt: env.salt().map(str::to_string),
    };
    if position.is_some_and(|p| p != here) {
        return None;
    }
    let output = serde_json::from_value(output).ok()?;
    env.restore(claims, answers.iter().map(|a| a.answer(d)).collect());
    Some(output)
}

/// The entry for a directive that just ran (the lesson held `before` when it started), or
/// `None` when it must not be remembered: it reported something, read the lesson's text, or
/// added a question that does not stand where it stands.
fn remembered<T: Serialize>(
    env: &DirectiveEnv<'_>,
    d: &Directive,
    before: super::context::Tally,
    output: &T,
) -> Option<Stored> {
    let reads: Reads = env.reads();
    let after = env.tally();
    let added = env.answers_since(before.answers);
    if reads.file
        || after.diagnostics != before.diagnostics
        || added.iter().any(|a| a.span != d.span)
    {
        return None;
    }
    Some(Stored::Directive {
        scope: reads.scope.then(|| digest(&env.scope_text())),
        position: reads.position.then(|| Position {
            before: before.answers,
            salt: env.salt().map(str::to_string),
        }),
        place: reads.place.then_some(d.span.start),
        claims: after.claims - before.claims,
        answers: added.iter().map(StoredAnswer::of).collect(),
        output: serde_json::to_value(output).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_exactly() {
        let values = [
            Value::Num(Nimber::from_u64(0)),
            Value::Num(
                "123456789012345678901234567890123456789012"
                    .parse()
                    .expect("number"),
            ),
            Value::Bool(true),
            Value::Str("a \"quoted\" string".into()),
            Value::Ordinal(Ordinal::parse("w^2*3 + w + 4").expect("ordinal")),
            Value::List(vec![Value::Num(Nimber::from_u64(3)), Value::Bool(false)]),
        ];
        for v in values {
            let stored = StoredValue::of(&v).expect("stored");
            let text = serde_json::to_string(&stored).expect("json");
            let back: StoredValue = serde_json::from_str(&text).expect("read");
            assert_eq!(back.value(), Some(v));
        }
    }

    #[test]
    fn text_that_is_not_what_was_written_is_refused() {
        for bad in ["007", "0x10", "", "-1", "1.5"] {
            assert_eq!(StoredValue::Num(bad.into()).value(), None, "{bad}");
        }
        assert_eq!(StoredValue::Outcome('Q').value(), None);
        assert_eq!(StoredValue::Ordinal("3".into()).value(), None);
    }

    #[test]
    fn games_are_not_remembered() {
        let d = Decided {
            status: Status::Bound,
            value: Some(Value::Game(crate::game::Game::nim(vec![1, 2]))),
            witness: None,
            established: None,
        };
        assert_eq!(Stored::of_decided(&d), None);
    }
}
