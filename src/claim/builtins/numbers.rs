//! Functions of nimbers and their fields: inverses, square roots, orders, logarithms,
//! minimal polynomials, quadratic equations, the minimal excludant and the Fermat 2-powers.

use num_bigint::BigUint;

use super::{ordinals, Call, Function};
use crate::claim::value::{number, to_nimber};
use crate::claim::{ClaimError, Limits, Value};
use crate::nim::{NimError, Nimber, Poly2};

/// The functions of this group.
pub(super) const FUNCTIONS: &[Function] = registry! {
    Function;
    number "inv", "inv(a)", [1], "the nim-inverse of a (of a number or an ordinal); an error for 0" => inv;
    number "sqrt", "sqrt(a)", [1], "the nim-square root of a (every nimber has exactly one)" => |c| Ok(Value::Num(c.number(0)?.sqrt()));
    number "square", "square(a)", [1], "a ⊗ a" => |c| Ok(Value::Num(c.number(0)?.square()));
    number "order", "order(a)", [1], "the multiplicative order of a (fields up to GF(2^4096))" => |c| {
        let a = c.number(0)?;
        let order = a.order().map_err(|e| field_error(c, a, e))?;
        Ok(Value::Num(to_nimber(order, c.span, c.limits)?))
    };
    number "is_primitive", "is_primitive(a)", [1], "whether a generates the multiplicative group of its field (fields up to GF(2^4096))" => |c| {
        let a = c.number(0)?;
        Ok(Value::Bool(
            a.is_primitive().map_err(|e| field_error(c, a, e))?,
        ))
    };
    number "log", "log(a, b)", [2], "the least x with a^x = b, in GF(2^64); an error if there is none" => |c| {
        let (a, b) = (c.number(0)?, c.number(1)?);
        let x = a
            .log(b)
            .map_err(|e| c.error(format!("log({a}, {b}): {e}")))?;
        Ok(Value::Num(to_nimber(x, c.span, c.limits)?))
    };
    number "field", "field(a)", [1], "the k of the smallest field GF(2^(2^k)) holding a" => |c| {
        let level = c.number(0)?.field_level();
        Ok(Value::Num(Nimber::from_u64(u64::from(level))))
    };
    number "minpoly", "minpoly(a)", [1], "the minimal polynomial of a over GF(2)" => |c| Ok(Value::Poly(c.number(0)?.minpoly()));
    number "poly", "poly(\"x^3 + x + 1\")", [1], "a polynomial over GF(2), to compare with a minimal polynomial" => poly;
    number "conjugates", "conjugates(a)", [1], "a, a^2, a^4, … without repeats" => |c| {
        let conjugates = c.number(0)?.conjugates();
        Ok(Value::List(
            conjugates.into_iter().map(Value::Num).collect(),
        ))
    };
    number "roots", "roots(c) or roots(a, b, c)", [1, 3], "all roots of x² + x = c, or of a·x² + b·x + c = 0" => roots;
    number "mex", "mex([0, 1, 3])", [1], "the minimal excludant: the least natural number not in the list" => mex;
    number "fermat", "fermat(k)", [1], "the Fermat 2-power 2^(2^k)" => fermat;
    number "isqrt", "isqrt(n)", [1], "the integer square root ⌊√n⌋ of the ordinary integer n, exact at any size" => |c| {
        let n = c.number(0)?.to_biguint();
        to_nimber(num_integer::Roots::sqrt(&n), c.span, c.limits).map(Value::Num)
    };
    number "popcount", "popcount(n)", [1], "the number of ones in n written in binary" => |c| {
        let n = c.number(0)?.to_biguint();
        to_nimber(BigUint::from(n.count_ones()), c.span, c.limits).map(Value::Num)
    };
};

/// An error of a field function, naming the call.
fn field_error(c: &Call<'_>, a: &Nimber, e: NimError) -> ClaimError {
    c.error(format!("{}({a}): {e}", c.name))
}

fn inv(c: &Call<'_>) -> Result<Value, ClaimError> {
    if matches!(c.args[0], Value::Ordinal(_)) {
        return ordinals::inverse(c);
    }
    let a = c.number(0)?;
    if a.is_zero() {
        return Err(c.error("inv(0): 0 has no nim-inverse"));
    }
    a.inv().map(Value::Num).map_err(|e| c.error(e.to_string()))
}

fn poly(c: &Call<'_>) -> Result<Value, ClaimError> {
    let Value::Str(text) = &c.args[0] else {
        return Err(ClaimError::new(
            c.at(0),
            "poly takes a string, such as poly(\"x^3 + x + 1\")",
        ));
    };
    parse_poly(text, c.limits)
        .map(Value::Poly)
        .map_err(|m| ClaimError::new(c.at(0), m))
}

fn roots(c: &Call<'_>) -> Result<Value, ClaimError> {
    let roots = if c.args.len() == 1 {
        Nimber::solve_x2_plus_x(c.number(0)?)
    } else {
        let (a, b, cc) = (c.number(0)?, c.number(1)?, c.number(2)?);
        Nimber::solve_quadratic(a, b, cc).map_err(|e| c.error(e.to_string()))?
    };
    Ok(Value::List(roots.into_iter().map(Value::Num).collect()))
}

fn mex(c: &Call<'_>) -> Result<Value, ClaimError> {
    let Value::List(items) = &c.args[0] else {
        return Err(ClaimError::new(
            c.at(0),
            "mex takes a list, such as mex([0, 1, 3])",
        ));
    };
    // Only values up to the list's length can be the mex, so only those are kept.
    let mut seen: Vec<u64> = Vec::new();
    for (i, v) in items.iter().enumerate() {
        let n = number(v, &c.at(0))?;
        if let Some(x) = n.to_u64() {
            if x <= items.len() as u64 {
                seen.push(x);
            }
        } else if i > c.limits.max_nodes {
            break;
        }
    }
    seen.sort_unstable();
    seen.dedup();
    let mex = seen
        .iter()
        .enumerate()
        .find(|&(i, &x)| i as u64 != x)
        .map_or(seen.len() as u64, |(i, _)| i as u64);
    Ok(Value::Num(Nimber::from_u64(mex)))
}

fn fermat(c: &Call<'_>) -> Result<Value, ClaimError> {
    let k = c
        .number(0)?
        .to_u64()
        .filter(|&k| k < 64 && (1u64 << k) < c.limits.max_bits);
    let Some(k) = k else {
        return Err(ClaimError::budget(
            c.at(0),
            format!(
                "fermat(k) is 2^(2^k); the budget allows 2^k below {} bits",
                c.limits.max_bits
            ),
        ));
    };
    to_nimber(BigUint::from(1u32) << (1u64 << k), c.span, c.limits).map(Value::Num)
}

/// Reads a polynomial over GF(2) such as `x^3 + x + 1`: terms `1`, `x` and `x^k` joined by `+`;
/// a term written twice cancels, as it should in characteristic 2.
fn parse_poly(text: &str, limits: &Limits) -> Result<Poly2, String> {
    let mut coeffs: Vec<bool> = Vec::new();
    for term in text.split('+') {
        let t: String = term.chars().filter(|c| !c.is_whitespace()).collect();
        let power = match t.as_str() {
            "0" => continue,
            "1" => 0,
            "x" => 1,
            _ => t
                .strip_prefix("x^")
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| (k as u64) <= limits.max_bits)
                .ok_or_else(|| format!("`{}` is not a term such as 1, x or x^3", term.trim()))?,
        };
        if coeffs.len() <= power {
            coeffs.resize(power + 1, false);
        }
        coeffs[power] = !coeffs[power];
    }
    Ok(Poly2::from_coeffs(coeffs))
}
