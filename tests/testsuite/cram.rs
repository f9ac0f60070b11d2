//! The Cram engine against its oracles. The first is the plain search (`CramOptions` all off:
//! the mex of every option of every region, with its own layout and table, written apart from
//! the pruned search): on every rectangle of at most 30 cells, on random cell sets, and with
//! each combination of the engine's rules. Misère play goes against the brute force of
//! `game_oracle`, written from the rules. The second oracle is the table of values Piotr
//! Beling published with igsolve (the boards that take minutes are `#[ignore]`d: run them with
//! `cargo test --release cram -- --ignored`).

mod beling;

use std::collections::HashMap;
use std::time::Duration;

use proptest::prelude::*;

use crate::common::budget;
use crate::game_oracle::brute_cram;
use nimbook::game::{cram_grundy, Board, Budget, CramOptions, Game, GameError, Outcome};

/// Every rule off: the oracle (the Cram tests of `game_theorems` use it too).
pub(crate) fn plain() -> CramOptions {
    CramOptions {
        symmetry: false,
        paths: false,
        point_symmetry: false,
        reductions: false,
        pruned_search: false,
    }
}

/// Enough for the plain search of a 30-cell board.
fn ample() -> Budget {
    Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(3600),
        ..Budget::default()
    }
}

#[test]
fn every_rectangle_up_to_30_cells_matches_the_plain_search() {
    for rows in 1..=5u64 {
        for cols in rows..=30 / rows {
            let b = Board::rectangle(rows, cols).unwrap();
            let want = cram_grundy(&b, plain(), &ample()).unwrap();
            for g in [Game::cram(rows, cols), Game::cram(cols, rows)] {
                let g = g.unwrap();
                assert_eq!(g.grundy(&budget()).unwrap(), want, "{g}");
            }
        }
    }
}

/// A board of `rows × cols` cells, each free when its bit of `bits` is set.
fn board(rows: u64, cols: u64, bits: u64) -> Board {
    Board::from_bits(rows, cols, bits).unwrap()
}

/// Random cell sets in frames of at most `rows × cols` cells, each cell free with
/// probability `(density + 6) / 16`.
fn cell_sets(rows: u64, cols: u64) -> impl Strategy<Value = Board> {
    (1..=rows, 1..=cols, any::<u64>(), any::<u64>(), 5..=9u64).prop_map(
        |(rows, cols, a, b, density)| {
            let mut free = 0u64;
            for i in 0..rows * cols {
                // Four random bits a cell, from the two words.
                let r = ((a >> (i % 64)) & 1) * 8 + ((b >> ((i * 7) % 64)) & 7);
                if r < density + 6 {
                    free |= 1 << i;
                }
            }
            board(rows, cols, free)
        },
    )
}

/// The rules of the pruned search, any combination.
fn rules() -> impl Strategy<Value = CramOptions> {
    (0..16u32).prop_map(|bits| CramOptions {
        symmetry: bits & 1 != 0,
        paths: bits & 2 != 0,
        point_symmetry: bits & 4 != 0,
        reductions: bits & 8 != 0,
        pruned_search: true,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_cell_sets_match_the_plain_search(b in cell_sets(5, 6), o in rules()) {
        let want = cram_grundy(&b, plain(), &ample()).unwrap();
        prop_assert_eq!(cram_grundy(&b, o, &budget()).unwrap(), want, "{} {:?}", b, o);
        prop_assert_eq!(Game::Cram(b).grundy(&budget()).unwrap(), want, "{}", b);
    }

    // The brute force of misère play has no sums to split: frames of at most 20 cells.
    #[test]
    fn random_misere_boards_match_the_brute_force(b in cell_sets(4, 5)) {
        let (rows, cols) = (b.rows() as usize, b.cols() as usize);
        let next_wins = brute_cram(rows, cols, b.free_bits(), true, &mut HashMap::new()) == 1;
        let want = if next_wins { Outcome::N } else { Outcome::P };
        prop_assert_eq!(Game::MisereCram(b).outcome(&budget()).unwrap(), want, "{}", b);
    }
}

/// The published value of a board, from Beling's table.
fn published(rows: u64, cols: u64) -> u64 {
    beling::published(rows, cols).unwrap()
}

#[test]
fn boards_of_seconds_have_the_published_values() {
    // Every even × even board is immediate (the half-turn strategy); these are the rest that
    // take at most seconds.
    for (rows, cols) in [
        (4, 4),
        (4, 5),
        (4, 6),
        (4, 7),
        (4, 8),
        (4, 9),
        (4, 10),
        (4, 12),
        (4, 14),
        (5, 5),
        (5, 6),
        (5, 7),
        (5, 8),
        (6, 6),
        (6, 8),
        (6, 10),
    ] {
        let g = Game::cram(rows, cols).unwrap();
        assert_eq!(g.grundy(&budget()).unwrap(), published(rows, cols), "{g}");
    }
}

#[test]
#[ignore = "minutes of CPU: run with --ignored"]
fn boards_of_minutes_have_the_published_values() {
    let long = Budget {
        max_positions: u64::MAX,
        max_time: Duration::from_secs(3600),
        max_table_bytes: 4 << 30,
    };
    for (rows, cols) in [(4, 11), (5, 9), (6, 7)] {
        let g = Game::cram(rows, cols).unwrap();
        assert_eq!(g.grundy(&long).unwrap(), published(rows, cols), "{g}");
    }
}

#[test]
fn a_full_table_forgets_but_never_errs() {
    // 1 MiB of table (the least) is far less than 5 × 7 wants; entries are forgotten and
    // searched again.
    let small = Budget {
        max_table_bytes: 0,
        ..ample()
    };
    assert_eq!(
        Game::cram(5, 7).unwrap().grundy(&small).unwrap(),
        published(5, 7)
    );
}

#[test]
fn a_search_stopped_with_a_full_table_says_so() {
    let small = Budget {
        max_positions: 400_000,
        max_time: Duration::from_secs(600),
        max_table_bytes: 0,
    };
    let e = Game::cram(5, 8).unwrap().grundy(&small).unwrap_err();
    let GameError::BudgetExceeded { budget, reached } = &e else {
        panic!("{e}");
    };
    assert_eq!(budget, "400000 positions");
    assert!(reached.contains("max-table-bytes"), "{reached}");
}

/// Cram through a book: the budgets of `[nimbook]` reach the search, and a search stopped with
/// full tables says so in the diagnostic.
#[cfg(feature = "site")]
mod books {
    use crate::common::{nimbook, stderr};

    /// A book of one lesson whose `[nimbook]` table holds `budgets`.
    fn book(budgets: &str, lesson: &str) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path();
        std::fs::write(
            root.join("book.toml"),
            format!("[book]\ntitle = \"Cram\"\nsrc = \"content\"\n\n[nimbook]\n{budgets}\n"),
        )
        .expect("book.toml");
        std::fs::create_dir_all(root.join("content")).expect("content");
        std::fs::write(root.join("content/cram.md"), lesson).expect("lesson");
        tmp
    }

    #[test]
    fn a_search_stopped_with_full_tables_names_max_table_bytes() {
        let dir = book(
            "max-positions = 400000\nmax-table-bytes = 0",
            "# Cram\n\nThe board `nim: grundy(cram(5, 8)) = 1`.\n",
        );
        let out = nimbook(&["check"], dir.path());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("400000 positions"), "{err}");
        assert!(err.contains("max-table-bytes = 1048576"), "{err}");
    }

    #[test]
    fn max_table_bytes_above_its_ceiling_is_refused_at_its_line() {
        let dir = book(
            "max-table-bytes = 100000000000000",
            "# Cram\n\n`nim: grundy(cram(2, 2)) = 0`\n",
        );
        let out = nimbook(&["check"], dir.path());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("max-table-bytes"), "{err}");
        assert!(err.contains("book.toml:6:19"), "{err}");
    }

    /// Issue 40's reach: 5 × 9 (Beling's value 1) in a book with raised budgets. Time it with
    /// `/usr/bin/time -v target/release/nimbook check DIR` on such a book (see the report of
    /// the branch `cram` and ARCHITECTURE.md's benchmarks).
    #[test]
    #[ignore = "minutes of CPU: run with --ignored"]
    fn the_5_by_9_board_is_checked_in_a_book() {
        let dir = book(
            "max-seconds = 600\nmax-positions = 1000000000\nmax-table-bytes = 4294967296",
            "# Cram\n\nBeling's table gives `nim: grundy(cram(5, 9)) = 1`.\n",
        );
        let out = nimbook(&["check"], dir.path());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
}
