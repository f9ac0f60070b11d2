//! The sparse-space engine against the plain mex, computed here from the rules, on every heap
//! below 10⁵, and against published values.

use std::sync::OnceLock;
use std::time::Duration;

use nimbook::game::{
    grundys_sequence, octal_sequence, octal_sequence_by_mex, period, Budget, GameError, OctalCode,
};
use proptest::prelude::*;

fn budget() -> Budget {
    Budget {
        max_positions: 1_000_000_000,
        max_time: Duration::from_secs(600),
        ..Budget::default()
    }
}

/// The digits `d₀, d₁, …` of an octal code, read here from its spelling.
fn digits(code: &str) -> Vec<u8> {
    let (head, tail) = code.split_once('.').unwrap();
    let d0 = if head == "4" { 4 } else { 0 };
    std::iter::once(d0)
        .chain(tail.bytes().map(|b| b - b'0'))
        .collect()
}

/// The mex of the marked values; `marks` is cleared for the next heap.
fn take_mex(marks: &mut [bool]) -> u64 {
    let v = marks.iter().position(|&b| !b).unwrap_or(marks.len());
    marks.iter_mut().for_each(|b| *b = false);
    v as u64
}

/// The plain computation from the rules of an octal game: remove `k` counters (digit `dₖ`),
/// then leave no heap (bit 1), one heap (bit 2) or two non-empty heaps (bit 4).
fn octal_oracle(code: &str, len: usize) -> Vec<u64> {
    let d = digits(code);
    let mut g: Vec<u64> = Vec::with_capacity(len);
    let mut marks = vec![false; 1 << 12];
    for h in 0..len {
        for (k, &dk) in d.iter().enumerate().filter(|&(k, _)| k <= h) {
            let rest = h - k;
            if dk & 1 != 0 && rest == 0 {
                marks[0] = true;
            }
            if dk & 2 != 0 && rest > 0 {
                marks[g[rest] as usize] = true;
            }
            if dk & 4 != 0 {
                // The pairs (a, rest − a) for a = 1 … rest/2: the parts from the front, and
                // their partners from the back (the loop without index arithmetic is the
                // test suite's slowest, so it is written to run fast).
                let half = rest / 2;
                if half > 0 {
                    let front = g[1..=half].iter();
                    let back = g[rest - half..rest].iter().rev();
                    for (&x, &y) in front.zip(back) {
                        marks[(x ^ y) as usize] = true;
                    }
                }
            }
        }
        g.push(take_mex(&mut marks));
    }
    g
}

/// The plain computation of Grundy's game: split a heap into two unequal non-empty heaps.
fn grundy_oracle(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    let mut marks = vec![false; 1 << 12];
    for h in 0..len {
        // The pairs (a, h − a) for 1 ≤ a < h − a.
        for a in 1..=h.saturating_sub(1) / 2 {
            marks[(g[a] ^ g[h - a]) as usize] = true;
        }
        g.push(take_mex(&mut marks));
    }
    g
}

/// Grundy's game below 10⁵ by the engine, computed once for the tests that read it.
fn grundys_game() -> &'static [u64] {
    static VALUES: OnceLock<Vec<u64>> = OnceLock::new();
    VALUES.get_or_init(|| grundys_sequence(99_999, &budget()).unwrap())
}

#[test]
fn grundys_game_matches_the_plain_mex_below_100000() {
    let want = grundy_oracle(100_000);
    assert_eq!(grundys_game(), want);
}

/// Games with splitting moves, some with several splitting digits, periodic or not (0.106 has no
/// known period), and two with a digit before the point.
const CODES: &[&str] = &[
    "0.77", "0.07", "0.137", "0.106", "0.165", "0.6", "0.007", "0.16", "0.26", "0.34", "0.35",
    "0.36", "0.37", "0.64", "0.74", "0.054", "0.4", "4.7", "0.114", "0.156", "0.51", "0.456",
    "0.0007", "4.07",
];

/// The engine, with and without proved periods, against the plain mex on every heap below 10⁵,
/// for the codes `CODES[part], CODES[part + 3], …` (three tests, which may run side by side).
fn octal_games_match_the_plain_mex(part: usize) {
    for code in CODES.iter().skip(part).step_by(3) {
        let c: OctalCode = code.parse().unwrap();
        let want = octal_oracle(code, 100_000);
        let by_mex = octal_sequence_by_mex(&c, 99_999, &budget()).unwrap();
        assert!(
            by_mex == want,
            "{code}: the sparse space differs from the plain mex"
        );
        let by_period = octal_sequence(&c, 99_999, &budget()).unwrap();
        assert!(
            by_period == want,
            "{code}: a proved period differs from the plain mex"
        );
    }
}

#[test]
fn octal_games_match_the_plain_mex_below_100000_first_third() {
    octal_games_match_the_plain_mex(0);
}

#[test]
fn octal_games_match_the_plain_mex_below_100000_second_third() {
    octal_games_match_the_plain_mex(1);
}

#[test]
fn octal_games_match_the_plain_mex_below_100000_last_third() {
    octal_games_match_the_plain_mex(2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_octal_codes_match_the_plain_mex(
        d0 in prop::sample::select(vec![0u8, 4]),
        tail in prop::collection::vec(0u8..8, 1..5),
    ) {
        let code = format!(
            "{d0}.{}",
            tail.iter().map(|d| char::from(b'0' + d)).collect::<String>()
        );
        let c: OctalCode = code.parse().unwrap();
        let want = octal_oracle(&code, 3000);
        prop_assert_eq!(octal_sequence_by_mex(&c, 2999, &budget()).unwrap(), want.clone());
        prop_assert_eq!(octal_sequence(&c, 2999, &budget()).unwrap(), want);
    }
}

/// OEIS A002188 (Sprague–Grundy values of Grundy's game), n = 0 … 104, as published.
const A002188: [u64; 105] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2,
    4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3,
    5, 2, 3, 5, 2, 3, 5, 2, 3,
];

/// Flammenkamp's published list of the sparse values of Grundy's game (those with an even
/// number of ones in the binary value without its lowest digit), every one up to heap 231:
/// `(n, G(n))`.
const FLAMMENKAMP_SPARSE: [(u64, u64); 48] = [
    (0, 0),
    (1, 0),
    (2, 0),
    (3, 1),
    (4, 0),
    (6, 1),
    (7, 0),
    (9, 1),
    (10, 0),
    (12, 1),
    (15, 1),
    (20, 0),
    (23, 0),
    (26, 0),
    (28, 1),
    (31, 1),
    (34, 1),
    (37, 1),
    (40, 1),
    (43, 1),
    (46, 1),
    (49, 1),
    (50, 0),
    (52, 1),
    (53, 0),
    (55, 1),
    (58, 1),
    (61, 1),
    (87, 7),
    (90, 7),
    (93, 7),
    (146, 6),
    (149, 6),
    (152, 6),
    (158, 11),
    (161, 11),
    (164, 11),
    (167, 11),
    (176, 7),
    (179, 7),
    (181, 12),
    (182, 7),
    (185, 7),
    (188, 7),
    (190, 12),
    (193, 12),
    (196, 10),
    (231, 10),
];

/// OEIS A002187 (Dawson's Chess, octal game 0.137), n = 0 … 69, as published; Dawson's Kayles
/// (0.07) has the values a(n − 1).
const A002187: [u64; 70] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1,
];

#[test]
fn sequences_start_as_published() {
    let g = grundys_game();
    assert_eq!(g[..105], A002188);
    let sparse: Vec<(u64, u64)> = (0..=231)
        .filter(|&n| (g[n] >> 1).count_ones().is_multiple_of(2))
        .map(|n| (n as u64, g[n]))
        .collect();
    assert_eq!(sparse, FLAMMENKAMP_SPARSE);
    let chess = octal_sequence_by_mex(&"0.137".parse().unwrap(), 69, &budget()).unwrap();
    assert_eq!(chess, A002187);
    let dawson = octal_sequence_by_mex(&OctalCode::dawsons_kayles(), 70, &budget()).unwrap();
    assert_eq!(dawson[1..], A002187);
}

#[test]
fn the_period_of_0_165_holds_in_values_computed_from_the_rules() {
    let p = period(&"0.165".parse().unwrap(), &budget()).unwrap();
    assert_eq!((p.preperiod, p.period), (5181, 1550));
    // The Guy–Smith criterion, checked on the plain computation: for a code of length t = 3,
    // g(n + p) = g(n) for n0 ≤ n < 2·n0 + p + t proves the period.
    let (n0, per, t) = (5181, 1550, 3);
    let g = octal_oracle("0.165", 2 * n0 + 2 * per + t + 4000);
    assert!((n0..2 * n0 + per + t).all(|n| g[n + per] == g[n]));
    assert_ne!(
        g[n0 - 1 + per],
        g[n0 - 1],
        "the pre-period could be shorter"
    );
    // No shorter period holds even on the last stretch of the values.
    let tail = g.len() / 2;
    for q in 1..per {
        assert!(
            (tail..g.len() - q).any(|n| g[n + q] != g[n]),
            "period {q} fits the tail"
        );
    }
}

#[test]
fn an_open_game_runs_until_its_budget_and_says_how_far_it_got() {
    let quick = Budget {
        max_positions: 300_000,
        max_time: Duration::from_secs(600),
        ..Budget::default()
    };
    let e = period(&"0.106".parse().unwrap(), &quick).unwrap_err();
    let GameError::BudgetExceeded { budget, reached } = &e else {
        panic!("{e}");
    };
    assert_eq!(budget, "300000 positions");
    assert!(reached.contains("0.106"), "{e}");
    assert!(
        reached.contains("no period among the first 262144 heap sizes"),
        "{e}"
    );
}
