//! `criterion(name)`: a criterion a prover applies, shown in the words written once beside the
//! code that checks it (`claim::CRITERIA`), so that a lesson cannot state one criterion while the
//! prover checks another.

use super::args::{error, math_runs, str_arg};
use crate::claim::{Directive, CRITERIA};
use crate::diag::{nearest, Diagnostic};
use crate::site::lesson::blocks::{Block, Criterion, CriterionPart};
use crate::site::lesson::context::DirectiveEnv;

/// `criterion(name)`.
pub(super) fn criterion(env: &mut DirectiveEnv<'_>, d: &Directive) -> Result<Block, Diagnostic> {
    let at = &d.args[0];
    let name = str_arg(env, at, "\"guy-smith\"")?;
    let Some(found) = CRITERIA.iter().find(|c| c.name == name) else {
        let names = || CRITERIA.iter().map(|c| c.name);
        let listed: Vec<String> = names().map(|n| format!("\"{n}\"")).collect();
        let diag = error(env, &at.1, format!("no criterion is named \"{name}\""));
        let diag = match nearest(name, names()) {
            Some(best) => diag.help(format!("did you mean \"{best}\"?")),
            None => diag,
        };
        return Err(diag.help(format!("the criteria are {}", listed.join(", "))));
    };
    let mut parts: Vec<CriterionPart> = Vec::new();
    for paragraph in found.statement.split("\n\n") {
        match condition(paragraph) {
            Some(text) => {
                let item = math_runs(env, text, &at.1, "criterion")?;
                match parts.last_mut() {
                    Some(CriterionPart::Conditions(items)) => items.push(item),
                    _ => parts.push(CriterionPart::Conditions(vec![item])),
                }
            }
            None => parts.push(CriterionPart::Paragraph(math_runs(
                env,
                paragraph,
                &at.1,
                "criterion",
            )?)),
        }
    }
    Ok(Block::Criterion(Criterion {
        title: found.title.to_string(),
        parts,
    }))
}

/// The text of a numbered condition (`2. The residues: …`), or `None` for a paragraph.
fn condition(paragraph: &str) -> Option<&str> {
    let (number, rest) = paragraph.split_once(". ")?;
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::condition;

    #[test]
    fn a_numbered_paragraph_is_a_condition() {
        assert_eq!(condition("1. The shift: $x$."), Some("The shift: $x$."));
        assert_eq!(condition("12. More."), Some("More."));
        assert_eq!(condition("Then $g(n)$. It holds."), None);
        assert_eq!(condition(". Empty number"), None);
    }
}
