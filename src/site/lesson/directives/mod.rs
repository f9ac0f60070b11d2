//! Generated blocks: fenced blocks whose info string is `nimbook` hold directives, one call per
//! line, such as `multiplication_table(16)`. Each directive is parsed and its arguments
//! evaluated by the claim language, so `let` bindings work and errors point at the argument.
//! The content is computed by the engines at build time; nothing in a generated block is typed
//! by hand, and a budget that runs out is a located error that names it.
//!
//! This module is the registry of directives ([`DIRECTIVES`]: one [`Entry`] each, dispatch
//! and arity errors come from it). The rooms: `args` (argument checks), `table` (the one table builder),
//! `arithmetic` (nim tables and expansions), `grundy` (Grundy and octal-sequence tables),
//! `svg` and `layout` (drawing helpers, the layered layout), `draw` (pictures of positions;
//! `coins`, `wythoff` and `loopy` draw coin rows, Wythoff boards and loopy graphs for it),
//! `graph` (game graphs), `play` (the play widget) and `exercise` (`exercise`, `choice` and
//! `practice`: questions answered on the page, keys computed here). Dependencies run from this dispatcher
//! down to the directives and from them to the helpers, never back.

mod args;
mod arithmetic;
mod coins;
mod draw;
mod exercise;
mod graph;
mod grundy;
mod layout;
mod loopy;
mod play;
mod svg;
mod table;
mod wythoff;

use crate::claim::builtins::{nearest, registry, Signature};
use crate::claim::{Directive, MappedText};
use crate::diag::Diagnostic;
use crate::site::lesson::blocks::Block;
use crate::site::lesson::context::{DirectiveEnv, LessonContext};
use crate::site::lesson::document::Generated;

use args::error;

/// How a directive runs: the block it made, or a located error. `None` when an error already
/// reported leaves nothing to show (a choice's option that is a claim that does not parse).
type Run = fn(&mut DirectiveEnv<'_>, &Directive) -> Result<Option<Block>, Diagnostic>;

/// One directive: what it is (the same [`Signature`] as a claim function, so both kinds of
/// builtin are listed and checked alike) and how it runs. The runner is called only with as
/// many arguments as the arity admits.
pub(crate) struct Entry {
    /// Name, usage, arity and description.
    pub(crate) sig: Signature,
    run: Run,
}

impl Entry {
    /// The directive `sig`, run by `run`.
    const fn new(sig: Signature, run: Run) -> Self {
        Entry { sig, run }
    }
}

/// Every directive: adding one is one entry here (and a row in README.md's table).
pub(crate) const DIRECTIVES: &[Entry] = registry! {
    Entry;
    new "addition_table", "addition_table(n)", [1], "the nim-sums a ⊕ b for a, b < n, subfield boundaries marked" => |c, d| arithmetic::operation_table(c, d, true).map(Some);
    new "multiplication_table", "multiplication_table(n)", [1], "the nim-products a ⊗ b for a, b < n, subfield boundaries marked" => |c, d| arithmetic::operation_table(c, d, false).map(Some);
    new "powers_table", "powers_table(n)", [1], "the nim-products 2^i ⊗ 2^j for i, j < n" => |c, d| arithmetic::powers_table(c, d).map(Some);
    new "expansion", "expansion(a, b)", [2], "the worked expansion of the nim-product a ⊗ b, every step verified" => |c, d| arithmetic::expansion(c, d).map(Some);
    new "grundy_table", "grundy_table(\"cram\", rows, cols) or grundy_table(\"kayles\", n) or grundy_table(\"wythoff\", cols, rows)", [2, 3], "Grundy values of Cram m × n for m ≤ rows, n ≤ cols, of heaps 0 … n−1 of \"kayles\", \"dawsons_kayles\", \"grundys_game\" or an octal code, or of Wythoff's queen at (a, b) for a < cols, b < rows, laid out as on the board" => |c, d| grundy::grundy_table(c, d).map(Some);
    new "sequence_table", "sequence_table(\"0.77\", n)", [2], "an octal game's values for heaps 0 … n−1, one proven period to a row, the pre-period marked" => |c, d| grundy::sequence_table(c, d).map(Some);
    new "rare_table", "rare_table(\"grundys_game\", mask, n)", [3], "the rare values among heaps 0 … n−1 (an even number of ones in value AND mask), with how many heaps have each, the first and the last" => |c, d| grundy::rare_table(c, d).map(Some);
    new "draw", "draw(G)", [1], "an SVG of a Nim position, a Cram board, a Hackenbush graph, a Northcott board, Kayles pins, a row or grid of coins, a Wythoff board (losing squares shaded) or a loopy graph (every vertex's generalized value), with its value" => |c, d| draw::draw(c, d).map(Some);
    new "cram_diagram", "cram_diagram(\"AA##/B###/B.##\")", [1], "a Cram board with dominoes placed: rows split by /, # free, . blocked, a letter on both cells of a domino; valued by the engine" => |c, d| draw::cram_diagram(c, d).map(Some);
    new "game_graph", "game_graph(G)", [1], "the positions and moves of G (at most 60 positions), P-positions filled, with its counts" => |c, d| graph::game_graph(c, d).map(Some);
    new "play", "play(nim(3, 5, 7))", [1], "a widget to play G (Nim, Kayles, or Wythoff's queen) against the perfect strategy, with a hint button" => |c, d| play::play(c, d).map(Some);
    new "exercise", "exercise(\"Compute 6 ⊗ 13\", 6 * 13)", [2], "a question the reader answers on the page; the build computes the answer" => |c, d| exercise::exercise(c, d).map(Some);
    new "choice", "choice(\"Which positions are P?\", [nim(1, 2, 3), nim(5, 5)])", [2, 3], "a multiple-choice question; the engine decides which options are correct" => exercise::choice;
    new "practice", "practice(\"nim-product\", n) or practice(\"grundy\", \"kayles\", n)", [2, 3], "endless random problems drawn in the browser, answers checked there" => |c, d| exercise::practice(c, d).map(Some);
};

/// Every directive's signature, in registry order.
pub fn list() -> impl Iterator<Item = &'static Signature> {
    DIRECTIVES.iter().map(|e| &e.sig)
}

/// Runs the directives of one `nimbook` block: what each made, with its span. A directive's
/// error is reported and it makes nothing.
pub(super) fn render(lesson: &mut LessonContext, block: &MappedText) -> Vec<Generated> {
    let mut made = Vec::new();
    for d in lesson.directives(block) {
        match render_one(&mut lesson.directive_env(), &d) {
            Ok(block) => made.push(Generated {
                span: d.span.clone(),
                block,
            }),
            Err(diag) => lesson.report(diag),
        }
    }
    made
}

/// Runs one directive.
fn render_one(env: &mut DirectiveEnv<'_>, d: &Directive) -> Result<Option<Block>, Diagnostic> {
    let Some(entry) = DIRECTIVES.iter().find(|e| e.sig.name == d.name) else {
        return Err(unknown(env, d));
    };
    args::arity(env, d, entry.sig.arity)?;
    (entry.run)(env, d)
}

/// The error for a directive that does not exist, with a suggestion or the list.
fn unknown(env: &DirectiveEnv<'_>, d: &Directive) -> Diagnostic {
    let diag = error(env, &d.name_span, format!("unknown directive `{}`", d.name));
    let names = || list().map(|s| s.name);
    match nearest(&d.name, names()) {
        Some(best) => diag.help(format!("a directive with a similar name exists: `{best}`")),
        None => diag.help(format!(
            "the directives are: {}",
            names().collect::<Vec<_>>().join(", ")
        )),
    }
}
