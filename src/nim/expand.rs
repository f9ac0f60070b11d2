//! A nim-product written out the way a student computes it by hand.
//!
//! To compute `a ⊗ b`:
//!
//! 1. write each factor as a nim-sum of powers of two (its binary digits);
//! 2. distribute, so the product is a nim-sum of products of two powers of two;
//! 3. write every power of two as a nim-product of *distinct* Fermat 2-powers `2^(2^t)`, one
//!    for each binary digit `t` of its exponent (`128 = 2^7 = 2 ⊗ 4 ⊗ 16`), which is allowed
//!    because a Fermat 2-power times a smaller number is their ordinary product;
//! 4. where the same Fermat 2-power `F` occurs in both factors, use `F ⊗ F = F ⊕ F/2`;
//! 5. multiply each term out to a single number;
//! 6. cancel equal terms in pairs (`x ⊕ x = 0`);
//! 7. nim-add what remains.
//!
//! Each [`Step`] is an expression in the claim language (decimal numbers, `⊕`, `⊗` and
//! parentheses, `⊗` binding tighter) with the same value as `a ⊗ b`, and the reason it
//! follows from the previous one. Steps that would repeat the previous expression are left
//! out. Products with more than [`MAX_TERMS`] terms are not expanded by hand.

use super::Nimber;

/// The largest number of terms (products of two powers of two) an expansion writes out.
pub const MAX_TERMS: usize = 64;

/// One line of a worked expansion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The expression, equal in value to the product being expanded.
    pub expr: String,
    /// Why this line follows from the one before.
    pub why: String,
}

/// The exponents of the binary digits of `x`, highest first.
fn bits(x: &Nimber) -> Vec<u64> {
    (0..x.bit_len()).rev().filter(|&i| x.bit(i)).collect()
}

fn pow2(i: u64) -> Nimber {
    super::field::pow2(i)
}

/// The Fermat 2-powers whose nim-product is `2^i`, smallest first.
fn fermat_factors(i: u64) -> Vec<u64> {
    (0..64)
        .filter(|t| (i >> t) & 1 == 1)
        .map(|t| 1u64 << t)
        .collect()
}

fn sum(parts: &[String]) -> String {
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" ⊕ ")
    }
}

fn paren_sum(parts: &[String]) -> String {
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", sum(parts))
    }
}

fn push(steps: &mut Vec<Step>, expr: String, why: &str) {
    if steps.last().is_some_and(|s| s.expr == expr) {
        return;
    }
    steps.push(Step {
        expr,
        why: why.to_string(),
    });
}

/// One term of the expansion as a nim-product of Fermat 2-powers `f` (sorted); with
/// `squares`, each pair `F ⊗ F` written as `F ⊕ F/2`.
fn fermat_term(f: &[u64], squares: bool) -> String {
    let p2 = |i: u64| pow2(i).to_string();
    if f.is_empty() {
        return "1".to_string();
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < f.len() {
        if squares && k + 1 < f.len() && f[k] == f[k + 1] {
            out.push(format!("{} ⊕ {}", p2(f[k]), p2(f[k] - 1)));
            k += 2;
        } else {
            out.push(p2(f[k]));
            k += 1;
        }
    }
    if out.len() == 1 {
        // A lone F ⊕ F/2 needs no parentheses inside a nim-sum.
        return out.swap_remove(0);
    }
    out.iter()
        .map(|p| {
            if p.contains('⊕') {
                format!("({p})")
            } else {
                p.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ⊗ ")
}

/// The values left when equal ones cancel in pairs (`x ⊕ x = 0`), smallest first.
fn cancel_pairs(values: &[Nimber]) -> Vec<Nimber> {
    let mut sorted = values.to_vec();
    sorted.sort();
    let mut kept: Vec<Nimber> = Vec::new();
    for v in sorted {
        if kept.last() == Some(&v) {
            kept.pop();
        } else {
            kept.push(v);
        }
    }
    kept
}

/// The worked expansion of `a ⊗ b`: first `a ⊗ b`, last the decimal result.
pub fn product_steps(a: &Nimber, b: &Nimber) -> Vec<Step> {
    let result = a.nim_mul(b);
    let mut steps = vec![Step {
        expr: format!("{a} ⊗ {b}"),
        why: "the product to compute".into(),
    }];
    let (ba, bb) = (bits(a), bits(b));
    if ba.is_empty() || bb.is_empty() {
        push(&mut steps, result.to_string(), "0 ⊗ x = 0");
        return steps;
    }
    if ba.len() * bb.len() > MAX_TERMS {
        push(
            &mut steps,
            result.to_string(),
            &format!(
                "{} terms are too many to write out; computed directly",
                ba.len() * bb.len()
            ),
        );
        return steps;
    }
    let p2 = |i: u64| pow2(i).to_string();

    // 1. Binary digits.
    let sa: Vec<String> = ba.iter().map(|&i| p2(i)).collect();
    let sb: Vec<String> = bb.iter().map(|&i| p2(i)).collect();
    push(
        &mut steps,
        format!("{} ⊗ {}", paren_sum(&sa), paren_sum(&sb)),
        "write each factor as a nim-sum of powers of two (its binary digits)",
    );

    // 2. Distribute.
    let pairs: Vec<(u64, u64)> = ba
        .iter()
        .flat_map(|&i| bb.iter().map(move |&j| (i, j)))
        .collect();
    let dist: Vec<String> = pairs
        .iter()
        .map(|&(i, j)| format!("{} ⊗ {}", p2(i), p2(j)))
        .collect();
    push(&mut steps, sum(&dist), "distribute ⊗ over ⊕");

    // 3. Fermat 2-powers, merged and sorted so that equal ones stand together.
    let factors: Vec<Vec<u64>> = pairs
        .iter()
        .map(|&(i, j)| {
            let mut f = fermat_factors(i);
            f.extend(fermat_factors(j));
            f.sort_unstable();
            f
        })
        .collect();
    let fermat: Vec<String> = factors.iter().map(|f| fermat_term(f, false)).collect();
    push(
        &mut steps,
        sum(&fermat),
        "write each power of two as a nim-product of distinct Fermat 2-powers 2^(2^t)",
    );

    // 4. Squares of Fermat 2-powers.
    if factors.iter().any(|f| f.windows(2).any(|w| w[0] == w[1])) {
        let sq: Vec<String> = factors.iter().map(|f| fermat_term(f, true)).collect();
        push(
            &mut steps,
            sum(&sq),
            "F ⊗ F = F ⊕ F/2 for a Fermat 2-power F",
        );
    }

    // 5. Each term multiplied out.
    let values: Vec<Nimber> = pairs
        .iter()
        .map(|&(i, j)| pow2(i).nim_mul(&pow2(j)))
        .collect();
    push(
        &mut steps,
        sum(&values.iter().map(|v| v.to_string()).collect::<Vec<_>>()),
        "multiply out each term (F ⊗ x = F·x for a Fermat 2-power F and x < F)",
    );

    // 6. Cancel equal terms in pairs.
    let mut kept = cancel_pairs(&values);
    if kept.len() < values.len() {
        kept.sort_by(|x, y| y.cmp(x));
        push(
            &mut steps,
            sum(&kept.iter().map(|v| v.to_string()).collect::<Vec<_>>()),
            "cancel equal terms in pairs (x ⊕ x = 0)",
        );
    }

    // 7. The nim-sum.
    push(
        &mut steps,
        result.to_string(),
        "nim-add (exclusive or of the binary digits)",
    );
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_squared() {
        let s = product_steps(&Nimber::from_u64(16), &Nimber::from_u64(16));
        let exprs: Vec<&str> = s.iter().map(|s| s.expr.as_str()).collect();
        assert_eq!(exprs, ["16 ⊗ 16", "16 ⊕ 8", "24"]);
    }
}
