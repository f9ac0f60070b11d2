//! Known theorems and published results, checked against values the engine computes from the
//! rules; and the engine's public contract (spellings, errors, budgets, game graphs).

use crate::common::budget;
use crate::cram::plain;

use std::collections::BTreeSet;
use std::time::Duration;

use nimbook::game::{
    cram_grundy, octal_sequence, parse_cells, parse_hackenbush, period, Board, Budget, CramOptions,
    Game, GameError, OctalCode, Outcome, Periodicity,
};

// ---------------------------------------------------------------- Cram

#[test]
fn even_by_even_cram_is_zero() {
    for (r, c) in [
        (2, 2),
        (2, 4),
        (4, 4),
        (2, 6),
        (4, 6),
        (2, 8),
        (6, 6),
        (4, 8),
        (6, 8),
        (8, 8),
    ] {
        let g = Game::cram(r, c).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), 0, "{g}");
        assert_eq!(g.outcome(&budget()).unwrap(), Outcome::P, "{g}");
        assert_eq!(g.winning_move(&budget()).unwrap(), None);
    }
    // The same without any shortcut, on the boards small enough for a plain search.
    for (r, c) in [(2, 2), (2, 4), (4, 4), (2, 6), (2, 8)] {
        let b = Board::rectangle(r, c).unwrap();
        assert_eq!(cram_grundy(&b, plain(), &budget()).unwrap(), 0, "{r}x{c}");
    }
}

#[test]
fn two_by_n_cram_is_n_mod_2() {
    for n in 1..=14 {
        let g = Game::cram(2, n).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), n % 2, "{g}");
        if n <= 9 {
            let b = Board::rectangle(n, 2).unwrap();
            assert_eq!(cram_grundy(&b, plain(), &budget()).unwrap(), n % 2, "{n}x2");
        }
    }
}

#[test]
fn one_by_n_cram_is_dawsons_kayles() {
    let dawson = octal_sequence(&OctalCode::dawsons_kayles(), 40, &budget()).unwrap();
    for n in 1..=40u64 {
        let g = Game::cram(1, n).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), dawson[n as usize], "{g}");
    }
}

#[test]
fn even_by_odd_cram_is_a_first_player_win() {
    // The first player takes the central domino and mirrors.
    for (r, c) in [(2, 3), (2, 5), (4, 3), (4, 5), (2, 7), (6, 3), (4, 7)] {
        let g = Game::cram(r, c).unwrap();
        assert_eq!(g.outcome(&budget()).unwrap(), Outcome::N, "{g}");
        let m = g.winning_move(&budget()).unwrap().unwrap();
        assert_eq!(m.grundy(&budget()).unwrap(), 0);
    }
}

#[test]
fn each_cram_option_alone_agrees_with_plain_search() {
    for bits in 0..32u32 {
        let o = CramOptions {
            symmetry: bits & 1 != 0,
            paths: bits & 2 != 0,
            point_symmetry: bits & 4 != 0,
            reductions: bits & 8 != 0,
            pruned_search: bits & 16 != 0,
        };
        for (r, c) in [(3, 4), (4, 4), (3, 5), (2, 7), (1, 9)] {
            let b = Board::rectangle(r, c).unwrap();
            let v = cram_grundy(&b, o, &budget()).unwrap();
            assert_eq!(
                v,
                cram_grundy(&b, plain(), &budget()).unwrap(),
                "{r}x{c} {o:?}"
            );
        }
    }
}

// ---------------------------------------------------------------- heap games

#[test]
fn subtraction_1_2_3_is_n_mod_4() {
    for n in 0..=1000 {
        let g = Game::subtraction(&[1, 2, 3], n).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), n % 4, "{g}");
    }
}

#[test]
fn huge_subtraction_heaps_follow_the_repetition() {
    for n in [1_000_000_000_000_003u64, u64::MAX] {
        let g = Game::subtraction(&[1, 2, 3], n).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), n % 4, "{g}");
    }
    // {1, 3, 4} has period 7: values 0 1 0 1 2 3 2.
    let n = 10_u64.pow(15) + 2;
    let g = Game::subtraction(&[1, 3, 4], n).unwrap();
    assert_eq!(
        g.grundy(&budget()).unwrap(),
        [0, 1, 0, 1, 2, 3, 2][(n % 7) as usize]
    );
    let m = g.winning_move(&budget()).unwrap();
    assert!(m.is_none() || m.unwrap().grundy(&budget()).unwrap() == 0);
}

/// Checks that `g(n + p) = g(n)` for all computed `n ≥ n0` and that it fails at `n0 - 1`.
fn assert_periodic(seq: &[u64], p: &Periodicity) {
    let (n0, per) = (p.preperiod as usize, p.period as usize);
    for n in n0..seq.len() - per {
        assert_eq!(seq[n], seq[n + per], "n = {n}");
    }
    if n0 > 0 {
        assert_ne!(seq[n0 - 1], seq[n0 - 1 + per]);
    }
}

#[test]
fn kayles_has_period_12() {
    // The last exceptional value of Kayles is at n = 70, so the values repeat from n = 71 on.
    let code = OctalCode::kayles();
    let p = period(&code, &budget()).unwrap();
    assert_eq!(
        p,
        Periodicity {
            preperiod: 71,
            period: 12
        }
    );
    let seq = octal_sequence(&code, 5000, &budget()).unwrap();
    assert_periodic(&seq, &p);
    assert_eq!(&seq[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
}

#[test]
fn dawsons_kayles_and_dawsons_chess_have_period_34() {
    // Dawson's chess (0.137) on n is Dawson's Kayles (0.07) on n + 1. The last exceptional
    // value of 0.137 is at n = 51, so it repeats from 52 on, and 0.07 from 53 on.
    let chess: OctalCode = "0.137".parse().unwrap();
    let p = period(&chess, &budget()).unwrap();
    assert_eq!(
        p,
        Periodicity {
            preperiod: 52,
            period: 34
        }
    );
    let dk = OctalCode::dawsons_kayles();
    let q = period(&dk, &budget()).unwrap();
    assert_eq!(
        q,
        Periodicity {
            preperiod: 53,
            period: 34
        }
    );
    let a = octal_sequence(&chess, 3000, &budget()).unwrap();
    let b = octal_sequence(&dk, 3001, &budget()).unwrap();
    assert_eq!(&a[..], &b[1..]);
    assert_periodic(&a, &p);
    assert_periodic(&b, &q);
}

#[test]
fn other_codes_have_proved_periods() {
    for code in ["0.51", "4.7", "0.33", "0.15", "0.05", "0.71"] {
        let c: OctalCode = code.parse().unwrap();
        let p = period(&c, &budget()).unwrap();
        let seq = octal_sequence(&c, 4000, &budget()).unwrap();
        assert_periodic(&seq, &p);
    }
}

#[test]
fn grundys_game_starts_as_published() {
    let v: Vec<u64> = (0..16)
        .map(|n| Game::grundys_game(n).grundy(&budget()).unwrap())
        .collect();
    assert_eq!(v, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1]);
}

// ---------------------------------------------------------------- spellings

#[test]
fn games_print_in_claim_language_spelling() {
    let cases = [
        (Game::nim(vec![2, 4, 5]), "nim(2, 4, 5)"),
        (Game::misere_nim(vec![1, 1, 2]), "misere_nim(1, 1, 2)"),
        (
            Game::subtraction(&[4, 1, 3], 9).unwrap(),
            "subtraction([1, 3, 4], 9)",
        ),
        (Game::kayles(7), "kayles(7)"),
        (Game::dawsons_kayles(7), "dawsons_kayles(7)"),
        (Game::octal("0.137", 7).unwrap(), "octal(\"0.137\", 7)"),
        (Game::grundys_game(9), "grundys_game(9)"),
        (Game::cram(3, 4).unwrap(), "cram(3, 4)"),
        (Game::misere_cram(3, 4).unwrap(), "misere_cram(3, 4)"),
        (
            Game::cram_cells("##./###").unwrap(),
            "cram_cells(\"##./###\")",
        ),
        (
            Game::green_hackenbush("1-2 0-1  1-3").unwrap(),
            "green_hackenbush(\"0-1 1-2 1-3\")",
        ),
        (
            Game::northcott("W..B/.B.W").unwrap(),
            "northcott(\"W..B/.B.W\")",
        ),
        (
            Game::sum(vec![Game::kayles(2), Game::nim(vec![3])]).unwrap(),
            "kayles(2) + nim(3)",
        ),
    ];
    for (g, s) in cases {
        assert_eq!(g.to_string(), s);
    }
    assert_eq!(Outcome::P.to_string(), "P");
    assert_eq!(Outcome::N.to_string(), "N");
}

#[test]
fn moves_print_in_spellings_that_parse_back() {
    let moves = Game::kayles(5).moves_from().unwrap();
    let printed: Vec<String> = moves.iter().map(ToString::to_string).collect();
    assert!(
        printed.contains(&"kayles(1) + kayles(3)".to_string()),
        "{printed:?}"
    );
    assert!(printed.contains(&"kayles(4)".to_string()));
    for m in Game::cram(2, 2).unwrap().moves_from().unwrap() {
        let s = m.to_string();
        let inner = s
            .strip_prefix("cram_cells(\"")
            .and_then(|x| x.strip_suffix("\")"))
            .unwrap();
        assert_eq!(Game::cram_cells(inner).unwrap(), m);
    }
    for m in Game::green_hackenbush("0-1 1-2 2-0 2-3")
        .unwrap()
        .moves_from()
        .unwrap()
    {
        let s = m.to_string();
        let inner = s
            .strip_prefix("green_hackenbush(\"")
            .and_then(|x| x.strip_suffix("\")"))
            .unwrap();
        assert_eq!(Game::green_hackenbush(inner).unwrap(), m);
    }
}

#[test]
fn winning_moves_keep_the_shape() {
    let g = Game::nim(vec![3, 4, 5]);
    assert_eq!(
        g.winning_move(&budget()).unwrap(),
        Some(Game::nim(vec![1, 4, 5]))
    );
    assert_eq!(
        Game::nim(vec![1, 2, 3]).winning_move(&budget()).unwrap(),
        None
    );
    assert_eq!(
        Game::misere_nim(vec![1, 1, 2])
            .winning_move(&budget())
            .unwrap(),
        Some(Game::misere_nim(vec![1, 1, 1]))
    );
    assert_eq!(
        Game::misere_nim(vec![1, 1]).outcome(&budget()).unwrap(),
        Outcome::N
    );
}

#[test]
fn winning_moves_on_big_heaps_need_no_list_of_moves() {
    for g in [
        Game::kayles(1_000_000),
        Game::dawsons_kayles(999_999),
        Game::grundys_game(3000),
    ] {
        assert!(g.moves_from().is_err() || matches!(g, Game::Grundys(_)));
        match g.winning_move(&budget()).unwrap() {
            Some(m) => assert_eq!(m.grundy(&budget()).unwrap(), 0, "{g} -> {m}"),
            None => assert_eq!(g.grundy(&budget()).unwrap(), 0),
        }
    }
}

#[test]
fn huge_heaps_are_valued_by_their_proved_period() {
    let seq = octal_sequence(&OctalCode::kayles(), 71 + 12, &budget()).unwrap();
    let n: u64 = 1_000_000_000_000;
    let expected = seq[(71 + (n - 71) % 12) as usize];
    let g = Game::kayles(n);
    assert_eq!(g.grundy(&budget()).unwrap(), expected);
    let sum = Game::sum(vec![Game::kayles(n), Game::kayles(n + 5)]).unwrap();
    let m = sum.winning_move(&budget()).unwrap();
    if let Some(m) = m {
        assert_eq!(m.grundy(&budget()).unwrap(), 0, "{m}");
    }
    let m = g.winning_move(&budget()).unwrap().unwrap();
    assert_eq!(m.grundy(&budget()).unwrap(), 0, "{m}");
    // 0.6 has no known period: a huge heap is refused within the budget.
    let short = Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(1),
        ..Budget::default()
    };
    let e = Game::octal("0.6", n).unwrap().grundy(&short).unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
}

// ---------------------------------------------------------------- errors

#[test]
fn errors_name_their_input() {
    let e = "0.8".parse::<OctalCode>().unwrap_err();
    assert!(matches!(e, GameError::InvalidOctal { .. }));
    assert!(e.to_string().contains("`0.8`"), "{e}");
    let e = parse_hackenbush("0-1 1_2").unwrap_err();
    assert!(e.to_string().contains("`1_2` at byte 4"), "{e}");
    let e = parse_cells("##/#x").unwrap_err();
    assert!(e.to_string().contains("byte 4"), "{e}");
    let e = Game::misere_nim(vec![1, 2]).grundy(&budget()).unwrap_err();
    assert!(matches!(e, GameError::NoGrundyValue { .. }));
    assert!(e.to_string().contains("misere_nim(1, 2)"), "{e}");
    assert!(Game::subtraction(&[], 3).is_err());
    assert!(Game::subtraction(&[0, 1], 3).is_err());
    assert!(Game::cram(9, 9)
        .unwrap_err()
        .to_string()
        .contains("cram(9, 9)"));
    assert!(Game::cram(0, 3).is_err());
    assert!(Game::northcott_rows(&[(3, 1, 1)]).is_err());
    assert!(Game::sum(vec![Game::misere_nim(vec![1]), Game::nim(vec![1])]).is_err());
    for e in [
        e,
        Game::nim(vec![u64::MAX]).moves_from().unwrap_err(),
        Game::misere_nim(vec![1, 2]).grundy(&budget()).unwrap_err(),
    ] {
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn budgets_stop_searches_and_say_so() {
    let tiny = Budget {
        max_positions: 1000,
        max_time: Duration::from_secs(60),
        ..Budget::default()
    };
    let e = Game::cram(5, 7).unwrap().grundy(&tiny).unwrap_err();
    let s = e.to_string();
    assert!(s.contains("1000 positions"), "{s}");
    let e = Game::kayles(1_000_000_000_000_000)
        .grundy(&tiny)
        .unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
    let e = octal_sequence(&OctalCode::kayles(), u64::MAX, &tiny).unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
    let e = period(&"0.16".parse().unwrap(), &tiny).unwrap_err();
    assert!(e.to_string().contains("period of 0.16"), "{e}");
    let quick = Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_millis(50),
        ..Budget::default()
    };
    let e = Game::cram(6, 7).unwrap().grundy(&quick).unwrap_err();
    assert!(e.to_string().contains("0.050 s"), "{e}");
    let e = Game::misere_cram(6, 7)
        .unwrap()
        .outcome(&quick)
        .unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
    let e = Game::grundys_game(10_000_000).grundy(&quick).unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
    let e = Game::nim(vec![9, 9, 9, 9, 9, 9]).graph(&tiny).unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
}

// ---------------------------------------------------------------- game graphs

#[test]
fn nim_2_3_4_graph_counts_multisets() {
    // Positions: multisets of non-zero heaps {a, b, c} with a ≤ 2, b ≤ 3, c ≤ 4.
    let mut positions = BTreeSet::new();
    for a in 0..=2u64 {
        for b in 0..=3u64 {
            for c in 0..=4u64 {
                let mut v: Vec<u64> = [a, b, c].into_iter().filter(|&x| x > 0).collect();
                v.sort_unstable();
                positions.insert(v);
            }
        }
    }
    // Moves: pairs of positions joined by one move.
    let mut moves = BTreeSet::new();
    for p in &positions {
        for i in 0..p.len() {
            for x in 0..p[i] {
                let mut q = p.clone();
                q[i] = x;
                q.retain(|&h| h > 0);
                q.sort_unstable();
                moves.insert((p.clone(), q));
            }
        }
    }
    let ps = positions
        .iter()
        .filter(|p| p.iter().fold(0, |a, &x| a ^ x) == 0)
        .count();
    let g = Game::nim(vec![2, 3, 4]).graph(&budget()).unwrap();
    assert_eq!(g.counts(), (positions.len(), moves.len(), ps));
    assert_eq!(g.counts(), (28, 114, 5));
    assert_eq!(g.positions[0], Game::nim(vec![2, 3, 4]));
    assert!(g.positions.contains(&Game::nim(vec![])));
    // Order of heaps and zero heaps do not make new positions.
    assert_eq!(
        Game::nim(vec![0, 4, 2, 3])
            .graph(&budget())
            .unwrap()
            .counts(),
        g.counts()
    );
}

#[test]
fn big_graphs_are_refused_not_built() {
    let short = Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(2),
        ..Budget::default()
    };
    let e = Game::kayles(300).graph(&short).unwrap_err();
    assert!(matches!(e, GameError::BudgetExceeded { .. }), "{e}");
}

#[test]
fn graph_marks_agree_with_values() {
    for game in [
        Game::kayles(8),
        Game::cram(3, 3).unwrap(),
        Game::green_hackenbush("0-1 1-2 2-0 2-3").unwrap(),
        Game::sum(vec![
            Game::grundys_game(7),
            Game::northcott("W...B").unwrap(),
        ])
        .unwrap(),
    ] {
        let g = game.graph(&budget()).unwrap();
        for (pos, &p) in g.positions.iter().zip(&g.p_positions) {
            assert_eq!(pos.grundy(&budget()).unwrap() == 0, p, "{pos}");
        }
        for &(a, b) in &g.edges {
            assert!(a < g.positions.len() && b < g.positions.len());
        }
    }
    // Misère graphs mark by misère play: the empty position is an N-position.
    let g = Game::misere_nim(vec![1, 2]).graph(&budget()).unwrap();
    for (pos, &p) in g.positions.iter().zip(&g.p_positions) {
        assert_eq!(pos.outcome(&budget()).unwrap() == Outcome::P, p, "{pos}");
    }
    let g = Game::misere_cram(2, 3).unwrap().graph(&budget()).unwrap();
    for (pos, &p) in g.positions.iter().zip(&g.p_positions) {
        assert_eq!(pos.outcome(&budget()).unwrap() == Outcome::P, p, "{pos}");
    }
}

#[test]
fn cram_graph_identifies_symmetric_positions() {
    // On a 2 × 2 board the four dominoes leave two isolated cells or a domino; the domino
    // positions (two horizontal, two vertical) are one position up to symmetry.
    let g = Game::cram(2, 2).unwrap().graph(&budget()).unwrap();
    assert_eq!(g.counts(), (3, 2, 2));
}
