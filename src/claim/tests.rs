//! Unit tests of the lexer, parser, evaluator and checker.

use super::*;
use crate::diag::SourceFile;

fn checker(text: &str) -> LessonChecker {
    LessonChecker::new(SourceFile::new("t.md", text), Limits::default())
}

/// Runs a block and returns (claims, failed, first diagnostic message and position).
fn run(text: &str) -> (usize, usize, Vec<(String, usize, usize)>) {
    let mut c = checker(text);
    c.check_block(&MappedText::contiguous(text, 0));
    let diags = c
        .diagnostics
        .iter()
        .map(|d| {
            let (_, l, col) = d.position().unwrap_or_default();
            (d.message.clone(), l, col)
        })
        .collect();
    (c.claims, c.failed, diags)
}

fn value(expr: &str) -> Result<String, String> {
    let mut c = checker("");
    calc(expr, &mut c)
}

#[test]
fn nim_and_ordinary_arithmetic() {
    assert_eq!(value("6 * 13"), Ok("15".into()));
    assert_eq!(value("6 ⊗ 13"), Ok("15".into()));
    assert_eq!(value("7 ⊕ 14"), Ok("9".into()));
    assert_eq!(value("0x10 * 0x10"), Ok("24".into()));
    assert_eq!(value("1_000 + 0"), Ok("1000".into()));
    // Products bind tighter than sums; powers tighter than products.
    assert_eq!(value("2 + 3 * 3"), Ok("0".into()));
    assert_eq!(value("(2 + 3) * 3"), Ok("3".into()));
    assert_eq!(value("2 ^ 2"), Ok("3".into()));
    assert_eq!(value("2 * 2 ^ 2"), Ok("1".into()));
    // Ordinary arithmetic only inside int(…), and in exponents.
    assert_eq!(value("int(3 * 16 / 2)"), Ok("24".into()));
    assert_eq!(value("int(7 - 2 · 3)"), Ok("1".into()));
    assert_eq!(value("int(2 ^ 10)"), Ok("1024".into()));
    assert_eq!(value("2 ^ (1 + 1)"), Ok("3".into()));
    assert_eq!(value("13 mod 4"), Ok("1".into()));
    assert_eq!(value("100 / 100"), Ok("1".into()));
    assert_eq!(value("mex([0, 1, 3])"), Ok("2".into()));
    assert_eq!(value("[1, 2 + 3]"), Ok("[1, 1]".into()));
    assert_eq!(value("fermat(3)"), Ok("256".into()));
}

#[test]
fn claims_answer_true_or_false() {
    assert_eq!(value("6 * 13 = 15"), Ok("true".into()));
    assert_eq!(value("6 * 13 = 14"), Ok("false".into()));
    assert_eq!(value("1 < 2 ≤ 2 ≠ 3"), Ok("true".into()));
    assert_eq!(value("3 >= 4"), Ok("false".into()));
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
    let e = value("3 - 1").err().unwrap_or_default();
    assert!(e.contains("only allowed inside `int(…)`"), "{e}");
    let e = value("int(1 - 3)").err().unwrap_or_default();
    assert!(e.contains("negative"), "{e}");
    let e = value("2 + ").err().unwrap_or_default();
    assert!(e.contains("(column 5)"), "{e}");
    let e = value("0x").err().unwrap_or_default();
    assert!(e.contains("not a number"), "{e}");
    let e = value("x + 1").err().unwrap_or_default();
    assert!(e.contains("unknown name `x`"), "{e}");
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
    let notes = &c.diagnostics[0].notes;
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
    let e = value("int(2 ^ 1000000000)").err().unwrap_or_default();
    assert!(e.contains("budget"), "{e}");
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
    assert_eq!(shown, "(2 ⊕ 3) ⊗ x^2");
}

#[test]
fn game_spellings_answer_through_the_engine() {
    assert_eq!(value("grundy(nim(3, 4, 5))"), Ok("2".into()));
    assert_eq!(value("outcome(nim(1, 2, 3))"), Ok("P".into()));
    assert_eq!(
        value("winning_move(nim(3, 4, 5))"),
        Ok("nim(1, 4, 5)".into())
    );
    assert_eq!(value("nim(1, 2, 3) is P"), Ok("true".into()));
    assert_eq!(value("misere_nim(1, 1) is N"), Ok("true".into()));
    assert_eq!(value("grundy(kayles(3) + nim(2))"), Ok("1".into()));
    // The subtraction game {1, 2, 3} has value n mod 4, for every n checked.
    let (claims, failed, _) = run("forall n < 40: grundy(subtraction([1, 2, 3], n)) = n mod 4\n");
    assert_eq!((claims, failed), (1, 0));
    let e = value("grundy(misere_nim(1))").err().unwrap_or_default();
    assert!(e.contains("misère"), "{e}");
    let e = value("nin(1, 2)").err().unwrap_or_default();
    assert!(e.contains("`nim`"), "{e}");
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
    let mut c = LessonChecker::new(SourceFile::new("t.md", text), limits);
    let started = std::time::Instant::now();
    c.check_block(&MappedText::contiguous(text, 0));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(c.failed, 1);
    assert!(
        c.diagnostics[0]
            .message
            .contains("ran out of its time budget"),
        "{}",
        c.diagnostics[0].message
    );
}
