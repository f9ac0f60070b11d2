//! The `id` attributes of a rendered page: the anchors a link into it may name.

/// Every `id="…"` (or `id='…'`) of the tags in `html`, in order.
pub fn ids(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    let mut from = 0;
    while let Some(i) = html[from..].find("id=").map(|i| i + from) {
        from = i + 3;
        let before = i.checked_sub(1).map(|b| bytes[b]);
        if !matches!(before, Some(b' ' | b'\t' | b'\n')) {
            continue;
        }
        let Some(&quote) = bytes.get(i + 3) else {
            break;
        };
        if quote != b'"' && quote != b'\'' {
            continue;
        }
        let start = i + 4;
        let Some(len) = html[start..].find(quote as char) else {
            break;
        };
        out.push(html[start..start + len].replace("&amp;", "&"));
        from = start + len;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_of_tags() {
        assert_eq!(
            super::ids("<h1 id=\"a\">x</h1><a id='raw'></a><p>grid=3 uuid=\"no\"</p>"),
            vec!["a", "raw"]
        );
    }
}
