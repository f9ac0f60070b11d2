//! Functions of the infinite ordinals below ω^(ω^ω): reading one in Cantor normal form, and
//! Lenstra's α_p with its excess. The operators `+ * / ^` and `inv` act on ordinals too.

use super::{Call, Function};
use crate::claim::value::as_ordinal;
use crate::claim::{ClaimError, Value};
use crate::nim::ordinal::{self, OrdinalError};
use crate::nim::Nimber;

/// The functions of this group.
pub(super) const FUNCTIONS: &[Function] = registry! {
    Function;
    number "ord", "ord(\"w^w + 1\")", [1], "an ordinal below ω^(ω^ω) in Cantor normal form, with w or ω; + * / ^ inv work on ordinals" => ord;
    number "alpha", "alpha(p)", [1], "Lenstra's α_p: (ω^(ω^n))^p for the (n+1)-th odd prime p, as a smaller ordinal" => |c| {
        let p = c.count(0)?;
        ordinal::alpha(p)
            .map(Value::from_ordinal)
            .map_err(|e| ordinal_error(c, e))
    };
    number "excess", "excess(p)", [1], "Lenstra's excess of the odd prime p (from the published table)" => |c| {
        let p = c.count(0)?;
        ordinal::lenstra_excess(p)
            .map(|m| Value::Num(Nimber::from_u64(m)))
            .map_err(|e| ordinal_error(c, e))
    };
};

fn ordinal_error(c: &Call<'_>, e: OrdinalError) -> ClaimError {
    c.error(e.to_string())
}

fn ord(c: &Call<'_>) -> Result<Value, ClaimError> {
    let Value::Str(text) = &c.args[0] else {
        return Err(ClaimError::new(
            c.at(0),
            "ord takes a string, such as ord(\"w^w + 1\")",
        ));
    };
    ordinal::parse(text)
        .map(Value::from_ordinal)
        .map_err(|e| ClaimError::new(c.at(0), e.to_string()))
}

/// `inv` of an infinite ordinal.
pub(super) fn inverse(c: &Call<'_>) -> Result<Value, ClaimError> {
    as_ordinal(&c.args[0], &c.at(0))?
        .inv()
        .map(Value::from_ordinal)
        .map_err(|e| ordinal_error(c, e))
}
