//! Impartial games and the Sprague–Grundy solver.
//!
//! # The theory in brief
//!
//! An *impartial game* is a two-player game in which both players have the same moves from every
//! position, the game always ends, and (in *normal play*) the player who cannot move loses. Every
//! position is either a **P-position** (the *previous* player, the one who just moved, wins with
//! best play) or an **N-position** (the *next* player, the one to move, wins). A position is P
//! exactly when every move leads to an N-position; a position with no moves is P.
//!
//! The Sprague–Grundy theorem says much more: every position `G` is equivalent to a single Nim
//! heap `⋆g`, where `g` is its *Grundy value*, the **mex** (minimum excluded value) of the Grundy
//! values of its options. A position is P exactly when its value is 0. The value of a *sum* of
//! games, in which a move is made in exactly one component, is the **nim-sum** (bitwise XOR) of
//! the values of the components. This is what makes the solver fast: a position that falls apart
//! into independent pieces (a Kayles row split in two, a Cram board cut into separate regions) is
//! solved piece by piece, and each piece is memoised once.
//!
//! A *winning move* from an N-position of value `g` is a move to a position of value 0. In a sum
//! with component values `g₁ … gₖ` and nim-sum `g ≠ 0`, some component has `gᵢ ⊕ g < gᵢ`, and by
//! the definition of the mex that component has a move to a position of value exactly `gᵢ ⊕ g`;
//! that move is the winning move. [`Game::winning_move`] finds it this way, component by
//! component, without searching the sum as a whole.
//!
//! In *misère play* the player who cannot move wins. Misère games have no Grundy theory of sums;
//! [`Game::grundy`] refuses them with [`GameError::NoGrundyValue`], and [`Game::outcome`] solves
//! them directly: misère Nim by Bouton's misère rule (play as in Nim until the move that would
//! leave only heaps of size 1, then leave an odd number of them), misère Cram by a memoised search
//! of the whole board.
//!
//! # A first example
//!
//! ```
//! use nimbook::game::{Budget, Game, Outcome};
//!
//! let b = Budget::default();
//! let g = Game::nim(vec![3, 4, 5]);
//! assert_eq!(g.grundy(&b)?, 2);
//! assert_eq!(g.winning_move(&b)?, Some(Game::nim(vec![1, 4, 5])));
//! assert_eq!(Game::cram(2, 3)?.outcome(&b)?, Outcome::N);
//! let kayles = Game::sum(vec![Game::kayles(3), Game::kayles(4)])?;
//! assert_eq!(kayles.to_string(), "kayles(3) + kayles(4)");
//! assert_eq!(kayles.grundy(&b)?, 3 ^ 1);
//! assert_eq!(Game::nim(vec![2, 3, 4]).graph(&b)?.counts(), (28, 114, 5));
//! # Ok::<(), nimbook::game::GameError>(())
//! ```
//!
//! # The games
//!
//! Each game is written in the claim language as shown; [`Display`](std::fmt::Display) prints the
//! same spelling, and every position produced by a move prints in a spelling that parses back.
//! A sum of games prints as its components joined by ` + `.
//!
//! * **Nim** `nim(3, 4, 5)`: remove any positive number of counters from one heap. Value: the
//!   nim-sum of the heaps (Bouton). `nim()` is the empty game, of value 0.
//! * **Misère Nim** `misere_nim(1, 1, 2)`: Nim where the last player to move *loses*.
//! * **Subtraction games** `subtraction([1, 3, 4], n)`: remove `s` counters from a heap of `n`,
//!   for some `s` in the set.
//! * **Octal games** `octal("0.77", n)`, with `kayles(n)` for `0.77` and `dawsons_kayles(n)` for
//!   `0.07`. The code `d₀.d₁d₂…` says, in digit `dₖ`, what may be left after removing `k`
//!   counters from one heap: bit 1 allows leaving no heap (only when exactly `k` were there), bit 2
//!   leaving one non-empty heap, bit 4 leaving two non-empty heaps. `d₀` may only be 0 or 4
//!   (splitting a heap without removing anything). See [`OctalCode`].
//!   The sequence of values of a heap game is computed by [`octal_sequence`], and [`period`]
//!   proves its eventual periodicity by the **Guy–Smith criterion**: for a code of length `t`
//!   (last non-zero digit `dₜ`), if `g(n + p) = g(n)` for all `n` with `n₀ ≤ n < 2n₀ + p + t`,
//!   then `g(n + p) = g(n)` for every `n ≥ n₀`. (Induction: an option of the heap `n + p` that
//!   splits it into `a + b` has its larger part at least `n₀ + p`, which can be shortened by `p`.)
//!   Once a period is proved, values of larger heaps are read off it: so `kayles(10^12)` is
//!   answered at once, and a heap game with no proved period within the first 4 194 304 heap
//!   sizes refuses larger heaps with [`GameError::BudgetExceeded`]. Subtraction games are
//!   handled alike: a heap's value depends only on the `max(set)` values before it, so the
//!   sequence repeats from the first window of that many values that comes back.
//! * **Grundy's game** `grundys_game(n)`: split one heap into two heaps of different sizes.
//!   Its values are computed as the mex of the options (no period is known), with the sparse
//!   space of the module `sparse`, as are those of every octal game that splits heaps.
//! * **Cram** `cram(rows, cols)`, `misere_cram(rows, cols)`: place a domino on two adjacent free
//!   cells, horizontally or vertically. Boards that are not rectangles print as
//!   `cram_cells("##./###")` and `misere_cram_cells(...)`, in the **cell notation** of
//!   [`parse_cells`]: rows from top to bottom separated by `/`, `#` a free cell, `.` a blocked
//!   (or covered) cell; shorter rows are padded with blocked cells, and whitespace is ignored.
//!   A board may have at most 64 cells in its rows × columns frame. The solver keeps boards as
//!   64-bit bitboards, splits them into connected regions, stores each region under the least
//!   of its images by the symmetries of the square, values path-shaped regions as Dawson's
//!   Kayles, gives 0 to regions where the second player can copy every move by the half turn
//!   (every even × even board), drops cells and links that change no value, and finds values
//!   by Beling and Rogalski's pruned search, which asks of each option only whether its value
//!   lies in the set the answer still depends on (see [`CramOptions`] and the module `cram`,
//!   which proves each step). An even × odd board is an N-position (take the two central
//!   cells, then copy), but its value still needs the search.
//! * **Northcott's game** `northcott("W...B./..B.W")`: each row of a board holds one white and
//!   one black piece; a move slides one piece (either colour) of one row any number of squares
//!   *towards* the other piece of its row, without jumping over it. The **Northcott notation**
//!   of [`parse_northcott`] writes rows separated by `/`, `W` the white piece, `B` the black
//!   piece, `.` an empty square. A row whose pieces have `k` empty squares between them is
//!   exactly a Nim heap of size `k`, so the value is the nim-sum of the gaps. (In the partizan
//!   original, each player moves only pieces of their colour and may also retreat; retreats are
//!   reversible, so the winner plays the same Nim strategy and answers a retreat by advancing the
//!   same distance. Retreats would make the game loopy, so this impartial version leaves them
//!   out.)
//! * **Green Hackenbush** `green_hackenbush("0-1 1-2 1-3")`: a graph whose vertex 0 is the
//!   ground; a move deletes one edge, and everything no longer connected to the ground falls
//!   away. Multi-edges and loops are allowed (see [`parse_hackenbush`]). Values come from the
//!   **colon principle** (a branch hanging from a vertex may be replaced by any branch of the
//!   same value, so a tree is a sum of stalks: an edge carrying a subtree of value `x` is worth
//!   `x + 1`) and the **fusion principle** (the vertices of a cycle may be fused into one vertex
//!   without changing the value; the cycle's edges become loops, and a loop is worth a single
//!   twig, value 1). Fusing every 2-edge-connected piece turns any graph into a tree. Edges not
//!   connected to the ground in the position as given are not part of the game.
//! * **Coin-turning games** `twins(n)`, `turning_turtles(n)`, `ruler(n)` (a row with one heads
//!   coin at place `n`, counted from 0) and `turning_corners(x, y)` (a grid with one heads coin
//!   at `(x, y)`): a move turns over a set of coins allowed by the rule, the far one from heads
//!   to tails. A position with several heads coins is written as the sum of its coins, because
//!   its value is the nim-sum of theirs; a coin's value is the mex over its moves, computed by
//!   search (see [`Coin`] and the module `coins`). Turning Corners is where the nim-product
//!   appears as a game: its coin `(x, y)` is worth `x ⊗ y`, which the tests check and the
//!   engine never assumes.
//! * **Games whose moves touch several heaps** (module `heaps`): Wythoff's game `wythoff(a, b)`,
//!   Moore's Nim `moores_nim(k, h1, …)`, Staircase Nim `staircase_nim(h1, …)`, Poker Nim
//!   `poker_nim(r, m, h1, …)` and Welter's game `welter(c1, …)`, valued by search from their
//!   rules; Mock Turtles `mock_turtles(n)` is a coin-turning game and Lasker's Nim
//!   `laskers_nim(n)` a heap game. Their theorems ([`moores_rule`], [`welter_function`], Nim on
//!   the odd steps, the odious numbers, the rule by fours) are checked against these values.
//! * **Loopy games** (module `loopy`): `loopy("1>0 1-2", v)` and `classic_northcott(rows)` may
//!   go on for ever; [`Game::outcome`] may be [`Outcome::D`], and [`Game::grundy`] refuses a
//!   position whose generalized value is `∞_K` (see [`LoopyValue`]).
//!
//! # Positions of a game graph
//!
//! [`Game::graph`] lists the positions reachable from a game (including itself), the moves
//! between them and which of them are P-positions. **Convention:** a position is a *multiset of
//! non-terminal components*. A sum is flattened, a Nim game counts as the multiset of its
//! non-zero heaps, a Cram board as the multiset of its connected regions of free cells, each taken
//! up to the symmetries of the square (rotations and reflections), and components that have no
//! move at all (a Nim heap of size 0, a single free Cram cell, a Kayles heap of size 0) are
//! dropped. So `nim(1, 2)`, `nim(2, 1)` and `nim(0, 2, 1)` are one position, and `nim(2, 3, 4)`
//! has 28 positions (the multisets `{a, b, c}` with `a ≤ 2`, `b ≤ 3`, `c ≤ 4`, zeros dropped),
//! 114 moves and 5 P-positions.
//! Misère games are taken whole, with the same normalisation of zeros and symmetries. A move is a
//! pair of positions with a move from one to the other, so two moves of a position that lead to
//! the same position count once. Green Hackenbush positions are edge multisets over the original
//! vertex labels (no graph isomorphism is attempted).
//!
//! [`Game::moves_from`] and [`Game::winning_move`], on the other hand, keep the shape of the game
//! as written: a move in `nim(3, 4, 5)` changes one heap in place (`nim(2, 4, 5)`), and a
//! Cram move keeps the board frame.
//!
//! # Budgets
//!
//! Every search takes a [`Budget`] of positions and of time and fails with
//! [`GameError::BudgetExceeded`], naming the budget and how far it got, rather than running on.

use std::fmt;
use std::time::{Duration, Instant};

pub mod cancel;
mod code;
mod coins;
mod cram;
mod hackenbush;
mod heaps;
mod hexadecimal;
mod lasker;
mod loopy;
mod northcott;
mod octal;
mod solver;
mod sparse;
mod welter;
mod wythoff;

pub use code::TakeAndBreak;
pub use coins::{Coin, CoinRule, MAX_COINS};
pub use cram::{
    cram_grundy, cram_search, parse_cells, parse_domino_diagram, Board, CramOptions, CramSearch,
    Domino, DominoDiagram, DominoError,
};
pub use hackenbush::{parse_hackenbush, Graph};
pub use heaps::{moores_rule, HeapGame, HeapRule, MAX_HEAPS};
pub use hexadecimal::{hexadecimal_period, hexadecimal_sequence, HexCode, MAX_HEXADECIMAL_HEAP};
#[cfg(test)]
pub(crate) use lasker::lasker_period_values;
pub use lasker::{lasker_period, ArithmeticPeriodicity, MAX_LASKER_HEAP, SHIFT_RESIDUE};
pub use loopy::{parse_loopy, LoopyGame, LoopyValue, MAX_LOOPY_EDGES, MAX_LOOPY_ROW};
pub use northcott::{parse_northcott, NorthcottRow};
pub(crate) use octal::named_heap_sequence;
pub use octal::{
    grundys_sequence, grundys_sequence_plain, octal_sequence, octal_sequence_by_mex,
    octal_sequence_plain, period, subtraction_period, OctalCode, Periodicity, GUY_SMITH,
};
pub use solver::{GameGraph, MAX_GRAPH_POSITIONS};
pub use welter::welter_function;
pub use wythoff::{wythoff_table, MAX_WYTHOFF_CELLS};

/// The most options [`Game::moves_from`] will list before refusing, so that a Nim heap of
/// size 10¹⁸ cannot exhaust memory.
pub const MAX_LISTED_MOVES: u64 = 1_000_000;

/// Limits on one search: the number of positions it may examine and the wall-clock time it may
/// take.
///
/// What counts as one position: for a heap game (octal, subtraction, Grundy's game) one heap
/// size whose value is computed, so a heap of `n` needs a budget above `n`; for Cram one region
/// searched (asked for its value, or whether its value lies in a set); for misère Cram one
/// board searched; for Green
/// Hackenbush one edge; for [`Game::graph`] one position of the graph. The clock is read every thousand or so positions and during long inner loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// How many positions (or heap sizes, for sequences) the search may examine.
    pub max_positions: u64,
    /// How long the search may run.
    pub max_time: Duration,
    /// The most bytes the Cram search's transposition tables may take together (at least
    /// 1 MiB is used). At this size the table forgets its smallest regions instead of growing,
    /// which costs time and never correctness; a search that then runs out of time or
    /// positions says that the table was full.
    pub max_table_bytes: u64,
}

/// The default of [`Budget::max_table_bytes`]: 1 GiB.
pub const DEFAULT_MAX_TABLE_BYTES: u64 = 1 << 30;

impl Default for Budget {
    /// 50 000 000 positions, 60 seconds and 1 GiB of Cram table.
    fn default() -> Self {
        Budget {
            max_positions: 50_000_000,
            max_time: Duration::from_secs(60),
            max_table_bytes: DEFAULT_MAX_TABLE_BYTES,
        }
    }
}

/// Errors of the game engine. Every message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A search ran out of its [`Budget`].
    #[error("search budget of {budget} exceeded after {reached}")]
    BudgetExceeded {
        /// The budget that was hit, e.g. `50000000 positions` or `60 s`.
        budget: String,
        /// How far the search got, e.g. `50000001 positions in 3.2 s`.
        reached: String,
    },
    /// An octal code that is not valid.
    #[error("`{code}` is not a valid octal game code: {reason}")]
    InvalidOctal {
        /// The code as written.
        code: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A hexadecimal code that is not valid.
    #[error("`{code}` is not a valid hexadecimal game code: {reason}")]
    InvalidHexadecimal {
        /// The code as written.
        code: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A Green Hackenbush graph that does not parse.
    #[error("malformed Hackenbush graph `{input}`: {reason} (`{token}` at byte {offset})")]
    MalformedGraph {
        /// The whole input.
        input: String,
        /// The offending token.
        token: String,
        /// Its byte offset in the input.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A board (Cram cells or Northcott rows) that does not parse.
    #[error("malformed board `{input}`: {reason} (at byte {offset})")]
    MalformedBoard {
        /// The whole input.
        input: String,
        /// The byte offset of the problem.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A misère game was asked for its Grundy value.
    #[error("`{game}` is a misère game and has no Grundy value; ask for its outcome instead")]
    NoGrundyValue {
        /// The game, in claim-language spelling.
        game: String,
    },
    /// Arguments that do not describe a game.
    #[error("invalid game `{game}`: {reason}")]
    InvalidGame {
        /// The game as it was described.
        game: String,
        /// What is wrong.
        reason: String,
    },
    /// A question this engine cannot answer, such as the outcome of a sum of misère games.
    #[error("unsupported for `{game}`: {reason}")]
    Unsupported {
        /// The game, in claim-language spelling.
        game: String,
        /// Why it is not supported.
        reason: String,
    },
    /// [`Game::moves_from`] would list more than [`MAX_LISTED_MOVES`] options.
    #[error("`{game}` has {count} moves, more than the {limit} that can be listed")]
    TooManyMoves {
        /// The game, in claim-language spelling.
        game: String,
        /// How many moves it has.
        count: u64,
        /// The limit.
        limit: u64,
    },
}

/// Who wins with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The previous player (the one who just moved) wins.
    P,
    /// The next player (the one to move) wins.
    N,
    /// Neither player can force a win: good play goes on for ever (only in a loopy game).
    D,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::D => "D",
        })
    }
}

/// A position of an impartial game. See the module documentation for the rules of each game
/// and its claim-language spelling.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    /// Nim with the given heaps.
    Nim(Vec<u64>),
    /// Misère Nim with the given heaps.
    MisereNim(Vec<u64>),
    /// A subtraction game: one heap of `n`, moves remove an element of `set`.
    Subtraction {
        /// The allowed removals, sorted, distinct and positive.
        set: Vec<u64>,
        /// The heap size.
        n: u64,
    },
    /// An octal game on one heap of size `n`.
    Octal {
        /// The rules.
        code: OctalCode,
        /// The heap size.
        n: u64,
    },
    /// A hexadecimal game (a move may leave up to three heaps) on one heap of size `n`.
    Hexadecimal {
        /// The rules.
        code: HexCode,
        /// The heap size.
        n: u64,
    },
    /// Grundy's game on one heap.
    Grundys(u64),
    /// Lasker's Nim on one heap: take any number, or split the heap in two.
    Lasker(u64),
    /// Cram (normal play) on a board.
    Cram(Board),
    /// Misère Cram on a board.
    MisereCram(Board),
    /// Northcott's game with the given rows.
    Northcott(Vec<NorthcottRow>),
    /// Green Hackenbush on a grounded graph.
    Hackenbush(Graph),
    /// A coin-turning game with a single heads coin.
    Coin(Coin),
    /// A game on several heaps whose moves touch more than one heap or depend on the others
    /// (Wythoff, Moore, Staircase, Poker, Welter).
    Heaps(HeapGame),
    /// A loopy game: positions may repeat (Smith's theory, module `loopy`).
    Loopy(LoopyGame),
    /// The sum of games: a move is made in exactly one component.
    Sum(Vec<Game>),
}

impl Game {
    /// Nim with the given heaps (`nim(3, 4, 5)`).
    pub fn nim(heaps: Vec<u64>) -> Game {
        Game::Nim(heaps)
    }

    /// Misère Nim with the given heaps (`misere_nim(1, 1, 2)`).
    pub fn misere_nim(heaps: Vec<u64>) -> Game {
        Game::MisereNim(heaps)
    }

    /// The subtraction game `subtraction(set, n)`. The set must be non-empty and hold only
    /// positive numbers; it is sorted and duplicates are dropped.
    pub fn subtraction(set: &[u64], n: u64) -> Result<Game, GameError> {
        let describe = || format!("subtraction({:?}, {n})", set);
        if set.is_empty() {
            return Err(GameError::InvalidGame {
                game: describe(),
                reason: "the subtraction set is empty".into(),
            });
        }
        if set.contains(&0) {
            return Err(GameError::InvalidGame {
                game: describe(),
                reason: "the subtraction set contains 0, which would be a pass".into(),
            });
        }
        let mut set = set.to_vec();
        set.sort_unstable();
        set.dedup();
        Ok(Game::Subtraction { set, n })
    }

    /// The octal game `octal(code, n)`, the code parsed by [`OctalCode::from_str`](std::str::FromStr).
    pub fn octal(code: &str, n: u64) -> Result<Game, GameError> {
        let code: OctalCode = code.parse()?;
        Ok(Game::Octal { code, n })
    }

    /// The hexadecimal game `hexadecimal(code, n)`, the code parsed by
    /// [`HexCode::from_str`](std::str::FromStr).
    pub fn hexadecimal(code: &str, n: u64) -> Result<Game, GameError> {
        let code: HexCode = code.parse()?;
        Ok(Game::Hexadecimal { code, n })
    }

    /// Kayles, octal game `0.77`, on a row of `n` pins.
    pub fn kayles(n: u64) -> Game {
        Game::Octal {
            code: OctalCode::kayles(),
            n,
        }
    }

    /// Dawson's Kayles, octal game `0.07`, on a row of `n` pins.
    pub fn dawsons_kayles(n: u64) -> Game {
        Game::Octal {
            code: OctalCode::dawsons_kayles(),
            n,
        }
    }

    /// Grundy's game on one heap of `n`.
    pub fn grundys_game(n: u64) -> Game {
        Game::Grundys(n)
    }

    /// Lasker's Nim on one heap of `n`: take any number of counters, or split the heap into two
    /// non-empty heaps.
    pub fn laskers_nim(n: u64) -> Game {
        Game::Lasker(n)
    }

    /// Cram on an empty `rows × cols` board (at most 64 cells).
    pub fn cram(rows: u64, cols: u64) -> Result<Game, GameError> {
        Board::rectangle(rows, cols).map(Game::Cram)
    }

    /// Misère Cram on an empty `rows × cols` board (at most 64 cells).
    pub fn misere_cram(rows: u64, cols: u64) -> Result<Game, GameError> {
        Board::rectangle(rows, cols).map(Game::MisereCram)
    }

    /// Cram on the cells written in the notation of [`parse_cells`].
    pub fn cram_cells(cells: &str) -> Result<Game, GameError> {
        parse_cells(cells).map(Game::Cram)
    }

    /// Misère Cram on the cells written in the notation of [`parse_cells`].
    pub fn misere_cram_cells(cells: &str) -> Result<Game, GameError> {
        parse_cells(cells).map(Game::MisereCram)
    }

    /// Green Hackenbush on the graph written in the notation of [`parse_hackenbush`].
    pub fn green_hackenbush(edges: &str) -> Result<Game, GameError> {
        parse_hackenbush(edges).map(Game::Hackenbush)
    }

    /// Northcott's game on the rows written in the notation of [`parse_northcott`].
    pub fn northcott(rows: &str) -> Result<Game, GameError> {
        parse_northcott(rows).map(Game::Northcott)
    }

    /// Northcott's game from rows given as `(width, white, black)`, columns counted from 0.
    pub fn northcott_rows(rows: &[(u64, u64, u64)]) -> Result<Game, GameError> {
        rows.iter()
            .map(|&(w, a, b)| NorthcottRow::new(w, a, b))
            .collect::<Result<Vec<_>, _>>()
            .map(Game::Northcott)
    }

    /// Twins with one heads coin at place `n` (counted from 0): a move turns exactly two
    /// coins, the right one from heads to tails.
    pub fn twins(n: u64) -> Game {
        Game::Coin(Coin::in_row(CoinRule::Twins, n))
    }

    /// Turning Turtles with one heads coin at place `n`: a move turns one or two coins, the
    /// right one from heads to tails.
    pub fn turning_turtles(n: u64) -> Game {
        Game::Coin(Coin::in_row(CoinRule::TurningTurtles, n))
    }

    /// The Ruler game with one heads coin at place `n`: a move turns a run of consecutive
    /// coins whose right end goes from heads to tails.
    pub fn ruler(n: u64) -> Game {
        Game::Coin(Coin::in_row(CoinRule::Ruler, n))
    }

    /// Turning Corners with one heads coin at `(x, y)`: a move turns the four corners of a
    /// rectangle whose far corner, `(x, y)`, goes from heads to tails.
    pub fn turning_corners(x: u64, y: u64) -> Game {
        Game::Coin(Coin::corner(x, y))
    }

    /// Mock Turtles with one heads coin at place `n`: a move turns one, two or three coins,
    /// the right one from heads to tails.
    pub fn mock_turtles(n: u64) -> Game {
        Game::Coin(Coin::in_row(CoinRule::MockTurtles, n))
    }

    /// Wythoff's game with the queen at `(a, b)` (two heaps `a` and `b`).
    pub fn wythoff(a: u64, b: u64) -> Game {
        Game::Heaps(HeapGame::from_parts(HeapRule::Wythoff, vec![a, b]))
    }

    /// Moore's Nim_k with these heaps: a move takes from at least one and at most `k` heaps.
    pub fn moores_nim(k: u64, heaps: Vec<u64>) -> Result<Game, GameError> {
        HeapGame::new(HeapRule::Moore(k), heaps).map(Game::Heaps)
    }

    /// Staircase Nim: `steps[0]` counters on step 1, `steps[1]` on step 2, and so on.
    pub fn staircase_nim(steps: Vec<u64>) -> Result<Game, GameError> {
        HeapGame::new(HeapRule::Staircase, steps).map(Game::Heaps)
    }

    /// Poker Nim with `raises` raises left in the game and at most `cap` counters a heap.
    pub fn poker_nim(raises: u64, cap: u64, heaps: Vec<u64>) -> Result<Game, GameError> {
        HeapGame::new(HeapRule::Poker { raises, cap }, heaps).map(Game::Heaps)
    }

    /// Welter's game with coins on these squares (distinct, numbered from 0).
    pub fn welter(coins: Vec<u64>) -> Result<Game, GameError> {
        HeapGame::new(HeapRule::Welter, coins).map(Game::Heaps)
    }

    /// A token on vertex `at` of the graph written in the notation of [`parse_loopy`].
    pub fn loopy(edges: &str, at: u64) -> Result<Game, GameError> {
        LoopyGame::graph(edges, at).map(Game::Loopy)
    }

    /// The classic Northcott's game, in which pieces may also retreat, on the rows written in
    /// the notation of [`parse_northcott`]: the sum of one loopy game per row.
    pub fn classic_northcott(rows: &str) -> Result<Game, GameError> {
        let mut parts = parse_northcott(rows)?
            .into_iter()
            .map(|r| LoopyGame::northcott_row(r).map(Game::Loopy))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(if parts.len() == 1 {
            parts.swap_remove(0)
        } else {
            Game::Sum(parts)
        })
    }

    /// Whether this game is (or contains) a loopy game.
    pub fn is_loopy(&self) -> bool {
        match self {
            Game::Loopy(_) => true,
            Game::Sum(parts) => parts.iter().any(Game::is_loopy),
            _ => false,
        }
    }

    /// The sum of the given games. Misère games cannot be summed.
    pub fn sum(parts: Vec<Game>) -> Result<Game, GameError> {
        let game = Game::Sum(parts);
        if game.contains_misere() {
            return Err(GameError::InvalidGame {
                game: game.to_string(),
                reason: "misère games have no theory of sums; a sum must be of normal-play games"
                    .into(),
            });
        }
        Ok(game)
    }

    /// Whether this game is (or contains) a misère game.
    pub fn is_misere(&self) -> bool {
        self.contains_misere()
    }

    fn contains_misere(&self) -> bool {
        match self {
            Game::MisereNim(_) | Game::MisereCram(_) => true,
            Game::Sum(parts) => parts.iter().any(Game::contains_misere),
            _ => false,
        }
    }

    /// The Grundy value of a normal-play game. Misère games give
    /// [`GameError::NoGrundyValue`].
    pub fn grundy(&self, b: &Budget) -> Result<u64, GameError> {
        let mut s = solver::Solver::new(b);
        s.grundy(self)
    }

    /// Who wins with best play, for normal-play games, loopy games (where it may be a draw) and
    /// (single, not summed) misère games.
    pub fn outcome(&self, b: &Budget) -> Result<Outcome, GameError> {
        let mut s = solver::Solver::new(b);
        s.outcome(self)
    }

    /// The position after a winning move, or `None` if this is a P-position. The move keeps the
    /// shape of the game (see the module documentation).
    pub fn winning_move(&self, b: &Budget) -> Result<Option<Game>, GameError> {
        let mut s = solver::Solver::new(b);
        s.winning_move(self)
    }

    /// The options of this position, one per distinct resulting position, in the shape of the
    /// game as written. Fails if there are more than [`MAX_LISTED_MOVES`].
    pub fn moves_from(&self) -> Result<Vec<Game>, GameError> {
        let mut out = solver::moves(self)?;
        let mut seen = std::collections::HashSet::new();
        out.retain(|g| seen.insert(g.clone()));
        Ok(out)
    }

    /// The graph of positions reachable from this one, under the convention of the module
    /// documentation.
    pub fn graph(&self, b: &Budget) -> Result<GameGraph, GameError> {
        let mut s = solver::Solver::new(b);
        s.graph(self)
    }
}

fn join<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T], sep: &str) -> fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Game::Nim(h) => {
                f.write_str("nim(")?;
                join(f, h, ", ")?;
                f.write_str(")")
            }
            Game::MisereNim(h) => {
                f.write_str("misere_nim(")?;
                join(f, h, ", ")?;
                f.write_str(")")
            }
            Game::Subtraction { set, n } => {
                f.write_str("subtraction([")?;
                join(f, set, ", ")?;
                write!(f, "], {n})")
            }
            Game::Octal { code, n } => {
                if *code == OctalCode::kayles() {
                    write!(f, "kayles({n})")
                } else if *code == OctalCode::dawsons_kayles() {
                    write!(f, "dawsons_kayles({n})")
                } else {
                    write!(f, "octal(\"{code}\", {n})")
                }
            }
            Game::Grundys(n) => write!(f, "grundys_game({n})"),
            Game::Lasker(n) => write!(f, "laskers_nim({n})"),
            Game::Hexadecimal { code, n } => write!(f, "hexadecimal(\"{code}\", {n})"),
            Game::Cram(b) => match b.as_rectangle() {
                Some((r, c)) => write!(f, "cram({r}, {c})"),
                None => write!(f, "cram_cells(\"{b}\")"),
            },
            Game::MisereCram(b) => match b.as_rectangle() {
                Some((r, c)) => write!(f, "misere_cram({r}, {c})"),
                None => write!(f, "misere_cram_cells(\"{b}\")"),
            },
            Game::Northcott(rows) => {
                f.write_str("northcott(\"")?;
                join(f, rows, "/")?;
                f.write_str("\")")
            }
            Game::Hackenbush(g) => write!(f, "green_hackenbush(\"{g}\")"),
            Game::Coin(c) => write!(f, "{c}"),
            Game::Heaps(h) => write!(f, "{h}"),
            Game::Loopy(l) => write!(f, "{l}"),
            Game::Sum(parts) => {
                if parts.is_empty() {
                    return f.write_str("nim()");
                }
                join(f, parts, " + ")
            }
        }
    }
}

/// Counts positions and time against a [`Budget`].
pub(crate) struct Meter {
    max_positions: u64,
    max_time: Duration,
    max_table_bytes: u64,
    start: Instant,
    positions: u64,
    steps: u64,
}

impl Meter {
    pub(crate) fn new(b: &Budget) -> Self {
        Meter {
            max_positions: b.max_positions,
            max_time: b.max_time,
            max_table_bytes: b.max_table_bytes,
            start: Instant::now(),
            positions: 0,
            steps: 0,
        }
    }

    /// The budget of the Cram tables, in bytes.
    pub(crate) fn max_table_bytes(&self) -> u64 {
        self.max_table_bytes
    }

    /// One more position examined.
    pub(crate) fn tick(&mut self) -> Result<(), GameError> {
        self.positions += 1;
        if self.positions > self.max_positions {
            return Err(GameError::BudgetExceeded {
                budget: format!("{} positions", self.max_positions),
                reached: self.progress(),
            });
        }
        if self.positions & 1023 == 0 {
            self.check_time()?;
        }
        Ok(())
    }

    /// `n` positions examined at once; fails if they do not fit.
    pub(crate) fn charge(&mut self, n: u64) -> Result<(), GameError> {
        self.reserve(n)?;
        self.positions += n;
        self.check_time()
    }

    /// Whether `n` more positions would still fit; fails at once if not.
    pub(crate) fn reserve(&self, n: u64) -> Result<(), GameError> {
        if self.positions.saturating_add(n) > self.max_positions {
            return Err(GameError::BudgetExceeded {
                budget: format!("{} positions", self.max_positions),
                reached: format!("{} positions (the request needs {n} more)", self.positions),
            });
        }
        Ok(())
    }

    /// A unit of work that is not a position (one option looked at); checks the clock now and
    /// then.
    pub(crate) fn step(&mut self) -> Result<(), GameError> {
        self.steps += 1;
        if self.steps & 0xffff == 0 {
            self.check_time()?;
        }
        Ok(())
    }

    /// `n` units of work that are not positions at once (options looked at in bulk); checks
    /// the clock whenever the running count passes a multiple of 65 536.
    pub(crate) fn steps(&mut self, n: u64) -> Result<(), GameError> {
        let before = self.steps;
        self.steps = self.steps.wrapping_add(n);
        if before >> 16 != self.steps >> 16 {
            self.check_time()?;
        }
        Ok(())
    }

    pub(crate) fn check_time(&self) -> Result<(), GameError> {
        if self.start.elapsed() > self.max_time || cancel::is_raised() {
            return Err(GameError::BudgetExceeded {
                budget: format!("{:.3} s", self.max_time.as_secs_f64()),
                reached: self.progress(),
            });
        }
        Ok(())
    }

    /// Positions examined so far.
    pub(crate) fn positions(&self) -> u64 {
        self.positions
    }

    pub(crate) fn progress(&self) -> String {
        format!(
            "{} positions in {:.2} s",
            self.positions,
            self.start.elapsed().as_secs_f64()
        )
    }
}
