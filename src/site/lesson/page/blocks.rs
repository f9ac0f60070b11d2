//! The directives' blocks as the page's HTML: tables with their classes for `style.css`,
//! figures, worked steps with their marks, the play widget's markup and data for `widget.js`,
//! and the exercise forms that `exercise.js` drives.

use std::fmt::Write as _;

use crate::site::html::escape;
use crate::site::lesson::blocks::{
    Block, Caption, Cell, CellClass, Choice, Criterion, CriterionPart, Exercise, Figure, Frame,
    Grading, Hint, Practice, PracticeKind, Run, Steps, Table, Widget, WidgetGame,
};
use crate::site::lesson::claims::VERIFIED_STEP;
use crate::site::lesson::mathml;

/// The HTML of a block.
pub(crate) fn block(b: &Block) -> String {
    match b {
        Block::Table(t) => table(t),
        Block::Figure(f) => figure(f),
        Block::Steps(s) => steps(s),
        Block::Widget(w) => widget(w),
        Block::Exercise(e) => exercise(e),
        Block::Choice(c) => choice(c),
        Block::Practice(p) => practice(p),
        Block::Criterion(c) => criterion(c),
    }
}

/// Escapes what element content needs escaped, and nothing more.
fn escape_text(s: &str) -> String {
    crate::diag::replace_chars(s, |c| match c {
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '&' => Some("&amp;"),
        _ => None,
    })
}

/// Rich inline text as HTML.
pub(crate) fn runs(out: &mut String, runs: &[Run]) {
    for run in runs {
        match run {
            Run::Text(t) => out.push_str(&escape(t)),
            Run::Prose(t) => out.push_str(&escape_text(t)),
            Run::Code(t) => {
                let _ = write!(out, "<code>{}</code>", escape(t));
            }
            Run::Strong(t) => {
                let _ = write!(out, "<strong>{}</strong>", escape(t));
            }
            Run::Sup(t) => {
                let _ = write!(out, "<sup>{}</sup>", escape(t));
            }
            Run::Sub(t) => {
                let _ = write!(out, "<sub>{}</sub>", escape(t));
            }
            Run::Key { class, text } => {
                let _ = write!(out, "<span class=\"{class}\">{}</span>", escape_text(text));
            }
            Run::Tex(tex) => match mathml::render_tex(tex, false) {
                Ok(m) => out.push_str(&m),
                // The directive parsed it before making the block; a block made elsewhere
                // shows what it holds.
                Err(_) => {
                    let _ = write!(out, "<code>{}</code>", escape(tex));
                }
            },
            Run::Math(f) => out.push_str(&mathml::formula(f, false)),
        }
    }
}

/// Rich inline text as a string of HTML.
pub(crate) fn runs_html(r: &[Run]) -> String {
    let mut out = String::new();
    runs(&mut out, r);
    out
}

fn open(h: &mut String, tag: &str, class: Option<CellClass>) {
    match class {
        Some(class) => {
            let _ = write!(h, "<{tag} class=\"{}\">", class.css());
        }
        None => {
            let _ = write!(h, "<{tag}>");
        }
    }
}

fn cell(h: &mut String, tag: &str, c: &Cell) {
    open(h, tag, c.class);
    runs(h, &c.runs);
    let _ = write!(h, "</{tag}>");
}

fn table(t: &Table) -> String {
    let cells: usize = t.rows.iter().map(|r| r.cells.len()).sum();
    let mut h = String::with_capacity(cells * 24 + 256);
    if let Caption::Below(_) = t.caption {
        h.push_str("<figure class=\"nim-figure nim-table-figure\">");
    }
    h.push_str("<div class=\"nim-table-wrap\"><table class=\"nim-table");
    if let Some(kind) = &t.kind {
        h.push(' ');
        h.push_str(kind);
    }
    h.push_str("\">");
    if let Caption::Inside(text) = &t.caption {
        let _ = write!(h, "<caption>{}</caption>", escape(text));
    }
    let _ = write!(
        h,
        "<thead><tr><th class=\"corner\">{}</th>",
        escape(&t.corner)
    );
    for c in &t.head {
        cell(&mut h, "th", c);
    }
    h.push_str("</tr></thead><tbody>");
    for row in &t.rows {
        open(&mut h, "tr", row.class);
        h.push_str("<th>");
        runs(&mut h, &row.label);
        h.push_str("</th>");
        for c in &row.cells {
            cell(&mut h, "td", c);
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>");
    if let Caption::Below(caption) = &t.caption {
        h.push_str("<figcaption>");
        runs(&mut h, caption);
        h.push_str("</figcaption></figure>");
    }
    h.push('\n');
    h
}

fn figure(f: &Figure) -> String {
    let caption = runs_html(&f.caption);
    match &f.frame {
        Frame::Plain => format!(
            "<figure class=\"nim-figure\">{}<figcaption>{caption}</figcaption></figure>\n",
            f.svg
        ),
        // The drawing scrolls sideways in a box of its own (which `page.js` makes reachable by
        // keyboard); the caption stays put.
        Frame::Scroll(class) => {
            let class = class.as_ref().map_or_else(String::new, |c| format!(" {c}"));
            format!(
                "<figure class=\"nim-figure{class}\"><div class=\"nim-figure-scroll\">{}</div><figcaption>{caption}</figcaption></figure>\n",
                f.svg
            )
        }
    }
}

/// A worked derivation, one checked step to a row.
pub(crate) fn steps(s: &Steps) -> String {
    let mut h = String::from("<div class=\"nim-expansion nim-claims\">\n");
    for (i, step) in s.steps.iter().enumerate() {
        let mut inner = String::new();
        if i > 0 {
            inner.push_str("<mo>=</mo>");
        }
        mathml::write(&mut inner, &step.expr.items);
        let _ = writeln!(
            h,
            "<div class=\"nim-claim step\">{}<span class=\"why\">{}</span>{}</div>",
            mathml::math(&inner, false, &step.expr.text),
            escape(&step.why),
            if step.verified { VERIFIED_STEP } else { "" }
        );
    }
    h.push_str("</div>\n");
    h
}

fn json_list(values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(","))
}

/// The play widget: a static drawing of the start position that `widget.js` turns into
/// buttons, the game and the engine's values in `data-` attributes.
fn widget(w: &Widget) -> String {
    let data = match &w.game {
        WidgetGame::Nim { heaps } => format!(
            "data-game=\"nim\" data-heaps=\"{}\"",
            escape(&json_list(heaps))
        ),
        WidgetGame::Kayles { pins, grundy } => format!(
            "data-game=\"kayles\" data-pins=\"{pins}\" data-grundy=\"{}\"",
            escape(&json_list(grundy))
        ),
        WidgetGame::Wythoff {
            queen: (a, b),
            grundy,
        } => {
            let columns: Vec<String> = grundy.iter().map(|c| json_list(c)).collect();
            format!(
                "data-game=\"wythoff\" data-queen=\"[{a},{b}]\" data-grundy=\"{}\"",
                escape(&format!("[{}]", columns.join(",")))
            )
        }
    };
    format!(
        "<div class=\"nim-widget\" {data}>\
         <p class=\"nim-widget-title\">Play {} against the computer</p>\
         <div class=\"nim-widget-board\">{}</div>\
         <p class=\"nim-widget-status\" role=\"status\" aria-live=\"polite\">{}</p>\
         <div class=\"nim-widget-controls\"></div>\
         </div>\n",
        escape_text(&w.title),
        w.svg,
        Widget::STATUS
    )
}

fn grading(g: &Grading) -> String {
    match g {
        Grading::Shown(answer) => format!("data-answer=\"{}\"", escape(answer)),
        Grading::Hashed { salt, hash } => {
            format!("data-salt=\"{}\" data-hash=\"{hash}\"", escape(salt))
        }
    }
}

/// Ends a question's section, with its "Show the answer" box unless the answers are hidden.
fn answer_box(h: &mut String, g: &Grading, answer: &[Run]) {
    if let Grading::Shown(_) = g {
        h.push_str("<details class=\"nim-exercise-answer\"><summary>Show the answer</summary><p>");
        runs(h, answer);
        h.push_str("</p></details>");
    }
    h.push_str("</section>\n");
}

fn exercise(e: &Exercise) -> String {
    let n = e.number;
    let mut h = String::new();
    let _ = write!(
        h,
        "<section class=\"nim-exercise\" id=\"{}\" data-kind=\"{}\" {}>\
         <p class=\"nim-exercise-question\"><span class=\"nim-exercise-number\">Exercise {n}.</span> {}</p>\
         <form class=\"nim-exercise-form\" hidden><label>Answer to exercise {n} ({}): \
         <input type=\"text\" autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\"></label> \
         <button type=\"submit\">Check</button></form>\
         <span class=\"nim-exercise-blank\" aria-hidden=\"true\"></span>\
         <p class=\"nim-exercise-feedback\" role=\"status\" aria-live=\"polite\"></p>",
        e.id,
        e.kind.name(),
        grading(&e.grading),
        runs_html(&e.question),
        e.kind.placeholder()
    );
    if let Some(hint) = &e.hint {
        let _ = write!(
            h,
            "<div class=\"nim-exercise-hint\" hidden><p class=\"nim-hint-title\">Hint</p>{}</div>",
            hint_html(hint)
        );
    }
    answer_box(&mut h, &e.grading, &e.shown());
    h
}

/// An exercise's hint as HTML.
fn hint_html(hint: &Hint) -> String {
    match hint {
        Hint::ProductRule => format!("<p>{}</p>", Hint::PRODUCT_RULE),
        Hint::Expansion(s) => format!("<p>{}</p>{}", Hint::EXPANSION, steps(s)),
        Hint::Columns { terms, total } => columns(terms, *total),
        Hint::NoMoves => format!("<p>{}</p>", Hint::NO_MOVES),
        Hint::Moves {
            position,
            moves,
            more,
            rule,
        } => {
            let mut h = format!(
                "<p>The moves from <code>{}</code> and the value of each position they lead to:</p><ul class=\"nim-moves\">",
                escape(position)
            );
            for (m, v) in moves {
                let _ = write!(h, "<li><code>{}</code>: {}</li>", escape(m), escape_text(v));
            }
            h.push_str("</ul>");
            if *more > 0 {
                let _ = write!(h, "<p>… and {more} more moves.</p>");
            }
            let _ = write!(h, "<p>{}</p>", rule.sentence());
            h
        }
    }
}

/// A nim-sum written in binary, one operand to a row, with its total row when there is one.
fn columns(terms: &[u64], total: Option<u64>) -> String {
    let width = column_width(terms);
    let mut h = format!(
        "<p>{}</p><table class=\"nim-columns\"><tbody>",
        Hint::COLUMNS
    );
    for (i, w) in terms.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><th scope=\"row\">{}{w}</th><td><code>{w:0width$b}</code></td></tr>",
            if i == 0 { "" } else { "⊕ " }
        );
    }
    if let Some(sum) = total {
        let _ = write!(
            h,
            "<tr class=\"total\"><th scope=\"row\">= {sum}</th><td><code>{sum:0width$b}</code></td></tr>"
        );
    }
    h.push_str("</tbody></table>");
    h
}

/// How many binary digits the columns of a nim-sum of `terms` need: the widest operand or
/// their sum, at least one.
pub(crate) fn column_width(terms: &[u64]) -> usize {
    let sum = terms.iter().fold(0u64, |acc, w| acc ^ w);
    terms
        .iter()
        .chain([&sum])
        .map(|w| 64 - w.leading_zeros())
        .max()
        .unwrap_or(1)
        .max(1) as usize
}

fn choice(c: &Choice) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<section class=\"nim-exercise nim-choice\" id=\"{}\" data-kind=\"choice\" {}>\
         <form class=\"nim-exercise-form\"><fieldset><legend class=\"nim-exercise-question\"><span class=\"nim-exercise-number\">Exercise {}.</span> {} <span class=\"nim-choice-note\">{}</span></legend><ul class=\"nim-options\">",
        c.id,
        grading(&c.grading),
        c.number,
        runs_html(&c.question),
        Choice::NOTE
    );
    for (i, o) in c.options.iter().enumerate() {
        let _ = write!(
            h,
            "<li><label><input type=\"checkbox\" value=\"{i}\" aria-label=\"{}\"> {}</label></li>",
            escape(&o.name),
            runs_html(std::slice::from_ref(&o.label))
        );
    }
    let _ = write!(
        h,
        "</ul></fieldset><button type=\"submit\" hidden>Check</button></form>\
         <p class=\"nim-exercise-feedback\" role=\"status\" aria-live=\"polite\"></p>\
         <div class=\"nim-exercise-hint\" hidden><p class=\"nim-hint-title\">Hint</p><p>{}</p></div>",
        escape(&c.hint)
    );
    answer_box(&mut h, &c.grading, &c.shown());
    h
}

fn practice(p: &Practice) -> String {
    let data = match &p.kind {
        PracticeKind::Grundy {
            game,
            rule,
            max,
            values,
        } => format!(
            "data-practice=\"grundy\" data-game=\"{}\" data-rule=\"{rule}\" data-max=\"{max}\" data-grundy=\"{}\"",
            escape(game),
            json_list(values)
        ),
        PracticeKind::Range { kind, max } => {
            format!("data-practice=\"{kind}\" data-max=\"{max}\"")
        }
    };
    format!(
        "<section class=\"nim-practice\" id=\"{}\" {data}>\
         <p class=\"nim-practice-title\">Practice: {}</p>\
         <p class=\"nim-practice-problem\">{}</p>\
         <form class=\"nim-exercise-form\" hidden><label>Your answer to the practice problem (a number, such as 12 or 0xC): \
         <input type=\"text\" autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\"></label> \
         <button type=\"submit\">Check</button> <button type=\"button\" class=\"nim-practice-new\">New problem</button></form>\
         <p class=\"nim-exercise-feedback\" role=\"status\" aria-live=\"polite\"></p>\
         <div class=\"nim-exercise-hint\" hidden></div></section>\n",
        p.id,
        escape(&p.title),
        Practice::NO_SCRIPT
    )
}

/// A criterion: a titled box, its conditions a numbered list.
fn criterion(c: &Criterion) -> String {
    let mut h = String::from("<div class=\"criterion\">");
    let _ = write!(
        h,
        "<p class=\"criterion-title\"><strong>{}.</strong></p>",
        escape(&c.title)
    );
    for part in &c.parts {
        match part {
            CriterionPart::Paragraph(r) => {
                h.push_str("<p>");
                runs(&mut h, r);
                h.push_str("</p>");
            }
            CriterionPart::Conditions(items) => {
                h.push_str("<ol>");
                for item in items {
                    h.push_str("<li>");
                    runs(&mut h, item);
                    h.push_str("</li>");
                }
                h.push_str("</ol>");
            }
        }
    }
    h.push_str("</div>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::columns;

    #[test]
    fn a_sum_hint_writes_the_columns_in_binary() {
        let h = columns(&[12, 10], Some(6));
        // 12 = 1100, 10 = 1010, 12 xor 10 = 0110 = 6 (column by column).
        assert!(h.contains("<code>1100</code>"), "{h}");
        assert!(h.contains("<code>1010</code>"), "{h}");
        assert!(h.contains("= 6</th><td><code>0110</code>"), "{h}");
    }

    #[test]
    fn a_graded_sum_hint_leaves_out_the_total() {
        let h = columns(&[12, 10], None);
        assert!(h.contains("<code>1100</code>"), "{h}");
        assert!(!h.contains("0110") && !h.contains("= 6"), "{h}");
    }
}
