//! The Cram solver: components, symmetry, paths as Dawson's Kayles, point symmetry and
//! values by outcome search (the module documentation of `cram` gives the theorems).

use rustc_hash::FxHashMap;

use super::frame::{bits, canonical_key, key, rot180, unembed8, Frame};
use super::Board;
use crate::game::octal::octal_values;
use crate::game::{Budget, GameError, Meter, OctalCode};

/// Which shortcuts the Cram solver may use. All of them are theorems; switching them off is
/// for testing and for measuring what they are worth. With everything off the solver takes
/// the mex of the values of all options of every region, memoising regions as they are.
///
/// The outcome search: the value of a region `R` is the least `n` for which `R + ⋆n` is a
/// P-position, and showing that `R + ⋆n` is an N-position needs only one winning move. An
/// option of `R + ⋆n` is a domino (leaving regions `S₁ … Sₖ` and the heap) or a smaller heap.
/// Regions of known value are folded into the heap, two copies of a region cancel, the smaller
/// unknown regions are valued exactly and the largest is searched with the heap. Options that
/// known values settle are tried first, then the others, fewest cells first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CramOptions {
    /// Store regions under their least image by the symmetries of the square.
    pub symmetry: bool,
    /// Use Dawson's Kayles for path-shaped regions.
    pub paths: bool,
    /// Give value 0 to regions with the point-symmetry strategy.
    pub point_symmetry: bool,
    /// Find values by outcome search of `region + ⋆n` instead of by the mex of every option.
    pub outcome_search: bool,
}

impl Default for CramOptions {
    /// Everything on.
    fn default() -> Self {
        CramOptions {
            symmetry: true,
            paths: true,
            point_symmetry: true,
            outcome_search: true,
        }
    }
}

/// The Grundy value of a Cram board with the chosen shortcuts.
pub fn cram_grundy(board: &Board, options: CramOptions, b: &Budget) -> Result<u64, GameError> {
    let mut meter = Meter::new(b);
    let mut s = CramSolver::new(options, &mut meter)?;
    s.board_value(board, &mut meter)
}

/// Memoised Cram solver, shared by all the Cram boards of one search.
pub(crate) struct CramSolver {
    options: CramOptions,
    frames: Vec<Option<Frame>>,
    table: FxHashMap<u128, u8>,
    /// Outcomes of `region + ⋆n` found to be N-positions, keyed by region key with `n` in bits
    /// 80 and up. (P-positions go to `table`: `region + ⋆n` is P exactly when the region's value
    /// is `n`.)
    wins: FxHashMap<u128, ()>,
    misere: FxHashMap<u128, bool>,
    dawson: Vec<u64>,
    scratch: Vec<Vec<u64>>,
}

impl CramSolver {
    pub(crate) fn new(options: CramOptions, meter: &mut Meter) -> Result<Self, GameError> {
        let dawson = octal_values(&OctalCode::dawsons_kayles(), 64, meter)?;
        Ok(CramSolver {
            options,
            frames: vec![None; 65 * 65],
            table: FxHashMap::default(),
            wins: FxHashMap::default(),
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
        let v = self.region_value(u32::from(b.rows), u32::from(b.cols), b.free, meter)?;
        Ok(u64::from(v))
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

    fn component_value(
        &mut self,
        h: u32,
        w: u32,
        b: u64,
        meter: &mut Meter,
    ) -> Result<u8, GameError> {
        if self.options.outcome_search {
            return match self.quick_value(h, w, b) {
                (Some(v), _) => Ok(v),
                (None, k) => self.exact(&Comp { h, w, b, k }, meter),
            };
        }
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
        // Values of Cram regions of at most 64 cells are far below 128; a u128 holds the
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

    /// The value of a region when it is known without search: no domino, a path, already in
    /// the table, or point-symmetric. Also returns the region's table key.
    fn quick_value(&mut self, h: u32, w: u32, b: u64) -> (Option<u8>, u128) {
        let f = self.frame(h, w);
        let hp = f.hpairs(b);
        let vp = f.vpairs(b);
        if hp | vp == 0 {
            return (Some(0), 0);
        }
        if self.options.paths {
            let n = b.count_ones();
            let edges = hp.count_ones() + vp.count_ones();
            if edges + 1 == n && max_degree_at_most_two(&f, b) {
                let v = self.dawson.get(n as usize).copied().unwrap_or(0);
                return (Some(v as u8), 0);
            }
        }
        let k = self.key(h, w, b);
        if let Some(&v) = self.table.get(&k) {
            return (Some(v), k);
        }
        if self.options.point_symmetry && point_symmetric_strategy(&f, b) {
            self.table.insert(k, 0);
            return (Some(0), k);
        }
        (None, k)
    }

    /// The exact value of a region not known without search: the least `n` for which
    /// `region + ⋆n` is a P-position.
    fn exact(&mut self, c: &Comp, meter: &mut Meter) -> Result<u8, GameError> {
        let mut n = 0u8;
        loop {
            if let Some(&v) = self.table.get(&c.k) {
                return Ok(v);
            }
            if !self.wins(c, n, meter)? {
                return Ok(n);
            }
            n = n.saturating_add(1);
            if n == u8::MAX {
                return Err(GameError::Unsupported {
                    game: "cram".into(),
                    reason: "a region value above 254".into(),
                });
            }
        }
    }

    /// Whether `region + ⋆n` is an N-position. A move is either a domino in the region or a
    /// move of the nim heap to a smaller `⋆u`.
    ///
    /// The search looks for one winning move, so the order of trial matters: first the options
    /// whose regions all have known values (no search at all), then the others, those with the
    /// fewest cells still to be searched first, and the moves of the nim heap last.
    fn wins(&mut self, c: &Comp, n: u8, meter: &mut Meter) -> Result<bool, GameError> {
        if let Some(&v) = self.table.get(&c.k) {
            return Ok(v != n);
        }
        let ok = c.k | (u128::from(n) << 80);
        if self.wins.contains_key(&ok) {
            return Ok(true);
        }
        let f = self.frame(c.h, c.w);
        let moves = f.hpairs(c.b).count_ones() + f.vpairs(c.b).count_ones();
        // A value is at most the number of options, so with a larger heap the winning move is
        // to bring the heap down to the region's value.
        if u32::from(n) > moves {
            return Ok(true);
        }
        meter.tick()?;
        // Options not settled by known values: (cells to search, heap, range in `arena`).
        let mut pending: Vec<(u32, u8, usize, usize)> = Vec::new();
        let mut arena: Vec<Comp> = Vec::new();
        let mut win = false;
        for pair in f.dominoes(c.b) {
            let start = arena.len();
            match self.classify(&f, c.b & !pair, n, &mut arena) {
                Ok(true) => {
                    win = true;
                    break;
                }
                Ok(false) => {}
                Err(x) => {
                    let cost = arena[start..].iter().map(|c| c.b.count_ones()).sum();
                    pending.push((cost, x, start, arena.len()));
                }
            }
        }
        if !win {
            pending.sort_unstable_by_key(|p| p.0);
            for &(_, x, start, end) in &pending {
                if self.resolve(x, &arena[start..end], meter)? {
                    win = true;
                    break;
                }
            }
        }
        if !win {
            for u in 0..n {
                if !self.wins(c, u, meter)? {
                    win = true;
                    break;
                }
            }
        }
        if win {
            self.wins.insert(ok, ());
        } else {
            self.table.insert(c.k, n);
        }
        Ok(win)
    }

    /// Whether the option `b` (in frame `f`) plus `⋆n` is a P-position, as far as known
    /// values tell: `Ok(p)` when they settle it, otherwise `Err(x)` with the regions still
    /// unknown pushed on `arena` and `x` the nim-sum of `⋆n` and the known regions.
    fn classify(&mut self, f: &Frame, b: u64, n: u8, arena: &mut Vec<Comp>) -> Result<bool, u8> {
        let mut comps = self.scratch.pop().unwrap_or_default();
        f.components(b, &mut comps);
        let start = arena.len();
        let mut x = n;
        for &cb in comps.iter() {
            if cb & (cb - 1) == 0 {
                continue;
            }
            let (h, w, cropped) = f.crop(cb);
            match self.quick_value(h, w, cropped) {
                (Some(v), _) => x ^= v,
                (None, k) => {
                    // Two copies of one region cancel: g ⊕ g = 0.
                    if let Some(i) = arena[start..].iter().position(|c| c.k == k) {
                        arena.swap_remove(start + i);
                    } else {
                        arena.push(Comp {
                            h,
                            w,
                            b: cropped,
                            k,
                        });
                    }
                }
            }
        }
        self.scratch.push(comps);
        match &arena[start..] {
            [] => Ok(x == 0),
            [only] if self.wins.contains_key(&(only.k | (u128::from(x) << 80))) => {
                // Known to be an N-position already: not the move we look for.
                arena.truncate(start);
                Ok(false)
            }
            _ => Err(x),
        }
    }

    /// Whether `⋆x` plus the given regions is a P-position: the smaller regions are valued
    /// exactly, and the largest is searched with the rest folded into its heap.
    fn resolve(&mut self, x: u8, regions: &[Comp], meter: &mut Meter) -> Result<bool, GameError> {
        let mut largest = 0;
        for (i, c) in regions.iter().enumerate() {
            if c.b.count_ones() > regions[largest].b.count_ones() {
                largest = i;
            }
        }
        let mut x = x;
        for (i, c) in regions.iter().enumerate() {
            if i != largest {
                x ^= self.exact(c, meter)?;
            }
        }
        match regions.get(largest) {
            Some(c) => Ok(!self.wins(c, x, meter)?),
            None => Ok(x == 0),
        }
    }

    /// Misère outcome of a whole board: `true` when the player to move wins.
    pub(crate) fn misere_next_wins(
        &mut self,
        b: &Board,
        meter: &mut Meter,
    ) -> Result<bool, GameError> {
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

/// A region in its cropped frame, with its table key.
struct Comp {
    h: u32,
    w: u32,
    b: u64,
    k: u128,
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
