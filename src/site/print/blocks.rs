//! The directives' blocks on paper: tables with their shading and subfield lines, drawings as
//! vector graphics in print colours, worked steps with their marks, each widget in its static
//! form, and the questions of exercises (their answers go to the appendix).

use std::fmt::Write as _;

use super::markup::{self, LessonWriter};
use super::{Answer, AnswerEntry};
use crate::diag::Span;
use crate::site::lesson::blocks::{
    Block, Caption, Cell, CellClass, Choice, Criterion, CriterionPart, Exercise, Figure, Hint,
    Practice, Run, Steps, Table, Widget,
};

/// Writes a block that a directive at `span` made.
pub(crate) fn block(w: &mut LessonWriter<'_, '_>, out: &mut String, b: &Block, span: &Span) {
    match b {
        Block::Table(t) => table(w, out, t, span),
        Block::Figure(f) => figure(w, out, f),
        Block::Steps(s) => steps(out, s),
        Block::Widget(g) => widget(w, out, g),
        Block::Exercise(e) => exercise(w, out, e),
        Block::Choice(c) => choice(w, out, c),
        Block::Practice(p) => practice(w, out, p),
        Block::Criterion(c) => criterion(out, c),
    }
}

/// A criterion: a framed block, its title in bold, its conditions a numbered list.
fn criterion(out: &mut String, c: &Criterion) {
    out.push_str("#block(stroke: (left: 2pt + luma(120), rest: 0.5pt + luma(180)), inset: 8pt, width: 100%, breakable: true)[\n#strong[");
    markup::text(out, &c.title);
    out.push_str(".]\n\n");
    for part in &c.parts {
        match part {
            CriterionPart::Paragraph(r) => {
                runs(out, r);
                out.push_str("\n\n");
            }
            CriterionPart::Conditions(items) => {
                out.push_str("#enum(");
                for item in items {
                    out.push('[');
                    runs(out, item);
                    out.push_str("], ");
                }
                out.push_str(")\n\n");
            }
        }
    }
    out.push_str("]\n");
}

/// Rich inline text as Typst markup.
pub(crate) fn runs(out: &mut String, runs: &[Run]) {
    for run in runs {
        match run {
            Run::Text(t) | Run::Prose(t) => markup::text(out, t),
            Run::Code(t) => {
                out.push_str("#raw(");
                markup::string(out, t);
                out.push(')');
            }
            Run::Strong(t) => {
                out.push_str("#strong[");
                markup::text(out, t);
                out.push(']');
            }
            Run::Sup(t) => {
                out.push_str("#super[");
                markup::text(out, t);
                out.push(']');
            }
            Run::Sub(t) => {
                out.push_str("#sub[");
                markup::text(out, t);
                out.push(']');
            }
            Run::Key { class, text } => {
                let mut inner = String::new();
                markup::text(&mut inner, text);
                out.push_str(&super::style::swatch(class, &inner));
            }
            Run::Tex(tex) => match super::math::tex(tex) {
                Ok(t) => markup::equation(out, &t, false),
                Err(_) => {
                    out.push_str("#raw(");
                    markup::string(out, tex);
                    out.push(')');
                }
            },
            Run::Math(f) => markup::formula(out, f),
        }
    }
}

fn runs_markup(r: &[Run]) -> String {
    let mut out = String::new();
    runs(&mut out, r);
    out
}

/// How many characters a cell shows, for the table's size.
fn cell_width(runs: &[Run]) -> usize {
    runs.iter()
        .map(|r| match r {
            Run::Text(t) | Run::Prose(t) | Run::Code(t) | Run::Strong(t) => t.chars().count(),
            Run::Sup(t) | Run::Sub(t) => t.chars().count().div_ceil(2),
            _ => 2,
        })
        .sum()
}

/// The text size (in points) at which a table of these column widths (in characters) fits
/// the page, and whether it fits at all at the smallest size.
fn table_size(widths: &[usize]) -> (f64, bool) {
    // The text is about 450 pt wide; a digit is about half an em, a cell's padding 10 pt.
    let ems: f64 = widths.iter().map(|&w| w as f64 * 0.52).sum();
    let padding = widths.len() as f64 * 6.0;
    let size = ((440.0 - padding) / ems.max(1.0)).min(9.0);
    (size.max(4.5), size >= 4.5)
}

fn table(w: &mut LessonWriter<'_, '_>, out: &mut String, t: &Table, span: &Span) {
    let columns = t.head.len() + 1;
    let mut widths = vec![t.corner.chars().count(); columns];
    for (j, c) in t.head.iter().enumerate() {
        widths[j + 1] = widths[j + 1].max(cell_width(&c.runs));
    }
    for row in &t.rows {
        widths[0] = widths[0].max(cell_width(&row.label));
        for (j, c) in row.cells.iter().enumerate() {
            if let Some(width) = widths.get_mut(j + 1) {
                *width = (*width).max(cell_width(&c.runs));
            }
        }
    }
    let (size, fits) = table_size(&widths);
    if !fits {
        w.warn(
            span,
            format!(
                "this table of {columns} columns is wider than the printed page even at {size} pt; it runs into the margin"
            ),
        );
    }
    let _ = write!(
        out,
        "\n#nb-figure(text(size: {size:.1}pt, table(columns: {columns}, align: right, inset: (x: {:.1}pt, y: 1.5pt), fill: (x, y) => if x == 0 or y == 0 {{ nb-shade }},",
        (size / 3.0).max(1.5)
    );
    // Subfield lines: before a column or a row whose class says a larger field begins.
    for (j, c) in t.head.iter().enumerate() {
        if c.class == Some(CellClass::FieldStart) {
            let _ = write!(out, "table.vline(x: {}, stroke: 1.2pt + nb-accent),", j + 1);
        }
    }
    for (i, row) in t.rows.iter().enumerate() {
        if row.class == Some(CellClass::FieldStart) {
            let _ = write!(out, "table.hline(y: {}, stroke: 1.2pt + nb-accent),", i + 1);
        }
    }
    out.push_str("table.header([");
    markup::text(out, &t.corner);
    out.push_str("],");
    for c in &t.head {
        header_cell(out, c);
    }
    out.push_str("),");
    for row in &t.rows {
        out.push_str("[#strong[");
        runs(out, &row.label);
        out.push_str("]],");
        for c in &row.cells {
            body_cell(out, c);
        }
        // A short last row (a sequence that ends mid-period) is filled with empty cells.
        for _ in row.cells.len()..t.head.len() {
            out.push_str("[],");
        }
    }
    out.push_str(")), ");
    match &t.caption {
        Caption::Inside(text) => {
            out.push('[');
            markup::text(out, text);
            out.push(']');
        }
        Caption::Below(r) => {
            out.push('[');
            runs(out, r);
            out.push(']');
        }
    }
    out.push_str(")\n\n");
}

fn header_cell(out: &mut String, c: &Cell) {
    out.push_str("[#strong[");
    runs(out, &c.runs);
    out.push_str("]],");
}

/// A body cell: a P-position shaded and bold, as the page shows it; the pre-period grey and
/// in italics, the periodic part green.
fn body_cell(out: &mut String, c: &Cell) {
    let content = runs_markup(&c.runs);
    match c.class {
        Some(CellClass::P) => {
            let _ = write!(
                out,
                "table.cell(fill: nb-ok-bg)[#text(fill: nb-ok, weight: \"bold\")[{content}]],"
            );
        }
        Some(CellClass::Pre) => {
            let _ = write!(out, "table.cell(fill: nb-shade)[#emph[{content}]],");
        }
        Some(CellClass::Periodic) => {
            let _ = write!(out, "table.cell(fill: nb-ok-bg)[{content}],");
        }
        Some(CellClass::FieldStart) | None => {
            let _ = write!(out, "[{content}],");
        }
    }
}

/// A drawing: the SVG with its print colours, as large as it was drawn unless wider than the
/// page, and its caption.
fn figure(w: &mut LessonWriter<'_, '_>, out: &mut String, f: &Figure) {
    out.push_str("\n#nb-figure(");
    drawing(w, out, &f.svg);
    out.push_str(", [");
    runs(out, &f.caption);
    out.push_str("])\n\n");
}

/// A drawing as an image of the printed book, labelled by its text alternative.
fn drawing(w: &mut LessonWriter<'_, '_>, out: &mut String, svg: &str) {
    let label = super::style::svg_label(svg).unwrap_or_else(|| "A drawing".into());
    let path = w.printer.drawing(svg);
    out.push_str("nb-drawing(");
    markup::string(out, &path);
    out.push_str(", ");
    markup::string(out, &label);
    out.push(')');
}

/// A worked derivation: each step with its reason, and the mark of each checked step.
pub(crate) fn steps(out: &mut String, s: &Steps) {
    out.push_str("\n#nb-steps(");
    for (i, step) in s.steps.iter().enumerate() {
        out.push('[');
        if i > 0 {
            out.push_str("\\=");
        }
        out.push_str("], [");
        markup::formula(out, &step.expr);
        out.push_str(" #h(1em) #text(size: 0.85em, fill: nb-muted)[");
        markup::text(out, &step.why);
        out.push_str("]], [");
        if step.verified {
            out.push_str("#nb-mark[✓]");
        }
        out.push_str("],");
    }
    out.push_str(")\n\n");
}

/// A widget on paper: its board, its start position, the value the engine computed and the
/// winning moves.
fn widget(w: &mut LessonWriter<'_, '_>, out: &mut String, g: &Widget) {
    out.push_str("\n#nb-widget([");
    markup::text(out, &format!("{}: {}", g.title, Widget::ON_PAPER));
    out.push_str("], ");
    drawing(w, out, &g.svg);
    out.push_str(", [");
    markup::text(out, &g.static_form());
    out.push_str("])\n\n");
}

/// A label that the answers appendix links back to.
fn question_label(w: &mut LessonWriter<'_, '_>) -> String {
    w.printer.labels.fresh("ex")
}

fn exercise(w: &mut LessonWriter<'_, '_>, out: &mut String, e: &Exercise) {
    let label = question_label(w);
    let _ = write!(out, "\n#nb-exercise({})[", e.number);
    runs(out, &e.question);
    let _ = write!(out, "] <{label}>\n\n");
    let mut answer = runs_markup(&e.shown());
    match &e.hint {
        Some(Hint::Expansion(s)) => {
            answer.push_str(" — ");
            answer.push_str(Hint::EXPANSION);
            steps(&mut answer, s);
        }
        Some(Hint::Columns { terms, total }) => {
            let mut line = terms
                .iter()
                .map(|t| format!("{t:0width$b}", width = hint_width(terms)))
                .collect::<Vec<_>>()
                .join(" ⊕ ");
            if let Some(sum) = total {
                let _ = write!(line, " = {sum:0width$b}", width = hint_width(terms));
            }
            answer.push_str(" — in binary: ");
            markup::text(&mut answer, &line);
        }
        _ => {}
    }
    w.answer(AnswerEntry {
        label,
        what: Answer::Exercise(e.number),
        question: runs_markup(&e.question),
        markup: answer,
    });
}

fn hint_width(terms: &[u64]) -> usize {
    crate::site::lesson::page::blocks::column_width(terms)
}

fn choice(w: &mut LessonWriter<'_, '_>, out: &mut String, c: &Choice) {
    let label = question_label(w);
    let _ = write!(out, "\n#nb-exercise({})[", c.number);
    runs(out, &c.question);
    out.push(' ');
    markup::text(out, Choice::NOTE);
    out.push_str("#list(marker: [☐])");
    for o in &c.options {
        out.push('[');
        runs(out, std::slice::from_ref(&o.label));
        out.push(']');
    }
    let _ = write!(out, "] <{label}>\n\n");
    let mut question = runs_markup(&c.question);
    question.push(' ');
    for (i, o) in c.options.iter().enumerate() {
        let _ = write!(question, "({}) ", char::from(b'a' + (i % 26) as u8));
        runs(&mut question, std::slice::from_ref(&o.label));
        question.push_str("; ");
    }
    w.answer(AnswerEntry {
        label,
        what: Answer::Exercise(c.number),
        question,
        markup: runs_markup(&c.shown()),
    });
}

fn practice(w: &mut LessonWriter<'_, '_>, out: &mut String, p: &Practice) {
    let label = question_label(w);
    out.push_str("\n#nb-box[#strong[");
    markup::text(out, &format!("Practice: {}", p.title));
    out.push(']');
    markup::text(out, &format!(" ({})", Practice::ON_PAPER));
    out.push_str("#enum");
    for problem in &p.problems {
        out.push('[');
        runs(out, &problem.question);
        out.push(']');
    }
    let _ = write!(out, "] <{label}>\n\n");
    let answers: Vec<String> = p
        .problems
        .iter()
        .enumerate()
        .map(|(i, problem)| format!("{}. {}", i + 1, problem.answer))
        .collect();
    let mut markup = String::new();
    markup::text(&mut markup, &answers.join("; "));
    let questions: Vec<String> = p
        .problems
        .iter()
        .enumerate()
        .map(|(i, problem)| format!("{}. {}", i + 1, runs_markup(&problem.question)))
        .collect();
    w.answer(AnswerEntry {
        label,
        what: Answer::Practice(p.title.clone()),
        question: questions.join(" "),
        markup,
    });
}
