//! What octal and hexadecimal codes share: the digits `d₀.d₁…dₜ` of a take-and-break game,
//! how they are read from text and written back, and the questions the digits alone answer.
//!
//! Bit `j` of digit `dₖ` (1, 2, 4 or 8) allows taking `k` counters from a heap and leaving `j`
//! non-empty heaps. Octal codes use the bits 1, 2 and 4; hexadecimal codes also 8.

use std::fmt;

use super::GameError;

/// The longest code accepted, in digits after the point.
const MAX_CODE_DIGITS: usize = 64;

/// A take-and-break game given by its code: [`OctalCode`](super::OctalCode) and
/// [`HexCode`](super::HexCode). Only [`digits`](TakeAndBreak::digits) is needed; the rest
/// is read from them.
pub trait TakeAndBreak {
    /// The digits `d₀, d₁, …, dₜ`, trailing zeros dropped.
    fn digits(&self) -> &[u8];

    /// The place `t` of the last non-zero digit (0 for a game with no moves).
    fn len(&self) -> u64 {
        (self.digits().len() as u64).saturating_sub(1)
    }

    /// Whether the game has no moves at all (`0.0`).
    fn is_empty(&self) -> bool {
        self.digits().iter().all(|&d| d == 0)
    }

    /// Whether a heap of `n` has at least one move: some digit `dₖ` with bit `j` set, where
    /// leaving no heap takes exactly `n = k` and leaving `j ≥ 1` heaps needs `n ≥ k + j`.
    fn has_move(&self, n: u64) -> bool {
        self.digits().iter().zip(0u64..).any(|(&d, k)| {
            (0..4u64).any(|j| d & (1 << j) != 0 && if j == 0 { n == k } else { n >= k + j })
        })
    }

    /// The options of a heap of `n`, each a list of at most three heap sizes in increasing
    /// order (an empty list is "nothing left"), without repetition.
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (&d, k) in self.digits().iter().zip(0..=n) {
            for_each_option(d, n - k, |parts| out.push(parts.to_vec()));
        }
        out
    }
}

/// Calls `f` on each option a digit `d` gives once its counters are taken and `m` are left,
/// as the heaps it leaves: bit 1 leaves nothing (when `m` is 0), bit 2 one heap, bit 4 two
/// heaps `a ≤ m − a`, bit 8 three heaps `a ≤ b ≤ m − a − b`, each split once. The one
/// statement of the rule, for the listed options and for the value tables alike.
#[inline]
pub(super) fn for_each_option(d: u8, m: u64, mut f: impl FnMut(&[u64])) {
    if d & 1 != 0 && m == 0 {
        f(&[]);
    }
    if d & 2 != 0 && m > 0 {
        f(&[m]);
    }
    if d & 4 != 0 {
        (1..=m / 2).for_each(|a| f(&[a, m - a]));
    }
    if d & 8 != 0 {
        for a in (1..).take_while(|a| 3 * a <= m) {
            for b in (a..).take_while(|b| a + 2 * b <= m) {
                f(&[a, b, m - a - b]);
            }
        }
    }
}

/// How the codes of one family are written: octal or hexadecimal.
pub(super) struct Notation {
    /// The radix of the digits after the point.
    radix: u32,
    /// The family's name, as errors say it: "octal".
    name: &'static str,
    /// One digit, as errors describe it: "an octal digit 0-7".
    digit: &'static str,
    /// A code to show in errors: "0.77".
    example: &'static str,
    /// The digits allowed before the point, as errors list them: "0 or 4".
    heads: &'static str,
    /// The error for the code `.0` with the reason `.1`.
    invalid: fn(String, String) -> GameError,
}

/// Octal codes: `0.77`, `.07`, `4.7`.
pub(super) const OCTAL: Notation = Notation {
    radix: 8,
    name: "octal",
    digit: "an octal digit 0-7",
    example: "0.77",
    heads: "0 or 4",
    invalid: |code, reason| GameError::InvalidOctal { code, reason },
};

/// Hexadecimal codes: `0.F`, `.8`, `4.F`, `0.137`.
pub(super) const HEXADECIMAL: Notation = Notation {
    radix: 16,
    name: "hexadecimal",
    digit: "a hexadecimal digit 0-9, A-F",
    example: "0.F",
    heads: "0, 4, 8 or C",
    invalid: |code, reason| GameError::InvalidHexadecimal { code, reason },
};

/// The digits of the code `s` written in `notation`: one digit before the point whose bits 1 and
/// 2 are clear, or nothing (a heap cannot be left unchanged), a point, then digits; trailing
/// zeros dropped.
pub(super) fn read_code(s: &str, notation: &Notation) -> Result<Vec<u8>, GameError> {
    let bad = |reason: &str| (notation.invalid)(s.to_string(), reason.to_string());
    let (head, tail) = s
        .trim()
        .split_once('.')
        .ok_or_else(|| bad(&format!("expected a point, as in `{}`", notation.example)))?;
    let d0 = match head {
        "" => 0,
        _ => match u8::from_str_radix(head, notation.radix) {
            Ok(d) if head.len() == 1 && d & 3 == 0 => d,
            _ => {
                return Err(bad(&format!(
                    "the digit before the point must be {} (a heap cannot be left unchanged)",
                    notation.heads
                )))
            }
        },
    };
    let name = notation.name;
    if tail.is_empty() {
        return Err(bad(&format!("expected {name} digits after the point")));
    }
    if tail.len() > MAX_CODE_DIGITS {
        return Err(bad(&format!(
            "more than {MAX_CODE_DIGITS} digits after the point"
        )));
    }
    let mut digits = vec![d0];
    for c in tail.chars() {
        match c.to_digit(notation.radix) {
            Some(d) => digits.push(d as u8),
            None => return Err(bad(&format!("`{c}` is not {}", notation.digit))),
        }
    }
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    Ok(digits)
}

/// `FromStr`, `Display` and [`TakeAndBreak`] for a code type `$code { digits }` written in
/// `$notation`.
macro_rules! take_and_break_code {
    ($code:ident, $notation:expr) => {
        impl std::str::FromStr for $code {
            type Err = GameError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                super::code::read_code(s, &$notation).map(|digits| $code { digits })
            }
        }

        impl std::fmt::Display for $code {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                super::code::write_code(&self.digits, f)
            }
        }

        impl super::code::TakeAndBreak for $code {
            fn digits(&self) -> &[u8] {
                &self.digits
            }
        }
    };
}
pub(super) use take_and_break_code;

/// Writes `digits` as a code, `d₀.d₁…dₜ`: `0.77`, `4.F`, and `0.0` for no moves. Octal digits
/// read the same in hexadecimal, so one writer serves both.
pub(super) fn write_code(digits: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let digit = |d: u8| char::from_digit(u32::from(d), 16).map_or('?', |c| c.to_ascii_uppercase());
    write!(f, "{}.", digit(digits.first().copied().unwrap_or(0)))?;
    if digits.len() <= 1 {
        return f.write_str("0");
    }
    digits[1..]
        .iter()
        .try_for_each(|&d| write!(f, "{}", digit(d)))
}
