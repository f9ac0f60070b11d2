//! Polynomials over `GF(2) = {0, 1}`, the prime field inside the nimbers.

use std::fmt;

use super::Nimber;

/// A polynomial with coefficients in `GF(2)`, such as a minimal polynomial.
///
/// Displayed highest power first, like `x^3 + x + 1`; the zero polynomial shows as `0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Poly2 {
    /// `coeffs[i]` is the coefficient of `x^i`; no trailing `false`.
    coeffs: Vec<bool>,
}

impl Poly2 {
    /// The polynomial with the given coefficients, lowest power first.
    pub fn from_coeffs(mut coeffs: Vec<bool>) -> Self {
        while coeffs.last() == Some(&false) {
            coeffs.pop();
        }
        Poly2 { coeffs }
    }

    /// The coefficients, lowest power first (empty for the zero polynomial).
    pub fn coeffs(&self) -> &[bool] {
        &self.coeffs
    }

    /// The degree; the zero polynomial and the constants have degree 0.
    pub fn degree(&self) -> usize {
        self.coeffs.len().saturating_sub(1)
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.coeffs.is_empty()
    }

    /// The value at the nimber `x` (sums are nim-sums, powers are nim-powers).
    pub fn eval(&self, x: &Nimber) -> Nimber {
        // Horner's rule.
        self.coeffs.iter().rev().fold(Nimber::zero(), |acc, &c| {
            let r = acc.nim_mul(x);
            if c {
                r.nim_add(&Nimber::one())
            } else {
                r
            }
        })
    }
}

impl fmt::Display for Poly2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.coeffs.is_empty() {
            return f.write_str("0");
        }
        let mut first = true;
        for (i, _) in self.coeffs.iter().enumerate().rev().filter(|(_, &c)| c) {
            if !first {
                f.write_str(" + ")?;
            }
            first = false;
            match i {
                0 => f.write_str("1")?,
                1 => f.write_str("x")?,
                _ => write!(f, "x^{i}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let p = Poly2::from_coeffs(vec![true, true, false, true, false]);
        assert_eq!(p.to_string(), "x^3 + x + 1");
        assert_eq!(p.degree(), 3);
        assert_eq!(Poly2::default().to_string(), "0");
        assert_eq!(Poly2::from_coeffs(vec![false, true]).to_string(), "x");
    }

    #[test]
    fn eval_at_nimbers() {
        // x^2 + x + 1 has the roots 2 and 3 (2 ⊗ 2 = 3).
        let p = Poly2::from_coeffs(vec![true, true, true]);
        assert!(p.eval(&Nimber::from_u64(2)).is_zero());
        assert!(p.eval(&Nimber::from_u64(3)).is_zero());
        assert!(!p.eval(&Nimber::from_u64(4)).is_zero());
    }
}
