//! The rendering read back as ordinary mathematics, by a reader that knows nothing of nimbook.
//!
//! For every pair of operators (nim, ordinary, on ordinals, and mixed) and both groupings,
//! the expression is checked by the claim checker, its MathML is read with every invisible
//! `<mrow>` dropped (only what is drawn counts: numerals, letters, operators, brackets, and a
//! superscript's raised position), and the reading is evaluated by the arithmetic written
//! below, from the definitions. The value must be the one the checker computed, read back
//! from its own rendering the same way; and the statement's plain text must read the same.
//!
//! The oracle's arithmetic: nim-sum is XOR; nim-product is the mex definition's closed form
//! for Fermat 2-powers, computed recursively; ordinals below ω³ are polynomials
//! `c₂ω² + c₁ω + c₀` with finite coefficients, where nim arithmetic reduces by `ω³ = 2`
//! (Conway: ω is the least cube root of 2 over the finite nimbers) and ordinary arithmetic
//! is Cantor's.

use crate::claim::{Checker, Limits, MappedText, Status};
use crate::diag::SourceFile;

/// What the reader sees.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(u64),
    Omega,
    Op(String),
    Open(char),
    Close(char),
    /// A superscript: drawn raised, so it is one group whatever it holds.
    Group(Vec<Tok>),
}

/// A value the reader computes: an ordinal below ω³ as `[c₀, c₁, c₂]` (a natural number is
/// `[n, 0, 0]`).
type Ord3 = [u64; 3];

/// The nim-product from its recursive definition on Fermat 2-powers: for `a, b < 2^(2k)`
/// split at `2^k = F`, with `F ⊗ F = F·3/2`.
fn nim_mul(a: u64, b: u64) -> u64 {
    fn go(a: u64, b: u64, bits: u32) -> u64 {
        if a < 2 || b < 2 {
            return a * b;
        }
        let half = bits / 2;
        let mask = (1u64 << half) - 1;
        let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
        let hh = go(a1, b1, half);
        let low = go(a0, b0, half);
        // a₁b₁ ⊕ a₁b₀ ⊕ a₀b₁, by Karatsuba.
        let high = go(a1 ^ a0, b1 ^ b0, half) ^ low;
        // F ⊗ F = F ⊕ F/2, so a₁b₁·F² = a₁b₁·F ⊕ a₁b₁ ⊗ (F/2), and the first part is in `high`.
        (high << half) ^ low ^ go(hh, 1 << (half - 1), half)
    }
    go(a, b, 64)
}

fn ord_nim_add(a: Ord3, b: Ord3) -> Ord3 {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2]]
}

fn ord_nim_mul(a: Ord3, b: Ord3) -> Ord3 {
    let mut p = [0u64; 5];
    for i in 0..3 {
        for j in 0..3 {
            p[i + j] ^= nim_mul(a[i], b[j]);
        }
    }
    // ω³ = 2, ω⁴ = 2 ⊗ ω.
    [p[0] ^ nim_mul(p[3], 2), p[1] ^ nim_mul(p[4], 2), p[2]]
}

fn degree(a: Ord3) -> Option<usize> {
    (0..3).rev().find(|&i| a[i] != 0)
}

/// Cantor's sum: the terms of `a` below the leading term of `b` are absorbed.
fn ord_add(a: Ord3, b: Ord3) -> Ord3 {
    match degree(b) {
        None => a,
        Some(d) => {
            let mut r = b;
            r[d] += a[d];
            r[d + 1..].copy_from_slice(&a[d + 1..]);
            r
        }
    }
}

/// Cantor's product with a finite right factor, or by a power of ω on the right.
fn ord_mul(a: Ord3, b: Ord3) -> Option<Ord3> {
    match (degree(a), degree(b)) {
        (None, _) | (_, None) => Some([0; 3]),
        (Some(da), Some(0)) => {
            let mut r = a;
            r[da] *= b[0];
            Some(r)
        }
        // A finite left factor is absorbed: n·ω^k·c = ω^k·c.
        (Some(0), Some(_)) => Some(b),
        (Some(da), Some(db)) if b[..db].iter().all(|&c| c == 0) && da + db < 3 => {
            let mut r = [0; 3];
            r[da + db] = a[da] * b[db];
            Some(r)
        }
        _ => None,
    }
}

fn finite(a: Ord3) -> Option<u64> {
    (a[1] == 0 && a[2] == 0).then_some(a[0])
}

struct Reader {
    toks: Vec<Tok>,
    pos: usize,
}

impl Reader {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn binding(op: &str) -> Option<u8> {
        match op {
            "⊕" | "+" | "−" => Some(1),
            "⊗" | "·" | "⊘" | "/" | "mod" => Some(2),
            "^" | "^⊗" => Some(3),
            _ => None,
        }
    }

    /// Ordinary precedence, left to right; a power takes the one group after it.
    fn expr(&mut self, min: u8) -> Ord3 {
        let mut lhs = self.primary();
        while let Some(Tok::Op(op)) = self.peek().cloned() {
            let Some(p) = Self::binding(&op) else { break };
            if p < min {
                break;
            }
            self.next();
            let rhs = if p == 3 {
                self.primary()
            } else {
                self.expr(p + 1)
            };
            lhs = apply(&op, lhs, rhs);
        }
        lhs
    }

    fn primary(&mut self) -> Ord3 {
        match self.next() {
            Some(Tok::Num(n)) => [n, 0, 0],
            Some(Tok::Omega) => [0, 1, 0],
            Some(Tok::Open(c)) => {
                let v = self.expr(0);
                let close = self.next();
                match (c, close) {
                    ('(', Some(Tok::Close(')'))) => v,
                    ('⌊', Some(Tok::Close('⌋'))) => v,
                    other => panic!("unbalanced brackets: {other:?}"),
                }
            }
            Some(Tok::Group(inner)) => {
                let mut r = Reader {
                    toks: inner,
                    pos: 0,
                };
                let v = r.expr(0);
                assert!(r.peek().is_none(), "a superscript read only in part");
                v
            }
            other => panic!("expected a value, found {other:?}"),
        }
    }
}

fn apply(op: &str, a: Ord3, b: Ord3) -> Ord3 {
    let fin = |x: Ord3| finite(x).unwrap_or_else(|| panic!("{op} needs a natural, got {x:?}"));
    match op {
        "⊕" => ord_nim_add(a, b),
        "⊗" => ord_nim_mul(a, b),
        "⊘" => {
            let (x, y) = (fin(a), fin(b));
            let inv = (1..256)
                .find(|&i| nim_mul(y, i) == 1)
                .expect("an inverse below 256");
            [nim_mul(x, inv), 0, 0]
        }
        "^⊗" => (0..fin(b)).fold([1, 0, 0], |acc, _| ord_nim_mul(acc, a)),
        "+" => ord_add(a, b),
        "−" => [fin(a) - fin(b), 0, 0],
        "·" => ord_mul(a, b).unwrap_or_else(|| panic!("{a:?} · {b:?} is beyond the oracle")),
        "/" => [fin(a) / fin(b), 0, 0],
        "mod" => [fin(a) % fin(b), 0, 0],
        "^" => match finite(a) {
            Some(x) => [x.pow(u32::try_from(fin(b)).unwrap_or(0)), 0, 0],
            None if a == [0, 1, 0] => {
                let mut r = [0; 3];
                r[usize::try_from(fin(b)).unwrap_or(3)] = 1;
                r
            }
            None => panic!("a power of {a:?} is beyond the oracle"),
        },
        _ => panic!("unknown operator {op}"),
    }
}

/// The tokens a reader sees in MathML: tags are dropped (`<mrow>` draws nothing), a
/// `<msup>` is its base, then `^` (or `^⊗` when the exponent starts with `⊗`) and its
/// exponent as one group.
fn read_mathml(markup: &str) -> Vec<Tok> {
    let mut stack: Vec<(String, Vec<Tok>)> = vec![(String::new(), Vec::new())];
    let mut rest = markup;
    while !rest.is_empty() {
        let lt = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..lt];
        if !text.is_empty() {
            let tag = stack.last().map(|s| s.0.clone()).unwrap_or_default();
            let text = text
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#160;", " ");
            let toks = &mut stack.last_mut().expect("a frame").1;
            match tag.as_str() {
                "mn" => toks.push(Tok::Num(text.parse().expect("a numeral"))),
                "mi" if text == "ω" => toks.push(Tok::Omega),
                "mo" => toks.push(match text.as_str() {
                    "(" | "⌊" => Tok::Open(text.chars().next().unwrap_or('(')),
                    ")" | "⌋" => Tok::Close(text.chars().next().unwrap_or(')')),
                    op => Tok::Op(op.to_string()),
                }),
                other => panic!("unexpected text {text:?} in <{other}>"),
            }
        }
        rest = &rest[lt..];
        if rest.is_empty() {
            break;
        }
        let gt = rest.find('>').expect("a closed tag");
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let name = tag.split_whitespace().next().unwrap_or("");
        if let Some(closing) = name.strip_prefix('/') {
            let (open, toks) = stack.pop().expect("an open element");
            assert_eq!(open, closing);
            let (parent_tag, parent) = stack.last_mut().expect("a parent");
            if closing == "msup" {
                parent.extend(superscript(toks));
            } else if parent_tag == "msup" {
                // The base and the exponent of a power are its two pieces.
                parent.push(Tok::Group(toks));
            } else {
                // Every other element draws its content in line: an `<mrow>` is invisible.
                parent.extend(toks);
            }
        } else if !tag.ends_with('/') {
            stack.push((name.to_string(), Vec::new()));
        }
    }
    stack.pop().expect("the root").1
}

/// A `<msup>`'s two children, as base tokens, the power operator and the exponent group.
fn superscript(children: Vec<Tok>) -> Vec<Tok> {
    let [Tok::Group(base), Tok::Group(mut exp)] = <[Tok; 2]>::try_from(children)
        .unwrap_or_else(|c| panic!("a msup of two children, got {c:?}"))
    else {
        panic!("a msup of two elements");
    };
    let op = if exp.first() == Some(&Tok::Op("⊗".into())) {
        exp.remove(0);
        "^⊗"
    } else {
        "^"
    };
    let mut out = base;
    out.push(Tok::Op(op.into()));
    out.push(Tok::Group(exp));
    out
}

/// The tokens of the plain text (the `alttext`): a power's exponent is the group after `^`.
fn read_text(text: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' => {}
            '0'..='9' => {
                let start = i;
                while i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
                    i += 1;
                }
                let s: String = chars[start..=i].iter().collect();
                toks.push(Tok::Num(s.parse().expect("a numeral")));
            }
            'ω' => toks.push(Tok::Omega),
            '(' | '⌊' => toks.push(Tok::Open(c)),
            ')' | '⌋' => toks.push(Tok::Close(c)),
            '^' if chars.get(i + 1) == Some(&'⊗') => {
                i += 1;
                toks.push(Tok::Op("^⊗".into()));
            }
            'm' if chars[i..].starts_with(&['m', 'o', 'd']) => {
                i += 2;
                toks.push(Tok::Op("mod".into()));
            }
            _ => toks.push(Tok::Op(c.to_string())),
        }
        i += 1;
    }
    toks
}

fn read(toks: Vec<Tok>) -> Ord3 {
    let mut r = Reader { toks, pos: 0 };
    let v = r.expr(0);
    assert!(
        r.peek().is_none(),
        "read only in part: {:?}",
        &r.toks[r.pos..]
    );
    v
}

/// Checks one expression: the checker's value, read back from its rendering, equals the
/// reading of the expression's MathML and of its text. An expression with no value (a
/// division by zero, an ordinary subtraction below zero) is not counted.
fn holds_as_read(source: &str, checker: &mut Checker) -> usize {
    let checked = checker.check_inline(&MappedText::contiguous(source, 0));
    if checked.status == Status::Error {
        return 0;
    }
    assert_eq!(checked.status, Status::Value, "{source}");
    let (Some(stmt), Some(value)) = (&checked.stmt, &checked.value) else {
        panic!("{source}: no value");
    };
    let mut expr = String::new();
    super::statement(&mut expr, &stmt.stmt, None, None);
    let mut shown = String::new();
    super::value(&mut shown, value);
    let computed = read(read_mathml(&shown));
    let as_drawn = read(read_mathml(&expr));
    assert_eq!(as_drawn, computed, "{source} is drawn as {expr}");
    let text = crate::site::lesson::notation::statement_text(&stmt.stmt, None, None);
    assert_eq!(
        read(read_text(&text)),
        computed,
        "{source} is written as {text}"
    );
    1
}

#[test]
fn every_operator_pair_reads_as_it_was_computed() {
    let limits = Limits::default();
    let mut checker = Checker::new(SourceFile::new("<test>", ""), limits);
    let nim_ops = ["+", "*", "/"];
    let int_ops = ["+", "-", "*", "/", "mod"];
    let nimbers = ["7", "6", "3"];
    let mut cases = 0;
    // Nim operations, with ordinary parts and powers mixed in.
    let nim_operands = [
        "7",
        "6",
        "3",
        "int(2 + 3)",
        "int(7 - 2 * 3)",
        "3 ^ 2",
        "int(2 ^ 3)",
    ];
    for a in nim_operands {
        for op1 in nim_ops {
            for b in nimbers {
                for op2 in nim_ops {
                    for c in nim_operands {
                        for src in [
                            format!("{a} {op1} {b} {op2} {c}"),
                            format!("{a} {op1} ({b} {op2} {c})"),
                            format!("({a} {op1} {b}) {op2} {c}"),
                            format!("({a} {op1} {b}) ^ 2 {op2} {c}"),
                            format!("{a} {op1} int({b} + {c} mod 4)"),
                        ] {
                            cases += holds_as_read(&src, &mut checker);
                        }
                    }
                }
            }
        }
    }
    // Ordinary operations inside `int(…)`, and `mod` beside nim operations.
    for op1 in int_ops {
        for op2 in int_ops {
            for src in [
                format!("int(17 {op1} 5 {op2} 3)"),
                format!("int(17 {op1} (5 {op2} 3))"),
                format!("int((17 {op1} 5) {op2} 3)"),
                format!("int(2 ^ (3 {op1} 1) {op2} 3)"),
                format!("6 * int(17 {op1} 5) + int(9 {op2} 2)"),
                format!("13 mod int(17 {op1} 5) * 3"),
            ] {
                cases += holds_as_read(&src, &mut checker);
            }
        }
    }
    // Ordinals: sums and products whose terms must stay together.
    let ordinals = [
        "ord(\"w\")",
        "ord(\"w + 1\")",
        "ord(\"w*2\")",
        "ord(\"w^2\")",
        "ord(\"w^2*3 + w\")",
        "ord(\"w^2 + w*5 + 1\")",
        "3",
    ];
    for a in ordinals {
        for op1 in ["+", "*"] {
            for b in ordinals {
                for src in [
                    format!("{a} {op1} {b}"),
                    format!("{a} {op1} {b} * 2"),
                    format!("2 * {a} {op1} {b}"),
                    format!("{a} {op1} {b} + 1"),
                    format!("({a} {op1} {b}) ^ 2"),
                    format!("{a} ^ 2 {op1} {b}"),
                ] {
                    cases += holds_as_read(&src, &mut checker);
                }
            }
        }
    }
    assert!(cases > 3000, "{cases}");
}

#[test]
fn the_oracle_tells_groupings_apart() {
    // The reader is only a witness if a lost bracket changes what it reads.
    assert_ne!(read(read_text("ω + 1 ⊗ 2")), read(read_text("(ω + 1) ⊗ 2")));
    assert_eq!(read(read_text("(ω + 1) ⊗ 2")), [2, 2, 0]);
    assert_eq!(read(read_text("ω ⊗ ω ⊗ ω")), [2, 0, 0]);
    assert_eq!(read(read_text("ω^2·3 + ω")), [0, 1, 3]);
    assert_eq!(read(read_text("ω·2 + ω")), [0, 3, 0]);
    assert_eq!(nim_mul(2, 2), 3);
    assert_eq!(nim_mul(6, 13), 15);
    assert_eq!(nim_mul(16, 16), 24);
    assert_eq!(nim_mul(8, 8), 13);
}

#[test]
fn codes_keep_their_quotes_and_arguments_their_single_brackets() {
    let limits = Limits::default();
    let mut checker = Checker::new(SourceFile::new("<test>", ""), limits);
    for (source, text) in [
        ("grundy(octal(\"0.77\", 5))", "grundy(octal(\"0.77\", 5))"),
        ("grundy(kayles(int(3 + 1)))", "grundy(kayles(3 + 1))"),
        ("6 + int(3 + 1)", "6 ⊕ (3 + 1)"),
        ("2 ^ int(1 + 1)", "2^⊗(1 + 1)"),
    ] {
        let checked = checker.check_inline(&MappedText::contiguous(source, 0));
        let stmt = checked.stmt.expect("a statement");
        assert_eq!(
            crate::site::lesson::notation::statement_text(&stmt.stmt, None, None),
            text
        );
        let mut m = String::new();
        super::statement(&mut m, &stmt.stmt, None, None);
        assert!(!m.contains("<ms>"), "{m}");
        if source.contains("0.77") {
            assert!(m.contains("<mtext>\"0.77\"</mtext>"), "{m}");
        }
        // A superscript is drawn raised, so its exponent needs no brackets in MathML.
        if !source.starts_with("2 ^") {
            assert_eq!(
                m.matches(">(</mo>").count(),
                text.matches('(').count(),
                "{m}"
            );
        }
    }
}
