//! The account of small lessons, rendered through the markdown pass.

use super::*;
use crate::claim::Limits;
use crate::diag::Code;

fn scan(text: &str) -> (NumberCounts, Vec<String>, String) {
    let mut c = Coverage::new(text, Lints::default());
    let shown = c.prose(text, 0).into_owned();
    c.end_sentence();
    let found = c.unverified.iter().map(|u| u.text.clone()).collect();
    (c.counts, found, shown)
}

#[test]
fn prose_numerals_names_and_exemptions() {
    let (counts, found, shown) =
        scan("In {1997} the 2nd of 3 heaps had 1,000.5 coins; H2 and a1 are names.");
    assert_eq!(found, ["2", "3", "1,000.5"]);
    assert_eq!(counts.exempt, 1);
    assert_eq!(
        shown,
        "In 1997 the 2nd of 3 heaps had 1,000.5 coins; H2 and a1 are names."
    );
    // An unclosed mark is no mark, and braces without a digit are left alone.
    let (counts, found, shown) = scan("{1997 and {x} 5");
    assert_eq!(
        (counts.exempt, found),
        (0, vec!["1997".to_string(), "5".to_string()])
    );
    assert_eq!(shown, "{1997 and {x} 5");
}

#[test]
fn an_equation_in_prose_gets_the_claim_to_write() {
    let text = "so 6 * 12 = 9 here";
    let mut c = Coverage::new(text, Lints::default());
    let _ = c.prose(text, 0);
    c.end_sentence();
    assert_eq!(c.unverified.len(), 3);
    assert!(c
        .unverified
        .iter()
        .all(|u| u.equation.as_deref() == Some("6 * 12 = 9")));
}

#[test]
fn a_hundred_thousand_numerals_are_counted() {
    let text = "1 = 1 + ".repeat(100_000);
    let mut c = Coverage::new(&text, Lints::default());
    let _ = c.prose(&text, 0);
    c.end_sentence();
    assert_eq!(c.counts.unverified, 200_000);
    let tex = "1 + ".repeat(100_000) + "1 = 2";
    c.latex(&tex, 0);
    c.end_sentence();
    assert_eq!(c.counts.unverified, 200_000 + 100_002);
}

/// Renders a lesson as a nimbook book does, and returns the page and the diagnostics.
fn render(text: &str) -> (super::super::markdown::RenderedPage, Vec<Diagnostic>) {
    let file = crate::diag::SourceFile::new("lesson.md", text);
    let mut lesson = LessonContext::new(std::sync::Arc::clone(&file), Limits::default(), None);
    let page = super::super::markdown::render_with(
        &mut lesson,
        "lesson.md",
        &super::super::markdown::Flavour::nimbook(),
        Lints::default(),
    );
    (page, lesson.finish().diagnostics)
}

/// Renders a lesson and returns its counts and the text of each unverified numeral.
fn lesson(text: &str) -> (NumberCounts, Vec<String>) {
    let (page, diagnostics) = render(text);
    let found = diagnostics
        .iter()
        .filter(|d| d.code == Code::UnverifiedNumber)
        .filter_map(|d| d.location.as_ref())
        .map(|(_, span)| text[span.clone()].to_string())
        .collect();
    (page.numbers, found)
}

#[test]
fn operands_before_and_after_a_span_in_its_sentence_are_verified() {
    // 3 ⊕ 5 ⊕ 7 = 1, so the 1 after the span is its shown value.
    let (counts, found) =
        lesson("Heaps of 3, 5 and 7 have the nim-sum `nim: 3 + 5 + 7`, which is 1 and not 7.\n");
    assert_eq!(found, Vec::<String>::new());
    // Three literals, the shown value, and the five numerals of the prose.
    assert_eq!(counts.verified, 3 + 1 + 5);
    assert_eq!(counts.unverified, 0);
}

#[test]
fn the_same_number_in_the_next_sentence_or_block_is_not_verified() {
    for stop in [". ", "! ", "? ", "; ", ": ", ".\n", ".\n\n"] {
        let text = format!("The span `nim: 3 + 5` is here{stop}A heap of 3 is not.\n");
        assert_eq!(lesson(&text).1, ["3"], "{stop:?}");
    }
    // The end of the block is a stop too, and a stop needs white space after it.
    assert_eq!(lesson("`nim: 3 + 5`\n\n- 3\n").1, ["3"]);
    assert_eq!(lesson("From 3.5 and `nim: 3 + 5`, 5.\n").1, ["3.5"]);
    assert_eq!(lesson("# Heaps of 3\n\n`nim: 3 + 5`\n").1, ["3"]);
}

#[test]
fn a_number_that_is_no_operand_is_not_verified() {
    // 3 ⊕ 5 is 6, not 8; 3.0 is a decimal, which no claim shows.
    let (_, found) = lesson("Heaps of 3 and 5 give `nim: 3 + 5`, not 8, and 3.0 is odd.\n");
    assert_eq!(found, ["8", "3.0"]);
    // Values, not spellings: 1,000 and 0x3e8 are one number; 007 is 7.
    let (_, found) = lesson("Of 1,000 and 007, `nim: 0x3e8 + 7` checks both.\n");
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn a_vacuous_or_failing_span_verifies_nothing() {
    assert_eq!(lesson("A heap of 27 is `nim: 27`.\n").1, ["27"]);
    assert_eq!(lesson("Both 6 are `nim: 6 * 13 = 6 * 13`.\n").1, ["6"]);
    assert_eq!(
        lesson("Heaps of 3 and 5 give `nim: 3 + 5 = 7`.\n").1,
        ["3", "5"]
    );
}

#[test]
fn a_latex_fact_beside_a_span_is_verified() {
    let (_, found) = lesson(
        "Here $6 \\otimes 13 = 15$ is checked by `nim: 6 * 13 = 15`. Not so $6 \\otimes 12 = 9$.\n",
    );
    assert_eq!(found, ["6", "12", "9"]);
}

#[test]
fn a_table_row_is_one_block() {
    let (_, found) =
        lesson("| a | b | a ⊕ b |\n|---|---|---|\n| 3 | 5 | `nim: 3 + 5` |\n| 3 | 9 | 10 |\n");
    assert_eq!(found, ["3", "9", "10"]);
}

#[test]
fn an_exemption_stops_no_sentence() {
    let (counts, found) = lesson("In {Winning Ways, ch. 14} heaps of 3 give `nim: 3 * 3`.\n");
    assert_eq!(found, Vec::<String>::new());
    assert_eq!(counts.exempt, 1);
}

#[test]
fn a_hundred_thousand_operands_in_one_sentence_are_matched() {
    // One sentence of 100 000 numerals and one span: each numeral is looked up once.
    let text = "1 4 ".repeat(50_000) + "`nim: 1 + 2`.\n";
    let (counts, found) = lesson(&text);
    assert_eq!(found.len(), MAX_REPORTED + 1);
    assert_eq!(
        (counts.verified, counts.unverified),
        (2 + 1 + 50_000, 50_000)
    );
}

#[test]
fn number_words_are_numbers() {
    // The issue's example: both words are numbers a reader reads, and nothing checks them.
    let (counts, found) = lesson("Two rows of six squares.\n");
    assert_eq!(found, ["Two", "six"]);
    assert_eq!(counts.unverified, 2);
    // int(2 · 6) = 12: the span's literals verify two and six, its value twelve.
    let (counts, found) = lesson("Two rows of six squares make `nim: int(2 * 6)`, twelve.\n");
    assert_eq!(found, Vec::<String>::new());
    assert_eq!(counts.verified, 2 + 1 + 3);
    // Ordinals are numbers too: 6 ⊕ 4 = 2, so the sixth is verified and the third is not.
    let (_, found) = lesson("The third heap and `nim: 6 + 4` give the sixth.\n");
    assert_eq!(found, ["third"]);
    assert_eq!(
        lesson("Heaps zero to twenty-one.\n").1,
        ["zero", "twenty-one"]
    );
    assert_eq!(lesson("Twentieth, FIRST and Nineteen.\n").1.len(), 3);
}

#[test]
fn words_that_are_no_numbers() {
    // `one` after a determiner or before `another` is a pronoun; `non-zero` is a word.
    let (counts, found) = lesson(
        "The one on the left, no one, each one and which one move one another to a non-zero heap of one.\n",
    );
    assert_eq!(found, ["one"]);
    assert_eq!(counts.unverified, 1);
    // `one of` picks one of several; `first` and `second` name players and the turn order;
    // `two` is the base of a power of two. Other uses of the same words are numbers.
    let (_, found) = lesson(
        "One of the heaps. The first player and the second players. Alice moves first, then \
         goes second; at first. Powers of two, a power of two, power two, two powers. The first \
         heap, one heap, of two.\n",
    );
    assert_eq!(found, ["two", "two", "first", "one", "two"]);
    // The word that makes the idiom may stand past a line break or emphasis, or after a hyphen.
    let (_, found) = lesson(
        "The second\nplayer wins; the **first** player, a first-player win. One\nof them, the \
         first\nheap, and *one*\nheap.\n",
    );
    assert_eq!(found, ["first", "one"]);
    // Words that only contain a number word are not one.
    let (counts, _) = lesson("Someone often tends to owe tones, threefold and ones.\n");
    assert_eq!(counts, NumberCounts::default());
    // A word a numeral starts is part of the numeral.
    assert_eq!(lesson("The 2nd.\n").1, ["2"]);
}

#[test]
fn number_words_can_be_exempt() {
    let text = "A game for {two} players, {first} edition, and one rule.\n";
    let (counts, found) = lesson(text);
    assert_eq!(found, ["one"]);
    assert_eq!(counts.exempt, 2);
    let (_, _, shown) = scan(text);
    assert_eq!(
        shown,
        "A game for two players, first edition, and one rule.\n"
    );
    // Braces around a word that is no number are no mark.
    assert_eq!(scan("A set {x} and {one}.").2, "A set {x} and one.");
}

#[test]
fn text_blocks_are_counted() {
    let block = "```text\nW......B   gap 6\n.B....W.   gap {4}\n```\n";
    let (counts, found) = lesson(block);
    assert_eq!(found, ["6"]);
    assert_eq!((counts.unverified, counts.exempt), (1, 1));
    // Braces of a mark are not shown; other code blocks are not counted.
    let page = render(block).0;
    assert!(page.html.contains("gap 4"), "{}", page.html);
    assert_eq!(
        lesson("```rust\nlet six = 6;\n```\n").0,
        NumberCounts::default()
    );
    // A stop inside a text block ends nothing: the block is one sentence.
    assert_eq!(lesson("```text\na. 6\nb. two\n```\n").1, ["6", "two"]);
}

#[test]
fn a_nim_block_right_after_a_text_block_verifies_it() {
    // 6 ⊕ 4 = 2.
    let (counts, found) = lesson("```text\ngaps 6 and four\n```\n\n```nim\n6 + 4 = 2\n```\n");
    assert_eq!(found, Vec::<String>::new());
    assert_eq!(counts.verified, 3 + 2);
    // With prose between them, or for prose before the block, it does not.
    let (_, found) = lesson("```text\ngap 6\n```\n\nThen 6:\n\n```nim\n6 + 4 = 2\n```\n");
    assert_eq!(found, ["6", "6"]);
    // Nor does a nim block verify a text block after it.
    assert_eq!(
        lesson("```nim\n6 + 4 = 2\n```\n\n```text\n6\n```\n").1,
        ["6"]
    );
}

#[test]
fn only_an_equal_claim_or_a_shown_value_verifies_prose() {
    // The issue's example: 5 ⊕ 7 is 2, and `≠` says nothing of the 12 the prose claims.
    let (_, found) = lesson("The nim-sum of 5 and 7 is 12, as `nim: 5 + 7 ≠ 12` shows.\n");
    assert_eq!(found, ["5", "7", "12"]);
    // `x + 0` computes nothing new, so it verifies nothing.
    assert_eq!(lesson("A board of 17 cells, `nim: 17 + 0`.\n").1, ["17"]);
    // 3 ⊕ 5 = 6 and 3 ⊕ 12 = 15: in a chain only the sides beside `=` verify.
    let (_, found) =
        lesson("Heaps of 3 and 5 give 6, less than 3 and 12, by `nim: 3 + 5 = 6 < 3 + 12`.\n");
    assert_eq!(found, ["12"]);
    for rel in ["<", ">", "≤", "≥"] {
        let rhs = if matches!(rel, "<" | "≤") { 9 } else { 2 };
        let text = format!("Heaps of 3 and 5 against {rhs}, by `nim: 3 + 5 {rel} {rhs}`.\n");
        assert_eq!(lesson(&text).1.len(), 3, "{text}");
    }
    // An `is` claim names a position's outcome: its literals are what it decides about.
    assert_eq!(
        lesson("A row of 4 pins is won, by `nim: kayles(4) is N`.\n").1,
        Vec::<String>::new()
    );
}
