//! Hexadecimal games: octal games in which a move may also leave *three* heaps.
//!
//! The code `d₀.d₁d₂…dₜ` has hexadecimal digits; the bits 1, 2, 4 and 8 of `dₖ` allow removing
//! `k` counters from a heap and leaving 0, 1, 2 or 3 non-empty heaps. An octal code is the
//! hexadecimal code with the same digits, and the same game. `d₀` may only have the bits 4 and
//! 8 (split a heap without removing anything: a heap cannot be left unchanged).
//!
//! Values come from the definition, heap by heap (the mex over every option, three-part
//! splits by their smallest two parts), in one process-wide table per code, every request
//! charged to the budget as if the table were empty.
//!
//! **Periods.** If `g(n + p) = g(n)` for `n₀ ≤ n < 3n₀' + 2p + t`, where `n₀' = max(n₀, 1)` and
//! `t` is the last digit's place, then `g(n + p) = g(n)` for every `n ≥ n₀` (Guy and Smith's
//! argument for octal games, with three parts). By induction on `N ≥ 3n₀' + 2p + t`: a move from
//! `N + p` removes `k ≤ t` and leaves parts adding up to `N + p − k ≥ 3n₀' + 3p`. One part of it
//! is at least `n₀ + p` and at most `N + p − 1`; two or three parts have a largest one at least a
//! third of the sum, so at least `n₀' + p`. Taking `p` from that part leaves a part of at least
//! `n₀'` (so still a non-empty heap, and past the pre-period), below `N`, of the same value by
//! the hypothesis: a move of `N` with the same value. Adding `p` to the largest part of a move of
//! `N` goes the other way (that part is at least a third of `N − k ≥ 3n₀'`). So the two heaps
//! have the same option values and `g(N + p) = g(N)`. The bound asks for `n₀' ≥ 1` because a
//! part reduced to 0 would be one heap fewer, a different move.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::code::{for_each_option, take_and_break_code, TakeAndBreak, HEXADECIMAL};
use super::octal::OctalCode;
use super::{Budget, GameError, Meter, Periodicity};

/// The rules of a hexadecimal game `d₀.d₁…dₜ` (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexCode {
    digits: Vec<u8>,
}

/// The largest heap of a hexadecimal game whose value is computed (the three-part splits of
/// every heap up to it cost about `n³/36` steps a digit).
pub const MAX_HEXADECIMAL_HEAP: u64 = 2048;

impl HexCode {
    /// The same game as an octal code, when no digit allows three heaps.
    pub fn as_octal(&self) -> Option<OctalCode> {
        OctalCode::from_digits(&self.digits)
    }
}

impl From<OctalCode> for HexCode {
    fn from(code: OctalCode) -> HexCode {
        HexCode {
            digits: code.digits().to_vec(),
        }
    }
}

take_and_break_code!(HexCode, HEXADECIMAL);

/// Values computed so far, one table per code, shared by every search in the process.
static TABLES: Mutex<Option<FxHashMap<HexCode, Vec<u64>>>> = Mutex::new(None);

/// The values of heaps `0 … n` of `code`.
pub(crate) fn hexadecimal_values(
    code: &HexCode,
    n: u64,
    meter: &mut Meter,
) -> Result<Vec<u64>, GameError> {
    if n > MAX_HEXADECIMAL_HEAP {
        return Err(GameError::BudgetExceeded {
            budget: format!("heaps up to {MAX_HEXADECIMAL_HEAP} in a hexadecimal game"),
            reached: format!("asking for a heap of {n} in {code}"),
        });
    }
    let digits = code.digits.len() as u64;
    // Two-part splits cost n²/4 and three-part ones n³/36 over all heaps, for each digit.
    meter.charge(digits.saturating_mul(n + 1 + n * n / 4 + n * n * n / 36))?;
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let g = tables
        .get_or_insert_with(FxHashMap::default)
        .entry(code.clone())
        .or_default();
    let mut seen: Vec<bool> = Vec::new();
    while g.len() <= n as usize {
        let h = g.len() as u64;
        meter.check_time()?;
        seen.clear();
        // A value is at most the number of options.
        let mut mark = |v: u64| {
            let v = v as usize;
            if v >= seen.len() {
                seen.resize(v + 1, false);
            }
            seen[v] = true;
        };
        for (&d, k) in code.digits.iter().zip(0..=h) {
            // An option's value is the nim-sum of the heaps it leaves (0 for none).
            for_each_option(d, h - k, |parts| {
                mark(parts.iter().fold(0, |x, &part| x ^ g[part as usize]));
            });
        }
        g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64);
    }
    Ok(g[..=n as usize].to_vec())
}

/// The values of heaps `0 … n` of the hexadecimal game `code`, each from its definition.
pub fn hexadecimal_sequence(code: &HexCode, n: u64, b: &Budget) -> Result<Vec<u64>, GameError> {
    hexadecimal_values(code, n, &mut Meter::new(b))
}

/// The eventual period of a hexadecimal game: for an octal code, the octal engine's (the
/// Guy–Smith criterion); otherwise the least period `p` with `g(n + p) = g(n)` for
/// `n₀ ≤ n < 3 max(n₀, 1) + 2p + t` (see the module documentation), over values for ever longer
/// prefixes up to [`MAX_HEXADECIMAL_HEAP`].
pub fn hexadecimal_period(code: &HexCode, b: &Budget) -> Result<Periodicity, GameError> {
    if let Some(octal) = code.as_octal() {
        return super::octal::period(&octal, b);
    }
    let mut meter = Meter::new(b);
    let t = code.len();
    let mut len: u64 = 64;
    let none_among = |tried: u64| {
        format!(
            "no period of {code} proved among the first {tried} heaps (an arithmetic-periodic game, whose values grow, has none)"
        )
    };
    loop {
        let g = match hexadecimal_values(code, len - 1, &mut meter) {
            Ok(g) => g,
            Err(GameError::BudgetExceeded { budget, .. }) if len > 64 => {
                return Err(GameError::BudgetExceeded {
                    budget,
                    reached: none_among(len / 2),
                })
            }
            Err(e) => return Err(e),
        };
        if let Some(p) = three_part_period(&g, t) {
            return Ok(p);
        }
        if len > MAX_HEXADECIMAL_HEAP {
            return Err(GameError::BudgetExceeded {
                budget: format!("heaps up to {MAX_HEXADECIMAL_HEAP} in a hexadecimal game"),
                reached: none_among(len),
            });
        }
        len = (len * 2).min(MAX_HEXADECIMAL_HEAP + 1);
    }
}

/// The least period the three-part criterion proves from the values `g`, with the least
/// pre-period for it.
fn three_part_period(g: &[u64], t: u64) -> Option<Periodicity> {
    let len = g.len();
    for p in 1..len / 2 {
        // The least n0 with g(n + p) = g(n) for every n0 <= n < len - p.
        let mut n0 = len - p;
        while n0 > 0 && g[n0 - 1 + p] == g[n0 - 1] {
            n0 -= 1;
        }
        let need = 3 * n0.max(1) as u64 + 2 * p as u64 + t;
        if need + p as u64 <= len as u64 {
            return Some(Periodicity {
                preperiod: n0 as u64,
                period: p as u64,
            });
        }
    }
    None
}
