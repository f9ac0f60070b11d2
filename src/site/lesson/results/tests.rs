use super::*;

fn checked(cases: u64) -> Evidence {
    Evidence::Checked {
        cases,
        ranges: format!("n < {cases}"),
    }
}

fn proved() -> Evidence {
    Evidence::Proved(Established::Polynomial)
}

fn label(l: &str) -> Ref {
    Ref {
        label: l.to_string(),
        href: String::new(),
    }
}

#[test]
fn a_quantified_claim_outweighs_examples_and_the_weakest_quantified_claim_decides() {
    assert_eq!(Evidence::Stated.add(Evidence::Computed), Evidence::Computed);
    assert_eq!(
        Evidence::Computed.add(Evidence::Computed),
        Evidence::Computed
    );
    assert_eq!(Evidence::Computed.add(checked(16)), checked(16));
    assert_eq!(checked(16).add(Evidence::Computed), checked(16));
    assert_eq!(proved().add(checked(16)), checked(16));
    assert_eq!(checked(16).add(proved()), checked(16));
    assert_eq!(checked(16).add(checked(4)), checked(4));
    assert_eq!(checked(4).add(checked(16)), checked(4));
    assert_eq!(Evidence::Stated.add(proved()), proved());
}

#[test]
fn statuses_read_the_same_words_as_the_claims_marks() {
    let s = Status {
        evidence: checked(64),
        resting_on: vec![label("Definition 1.2")],
    };
    assert_eq!(
        s.to_string(),
        "checked (64 cases, n < 64), given Definition 1.2"
    );
    let s = Status {
        evidence: proved(),
        resting_on: vec![label("Theorem 1.2"), label("Lemma 2.1")],
    };
    assert_eq!(
        s.to_string(),
        "proved (polynomial identity; nimbers form a field), given Theorem 1.2 and Lemma 2.1"
    );
    let s = Status {
        evidence: Evidence::Stated,
        resting_on: vec![label("A"), label("B"), label("C")],
    };
    assert_eq!(s.to_string(), "stated, uses A, B and C");
    let s = Status {
        evidence: Evidence::Computed,
        resting_on: Vec::new(),
    };
    assert_eq!(s.to_string(), "computed");
}

#[test]
fn a_title_with_math_is_read_from_its_source_line() {
    assert_eq!(
        title_of(
            "The subtraction game ",
            "## The subtraction game $\\{1, 2, 3\\}$ {#s .proposition}"
        ),
        "The subtraction game {1, 2, 3}"
    );
    assert_eq!(title_of("Plain", "## Plain {#p .lemma}"), "Plain");
}

#[test]
fn uses_are_located_name_by_name() {
    let source = "## T {#t .theorem uses=ab, cd}\n";
    let line = heading_line(source, 0);
    let uses = uses_of("ab,", source, &line);
    assert_eq!(uses, vec![("ab".to_string(), 23..25)]);
    assert_eq!(&source[23..25], "ab");
}

#[test]
fn addresses_between_results_are_relative_to_the_page() {
    use super::graph::relative;
    assert_eq!(relative("a.html#x", "a.html#y"), "#y");
    assert_eq!(relative("a.html#x", "b.html#y"), "b.html#y");
    assert_eq!(relative("part/a.html#x", "b.html#y"), "../b.html#y");
}
