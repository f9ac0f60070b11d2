//! Names that are nearly right: the "did you mean" of every diagnostic that names something
//! unknown (a function, a directive, a `let` name, a practice kind, a diagnostic code).

/// The closest name by edit distance, if one is close enough to be a likely typo: at most one
/// edit for a short name, and a third of the candidate's length for a longer one.
pub(crate) fn nearest<'n>(
    name: &str,
    candidates: impl Iterator<Item = &'n str>,
) -> Option<&'n str> {
    candidates
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|&(d, c)| d <= 1.max(c.len() / 3) && d < name.len().max(c.len()))
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn a_typo_finds_its_name_and_a_stranger_finds_none() {
        let names = ["grundy", "outcome", "inv"];
        assert_eq!(nearest("gundy", names.into_iter()), Some("grundy"));
        assert_eq!(nearest("outcmoe", names.into_iter()), Some("outcome"));
        assert_eq!(nearest("zzz", names.into_iter()), None);
        // One letter away from a three-letter name is close; replacing all of it is not.
        assert_eq!(nearest("in", names.into_iter()), Some("inv"));
        assert_eq!(nearest("abc", names.into_iter()), None);
    }
}
