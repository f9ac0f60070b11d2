//! Graded mode: with `[nimbook] answers = "hidden"` a page carries no answer key. Each question
//! carries instead a salt and the SHA-256 of the salt, a line feed and the right answer in its
//! canonical form; `templates/exercise.js` hashes what the student gives the same way and
//! compares. The salt is the book's title, the lesson's path and the question's id, so equal
//! answers of different questions (or books) do not share a hash.
//!
//! This deters; it does not keep a secret. The answers of most exercises are small numbers, an
//! outcome or a set of a few options, and anyone with the salt can try them all.
//!
//! Canonical forms, the same here and in `exercise.js`: a number in decimal digits (`0xC`
//! becomes `12`), an outcome as the capital letter `P`, `N` or `D`, a truth value as `true` or
//! `false`, and the set of correct options of a choice as their positions from 0, ascending,
//! joined by commas (`0,2`; the empty set is the empty string).

use sha2::{Digest, Sha256};

/// The salt of one question: the lesson's salt (book title and lesson path) and the question's
/// element id.
pub(super) fn salt(lesson_salt: &str, id: &str) -> String {
    format!("{lesson_salt}#{id}")
}

/// The hash a page carries instead of an answer, as 64 lowercase hexadecimal digits.
pub(super) fn answer_hash(salt: &str, canonical: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b"\n");
    h.update(canonical.as_bytes());
    h.finalize()
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            use std::fmt::Write as _;
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The canonical form of a choice's answer: the positions of the correct options, ascending.
pub(super) fn choice_canonical(correct: &[bool]) -> String {
    correct
        .iter()
        .enumerate()
        .filter(|(_, c)| **c)
        .map(|(i, _)| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-2's test vectors, through the same hex encoding the pages use.
    #[test]
    fn sha_256_of_the_published_vectors() {
        let hex = |data: &[u8]| {
            Sha256::digest(data)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        };
        assert_eq!(
            hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // An empty salt hashes the line feed and the answer (`printf '\nabc' | sha256sum`).
        assert_eq!(
            answer_hash("", "abc"),
            "f39d39bfc99287b848780d4110eb663f0e7c344ae41f46a390c4135b89dc2756"
        );
    }

    #[test]
    fn equal_answers_of_different_questions_hash_differently() {
        let a = answer_hash(&salt("Book/a.md", "exercise-1"), "3");
        let b = answer_hash(&salt("Book/a.md", "exercise-2"), "3");
        let c = answer_hash(&salt("Other/a.md", "exercise-1"), "3");
        assert!(a != b && a != c && b != c);
        assert_eq!(a.len(), 64);
    }

    #[test]
    fn a_choice_is_hashed_as_a_set_in_ascending_order() {
        assert_eq!(choice_canonical(&[true, false, true]), "0,2");
        assert_eq!(choice_canonical(&[false, false]), "");
        assert_eq!(
            choice_canonical(&[
                false, true, false, false, false, false, false, false, false, false, true
            ]),
            "1,10"
        );
    }
}
