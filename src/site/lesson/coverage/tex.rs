//! LaTeX: which numerals of a formula are facts and which are notation (see the module docs of
//! `coverage`).

use std::ops::Range;

/// What the coverage scan reads in one formula.
pub(super) struct Formula {
    /// Whether the formula states something (a relation, or a single number).
    pub(super) states: bool,
    /// The byte ranges of its facts.
    pub(super) facts: Vec<Range<usize>>,
    /// The formula in the claim language, if it translates (for a help line).
    pub(super) claim: Option<String>,
}

/// Commands whose argument is text or a name, never a fact.
const NAMING: &[&str] = &[
    "text",
    "textrm",
    "textbf",
    "textit",
    "mathrm",
    "mathit",
    "mathbf",
    "mathsf",
    "mathtt",
    "mathbb",
    "mathcal",
    "mathfrak",
    "operatorname",
    "label",
    "tag",
    "begin",
    "end",
    "hspace",
    "vspace",
];

/// Greek letters that name variables (`\omega` is the constant ω, so it is not here).
const GREEK: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Phi",
    "Psi",
    "Omega",
];

/// Relation commands.
const RELATIONS: &[&str] = &[
    "neq", "ne", "le", "leq", "ge", "geq", "lt", "gt", "equiv", "approx", "cong",
];

/// Reads a formula as TeX does, one token at a time, keeping track of scripts and groups.
pub(super) fn read_tex(tex: &str) -> Formula {
    let mut r = TexReader {
        tex,
        states: false,
        variable: false,
        baseline: Vec::new(),
        depth: 0,
        notation_from: None,
        script_next: false,
        claim: String::new(),
        translatable: true,
    };
    let mut i = 0;
    while i < tex.len() {
        i = r.token(i);
    }
    let trimmed = tex.trim();
    let single_number = !trimmed.is_empty()
        && trimmed
            .bytes()
            .all(|c| c.is_ascii_digit() || c == b'.' || c == b',');
    Formula {
        states: (r.states && !r.variable) || single_number,
        facts: r.baseline,
        claim: r.translatable.then_some(r.claim),
    }
}

/// The state of [`read_tex`] between tokens.
struct TexReader<'t> {
    tex: &'t str,
    /// A relation was read outside notation.
    states: bool,
    /// A variable was read on the baseline.
    variable: bool,
    /// The numerals read on the baseline so far.
    baseline: Vec<Range<usize>>,
    /// The group depth.
    depth: usize,
    /// The group depth at which notation began (a script group or a naming command's argument).
    notation_from: Option<usize>,
    /// The next token (or group) is a script, or a naming command's argument.
    script_next: bool,
    /// The formula translated into the claim language, for a help line.
    claim: String,
    /// Whether every token so far translated.
    translatable: bool,
}

impl TexReader<'_> {
    /// Reads the token at byte `i` and returns where the next one starts.
    fn token(&mut self, i: usize) -> usize {
        let b = self.tex.as_bytes();
        let c = b[i];
        let in_notation = self.notation_from.is_some();
        match c {
            b'\\' => return self.command(i),
            b'{' => {
                self.depth += 1;
                if self.script_next && !in_notation {
                    self.notation_from = Some(self.depth);
                }
                self.script_next = false;
                self.claim.push('(');
            }
            b'}' => {
                if self.notation_from == Some(self.depth) {
                    self.notation_from = None;
                }
                self.depth = self.depth.saturating_sub(1);
                self.claim.push(')');
            }
            b'^' | b'_' => {
                self.script_next = true;
                // The base of a script is notation: `2^8`, `2^{2^n}`.
                if let Some(last) = self.baseline.last() {
                    if self.tex[last.end..i].trim().is_empty() {
                        self.baseline.pop();
                    }
                }
                if c == b'_' {
                    self.translatable = false;
                }
                self.claim.push('^');
            }
            b'0'..=b'9' => return self.numeral(i),
            b'=' | b'<' | b'>' => {
                if !in_notation {
                    self.states = true;
                }
                self.script_next = false;
                self.claim.push(c as char);
            }
            b' ' | b'\n' | b'\t' => self.claim.push(' '),
            b'(' | b')' | b'+' | b'*' => {
                self.script_next = false;
                self.claim.push(c as char);
            }
            _ => return self.other(i),
        }
        i + 1
    }

    /// A numeral at byte `i`: a one-digit script, or a number on the baseline or in notation.
    fn numeral(&mut self, i: usize) -> usize {
        let b = self.tex.as_bytes();
        if self.script_next {
            // TeX takes one character as an unbraced script.
            self.script_next = false;
            self.claim.push_str(&self.tex[i..i + 1]);
            return i + 1;
        }
        let end = b[i..]
            .iter()
            .position(|c| !c.is_ascii_digit() && *c != b'.')
            .map_or(b.len(), |n| i + n);
        if self.notation_from.is_none() {
            self.baseline.push(i..end);
        }
        self.claim.push_str(&self.tex[i..end]);
        end
    }

    /// A command `\name` or a control symbol such as `\{` or `\,` at byte `i`.
    fn command(&mut self, i: usize) -> usize {
        let (tex, b) = (self.tex, self.tex.as_bytes());
        let in_notation = self.notation_from.is_some();
        let name_end = b[i + 1..]
            .iter()
            .position(|c| !c.is_ascii_alphabetic())
            .map_or(b.len(), |n| i + 1 + n);
        let name = &tex[i + 1..name_end];
        let end = if name.is_empty() {
            // A control symbol: one character.
            (i + 1 + tex[i + 1..].chars().next().map_or(0, char::len_utf8)).min(b.len())
        } else {
            name_end
        };
        if RELATIONS.contains(&name) && !in_notation {
            self.states = true;
        }
        if GREEK.contains(&name) && !in_notation && !self.script_next {
            self.variable = true;
        }
        match name {
            "otimes" => self.claim.push('*'),
            "oplus" => self.claim.push('+'),
            "neq" | "ne" => self.claim.push('≠'),
            "le" | "leq" => self.claim.push('≤'),
            "ge" | "geq" => self.claim.push('≥'),
            "quad" | "qquad" => self.claim.push(' '),
            // Spacing: `\,`, `\;`, `\!`, `\ `.
            "" if matches!(b.get(i + 1), Some(b',' | b';' | b'!' | b' ')) => self.claim.push(' '),
            _ => self.translatable = false,
        }
        if NAMING.contains(&name) && !in_notation {
            self.script_next = true;
        } else if self.script_next {
            self.script_next = false;
        }
        end
    }

    /// Any other token (a letter, a symbol, a multi-byte character) at byte `i`: it ends a
    /// pending script after itself.
    fn other(&mut self, i: usize) -> usize {
        let in_notation = self.notation_from.is_some();
        let ch = self.tex[i..].chars().next().unwrap_or(' ');
        if ch.is_alphabetic() && !in_notation && !self.script_next {
            self.variable = true;
        }
        match ch {
            '≤' | '≥' | '≠' if !in_notation => {
                self.states = true;
                self.claim.push(ch);
            }
            '⊗' | '⊕' => self.claim.push(ch),
            _ => self.translatable = false,
        }
        self.script_next = false;
        i + ch.len_utf8().max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::lesson::coverage::scan::parses_as_claim;

    fn facts(tex: &str) -> Vec<&str> {
        let f = read_tex(tex);
        if !f.states {
            return Vec::new();
        }
        f.facts.iter().map(|r| &tex[r.clone()]).collect()
    }

    #[test]
    fn latex_facts_are_baseline_numerals_of_stating_formulas() {
        assert_eq!(facts(r"6 \otimes 13 = 15"), ["6", "13", "15"]);
        assert_eq!(facts("15"), ["15"]);
        assert_eq!(facts(r"\omega^3 = 2"), ["2"]);
        assert_eq!(facts(r"(\omega^\omega)^5 = 4"), ["4"]);
        assert_eq!(facts(r"2^8 = 256"), ["256"]);
        assert_eq!(facts(r"\ast 3 + \ast 5 = \ast 6"), ["3", "5", "6"]);
        assert_eq!(facts(r"|\mathrm{GF}(2^4)| = 16"), ["16"]);
        assert_eq!(facts(r"3 \le 4"), ["3", "4"]);
    }

    #[test]
    fn latex_notation_is_not_a_fact() {
        for tex in [
            r"2^{2^n}",
            r"a_1",
            r"\mathrm{GF}(2^8)",
            r"6 \otimes 13",
            r"x^{10} = y",
            r"\text{case 3} = y",
            r"\mathbb{F}_{16} = F",
            r"2^{2^n} = F_n",
            r"x^2 + x = 1",
            r"a_1 \neq 3",
            r"a = 0",
            r"\alpha \otimes 1 = \alpha",
            r"\mathcal{G}(G) = 0",
        ] {
            assert_eq!(facts(tex), Vec::<&str>::new(), "{tex}");
        }
    }

    #[test]
    fn a_latex_equation_translates_to_a_claim() {
        let f = read_tex(r"6 \otimes 12 = 9");
        assert_eq!(f.claim.as_deref(), Some("6 * 12 = 9"));
        assert!(parses_as_claim("6 * 12 = 9"));
        assert_eq!(read_tex(r"\omega^3 = 2").claim, None);
    }
}
