//! The printed form of `practice`: the page draws problems without end in the browser; paper
//! gets a fixed set of [`Practice::PRINTED`] problems, drawn by a generator seeded from the
//! practice's id (so the same book prints the same problems), with the answers the engine
//! computes. The questions read as the page's script words them.

use num_bigint::BigUint;

use crate::nim::Nimber;
use crate::site::lesson::blocks::{Practice, PracticeKind, Problem, Run};

/// SplitMix64: a small generator whose whole state is one word, enough to spread a seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n ≥ 1`, at most 2^64), by rejection so every value is as likely.
    fn below(&mut self, n: u128) -> u64 {
        if n > u128::from(u64::MAX) {
            return self.next();
        }
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// The seed of a practice: FNV-1a of its id.
fn seed(id: &str) -> u64 {
    id.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The printed problems of the practice `id` drawing from `kind`.
pub(super) fn problems(kind: &PracticeKind, id: &str) -> Vec<Problem> {
    let mut rng = SplitMix(seed(id));
    (0..Practice::PRINTED)
        .filter_map(|_| problem(kind, &mut rng))
        .collect()
}

fn problem(kind: &PracticeKind, rng: &mut SplitMix) -> Option<Problem> {
    match kind {
        PracticeKind::Grundy {
            game, max, values, ..
        } => {
            let n = 1 + rng.below(u128::from((*max).max(1)));
            let answer = values.get(usize::try_from(n).ok()?)?;
            Some(Problem {
                question: vec![Run::Prose(format!(
                    "What is the Grundy value of a heap of {n} in {game}?"
                ))],
                answer: answer.to_string(),
            })
        }
        PracticeKind::Range { kind, max } => {
            let max: u128 = max.parse::<BigUint>().ok()?.try_into().ok()?;
            match kind.as_str() {
                "inverse" => {
                    let a = 1 + rng.below(max.checked_sub(1)?.max(1));
                    let inverse = Nimber::from_u64(a).inv().ok()?;
                    Some(Problem {
                        question: vec![Run::Prose(format!(
                            "Find the nim-inverse of {a}: the x with {a} ⊗ x = 1."
                        ))],
                        answer: inverse.to_string(),
                    })
                }
                sum_or_product => {
                    let (a, b) = (rng.below(max), rng.below(max));
                    let (x, y) = (Nimber::from_u64(a), Nimber::from_u64(b));
                    let (symbol, answer) = if sum_or_product == "nim-sum" {
                        ("⊕", x.nim_add(&y))
                    } else {
                        ("⊗", x.nim_mul(&y))
                    };
                    Some(Problem {
                        question: vec![Run::Prose(format!("Compute {a} {symbol} {b}."))],
                        answer: answer.to_string(),
                    })
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_set_is_fixed_by_the_id_and_within_range() {
        let kind = PracticeKind::Range {
            kind: "nim-sum".into(),
            max: "16".into(),
        };
        let a = problems(&kind, "practice-10");
        assert_eq!(a, problems(&kind, "practice-10"));
        assert_ne!(a, problems(&kind, "practice-11"));
        assert_eq!(a.len(), Practice::PRINTED);
        for p in &a {
            // "Compute a ⊕ b." with a, b < 16 and the answer their XOR, from the definition
            // of the nim-sum on numbers below 16 (addition without carries).
            let [Run::Prose(text)] = p.question.as_slice() else {
                panic!("{:?}", p.question)
            };
            let nums: Vec<u64> = text
                .trim_start_matches("Compute ")
                .trim_end_matches('.')
                .split(" ⊕ ")
                .map(|n| n.parse().expect("a number"))
                .collect();
            assert!(nums.iter().all(|&n| n < 16), "{text}");
            let xor = (0..4).fold(0u64, |acc, bit| {
                acc | ((((nums[0] >> bit) + (nums[1] >> bit)) & 1) << bit)
            });
            assert_eq!(p.answer, xor.to_string(), "{text}");
        }
    }

    #[test]
    fn a_practice_of_the_whole_field_draws_below_two_to_the_sixty_four() {
        let kind = PracticeKind::Range {
            kind: "inverse".into(),
            max: (BigUint::from(1u32) << 64u32).to_string(),
        };
        assert_eq!(problems(&kind, "practice-3").len(), Practice::PRINTED);
    }
}
