//! The Cram solver: the options, the plain search (the mex of every option, the oracle), and
//! the dispatch of the pruned search of `search` to one engine per row stride.

use rustc_hash::FxHashMap;

use super::frame::{bits, canonical_key, key, rot180, unembed8, Frame};
use super::grid::Grid;
use super::search::{Engine, Rules};
use super::table::MIN_TABLE_BYTES;
use super::Board;
use crate::game::octal::octal_values;
use crate::game::{Budget, GameError, Meter, OctalCode};

/// Which shortcuts the Cram solver may use. All of them are exact (the module documentation
/// of `cram` proves each); switching them off is for testing and for measuring what they are
/// worth. With everything off the solver takes the mex of the values of all options of every
/// region, memoising regions as they are: the plain search, the oracle of the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CramOptions {
    /// Store regions under their least image by the symmetries of the square.
    pub symmetry: bool,
    /// Use Dawson's Kayles for path-shaped regions (and a cycle's single option).
    pub paths: bool,
    /// Give value 0 to regions with the half-turn strategy.
    pub point_symmetry: bool,
    /// Remove surplus leaves of a star and blocked cells (the pruned search only).
    pub reductions: bool,
    /// Find values by the pruned search, which asks of each option only whether its value is
    /// in the set the answer still depends on, instead of by the mex of every option.
    pub pruned_search: bool,
}

impl Default for CramOptions {
    /// Everything on.
    fn default() -> Self {
        CramOptions {
            symmetry: true,
            paths: true,
            point_symmetry: true,
            reductions: true,
            pruned_search: true,
        }
    }
}

/// The Grundy value of a Cram board with the chosen shortcuts.
pub fn cram_grundy(board: &Board, options: CramOptions, b: &Budget) -> Result<u64, GameError> {
    cram_search(board, options, b).map(|s| s.value)
}

/// What one Cram search found and what it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CramSearch {
    /// The board's Grundy value.
    pub value: u64,
    /// Regions searched (what [`Budget::max_positions`] counts).
    pub positions: u64,
    /// Entries the tables of the pruned search hold at the end.
    pub table_entries: u64,
    /// Bytes those tables take (0 for the plain search, which keeps a hash map).
    pub table_bytes: u64,
    /// Entries the tables forgot because they could not grow within
    /// [`Budget::max_table_bytes`].
    pub forgotten: u64,
}

/// Searches a Cram board with the chosen shortcuts, and says what it took.
pub fn cram_search(
    board: &Board,
    options: CramOptions,
    b: &Budget,
) -> Result<CramSearch, GameError> {
    let mut meter = Meter::new(b);
    let mut s = CramSolver::new(options, &mut meter)?;
    let value = s.board_value(board, &mut meter)?;
    let (table_entries, forgotten) = s.engines.iter().fold((0, 0), |(h, l), e| {
        let (held, lost) = e.counts();
        (h + held, l + lost)
    });
    Ok(CramSearch {
        value,
        positions: meter.positions(),
        table_entries,
        table_bytes: s.engines.iter().map(Engine::bytes).sum(),
        forgotten,
    })
}

/// Memoised Cram solver, shared by all the Cram boards of one search.
pub(crate) struct CramSolver {
    options: CramOptions,
    /// The pruned search, one engine per row stride met.
    engines: Vec<Engine>,
    /// The plain search: frames, values of regions, misère outcomes of boards.
    frames: Vec<Option<Frame>>,
    table: FxHashMap<u128, u8>,
    misere: FxHashMap<u128, bool>,
    dawson: Vec<u64>,
    scratch: Vec<Vec<u64>>,
}

impl CramSolver {
    pub(crate) fn new(options: CramOptions, meter: &mut Meter) -> Result<Self, GameError> {
        let dawson = octal_values(&OctalCode::dawsons_kayles(), 64, meter)?;
        Ok(CramSolver {
            options,
            engines: Vec::new(),
            frames: vec![None; 65 * 65],
            table: FxHashMap::default(),
            misere: FxHashMap::default(),
            dawson,
            scratch: Vec::new(),
        })
    }

    fn frame(&mut self, h: u32, w: u32) -> Frame {
        let i = (h * 65 + w) as usize;
        match self.frames.get(i).copied().flatten() {
            Some(f) => f,
            None => {
                let f = Frame::new(h, w);
                if let Some(slot) = self.frames.get_mut(i) {
                    *slot = Some(f);
                }
                f
            }
        }
    }

    /// The value of a whole board.
    pub(crate) fn board_value(&mut self, b: &Board, meter: &mut Meter) -> Result<u64, GameError> {
        if self.options.pruned_search {
            let v = self.with_engine(b, false, meter, |e, cells, m| e.position_value(cells, m))?;
            return Ok(u64::from(v));
        }
        let v = self.region_value(u32::from(b.rows), u32::from(b.cols), b.free, meter)?;
        Ok(u64::from(v))
    }

    /// Runs `f` on the engine of the board's stride, with the board's cells in its layout,
    /// the tables allowed what the budget leaves; a budget error says if the tables were full.
    fn with_engine<R>(
        &mut self,
        b: &Board,
        misere: bool,
        meter: &mut Meter,
        f: impl FnOnce(&mut Engine, u64, &mut Meter) -> Result<R, GameError>,
    ) -> Result<R, GameError> {
        let (grid, cells) = layout(b);
        let i = match self
            .engines
            .iter()
            .position(|e| e.grid().stride() == grid.stride())
        {
            Some(i) => i,
            None => {
                let rules = Rules {
                    symmetry: self.options.symmetry,
                    paths: self.options.paths,
                    point_symmetry: self.options.point_symmetry,
                    reductions: self.options.reductions,
                };
                let dawson = self.dawson.iter().map(|&v| v as u8).collect();
                self.engines
                    .push(Engine::new(grid, rules, dawson, MIN_TABLE_BYTES));
                self.engines.len() - 1
            }
        };
        let used: u64 = self.engines.iter().map(Engine::bytes).sum();
        let budget = meter.max_table_bytes();
        let engine = &mut self.engines[i];
        engine.allow(budget.saturating_sub(used), misere);
        f(engine, cells, meter).map_err(|e| match e {
            GameError::BudgetExceeded { budget: what, reached } => {
                let (held, lost) = engine.counts();
                let reached = if lost > 0 {
                    format!(
                        "{reached}; the Cram tables were full at max-table-bytes = {} and forgot {lost} entries ({held} held)",
                        budget.max(MIN_TABLE_BYTES)
                    )
                } else {
                    reached
                };
                GameError::BudgetExceeded {
                    budget: what,
                    reached,
                }
            }
            other => other,
        })
    }

    /// The nim-sum of the values of the components of `b` in an `h × w` frame.
    fn region_value(&mut self, h: u32, w: u32, b: u64, meter: &mut Meter) -> Result<u8, GameError> {
        let f = self.frame(h, w);
        if f.hpairs(b) | f.vpairs(b) == 0 {
            return Ok(0);
        }
        let mut comps = self.scratch.pop().unwrap_or_default();
        f.components(b, &mut comps);
        let mut x = 0u8;
        let mut result = Ok(());
        for &c in comps.iter() {
            if c & (c - 1) == 0 {
                continue;
            }
            let (ch, cw, cb) = f.crop(c);
            match self.component_value(ch, cw, cb, meter) {
                Ok(v) => x ^= v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.scratch.push(comps);
        result.map(|()| x)
    }

    /// The canonical (cropped, symmetry-reduced) components of a board that have at least one
    /// domino, each as a board.
    pub(crate) fn canonical_components(&mut self, b: &Board) -> Vec<Board> {
        let f = self.frame(u32::from(b.rows), u32::from(b.cols));
        let mut comps = Vec::new();
        f.components(b.free, &mut comps);
        let mut out = Vec::new();
        for c in comps {
            if f.hpairs(c) | f.vpairs(c) == 0 {
                continue;
            }
            let (h, w, x) = f.crop(c);
            out.push(board_of_key(canonical_key(h, w, x)));
        }
        out
    }

    /// The whole board, isolated cells removed, cropped and symmetry-reduced (for misère play).
    pub(crate) fn canonical_whole(&mut self, b: &Board) -> Board {
        let (h, w, x) = self.reduce_whole(u32::from(b.rows), u32::from(b.cols), b.free);
        if x == 0 {
            return Board {
                rows: 1,
                cols: 1,
                free: 0,
            };
        }
        board_of_key(canonical_key(h, w, x))
    }

    fn reduce_whole(&mut self, h: u32, w: u32, b: u64) -> (u32, u32, u64) {
        let f = self.frame(h, w);
        let hp = f.hpairs(b);
        let vp = f.vpairs(b);
        let live = hp | (hp << 1) | vp | if w >= 64 { 0 } else { vp << w };
        if live == 0 {
            return (h, w, 0);
        }
        f.crop(live)
    }

    /// The plain search of one region: the mex of the values of all its options.
    fn component_value(
        &mut self,
        h: u32,
        w: u32,
        b: u64,
        meter: &mut Meter,
    ) -> Result<u8, GameError> {
        let f = self.frame(h, w);
        let hp = f.hpairs(b);
        let vp = f.vpairs(b);
        if hp | vp == 0 {
            return Ok(0);
        }
        let n = b.count_ones();
        if self.options.paths {
            let edges = hp.count_ones() + vp.count_ones();
            if edges + 1 == n && max_degree_at_most_two(&f, b) {
                let v = self.dawson.get(n as usize).copied().unwrap_or(0);
                return Ok(v as u8);
            }
        }
        let k = self.key(h, w, b);
        if let Some(&v) = self.table.get(&k) {
            return Ok(v);
        }
        if self.options.point_symmetry && point_symmetric_strategy(&f, b) {
            self.table.insert(k, 0);
            return Ok(0);
        }
        meter.tick()?;
        // Values of Cram regions of at most 64 cells are at most 112; a u128 holds the
        // options' values.
        let mut seen: u128 = 0;
        for pair in f.dominoes(b) {
            let v = self.region_value(h, w, b & !pair, meter)?;
            seen |= 1u128 << (v & 127);
        }
        let v = (!seen).trailing_zeros() as u8;
        self.table.insert(k, v);
        Ok(v)
    }

    /// The region's table key: up to the board's symmetries when those are on.
    fn key(&self, h: u32, w: u32, b: u64) -> u128 {
        if self.options.symmetry {
            canonical_key(h, w, b)
        } else {
            key(h, w, b)
        }
    }

    /// Misère outcome of a whole board: `true` when the player to move wins.
    pub(crate) fn misere_next_wins(
        &mut self,
        b: &Board,
        meter: &mut Meter,
    ) -> Result<bool, GameError> {
        if self.options.pruned_search {
            return self.with_engine(b, true, meter, |e, cells, m| e.misere_wins(cells, m));
        }
        let (h, w, x) = self.reduce_whole(u32::from(b.rows), u32::from(b.cols), b.free);
        self.misere_rec(h, w, x, meter)
    }

    fn misere_rec(&mut self, h: u32, w: u32, b: u64, meter: &mut Meter) -> Result<bool, GameError> {
        if b == 0 {
            // No move: in misère play the player to move wins.
            return Ok(true);
        }
        let k = self.key(h, w, b);
        if let Some(&v) = self.misere.get(&k) {
            return Ok(v);
        }
        meter.tick()?;
        let f = self.frame(h, w);
        let mut wins = false;
        let pairs: Vec<u64> = f.dominoes(b).collect();
        for pair in pairs {
            let (ch, cw, cb) = self.reduce_whole(h, w, b & !pair);
            if !self.misere_rec(ch, cw, cb, meter)? {
                wins = true;
                break;
            }
        }
        self.misere.insert(k, wins);
        Ok(wins)
    }
}

/// The pruned search's layout of a board: the grid of its longer side, and its cells there
/// (turned a quarter when it has more rows than columns).
fn layout(b: &Board) -> (Grid, u64) {
    let (rows, cols) = (u32::from(b.rows), u32::from(b.cols));
    let turned = rows > cols;
    let grid = Grid::new(rows.max(cols));
    let s = grid.stride();
    let mut cells = 0u64;
    for i in bits(b.free) {
        let (r, c) = (i / cols, i % cols);
        let (r, c) = if turned { (c, r) } else { (r, c) };
        cells |= 1 << (r * s + c);
    }
    (grid, cells)
}

/// The board of a key made by [`canonical_key`].
fn board_of_key(k: u128) -> Board {
    let rows = ((k >> 72) & 0xff) as u32;
    let cols = ((k >> 64) & 0xff) as u32;
    let free = if rows <= 8 && cols <= 8 {
        unembed8(rows, cols, k as u64)
    } else {
        k as u64
    };
    Board {
        rows: rows as u8,
        cols: cols as u8,
        free,
    }
}

/// Whether no cell of `b` has three or more free neighbours.
fn max_degree_at_most_two(f: &Frame, b: u64) -> bool {
    let l = ((b << 1) & f.not_first) & b;
    let r = ((b >> 1) & f.not_last) & b;
    let (u, d) = if f.w >= 64 {
        (0, 0)
    } else {
        ((b << f.w) & b, (b >> f.w) & b)
    };
    let three = (l & r & u) | (l & r & d) | (l & u & d) | (r & u & d);
    three == 0
}

/// Whether `b` is unchanged by the half turn of its frame and no free cell is its own image
/// or adjacent to it.
fn point_symmetric_strategy(f: &Frame, b: u64) -> bool {
    let n = f.h * f.w;
    if rot180(f.h, f.w, b) != b {
        return false;
    }
    // Cells that are their own image or next to it lie in the middle of the frame.
    for i in bits(b) {
        let j = n - 1 - i;
        if j == i {
            return false;
        }
        let (ri, ci) = (i / f.w, i % f.w);
        let (rj, cj) = (j / f.w, j % f.w);
        if ri.abs_diff(rj) + ci.abs_diff(cj) == 1 {
            return false;
        }
    }
    true
}
