//! Tests of the preprocessor chain: its order (and a cycle in it), and the origin of a line an
//! external preprocessor moved.

use super::*;

#[test]
fn order_follows_before_and_after_then_names() {
    let c = Config::parse(
        "[preprocessor.zeta]\nbefore = [\"links\"]\n[preprocessor.alpha]\nafter = [\"index\"]\n[preprocessor.mid]\n",
        "book.toml",
    );
    let got = c
        .map_err(|d| d.message.clone())
        .and_then(|c| order(&c).map_err(|d| d.message.clone()));
    assert_eq!(
        got,
        Ok(vec![
            "index".into(),
            "alpha".into(),
            "mid".into(),
            "zeta".into(),
            "links".into()
        ])
    );
}

#[test]
fn a_cycle_is_an_error() {
    let c = Config::parse(
        "[preprocessor.a]\nbefore = [\"b\"]\n[preprocessor.b]\nbefore = [\"a\"]\n",
        "book.toml",
    );
    let got = c.ok().map(|c| order(&c).is_err());
    assert_eq!(got, Some(true));
}

#[test]
fn a_moved_line_keeps_its_origin() {
    let file = SourceFile::new("a.md", "# T\n\n```nim\n6 * 13 = 14\n```\n");
    let id = SourceMap::identity(&file);
    let new = "# T\n\nInserted by a preprocessor.\nAnd more.\n\n```nim\n6 * 13 = 14\n```\n";
    let map = remap(&file.text, &id, new);
    let at = new.find("13").unwrap_or(0);
    let (f, span) = map.locate(at..at + 2).unwrap_or((Arc::clone(&file), 0..0));
    assert_eq!(f.line_col(span.start), (4, 5));
    assert_eq!(&f.text[span], "13");
}
