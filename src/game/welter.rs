//! Welter's function: Conway's formula for the Grundy value of a position of Welter's game,
//! computed without any search.
//!
//! Write the squares of the coins in binary and *mate* them in pairs: first the two that agree
//! in the most final binary digits (the 2-adically closest pair), then the closest two of the
//! rest, and so on; with an odd number of coins one stays single. If mates `a` and `b` agree in
//! exactly their last `v` digits (so `2^v` is the lowest place where they differ), their
//! *bracket* is `2^(v+1) − 1`, the number written with `v + 1` ones. Welter's function is the
//! nim-sum of all the squares and all the brackets:
//!
//! ```text
//! [a₁ | a₂ | … | aₙ] = a₁ ⊕ a₂ ⊕ … ⊕ aₙ ⊕ (⊕ of the brackets of the mates)
//! ```
//!
//! For two coins this is `(a ⊕ b) − 1`: Nim's value less one, because the coins may not share
//! a square. The mating is found on a binary trie read from the last digit: the coins are split
//! by their digit at place `2^v`; each half is mated within itself first (its pairs agree in
//! more final digits), and if both halves leave one coin over, those two are mates with
//! bracket `2^(v+1) − 1`. Which of several equally close pairs is mated first does not change
//! the result (the tests compare the formula with a full search of the game).

use super::GameError;

/// Welter's function of coins on distinct squares (see the module documentation).
pub fn welter_function(coins: &[u64]) -> Result<u64, GameError> {
    let mut sorted = coins.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(GameError::InvalidGame {
            game: format!("welter{coins:?}"),
            reason: "two coins are on the same square".into(),
        });
    }
    let mut brackets = 0;
    mate(&sorted, 0, &mut brackets);
    Ok(coins.iter().fold(brackets, |a, &c| a ^ c))
}

/// Mates the coins of `xs`, which agree in their last `place` digits, adding the brackets of
/// their pairs to `brackets`; returns the coin left single, if any.
fn mate(xs: &[u64], place: u32, brackets: &mut u64) -> Option<u64> {
    if xs.len() <= 1 || place >= 64 {
        // Distinct coins differ below place 64, so `place` reaches 64 only for one coin.
        return xs.first().copied();
    }
    let (ones, zeros): (Vec<u64>, Vec<u64>) = xs.iter().partition(|&&x| x >> place & 1 == 1);
    let left = mate(&zeros, place + 1, brackets);
    let right = mate(&ones, place + 1, brackets);
    match (left, right) {
        (Some(_), Some(_)) => {
            *brackets ^= u64::MAX >> (63 - place);
            None
        }
        (one, None) | (None, one) => one,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn two_coins_are_nim_less_one() {
        for a in 0..40u64 {
            for b in 0..40u64 {
                if a != b {
                    assert_eq!(welter_function(&[a, b]).unwrap(), (a ^ b) - 1);
                }
            }
        }
    }

    #[test]
    fn one_coin_is_its_square_and_shared_squares_are_refused() {
        assert_eq!(welter_function(&[13]).unwrap(), 13);
        assert_eq!(welter_function(&[]).unwrap(), 0);
        assert!(welter_function(&[3, 5, 3]).is_err());
        assert_eq!(welter_function(&[u64::MAX, 0]).unwrap(), u64::MAX - 1);
    }
}
