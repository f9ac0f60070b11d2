//! The registry of builtin functions: every function the claim language knows is one
//! `Function` value, its `Signature` (name, usage, arity, a one-line description) beside the
//! code that runs it. The evaluator dispatches through it, arity errors and "did you mean"
//! suggestions come from it, and `nimbook calc --list` and the guide's reference are made from it.
//!
//! The functions are kept in five groups, one file each: `numbers` (nimber arithmetic and the
//! field), `ordinals`, `games` (positions, such as `nim(3, 4, 5)`), `classics` (the games of
//! Part III) and `questions` (what the engine answers about a position, such as `grundy(G)`). Adding a function is one entry in
//! one group's table; a new group is one more file and one line in `GROUPS`.
//!
//! The site's directives use the same [`Signature`], so both kinds of builtin can be listed
//! and checked the same way.

/// A registry table, one builtin a line, as a `&[Type]`:
///
/// ```text
/// registry! {
///     Type;
///     kind "name", "usage", [arity], "description" => run;
/// }
/// ```
///
/// Each line becomes `Type::kind(Signature::new("name", "usage", arity, "description"), run)`;
/// `[n]` is `Arity::Exactly(n)`, `[m, n]` is `Arity::Either(m, n)` and `[..]` is `Arity::Any`.
/// So a table reads as the list it is, and no entry spells out the shape of the others.
macro_rules! registry {
    (@arity ..) => { $crate::claim::builtins::Arity::Any };
    (@arity $n:literal) => { $crate::claim::builtins::Arity::Exactly($n) };
    (@arity $m:literal, $n:literal) => { $crate::claim::builtins::Arity::Either($m, $n) };
    ($ty:ident; $($kind:ident $name:literal, $usage:literal, [$($arity:tt)*], $description:literal => $run:expr;)*) => {
        &[$(
            $ty::$kind(
                $crate::claim::builtins::Signature::new(
                    $name,
                    $usage,
                    $crate::claim::builtins::registry!(@arity $($arity)*),
                    $description,
                ),
                $run,
            )
        ),*]
    };
}
pub(crate) use registry;

mod classics;
mod games;
mod numbers;
mod ordinals;
mod questions;

use super::ast::{Expr, OutcomeClass};
use super::value::{as_count, number, Value};
use super::{ClaimError, Limits};
use crate::diag::{Code, Span};
use crate::game::{self, Game, GameError, Outcome};
use crate::nim::Nimber;

/// How many arguments a builtin takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Arity {
    /// Exactly this many.
    Exactly(usize),
    /// Either of two counts, such as `roots(c)` and `roots(a, b, c)`.
    Either(usize, usize),
    /// Any number, such as the heaps of `nim(3, 4, 5)`.
    Any,
}

impl Arity {
    /// Whether a call with `given` arguments has the right number.
    pub fn admits(self, given: usize) -> bool {
        match self {
            Arity::Exactly(n) => given == n,
            Arity::Either(m, n) => given == m || given == n,
            Arity::Any => true,
        }
    }

    /// The error message for a call of `name` with `given` arguments, if that is the wrong
    /// number: the one wording of an arity error, for functions and directives alike.
    pub(crate) fn check(self, name: &str, given: usize) -> Result<(), String> {
        if self.admits(given) {
            return Ok(());
        }
        let (counts, plural) = match self {
            Arity::Exactly(n) => (n.to_string(), n != 1),
            Arity::Either(m, n) => (format!("{m} or {n}"), true),
            Arity::Any => (String::new(), true),
        };
        Err(format!(
            "`{name}` takes {counts} argument{}, but {given} {} given",
            if plural { "s" } else { "" },
            if given == 1 { "was" } else { "were" }
        ))
    }
}

/// What the registry says of one builtin, a function or a directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Signature {
    /// The name it is called by, such as `grundy`.
    pub name: &'static str,
    /// How it is called, such as `grundy(G)`; several forms are joined by ` or `.
    pub usage: &'static str,
    /// How many arguments it takes.
    pub arity: Arity,
    /// What it computes, in one line.
    pub description: &'static str,
}

impl Signature {
    /// The entry for `name`, called as `usage`.
    pub(crate) const fn new(
        name: &'static str,
        usage: &'static str,
        arity: Arity,
        description: &'static str,
    ) -> Self {
        Signature {
            name,
            usage,
            arity,
            description,
        }
    }
}

/// One builtin function: what it is and how it runs. The runner is called only with as many
/// arguments as the arity admits, so it may index them.
pub(crate) struct Function {
    /// Name, usage, arity and description.
    pub(crate) sig: Signature,
    /// Whether it makes or asks about a game position, which the proof of periodic claims
    /// needs to know.
    pub(crate) game: bool,
    run: fn(&Call<'_>) -> Result<Value, ClaimError>,
}

impl Function {
    /// A function that computes with numbers or ordinals.
    const fn number(sig: Signature, run: fn(&Call<'_>) -> Result<Value, ClaimError>) -> Self {
        Function {
            sig,
            game: false,
            run,
        }
    }

    /// A function that makes a game position or asks the engine about one.
    const fn game(sig: Signature, run: fn(&Call<'_>) -> Result<Value, ClaimError>) -> Self {
        Function {
            sig,
            game: true,
            run,
        }
    }

    /// Runs the function on evaluated arguments, after checking how many there are.
    pub(crate) fn call(&self, call: &Call<'_>) -> Result<Value, ClaimError> {
        self.sig
            .arity
            .check(self.sig.name, call.args.len())
            .map_err(|m| {
                ClaimError::new(call.span.clone(), m).help(format!("usage: {}", self.sig.usage))
            })?;
        (self.run)(call)
    }
}

/// The groups of functions by name, in the order `nimbook calc --list` has no need of (it
/// sorts) but a reader may: numbers first, games last (the guide's reference follows it).
const GROUPS: &[(&str, &[Function])] = &[
    ("numbers", numbers::FUNCTIONS),
    ("ordinals", ordinals::FUNCTIONS),
    ("games", games::FUNCTIONS),
    ("classics", classics::FUNCTIONS),
    ("questions", questions::FUNCTIONS),
];

fn all() -> impl Iterator<Item = &'static Function> {
    GROUPS.iter().flat_map(|(_, g)| g.iter())
}

/// The names of the groups of functions: `numbers`, `ordinals`, `games`, `classics`,
/// `questions`.
#[cfg(feature = "site")]
pub(crate) fn group_names() -> impl Iterator<Item = &'static str> {
    GROUPS.iter().map(|&(name, _)| name)
}

/// The functions of the group called `name`, in registry order.
#[cfg(feature = "site")]
pub(crate) fn group(name: &str) -> Option<impl Iterator<Item = &'static Signature>> {
    GROUPS
        .iter()
        .find(|&&(n, _)| n == name)
        .map(|&(_, g)| g.iter().map(|f| &f.sig))
}

/// Every builtin function of the claim language, in registry order.
pub fn functions() -> impl Iterator<Item = &'static Signature> {
    all().map(|f| &f.sig)
}

/// The function called `name`.
pub(crate) fn function(name: &str) -> Option<&'static Function> {
    all().find(|f| f.sig.name == name)
}

/// Whether `name` is a function that makes or asks about a game.
pub(crate) fn is_game_function(name: &str) -> bool {
    function(name).is_some_and(|f| f.game)
}

/// The error for a call of a function that does not exist, with a suggestion when one is near.
pub(crate) fn unknown_function(name: &str, name_span: &Span) -> ClaimError {
    let err = ClaimError::new(name_span.clone(), format!("unknown function `{name}`"))
        .code(Code::UnknownFunction);
    match crate::diag::nearest(name, functions().map(|s| s.name)) {
        Some(best) => err.help(format!("a function with a similar name exists: `{best}`")),
        None => err,
    }
}

/// One call of a builtin function: its evaluated arguments, where each was written, and the
/// lesson's budget.
pub(crate) struct Call<'a> {
    /// The function's name as written.
    pub(crate) name: &'a str,
    /// The evaluated arguments.
    pub(crate) args: &'a [Value],
    /// The argument expressions, for their spans.
    pub(crate) exprs: &'a [Expr],
    /// The whole call.
    pub(crate) span: &'a Span,
    /// The lesson's bounds.
    pub(crate) limits: &'a Limits,
}

impl Call<'_> {
    /// Where argument `i` was written (the whole call if it has no such argument).
    fn at(&self, i: usize) -> Span {
        self.exprs
            .get(i)
            .map_or(self.span.clone(), |a| a.span.clone())
    }

    /// An error about the whole call.
    fn error(&self, message: impl Into<String>) -> ClaimError {
        ClaimError::new(self.span.clone(), message)
    }

    /// Argument `i` as a number.
    fn number(&self, i: usize) -> Result<&Nimber, ClaimError> {
        number(&self.args[i], &self.at(i))
    }

    /// Argument `i` as a count, such as a heap size or a board side.
    fn count(&self, i: usize) -> Result<u64, ClaimError> {
        as_count(&self.args[i], &self.at(i))
    }

    /// Argument `i` as a string; `example` shows one in the error.
    fn string(&self, i: usize, example: &str) -> Result<&str, ClaimError> {
        match &self.args[i] {
            Value::Str(s) => Ok(s),
            other => Err(ClaimError::new(
                self.at(i),
                format!("expected a string such as {example}, found `{other}`"),
            )),
        }
    }

    /// Argument `i` as a game position.
    fn game(&self, i: usize) -> Result<&Game, ClaimError> {
        match &self.args[i] {
            Value::Game(g) => Ok(g),
            other => Err(ClaimError::new(
                self.at(i),
                format!("expected a game such as nim(3, 4, 5), found `{other}`"),
            )),
        }
    }

    /// An engine error about the whole call.
    fn game_error(&self, e: GameError) -> ClaimError {
        game_error(self.span, e)
    }
}

/// An engine error as a claim error; a search that ran out of budget is [`Code::BudgetExceeded`].
pub(crate) fn game_error(span: &Span, e: GameError) -> ClaimError {
    let budget = matches!(e, GameError::BudgetExceeded { .. });
    let err = ClaimError::new(span.clone(), e.to_string());
    if budget {
        err.code(Code::BudgetExceeded)
    } else {
        err
    }
}

/// The outcome class of a game as a value.
pub(crate) fn outcome(game: &Game, budget: &game::Budget) -> Result<Value, GameError> {
    game.outcome(budget).map(|o| Value::Outcome(class(o)))
}

/// The claim language's name for an outcome.
fn class(o: Outcome) -> OutcomeClass {
    match o {
        Outcome::P => OutcomeClass::P,
        Outcome::N => OutcomeClass::N,
        Outcome::D => OutcomeClass::D,
    }
}

/// A count as a number value.
fn count_value(n: u64) -> Value {
    Value::Num(Nimber::from_u64(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_usages_start_with_the_name() {
        let mut names: Vec<_> = functions().map(|s| s.name).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a function is registered twice");
        for s in functions() {
            for form in s.usage.split(" or ") {
                assert!(
                    form.starts_with(&format!("{}(", s.name)),
                    "usage `{}` of `{}`",
                    s.usage,
                    s.name
                );
            }
        }
    }

    #[test]
    fn arity_errors_count_in_words() {
        assert_eq!(
            Arity::Exactly(1).check("inv", 2),
            Err("`inv` takes 1 argument, but 2 were given".to_string())
        );
        assert_eq!(
            Arity::Exactly(2).check("log", 1),
            Err("`log` takes 2 arguments, but 1 was given".to_string())
        );
        assert_eq!(
            Arity::Either(1, 3).check("roots", 0),
            Err("`roots` takes 1 or 3 arguments, but 0 were given".to_string())
        );
        assert_eq!(Arity::Either(1, 3).check("roots", 3), Ok(()));
        assert_eq!(Arity::Any.check("nim", 0), Ok(()));
    }
}
