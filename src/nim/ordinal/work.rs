//! The accounting of one operation: the work it may still do, how deep it has recursed, and
//! how large its result may grow. Every limit that is hit names the operation, with long
//! operands cut short.

use num_bigint::BigUint;

use super::{table, Exponent, Ordinal, OrdinalError, MAX_CELLS, MAX_DEPTH, MAX_TERMS, WORK_BUDGET};

/// Terms being accumulated: exponent to coefficient. Exponents are short vectors of small
/// integers and every operation is bounded by the work budget, so a fast non-keyed hash is
/// enough.
pub(super) type TermMap = rustc_hash::FxHashMap<Exponent, u64>;

pub(super) fn term_map(capacity: usize) -> TermMap {
    TermMap::with_capacity_and_hasher(capacity, Default::default())
}

/// The operation being computed, kept to name it in errors.
pub(super) enum Operation<'a> {
    Mul(&'a Ordinal, &'a Ordinal),
    Div(&'a Ordinal, &'a Ordinal),
    Inv(&'a Ordinal),
    Pow(&'a Ordinal, &'a BigUint),
}

/// The work counter of one operation.
pub(super) struct Work<'a> {
    left: u64,
    depth: u32,
    /// The levels of the longest exponent of the operands; results are never wider.
    width: usize,
    op: Operation<'a>,
}

impl<'a> Work<'a> {
    pub(super) fn new(op: Operation<'a>) -> Self {
        let width = |x: &Ordinal| x.terms.first().map_or(0, |t| t.0 .0.len());
        let width = match op {
            Operation::Mul(a, b) | Operation::Div(a, b) => width(a).max(width(b)),
            Operation::Inv(a) | Operation::Pow(a, _) => width(a),
        };
        Work {
            left: WORK_BUDGET,
            depth: 0,
            width,
            op,
        }
    }
    /// The operation, written out (long operands cut short), for error messages.
    pub(super) fn input(&self) -> String {
        match self.op {
            Operation::Mul(a, b) => format!("({}) * ({})", short(a), short(b)),
            Operation::Div(a, b) => format!("({}) / ({})", short(a), short(b)),
            Operation::Inv(a) => format!("inv({})", short(a)),
            Operation::Pow(a, e) => {
                let digits = e.to_string();
                let e = if digits.len() > 40 {
                    format!("{}...({} digits)", &digits[..20], digits.len())
                } else {
                    digits
                };
                format!("({})^{e}", short(a))
            }
        }
    }
    pub(super) fn spend(&mut self, n: u64) -> Result<(), OrdinalError> {
        if self.left < n {
            return Err(OrdinalError::Budget {
                input: self.input(),
                what: format!("more than {WORK_BUDGET} monomial products"),
            });
        }
        self.left -= n;
        Ok(())
    }
    /// Enter one level of recursion; refuse past [`MAX_DEPTH`] so the stack stays small.
    pub(super) fn enter(&mut self) -> Result<(), OrdinalError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(OrdinalError::Budget {
                input: self.input(),
                what: format!("recursion deeper than {MAX_DEPTH} levels of the tower"),
            });
        }
        Ok(())
    }
    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    pub(super) fn check_terms(&self, n: usize) -> Result<(), OrdinalError> {
        if n > MAX_TERMS || n.saturating_mul(self.width.max(1)) > MAX_CELLS {
            return Err(OrdinalError::Budget {
                input: self.input(),
                what: format!(
                    "the result would have more than {MAX_TERMS} terms or {MAX_CELLS} exponent coefficients"
                ),
            });
        }
        Ok(())
    }
    pub(super) fn unknown(&self, n: usize) -> OrdinalError {
        let primes = table::odd_primes();
        OrdinalError::UnknownExcess {
            input: self.input(),
            p: primes[n],
            n,
            known: primes[table::alpha_specs().len().saturating_sub(1)],
        }
    }
}

/// The display of an ordinal, cut to 60 characters for error messages.
fn short(x: &Ordinal) -> String {
    let s = x.to_string();
    if s.chars().count() <= 60 {
        s
    } else {
        let mut t: String = s.chars().take(57).collect();
        t.push_str("...");
        t
    }
}

/// The budget units of one monomial product on exponents of `len` levels: copying and
/// hashing an exponent costs time in proportion to its length.
pub(super) fn cost(len: usize) -> u64 {
    1 + len as u64 / 16
}
