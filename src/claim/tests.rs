//! Unit tests of the lexer, parser, evaluator and checker.

use super::*;
use crate::diag::SourceFile;

fn checker(text: &str) -> Checker {
    Checker::new(SourceFile::new("t.md", text), Limits::default())
}

/// Runs a block and returns (claims, failed, first diagnostic message and position).
fn run(text: &str) -> (usize, usize, Vec<(String, usize, usize)>) {
    let mut c = checker(text);
    c.check_block(&MappedText::contiguous(text, 0));
    let diags = c
        .diagnostics()
        .iter()
        .map(|d| {
            let (_, l, col) = d.position().unwrap_or_default();
            (d.message.clone(), l, col)
        })
        .collect();
    let failed = c
        .diagnostics()
        .iter()
        .filter(|d| d.level == crate::diag::Level::Error)
        .count();
    (c.claims(), failed, diags)
}

fn value(expr: &str) -> Result<String, String> {
    let mut c = checker("");
    calc(expr, &mut c)
}

/// Asserts that `expr` evaluates to `want`.
fn value_is(expr: &str, want: &str) {
    assert_eq!(value(expr), Ok(want.to_string()), "{expr}");
}

/// Asserts that each expression evaluates to its value.
fn values_are(cases: &[(&str, &str)]) {
    for &(expr, want) in cases {
        value_is(expr, want);
    }
}

/// Asserts that `expr` is refused with an error that says `want`.
fn error_contains(expr: &str, want: &str) {
    let e = value(expr).err().unwrap_or_default();
    assert!(e.contains(want), "{expr}: {e}");
}

#[test]
fn nim_and_ordinary_arithmetic() {
    values_are(&[
        ("6 * 13", "15"),
        ("6 ⊗ 13", "15"),
        ("7 ⊕ 14", "9"),
        ("0x10 * 0x10", "24"),
        ("1_000 + 0", "1000"),
        // Products bind tighter than sums; powers tighter than products.
        ("2 + 3 * 3", "0"),
        ("(2 + 3) * 3", "3"),
        ("2 ^ 2", "3"),
        ("2 * 2 ^ 2", "1"),
        // Ordinary arithmetic only inside int(…), and in exponents.
        ("int(3 * 16 / 2)", "24"),
        ("int(7 - 2 · 3)", "1"),
        ("int(2 ^ 10)", "1024"),
        ("2 ^ (1 + 1)", "3"),
        ("13 mod 4", "1"),
        ("100 / 100", "1"),
        ("mex([0, 1, 3])", "2"),
        ("[1, 2 + 3]", "[1, 1]"),
        ("fermat(3)", "256"),
    ]);
}

#[test]
fn claims_answer_true_or_false() {
    values_are(&[
        ("6 * 13 = 15", "true"),
        ("6 * 13 = 14", "false"),
        ("1 < 2 ≤ 2 ≠ 3", "true"),
        ("3 >= 4", "false"),
    ]);
}

#[test]
fn errors_are_one_line_with_a_column() {
    let e = value("1 / 0").err().unwrap_or_default();
    assert!(e.starts_with("division by zero"), "{e}");
    let e = value("mux([1])").err().unwrap_or_default();
    assert!(
        e.contains("unknown function `mux`") && e.contains("`mex`"),
        "{e}"
    );
    error_contains("3 - 1", "only allowed inside `int(…)`");
    error_contains("int(1 - 3)", "negative");
    error_contains("2 + ", "(column 5)");
    error_contains("0x", "not a number");
    error_contains("x + 1", "unknown name `x`");
}

#[test]
fn chains_name_the_failing_link() {
    let (claims, failed, diags) = run("1 + 1 = 0 = 1 = 1\n");
    assert_eq!((claims, failed), (3, 1));
    assert_eq!(diags, vec![("claim does not hold".into(), 1, 9)]);
}

#[test]
fn calc_chains_continue_on_lines_starting_with_a_relation() {
    let text = "10 * 7\n  = (8 + 2) * (4 + 2 + 1)\n  = 6\n\n5 = 5\n";
    let (claims, failed, diags) = run(text);
    assert_eq!((claims, failed, diags), (3, 0, vec![]));
    let bad = "10 * 7\n  = 6\n  = 7\n";
    let (claims, failed, diags) = run(bad);
    assert_eq!((claims, failed), (2, 1));
    assert_eq!(diags, vec![("claim does not hold".into(), 2, 5)]);
}

#[test]
fn let_bindings_are_seen_by_later_claims() {
    let (claims, failed, _) = run("let f = 16\nf * f = int(3 * f / 2)\n");
    assert_eq!((claims, failed), (1, 0));
    let (_, failed, diags) = run("g * 2 = 1\nlet g = 1\n");
    assert_eq!(failed, 1);
    assert_eq!(diags[0].0, "unknown name `g`");
}

#[test]
fn quantifiers_find_counterexamples_and_witnesses() {
    let (claims, failed, _) = run("forall a, b < 64: a * b = b * a\nexists x < 16: x * x = 2\n");
    assert_eq!((claims, failed), (2, 0));
    let mut c = checker("");
    let text = "forall a < 10, b < 10: a + b = int(a + b)\n";
    c.check_block(&MappedText::contiguous(text, 0));
    let notes = &c.diagnostics()[0].notes;
    assert!(
        notes[0].starts_with("counterexample: a = 1, b = 1"),
        "{notes:?}"
    );
    let (_, failed, diags) = run("exists x < 4: x * x = 5\n");
    assert_eq!(failed, 1);
    assert_eq!(diags[0].0, "no case satisfies the claim");
}

#[test]
fn hostile_input_is_refused_with_a_bound() {
    // 100 000 nested parentheses: a depth error, not a stack overflow.
    let deep = format!("{}1{} = 1", "(".repeat(100_000), ")".repeat(100_000));
    let (_, failed, diags) = run(&deep);
    assert_eq!(failed, 1);
    assert!(diags[0].0.contains("nested more than"), "{diags:?}");
    // A 10^6-digit number is refused before it is converted.
    let huge = format!("{} = 1", "9".repeat(1_000_000));
    let (_, _, diags) = run(&huge);
    assert!(diags[0].0.contains("limit"), "{diags:?}");
    // A quantifier over 2^64 values that no method proves is over the budget, and says how
    // large it was.
    let (_, _, diags) = run("forall a, b < 4294967296: inv(a + 1) = inv(a + 1)\n");
    assert!(
        diags[0].0.contains("18446744073709551616 cases"),
        "{diags:?}"
    );
    // A long flat sum is bounded by the node budget.
    let long = format!("{} = 0", vec!["1"; 5000].join(" + "));
    let (_, _, diags) = run(&long);
    assert!(diags[0].0.contains("too large"), "{diags:?}");
    // Ordinary powers are checked against the size budget before computing.
    error_contains("int(2 ^ 1000000000)", "budget");
}

#[test]
fn every_error_in_a_block_is_reported() {
    let text = "1 = 2\n(1 +\n3 = 3\n2 = 3\n";
    let (claims, failed, diags) = run(text);
    assert_eq!(claims, 3);
    assert_eq!(failed, 3);
    let lines: Vec<usize> = diags.iter().map(|d| d.1).collect();
    assert_eq!(lines, vec![1, 2, 4]);
}

#[test]
fn spans_point_at_the_failing_sub_expression() {
    let (_, _, diags) = run("# a comment\n  2 * (3 / 0) = 1\n");
    assert_eq!(diags, vec![("division by zero: 3 ⊘ 0".into(), 2, 8)]);
}

#[test]
fn display_uses_nim_symbols() {
    let toks = lexer::lex("(2 + 3) * x ^ 2", &Limits::default()).unwrap_or_default();
    let s = parser::parse_statement(&toks, &Limits::default(), true);
    let shown = match s.map(|s| s.stmt) {
        Ok(ast::Statement::Expr(e)) => e.to_string(),
        other => format!("{other:?}"),
    };
    assert_eq!(shown, "(2 ⊕ 3) ⊗ x^⊗2");
}

#[test]
fn game_spellings_answer_through_the_engine() {
    value_is("grundy(nim(3, 4, 5))", "2");
    value_is("outcome(nim(1, 2, 3))", "P");
    assert_eq!(
        value("winning_move(nim(3, 4, 5))"),
        Ok("nim(1, 4, 5)".into())
    );
    value_is("nim(1, 2, 3) is P", "true");
    value_is("misere_nim(1, 1) is N", "true");
    value_is("grundy(kayles(3) + nim(2))", "1");
    // The subtraction game {1, 2, 3} has value n mod 4, for every n checked.
    let (claims, failed, _) = run("forall n < 40: grundy(subtraction([1, 2, 3], n)) = n mod 4\n");
    assert_eq!((claims, failed), (1, 0));
    error_contains("grundy(misere_nim(1))", "misère");
    error_contains("nin(1, 2)", "`nim`");
}

#[test]
fn a_slow_quantifier_stops_at_its_time_budget() {
    let limits = Limits {
        game: crate::game::Budget {
            max_time: std::time::Duration::from_millis(200),
            ..crate::game::Budget::default()
        },
        ..Limits::default()
    };
    let text =
        "forall n < 19000000: grundy(kayles(int(n mod 50))) = grundy(kayles(int(n mod 50)))\n";
    let mut c = Checker::new(SourceFile::new("t.md", text), limits);
    let started = std::time::Instant::now();
    c.check_block(&MappedText::contiguous(text, 0));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(c.diagnostics().len(), 1, "{:?}", c.diagnostics());
    assert!(
        c.diagnostics()[0]
            .message
            .contains("ran out of its time budget"),
        "{}",
        c.diagnostics()[0].message
    );
}

/// A reader of the rendered notation who knows ordinary mathematics and the definitions of the
/// nim operations, and nothing of the claim language: `⊕` is XOR, `⊗` the nim-product by its
/// Fermat-power definition (`naive_mul_fermat`, the slow oracle), `a^⊗n` the product of `n`
/// factors `a`, `⊘` the product with the inverse found by search; `+ − · ^` are ordinary, `⌊x/y⌋`
/// the floor of a quotient, `mod` the remainder. `mod_binds_loosely` chooses how this reader
/// groups an unbracketed `mod` (readers differ); a faithful rendering reads the same either way.
mod reader {
    use crate::nim::naive::naive_mul_fermat;

    pub(super) struct Reader<'a> {
        toks: Vec<&'a str>,
        pos: usize,
        pub mod_binds_loosely: bool,
    }

    fn tokens(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            let len = if c.is_ascii_digit() {
                rest.find(|d: char| !d.is_ascii_digit())
                    .unwrap_or(rest.len())
            } else if c.is_alphabetic() {
                rest.find(|d: char| !d.is_alphanumeric())
                    .unwrap_or(rest.len())
            } else {
                c.len_utf8()
            };
            if !c.is_whitespace() {
                out.push(&rest[..len]);
            }
            rest = &rest[len..];
        }
        out
    }

    fn nim_pow(a: u128, n: u128) -> u128 {
        (0..n).fold(1, |acc, _| naive_mul_fermat(acc, a))
    }

    impl<'a> Reader<'a> {
        pub(super) fn new(text: &'a str, mod_binds_loosely: bool) -> Self {
            Reader {
                toks: tokens(text),
                pos: 0,
                mod_binds_loosely,
            }
        }
        fn peek(&self) -> &'a str {
            self.toks.get(self.pos).copied().unwrap_or("")
        }
        fn eat(&mut self, t: &str) -> bool {
            let hit = self.peek() == t;
            if hit {
                self.pos += 1;
            }
            hit
        }
        /// Reads a claim (a chain of relations, or `∀…:`) and says whether it holds.
        pub(super) fn claim(&mut self) -> bool {
            if self.eat("∀") {
                let mut vars = Vec::new();
                loop {
                    let mut names = vec![self.peek()];
                    self.pos += 1;
                    while self.eat(",") {
                        names.push(self.peek());
                        self.pos += 1;
                    }
                    let inclusive = self.eat("≤");
                    if !inclusive {
                        assert!(self.eat("<"), "a bound");
                    }
                    let bound = self.modulo() + u128::from(inclusive);
                    vars.extend(names.into_iter().map(|n| (n, bound)));
                    if !self.eat(",") {
                        break;
                    }
                }
                assert!(self.eat(":"));
                let body = self.pos;
                let total: u128 = vars.iter().map(|v| v.1).product();
                return (0..total).all(|mut i| {
                    let mut text = self.toks[body..].join(" ");
                    for (name, size) in vars.iter().rev() {
                        text = text.replace(name, &(i % size).to_string());
                        i /= size;
                    }
                    Reader::new(&text, self.mod_binds_loosely).claim()
                });
            }
            let mut lhs = self.modulo();
            let mut holds = true;
            loop {
                let rel = self.peek();
                if !["=", "≠", "<", "≤", ">", "≥"].contains(&rel) {
                    break;
                }
                self.pos += 1;
                let rhs = self.modulo();
                holds &= match rel {
                    "=" => lhs == rhs,
                    "≠" => lhs != rhs,
                    "<" => lhs < rhs,
                    "≤" => lhs <= rhs,
                    ">" => lhs > rhs,
                    _ => lhs >= rhs,
                };
                lhs = rhs;
            }
            assert_eq!(self.pos, self.toks.len(), "unread text in {:?}", self.toks);
            holds
        }
        /// `mod` as the loosest operation, for the reader who takes `a + b mod n` as `(a + b) mod n`.
        fn modulo(&mut self) -> u128 {
            let mut v = self.sum();
            while self.mod_binds_loosely && self.eat("mod") {
                v %= self.sum();
            }
            v
        }
        fn sum(&mut self) -> u128 {
            let mut v = self.product();
            loop {
                if self.eat("⊕") {
                    v ^= self.product();
                } else if self.eat("+") {
                    v += self.product();
                } else if self.eat("−") {
                    v -= self.product();
                } else {
                    return v;
                }
            }
        }
        fn product(&mut self) -> u128 {
            let mut v = self.power();
            loop {
                if self.eat("⊗") {
                    v = naive_mul_fermat(v, self.power());
                } else if self.eat("·") {
                    v *= self.power();
                } else if self.eat("/") {
                    v /= self.power();
                } else if self.eat("⊘") {
                    let d = self.power();
                    let inv = (1..256)
                        .find(|&x| naive_mul_fermat(d, x) == 1)
                        .expect("inverse");
                    v = naive_mul_fermat(v, inv);
                } else if !self.mod_binds_loosely && self.eat("mod") {
                    v %= self.power();
                } else {
                    return v;
                }
            }
        }
        fn power(&mut self) -> u128 {
            let base = self.atom();
            if self.eat("^") {
                if self.eat("⊗") {
                    return nim_pow(base, self.power());
                }
                return base.pow(u32::try_from(self.power()).expect("small exponent"));
            }
            base
        }
        fn atom(&mut self) -> u128 {
            if self.eat("(") {
                let v = self.modulo();
                assert!(self.eat(")"));
                return v;
            }
            if self.eat("⌊") {
                let v = self.modulo();
                assert!(self.eat("⌋"));
                return v;
            }
            let t = self.peek();
            self.pos += 1;
            t.parse().unwrap_or_else(|_| panic!("a number, not {t:?}"))
        }
    }
}

/// The rendered claim, read as ordinary mathematics (two ways where readers differ), has the
/// truth value the checker decided, for every rendering rule: `^` of numerals and variables,
/// exponents and bounds that are ordinary integers, `int(…)` with `+ − · / ^`, `mod` next to
/// other operations, chains and quantifiers.
#[test]
fn what_a_reader_reads_is_what_was_checked() {
    let claims = [
        "2 ^ 3 = 1",
        "2 ^ 3 = 8",
        "int(2 ^ 3) = 8",
        "16 ^ 2 = 24",
        "16 ^ 2 = int(16 ^ 2)",
        "2 ^ (1 + 1) = 3",
        "2 ^ 2 ^ 2 = 6",
        "(2 ^ 2) ^ 2 = 2",
        "forall a < 2^4: a ^ (2^4) = a",
        "forall a < 2^8: a ^ (2^4) = a",
        "forall a < 2^3, b ≤ 3: a * b = b * a",
        "int(3 * 16 / 2) = 24",
        "int(7 / 2) = 3",
        "int(1 + 7 / 2) = 4",
        "int(10 - 2 - 3) = 5",
        "int(10 - (5 - 3 + 4)) = 4",
        "3 + 5 mod 4 = 2",
        "2 + 5 mod 3 = 0",
        "3 + 5 mod 4 = 0",
        "(3 + 5) mod 4 = 2",
        "int(3 + 5 mod 4) = 4",
        "int((3 + 5) mod 4) = 0",
        "2 * 7 mod 4 = 2",
        "7 mod 4 * 3 = 2",
        "int(7 mod 4 · 3) = 9",
        "int(2 * 3) * 4 = 11",
        "1 < 2 ≤ 2 ≠ 3",
        "1 = 1 = 2",
        "6 * 13 = 15 = 7 + 8",
        "8 / 3 = 9",
        "forall x < 16: x ^ 16 = x",
        "forall x < 16: int(x + 1) ^ 15 = 1",
        "forall k < 5: int(2 ^ k) * int(2 ^ k) ≥ int(2 ^ k)",
    ];
    for claim in claims {
        let checked = match value(claim) {
            Ok(v) => v == "true",
            Err(e) => panic!("{claim}: {e}"),
        };
        let toks = lexer::lex(claim, &Limits::default()).unwrap_or_default();
        let shown = match parser::parse_statement(&toks, &Limits::default(), false) {
            Ok(s) => s.stmt.to_string(),
            Err(e) => panic!("{claim}: {e:?}"),
        };
        for loose in [false, true] {
            let read = reader::Reader::new(&shown, loose).claim();
            assert_eq!(
                read, checked,
                "`{claim}` is shown as `{shown}`, which a reader (mod loose: {loose}) takes as {read}, but the checker decided {checked}"
            );
        }
    }
}

/// Exponents and bounds are ordinary integers: the lesson line from the issue is refused as
/// false (2^32 is a counterexample), and a bound of 2^64 is 2^64 cases, over the budget unless
/// a proof decides the claim (here the polynomial method finds the counterexample 2^32).
#[test]
fn exponents_and_bounds_are_ordinary_integers() {
    value_is("forall a < 2^8: a ^ (2^4) = a", "false");
    value_is("forall a < 2^4: a ^ (2^4) = a", "true");
    value_is("forall a < 2^64: a ^ (2^32) = a", "false");
    let e = value("forall a < 2^64: inv(a + 1) = inv(a + 1)")
        .err()
        .unwrap_or_default();
    assert!(e.contains("18446744073709551616 cases"), "{e}");
    value_is("exists a < 2^2 + 1: a = 4", "true");
}

/// A claim that could not be decided is an error, never `false`.
#[test]
fn an_undecided_claim_is_an_error_not_false() {
    let e = value("forall a < 100000000: inv(a + 1) * (a + 1) = 1")
        .err()
        .unwrap_or_default();
    assert!(e.contains("max-cases"), "{e}");
    let e = value("forall a < 4: 1 / a = 1 / a")
        .err()
        .unwrap_or_default();
    assert!(e.contains("division by zero") && e.contains("a = 0"), "{e}");
    error_contains("exists a < 4: 1 / a = 0", "division by zero");
    value_is("exists a < 4: 1 / a = 1", "true");
    value_is("exists a < 4: a = 9", "false");
}
