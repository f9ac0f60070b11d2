//! Generated blocks: fenced blocks whose info string is `nimbook` hold directives, one call per
//! line, such as `multiplication_table(16)`. Each directive is parsed and its arguments
//! evaluated by the claim language, so `let` bindings work and errors point at the argument.
//! The content is computed by the engines at build time; nothing in a generated block is typed
//! by hand, and a budget that runs out is a located error that names it.
//!
//! The rooms: `args` (the directive list, argument checks), `table` (the one table builder),
//! `arithmetic` (nim tables and expansions), `grundy` (Grundy and octal-sequence tables),
//! `svg` and `layout` (drawing helpers, the layered layout), `draw` (pictures of positions),
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
mod play;
mod svg;
mod table;

use crate::claim::{Directive, LessonChecker, MappedText};
use crate::diag::Diagnostic;

use args::{error, DIRECTIVES};

/// Renders the directives of one `nimbook` block.
pub(super) fn render(checker: &mut LessonChecker, block: &MappedText) -> String {
    let mut html = String::new();
    for d in checker.directives(block) {
        match render_one(checker, &d) {
            Ok(h) => html.push_str(&h),
            Err(diag) => checker.push_error(diag),
        }
    }
    html
}

fn render_one(checker: &mut LessonChecker, d: &Directive) -> Result<String, Diagnostic> {
    match d.name.as_str() {
        "addition_table" => arithmetic::operation_table(checker, d, true),
        "multiplication_table" => arithmetic::operation_table(checker, d, false),
        "powers_table" => arithmetic::powers_table(checker, d),
        "expansion" => arithmetic::expansion(checker, d),
        "grundy_table" => grundy::grundy_table(checker, d),
        "sequence_table" => grundy::sequence_table(checker, d),
        "rare_table" => grundy::rare_table(checker, d),
        "draw" => draw::draw(checker, d),
        "cram_diagram" => draw::cram_diagram(checker, d),
        "game_graph" => graph::game_graph(checker, d),
        "play" => play::play(checker, d),
        "exercise" => exercise::exercise(checker, d),
        "choice" => exercise::choice(checker, d),
        "practice" => exercise::practice(checker, d),
        _ => {
            let mut diag = error(
                checker,
                &d.name_span,
                format!("unknown directive `{}`", d.name),
            );
            if let Some(best) =
                crate::claim::eval::nearest(&d.name, DIRECTIVES.iter().map(|(n, _)| *n))
            {
                diag = diag.help(format!("a directive with a similar name exists: `{best}`"));
            } else {
                let names: Vec<_> = DIRECTIVES.iter().map(|(n, _)| *n).collect();
                diag = diag.help(format!("the directives are: {}", names.join(", ")));
            }
            Err(diag)
        }
    }
}
