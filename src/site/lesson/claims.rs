//! Checked claims as HTML: MathML of what was decided, the status as a class, and a verified
//! mark beside what holds. `nim` blocks, `` `nim: …` `` spans and the `expansion` directive all
//! show their marks through here, so a mark looks and reads the same everywhere.

use super::mathml;
use crate::claim::{Checked, Status};
use crate::site::html::escape;

fn statement_math(c: &Checked, display: bool) -> String {
    let mut inner = String::new();
    let mut alt = c.source.clone();
    if let Some(s) = &c.stmt {
        mathml::statement(&mut inner, &s.stmt, c.value.as_ref(), c.witness.as_deref());
        alt = super::notation::statement_text(&s.stmt, c.value.as_ref(), c.witness.as_deref());
    }
    mathml::math(&inner, display, &alt)
}

fn status_class(s: Status) -> &'static str {
    match s {
        Status::Holds => "holds",
        Status::Fails => "fails",
        Status::Error => "error",
        Status::Bound => "bound",
        Status::Value => "value",
    }
}

/// The mark of a checked claim or step, with its one tooltip.
macro_rules! verified_mark {
    ($text:literal) => {
        concat!(
            "<span class=\"verified\" title=\"checked by nimbook when the site was built\">",
            $text,
            "</span>"
        )
    };
}

/// The mark beside a claim that holds.
pub(crate) const VERIFIED: &str = verified_mark!("✓ verified");

/// The mark beside one checked step of a derivation, an expansion or an inline claim.
pub(crate) const VERIFIED_STEP: &str = verified_mark!("✓");

/// The mark of a claim that holds: for a quantified claim it says how the claim was
/// established (`✓ proved (polynomial identity)`, `✓ checked (256 cases)`); otherwise
/// `fallback`.
fn mark(c: &Checked, fallback: &str) -> String {
    match c.established {
        Some(how) => format!(
            "<span class=\"verified\" title=\"{how} by nimbook when the site was built\">✓ {how}</span>"
        ),
        None => fallback.to_string(),
    }
}

/// A `nim` block: one row per statement, a mark beside each claim that holds.
pub(crate) fn block(results: &[Checked]) -> String {
    let mut html = String::from("<div class=\"nim-claims\">\n");
    for c in results {
        if let Some(rows) = calc_rows(c) {
            html.push_str(&rows);
            continue;
        }
        html.push_str(&format!(
            "<div class=\"nim-claim {}\">{}",
            status_class(c.status),
            statement_math(c, false)
        ));
        if c.status == Status::Holds {
            html.push_str(&mark(c, VERIFIED));
        }
        html.push_str("</div>\n");
    }
    html.push_str("</div>\n");
    html
}

/// A chain written over several lines (a calc derivation) is shown the same way: one row per
/// line, each link with its own mark.
fn calc_rows(c: &Checked) -> Option<String> {
    use crate::claim::ast::{Claim, Statement};
    let Some(Statement::Claim(Claim::Chain(chain))) = c.stmt.as_ref().map(|s| &s.stmt) else {
        return None;
    };
    if !c.source.contains('\n') {
        return None;
    }
    let mut html = format!("<div class=\"nim-calc {}\">", status_class(c.status));
    let mut first = String::new();
    mathml::expr(&mut first, &chain.first);
    html.push_str(&format!(
        "<div class=\"nim-claim step\">{}</div>",
        mathml::math(&first, false, &chain.first.to_string())
    ));
    for link in &chain.links {
        let mut inner = format!("<mo>{}</mo>", link.rel.symbol());
        mathml::expr(&mut inner, &link.rhs);
        html.push_str(&format!(
            "<div class=\"nim-claim step\">{}{}</div>",
            mathml::math(&inner, false, &link.rhs.to_string()),
            if c.status == Status::Holds {
                VERIFIED_STEP
            } else {
                ""
            }
        ));
    }
    html.push_str("</div>\n");
    Some(html)
}

/// A `` `nim: …` `` code span: a value, or a claim with its mark.
pub(crate) fn inline(c: &Checked) -> String {
    match (c.status, &c.value) {
        (Status::Value, Some(v)) => {
            let mut inner = String::new();
            mathml::value(&mut inner, v);
            format!(
                "<span class=\"nim-value\" title=\"{} — computed when the site was built\">{}</span>",
                escape(&c.source),
                mathml::math(&inner, false, &super::notation::value_text(v))
            )
        }
        _ => format!(
            "<span class=\"nim-claim inline {}\">{}{}</span>",
            status_class(c.status),
            statement_math(c, false),
            if c.status == Status::Holds {
                mark(c, VERIFIED_STEP)
            } else {
                String::new()
            }
        ),
    }
}
