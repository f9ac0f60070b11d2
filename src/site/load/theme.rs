//! `theme/head.hbs`: the one file of mdBook's Handlebars theme that nimbook uses, as extra
//! content for the `<head>` of every page (analytics, a canonical link, fonts).
//!
//! nimbook's templates are Tera, not Handlebars, so the file is taken as plain HTML.
//! Handlebars comments (`{{! … }}`, `{{!-- … --}}`) are dropped and `\{{` is a literal `{{`,
//! as Handlebars writes them. Any other expression (`{{ path }}`, `{{#if …}}`) would need
//! mdBook's template engine: the file is then left out, with a warning at the expression,
//! rather than put into pages half-rendered (a script with both branches of an `{{#if}}` would
//! not even parse).

use std::path::Path;

use super::confine::Reader;
use crate::diag::{Code, Diagnostic, SourceFile};

/// The path of the file, from the book root.
pub(crate) const HEAD: &str = "theme/head.hbs";

/// The HTML of the book's `theme/head.hbs` for every page's head (empty when there is none or
/// it cannot be used), and the warnings about it.
pub(crate) fn head(files: &Reader, root: &Path) -> (String, Vec<Diagnostic>) {
    let path = root.join(HEAD);
    if path.symlink_metadata().is_err() {
        return (String::new(), Vec::new());
    }
    let file = match files.source(&path, Code::TemplateError) {
        Ok(file) => file,
        Err(d) => return (String::new(), vec![demoted(d)]),
    };
    match plain(&file.text) {
        Ok(html) => (html, Vec::new()),
        Err(at) => {
            let end = file.text[at..]
                .find("}}")
                .map_or(file.text.len(), |i| at + i + 2);
            let d = Diagnostic::warning(
                Code::TemplateError,
                format!("{HEAD} is not used: it has a Handlebars expression"),
            )
            .at(&SourceFile::new(file.name.clone(), file.text.clone()), at..end)
            .label("nimbook does not render Handlebars")
            .note("nimbook puts theme/head.hbs into every page's head as plain HTML; Handlebars comments are dropped")
            .help("write the value out, or move the script into `additional-js`");
            (String::new(), vec![d])
        }
    }
}

/// A refusal to read the file, as a warning: the book builds without its head content.
fn demoted(mut d: Diagnostic) -> Diagnostic {
    d.level = crate::diag::Level::Warning;
    d
}

/// `text` without its Handlebars comments, or the offset of the first other expression.
fn plain(text: &str) -> Result<String, usize> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        let at = text.len() - rest.len() + i;
        if rest[..i].ends_with('\\') {
            out.push_str(&rest[..i - 1]);
            out.push_str("{{");
            rest = &rest[i + 2..];
            continue;
        }
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let close = if after.starts_with("!--") {
            after.find("--}}").map(|j| j + 4)
        } else if after.starts_with('!') {
            after.find("}}").map(|j| j + 2)
        } else {
            None
        };
        match close {
            Some(j) => rest = &after[j..],
            None => return Err(at),
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn comments_go_and_expressions_are_refused_where_they_start() {
        assert_eq!(
            plain("<script>a</script>{{! one }}\n{{!-- two }} --}}<b>").as_deref(),
            Ok("<script>a</script>\n<b>")
        );
        assert_eq!(plain("x \\{{ y }}").as_deref(), Ok("x {{ y }}"));
        assert_eq!(plain("<p>\n{{#if (eq language \"en\")}}"), Err(4));
        assert_eq!(plain("{{ path }}"), Err(0));
        assert_eq!(plain("{{!-- never closed"), Err(0));
    }
}
