//! The generic solver: moves, Grundy values of sums, winning moves, canonical positions and
//! game graphs.
//!
//! One [`Solver`] lives for one request. It keeps a budget meter and the memo tables of every
//! game it meets (value sequences of heap games, the Cram transposition table), so that a
//! winning-move search or a game graph, which ask for many values, compute each piece once.

use super::coins::coin_value;
use super::cram::{CramOptions, CramSolver};
use super::heaps::HeapSolver;
use super::hexadecimal::hexadecimal_values;
use super::lasker::lasker_value;
use super::octal::{subtraction_table, OctalTable, SubtractionTable, DIRECT_LIMIT};
use super::sparse::{Rules, Sequence};
use super::{
    Board, Budget, Coin, CoinRule, Game, GameError, HexCode, LoopyValue, Meter, NorthcottRow,
    OctalCode, Outcome, MAX_LISTED_MOVES,
};
use rustc_hash::FxHashMap;

/// The most positions a game graph may hold, whatever the budget says: each position is kept
/// in memory.
pub const MAX_GRAPH_POSITIONS: usize = 2_000_000;

/// The graph of positions reachable from a game (the convention is in the module
/// documentation of [`crate::game`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameGraph {
    /// The positions, in canonical form; `positions[0]` is the game itself.
    pub positions: Vec<Game>,
    /// The moves, as pairs of indices into `positions`, each pair once.
    pub edges: Vec<(usize, usize)>,
    /// Whether each position is a P-position.
    pub p_positions: Vec<bool>,
}

impl GameGraph {
    /// `(positions, moves, P-positions)`: the numbers the course prints.
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.positions.len(),
            self.edges.len(),
            self.p_positions.iter().filter(|&&p| p).count(),
        )
    }
}

pub(crate) struct Solver {
    meter: Meter,
    octal: FxHashMap<OctalCode, OctalTable>,
    subtraction: FxHashMap<Vec<u64>, SubtractionTable>,
    grundys: Sequence,
    cram: Option<CramSolver>,
    heaps: HeapSolver,
}

/// Grows a cached sequence geometrically so that a run of requests costs linear time.
fn target_len(have: usize, n: u64) -> u64 {
    n.max((have as u64).saturating_mul(2)).max(64)
}

fn splice(parts: &[Game], i: usize, replacement: Game) -> Game {
    let mut out = Vec::with_capacity(parts.len() + 1);
    for (j, p) in parts.iter().enumerate() {
        if j != i {
            out.push(p.clone());
        } else if let Game::Sum(sub) = &replacement {
            out.extend(sub.iter().cloned());
        } else {
            out.push(replacement.clone());
        }
    }
    Game::Sum(out)
}

fn too_many(game: &Game, count: u64) -> GameError {
    GameError::TooManyMoves {
        game: game.to_string(),
        count,
        limit: MAX_LISTED_MOVES,
    }
}

/// The options of a game in the shape of the game as written (possibly with repeats).
pub(crate) fn moves(game: &Game) -> Result<Vec<Game>, GameError> {
    Ok(match game {
        Game::Nim(h) | Game::MisereNim(h) => nim_moves(game, h)?,
        Game::Subtraction { set, n } => set
            .iter()
            .filter(|&&s| s <= *n)
            .map(|&s| Game::Subtraction {
                set: set.clone(),
                n: n - s,
            })
            .collect(),
        Game::Octal { code, n } => octal_moves(game, code, *n)?,
        Game::Hexadecimal { code, n } => hexadecimal_moves(game, code, *n)?,
        Game::Grundys(n) => {
            if n / 2 > MAX_LISTED_MOVES {
                return Err(too_many(game, n / 2));
            }
            (1..)
                .take_while(|a| 2 * a < *n)
                .map(|a| Game::Sum(vec![Game::Grundys(a), Game::Grundys(n - a)]))
                .collect()
        }
        Game::Lasker(n) => {
            let count = n.saturating_add(n / 2);
            if count > MAX_LISTED_MOVES {
                return Err(too_many(game, count));
            }
            let mut out: Vec<Game> = (0..*n).map(Game::Lasker).collect();
            out.extend((1..=n / 2).map(|a| Game::Sum(vec![Game::Lasker(a), Game::Lasker(n - a)])));
            out
        }
        Game::Cram(b) => b.moves().into_iter().map(Game::Cram).collect(),
        Game::MisereCram(b) => b.moves().into_iter().map(Game::MisereCram).collect(),
        Game::Northcott(rows) => {
            let count = rows.iter().fold(0u64, |a, r| a.saturating_add(2 * r.gap()));
            if count > MAX_LISTED_MOVES {
                return Err(too_many(game, count));
            }
            let mut out = Vec::new();
            for (i, r) in rows.iter().enumerate() {
                for m in r.moves() {
                    let mut rr = rows.clone();
                    rr[i] = m;
                    out.push(Game::Northcott(rr));
                }
            }
            out
        }
        Game::Hackenbush(g) => {
            // Each option copies the graph: bound the total size.
            let m = g.edges().len() as u64;
            if m.saturating_mul(m) > 100 * MAX_LISTED_MOVES {
                return Err(too_many(game, m));
            }
            g.grounded()
                .moves()
                .into_iter()
                .map(Game::Hackenbush)
                .collect()
        }
        Game::Coin(c) => coin_moves(game, c)?,
        Game::Loopy(l) => l.options().into_iter().map(Game::Loopy).collect(),
        Game::Heaps(h) => {
            let count = h.move_count();
            if count > MAX_LISTED_MOVES {
                return Err(too_many(game, count));
            }
            h.options().into_iter().map(Game::Heaps).collect()
        }
        Game::Sum(parts) => {
            let mut out = Vec::new();
            for (i, p) in parts.iter().enumerate() {
                for m in moves(p)? {
                    out.push(splice(parts, i, m));
                    if out.len() as u64 > MAX_LISTED_MOVES {
                        return Err(too_many(game, out.len() as u64));
                    }
                }
            }
            out
        }
    })
}

/// The options of a Nim or misère Nim position `game` with heaps `h`.
fn nim_moves(game: &Game, h: &[u64]) -> Result<Vec<Game>, GameError> {
    let count = h.iter().fold(0u64, |a, &x| a.saturating_add(x));
    if count > MAX_LISTED_MOVES {
        return Err(too_many(game, count));
    }
    let mut out = Vec::new();
    for (i, &x) in h.iter().enumerate() {
        for v in 0..x {
            let mut hh = h.to_vec();
            hh[i] = v;
            out.push(match game {
                Game::Nim(_) => Game::Nim(hh),
                _ => Game::MisereNim(hh),
            });
        }
    }
    Ok(out)
}

/// The options of the octal game `code` on a heap of `n`: one heap, none, or a sum.
fn octal_moves(game: &Game, code: &OctalCode, n: u64) -> Result<Vec<Game>, GameError> {
    let per = code.digits().len() as u64;
    let count = (n / 2).saturating_mul(per);
    if count > MAX_LISTED_MOVES {
        return Err(too_many(game, count));
    }
    Ok(heap_options(code.options(n), |m| Game::Octal {
        code: code.clone(),
        n: m,
    }))
}

/// The options of the hexadecimal game `code` on a heap of `n`: one heap, none, or a sum.
fn hexadecimal_moves(game: &Game, code: &HexCode, n: u64) -> Result<Vec<Game>, GameError> {
    let per = code.digits().len() as u64;
    let count = (n.saturating_mul(n) / 12 + n).saturating_mul(per);
    if count > MAX_LISTED_MOVES {
        return Err(too_many(game, count));
    }
    Ok(heap_options(code.options(n), |m| Game::Hexadecimal {
        code: code.clone(),
        n: m,
    }))
}

/// Each option of a heap game (the heaps a move leaves) as a game: nothing left is the
/// empty heap, one heap is itself, more are their sum.
fn heap_options(options: Vec<Vec<u64>>, heap: impl Fn(u64) -> Game) -> Vec<Game> {
    options
        .into_iter()
        .map(|hs| match hs.as_slice() {
            [] => heap(0),
            [m] => heap(*m),
            _ => Game::Sum(hs.iter().map(|&m| heap(m)).collect()),
        })
        .collect()
}

/// The options of a coin-turning position: one coin, or a sum of the coins a move turns.
fn coin_moves(game: &Game, c: &Coin) -> Result<Vec<Game>, GameError> {
    // Each option lists up to three coins (a whole run for the Ruler).
    let count = c.move_count();
    let listed = match c.rule {
        CoinRule::Ruler => count.saturating_mul(count) / 2,
        _ => count,
    };
    if count > MAX_LISTED_MOVES || listed > 100 * MAX_LISTED_MOVES {
        return Err(too_many(game, count));
    }
    Ok(c.options()
        .into_iter()
        .map(|coins| match coins.as_slice() {
            [one] => Game::Coin(*one),
            _ => Game::Sum(coins.into_iter().map(Game::Coin).collect()),
        })
        .collect())
}

impl Solver {
    pub(crate) fn new(b: &Budget) -> Self {
        Solver {
            meter: Meter::new(b),
            octal: FxHashMap::default(),
            subtraction: FxHashMap::default(),
            grundys: Sequence::new(Rules::grundys_game()),
            cram: None,
            heaps: HeapSolver::default(),
        }
    }

    fn cram(&mut self) -> Result<&mut CramSolver, GameError> {
        if self.cram.is_none() {
            self.cram = Some(CramSolver::new(CramOptions::default(), &mut self.meter)?);
        }
        self.cram.as_mut().ok_or_else(|| GameError::Unsupported {
            game: "cram".into(),
            reason: "the Cram solver could not be set up".into(),
        })
    }

    fn with_cram<R>(
        &mut self,
        f: impl FnOnce(&mut CramSolver, &mut Meter) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        self.cram()?;
        match &mut self.cram {
            Some(c) => f(c, &mut self.meter),
            None => Err(GameError::Unsupported {
                game: "cram".into(),
                reason: "the Cram solver could not be set up".into(),
            }),
        }
    }

    fn octal_value(&mut self, code: &OctalCode, n: u64) -> Result<u64, GameError> {
        let table = self
            .octal
            .entry(code.clone())
            .or_insert_with(|| OctalTable::new(code));
        if let Some(v) = table.get(n) {
            return Ok(v);
        }
        // Beyond the values computed directly only a proved period can answer, and `extend`
        // says so when there is none; a geometric growth must not ask for that by itself.
        let grow = target_len(table.len(), n).min(DIRECT_LIMIT).max(n);
        table.extend(grow, &mut self.meter)?;
        Ok(table.get(n).unwrap_or(0))
    }

    fn subtraction_value(&mut self, set: &[u64], n: u64) -> Result<u64, GameError> {
        if let Some(v) = self.subtraction.get(set).and_then(|s| s.get(n)) {
            return Ok(v);
        }
        let have = self.subtraction.get(set).map_or(0, SubtractionTable::len);
        let table = subtraction_table(set, target_len(have, n), &mut self.meter)?;
        let v = table.get(n).unwrap_or(0);
        self.subtraction.insert(set.to_vec(), table);
        Ok(v)
    }

    fn grundys_value(&mut self, n: u64) -> Result<u64, GameError> {
        let known = |s: &Sequence| usize::try_from(n).ok().and_then(|i| s.values().get(i));
        if let Some(v) = known(&self.grundys) {
            return Ok(v);
        }
        let len = target_len(self.grundys.values().len(), n).saturating_add(1);
        self.grundys.extend(len, &mut self.meter)?;
        Ok(known(&self.grundys).unwrap_or(0))
    }

    pub(crate) fn grundy(&mut self, game: &Game) -> Result<u64, GameError> {
        match game {
            Game::Nim(h) => Ok(h.iter().fold(0, |a, &x| a ^ x)),
            Game::MisereNim(_) | Game::MisereCram(_) => Err(GameError::NoGrundyValue {
                game: game.to_string(),
            }),
            Game::Subtraction { set, n } => self.subtraction_value(set, *n),
            Game::Octal { code, n } => self.octal_value(code, *n),
            Game::Grundys(n) => self.grundys_value(*n),
            Game::Lasker(n) => lasker_value(*n, &mut self.meter),
            Game::Hexadecimal { code, n } => {
                let values = hexadecimal_values(code, *n, &mut self.meter)?;
                Ok(values.last().copied().unwrap_or(0))
            }
            Game::Cram(b) => self.with_cram(|c, m| c.board_value(b, m)),
            Game::Northcott(rows) => Ok(rows.iter().fold(0, |a, r| a ^ r.gap())),
            Game::Coin(c) => coin_value(c, &mut self.meter),
            Game::Heaps(h) => self.heaps.value(h, &mut self.meter),
            Game::Loopy(l) => match l.value(&mut self.meter)? {
                LoopyValue::Finite(g) => Ok(g),
                v => Err(GameError::Unsupported {
                    game: game.to_string(),
                    reason: format!(
                        "its generalized Grundy value is {v} (∞ with the finite values of its options): the game may go on for ever, so it has no finite value; ask for its outcome"
                    ),
                }),
            },
            Game::Hackenbush(g) => {
                for _ in g.edges() {
                    self.meter.tick()?;
                }
                Ok(g.value())
            }
            Game::Sum(parts) => {
                if game.is_misere() {
                    return Err(GameError::NoGrundyValue {
                        game: game.to_string(),
                    });
                }
                let mut x = 0;
                for p in parts {
                    x ^= self.grundy(p)?;
                }
                Ok(x)
            }
        }
    }

    fn misere_cram_next_wins(&mut self, b: &Board) -> Result<bool, GameError> {
        self.with_cram(|c, m| c.misere_next_wins(b, m))
    }

    /// The generalized value of a game that may contain loopy parts (Smith's sum rule).
    fn generalized(&mut self, game: &Game) -> Result<LoopyValue, GameError> {
        match game {
            Game::Loopy(l) => l.value(&mut self.meter),
            Game::Sum(parts) => {
                let mut v = LoopyValue::Finite(0);
                for p in parts {
                    v = v.add(&self.generalized(p)?);
                }
                Ok(v)
            }
            other => self.grundy(other).map(LoopyValue::Finite),
        }
    }

    pub(crate) fn outcome(&mut self, game: &Game) -> Result<Outcome, GameError> {
        if game.is_loopy() {
            return Ok(self.generalized(game)?.outcome());
        }
        let next_wins = match game {
            Game::MisereNim(h) => misere_nim_next_wins(h),
            Game::MisereCram(b) => self.misere_cram_next_wins(b)?,
            Game::Sum(parts) if game.is_misere() => {
                if let [only] = parts.as_slice() {
                    return self.outcome(only);
                }
                return Err(unsupported_misere_sum(game));
            }
            _ => self.grundy(game)? != 0,
        };
        Ok(if next_wins { Outcome::N } else { Outcome::P })
    }

    pub(crate) fn winning_move(&mut self, game: &Game) -> Result<Option<Game>, GameError> {
        if game.is_loopy() {
            // A move to a position of value 0 wins; Smith's theory says one exists exactly when
            // the outcome is N.
            if self.outcome(game)? != Outcome::N {
                return Ok(None);
            }
            for m in moves(game)? {
                self.meter.step()?;
                if self.generalized(&m)? == LoopyValue::Finite(0) {
                    return Ok(Some(m));
                }
            }
            return Ok(None);
        }
        match game {
            Game::MisereNim(h) => Ok(misere_nim_winning_move(h).map(Game::MisereNim)),
            Game::MisereCram(b) => {
                for m in b.moves() {
                    if !self.misere_cram_next_wins(&m)? {
                        return Ok(Some(Game::MisereCram(m)));
                    }
                }
                Ok(None)
            }
            Game::Sum(parts) if game.is_misere() => {
                if let [only] = parts.as_slice() {
                    return self.winning_move(only);
                }
                Err(unsupported_misere_sum(game))
            }
            _ => {
                let g = self.grundy(game)?;
                if g == 0 {
                    return Ok(None);
                }
                self.move_to_value(game, 0, g)
            }
        }
    }

    /// A move from `game` (of value `g`) to a position of value `target < g`.
    fn move_to_value(
        &mut self,
        game: &Game,
        target: u64,
        g: u64,
    ) -> Result<Option<Game>, GameError> {
        let x = g ^ target;
        match game {
            Game::Nim(h) => {
                for (i, &v) in h.iter().enumerate() {
                    if v ^ x < v {
                        let mut hh = h.clone();
                        hh[i] = v ^ x;
                        return Ok(Some(Game::Nim(hh)));
                    }
                }
                Ok(None)
            }
            Game::Northcott(rows) => {
                for (i, r) in rows.iter().enumerate() {
                    if r.gap() ^ x < r.gap() {
                        let mut rr: Vec<NorthcottRow> = rows.clone();
                        rr[i] = r.with_gap(r.gap() ^ x);
                        return Ok(Some(Game::Northcott(rr)));
                    }
                }
                Ok(None)
            }
            Game::Sum(parts) => {
                for (i, p) in parts.iter().enumerate() {
                    let gi = self.grundy(p)?;
                    if gi ^ x < gi {
                        return Ok(self
                            .move_to_value(p, gi ^ x, gi)?
                            .map(|m| splice(parts, i, m)));
                    }
                }
                Ok(None)
            }
            Game::Octal { code, n } => {
                // Look through the options by their values, building only the chosen one.
                for (k, &d) in code.digits().iter().enumerate() {
                    let k = k as u64;
                    if k > *n {
                        break;
                    }
                    let m = n - k;
                    let heap = |h: u64| Game::Octal {
                        code: code.clone(),
                        n: h,
                    };
                    if d & 1 != 0 && m == 0 && target == 0 {
                        return Ok(Some(heap(0)));
                    }
                    if d & 2 != 0 && m > 0 && self.octal_value(code, m)? == target {
                        return Ok(Some(heap(m)));
                    }
                    if d & 4 != 0 {
                        // With a proved period the value of a split a + (m - a) repeats in a
                        // once both parts are past the pre-period, so one period of a beyond
                        // the pre-period shows every value there is.
                        let mut top = m / 2;
                        if let Some(p) = self.octal.get(code).and_then(OctalTable::period) {
                            if m >= 2 * p.preperiod + p.period {
                                top = top.min(p.preperiod + p.period);
                            }
                        }
                        for a in 1..=top {
                            self.meter.step()?;
                            if self.octal_value(code, a)? ^ self.octal_value(code, m - a)? == target
                            {
                                return Ok(Some(Game::Sum(vec![heap(a), heap(m - a)])));
                            }
                        }
                    }
                }
                Ok(None)
            }
            Game::Grundys(n) => {
                let mut a = 1;
                while 2 * a < *n {
                    self.meter.step()?;
                    if self.grundys_value(a)? ^ self.grundys_value(n - a)? == target {
                        return Ok(Some(Game::Sum(vec![
                            Game::Grundys(a),
                            Game::Grundys(n - a),
                        ])));
                    }
                    a += 1;
                }
                Ok(None)
            }
            _ => {
                for m in moves(game)? {
                    self.meter.step()?;
                    if self.grundy(&m)? == target {
                        return Ok(Some(m));
                    }
                }
                Ok(None)
            }
        }
    }

    /// The canonical form of a position (see the module documentation of [`crate::game`]).
    pub(crate) fn canonical(&mut self, game: &Game) -> Result<Game, GameError> {
        let mut atoms = Vec::new();
        let mut nim = Vec::new();
        let mut rows = Vec::new();
        self.atoms(game, &mut atoms, &mut nim, &mut rows)?;
        nim.sort_unstable();
        rows.sort_unstable();
        if !nim.is_empty() {
            atoms.push(Game::Nim(nim));
        }
        if !rows.is_empty() {
            atoms.push(Game::Northcott(rows));
        }
        atoms.sort();
        Ok(match atoms.len() {
            0 => Game::Nim(Vec::new()),
            1 => atoms.pop().unwrap_or(Game::Nim(Vec::new())),
            _ => Game::Sum(atoms),
        })
    }

    fn atoms(
        &mut self,
        game: &Game,
        atoms: &mut Vec<Game>,
        nim: &mut Vec<u64>,
        rows: &mut Vec<NorthcottRow>,
    ) -> Result<(), GameError> {
        match game {
            Game::Nim(h) => nim.extend(h.iter().copied().filter(|&x| x > 0)),
            Game::MisereNim(h) => {
                let mut hh: Vec<u64> = h.iter().copied().filter(|&x| x > 0).collect();
                hh.sort_unstable();
                atoms.push(Game::MisereNim(hh));
            }
            Game::Subtraction { set, n } => {
                if set.first().is_some_and(|&s| s <= *n) {
                    atoms.push(game.clone());
                }
            }
            Game::Octal { code, n } => {
                if code.has_move(*n) {
                    atoms.push(game.clone());
                }
            }
            Game::Grundys(n) => {
                if *n >= 3 {
                    atoms.push(game.clone());
                }
            }
            Game::Lasker(n) => {
                if *n >= 1 {
                    atoms.push(game.clone());
                }
            }
            Game::Hexadecimal { code, n } => {
                if code.has_move(*n) {
                    atoms.push(game.clone());
                }
            }
            Game::Cram(b) => {
                let b = *b;
                let comps = self.cram()?.canonical_components(&b);
                atoms.extend(comps.into_iter().map(Game::Cram));
            }
            Game::MisereCram(b) => {
                let b = *b;
                let whole = self.cram()?.canonical_whole(&b);
                atoms.push(Game::MisereCram(whole));
            }
            Game::Northcott(rr) => rows.extend(rr.iter().copied().filter(|r| r.gap() > 0)),
            Game::Hackenbush(g) => {
                let g = g.grounded();
                if !g.edges().is_empty() {
                    atoms.push(Game::Hackenbush(g));
                }
            }
            Game::Coin(c) => {
                if c.has_move() {
                    atoms.push(game.clone());
                }
            }
            Game::Loopy(l) => {
                if !l.options().is_empty() {
                    atoms.push(game.clone());
                }
            }
            Game::Heaps(h) => {
                if h.move_count() > 0 {
                    atoms.push(Game::Heaps(h.canonical()));
                }
            }
            Game::Sum(parts) => {
                for p in parts {
                    self.atoms(p, atoms, nim, rows)?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn graph(&mut self, game: &Game) -> Result<GameGraph, GameError> {
        if game.is_loopy() {
            return Err(GameError::Unsupported {
                game: game.to_string(),
                reason: "the positions of a loopy game may repeat, and a game graph here is drawn only for games that end".into(),
            });
        }
        let misere = match game {
            Game::MisereNim(_) | Game::MisereCram(_) => true,
            _ if game.is_misere() => return Err(unsupported_misere_sum(game)),
            _ => false,
        };
        let root = self.canonical(game)?;
        let mut index: FxHashMap<Game, usize> = FxHashMap::default();
        let mut positions = vec![root.clone()];
        index.insert(root, 0);
        let mut children: Vec<Vec<usize>> = Vec::new();
        let mut next = 0;
        while next < positions.len() {
            self.meter.tick()?;
            if positions.len() > MAX_GRAPH_POSITIONS {
                return Err(GameError::BudgetExceeded {
                    budget: format!("{MAX_GRAPH_POSITIONS} graph positions"),
                    reached: format!(
                        "{} positions found, {next} of them expanded",
                        positions.len()
                    ),
                });
            }
            let pos = positions[next].clone();
            let mut kids = Vec::new();
            for m in moves(&pos)? {
                let c = self.canonical(&m)?;
                let i = match index.get(&c) {
                    Some(&i) => i,
                    None => {
                        let i = positions.len();
                        index.insert(c.clone(), i);
                        positions.push(c);
                        i
                    }
                };
                kids.push(i);
            }
            kids.sort_unstable();
            kids.dedup();
            children.push(kids);
            next += 1;
        }
        let p_positions = mark_p(&children, misere);
        let edges = children
            .iter()
            .enumerate()
            .flat_map(|(i, ks)| ks.iter().map(move |&k| (i, k)))
            .collect();
        Ok(GameGraph {
            positions,
            edges,
            p_positions,
        })
    }
}

/// P-positions of a finite acyclic game graph, by an iterative post-order walk.
fn mark_p(children: &[Vec<usize>], misere: bool) -> Vec<bool> {
    let n = children.len();
    let mut done = vec![false; n];
    let mut p = vec![false; n];
    for s in 0..n {
        if done[s] {
            continue;
        }
        let mut stack = vec![(s, 0usize)];
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if let Some(&c) = children[v].get(i) {
                top.1 += 1;
                if !done[c] {
                    stack.push((c, 0));
                }
            } else {
                stack.pop();
                done[v] = true;
                p[v] = if children[v].is_empty() {
                    !misere
                } else {
                    children[v].iter().all(|&c| !p[c])
                };
            }
        }
    }
    p
}

fn unsupported_misere_sum(game: &Game) -> GameError {
    GameError::Unsupported {
        game: game.to_string(),
        reason: "misère games are solved only on their own, not in a sum".into(),
    }
}

/// Bouton's misère rule: while some heap has two or more counters play as in Nim; with only
/// heaps of size 0 and 1 left, the player to move wins exactly when the number of 1-heaps is
/// even.
fn misere_nim_next_wins(h: &[u64]) -> bool {
    if h.iter().all(|&x| x <= 1) {
        h.iter().filter(|&&x| x == 1).count() % 2 == 0
    } else {
        h.iter().fold(0, |a, &x| a ^ x) != 0
    }
}

/// The heaps after a winning move of misère Nim, `None` for a P-position (and for the empty
/// game, which is won by having no move).
fn misere_nim_winning_move(h: &[u64]) -> Option<Vec<u64>> {
    if !misere_nim_next_wins(h) {
        return None;
    }
    let big: Vec<usize> = (0..h.len()).filter(|&i| h[i] >= 2).collect();
    let ones = h.iter().filter(|&&x| x == 1).count();
    let mut out = h.to_vec();
    match big.as_slice() {
        [] => {
            // An even, non-zero number of 1-heaps: take one.
            let i = h.iter().position(|&x| x == 1)?;
            out[i] = 0;
        }
        [i] => {
            // Leave an odd number of 1-heaps.
            out[*i] = if ones % 2 == 1 { 0 } else { 1 };
        }
        _ => {
            let x = h.iter().fold(0, |a, &v| a ^ v);
            let i = h.iter().position(|&v| v ^ x < v)?;
            out[i] ^= x;
        }
    }
    Some(out)
}
