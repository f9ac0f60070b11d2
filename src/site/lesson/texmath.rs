//! MathJax's delimiters, read at build time.
//!
//! A book with `[output.html] mathjax-support = true` writes inline math as `\\( … \\)` and
//! display math as `\\[ … \\]` or `$$ … $$` (the markdown escapes leave `\( \)` and `\[ \]` in
//! the text). nimbook turns them into math events, which become MathML like any other LaTeX, so
//! the site needs neither MathJax nor a CDN. A single `$` stays a dollar sign, as it does under
//! MathJax's default settings, unless the book is a nimbook book.

use std::ops::Range;

use pulldown_cmark::{CowStr, Event};

/// Rewrites `events`: runs of text are searched for `\( \)` and `\[ \]`, and `$…$` inline math
/// goes back to text unless `dollar_math`.
pub(crate) fn mathjax_delimiters(
    events: Vec<(Event<'_>, Range<usize>)>,
    dollar_math: bool,
) -> Vec<(Event<'_>, Range<usize>)> {
    let mut out = Vec::with_capacity(events.len());
    let mut run: Option<(String, Range<usize>)> = None;
    let flush = |run: &mut Option<(String, Range<usize>)>,
                 out: &mut Vec<(Event<'_>, Range<usize>)>| {
        if let Some((text, range)) = run.take() {
            split(text, range, out);
        }
    };
    // The text of a code block is code: `sed 's/a\(b*\)c/\1/'` holds no math.
    let mut in_code = false;
    for (event, range) in events {
        match event {
            Event::Start(pulldown_cmark::Tag::CodeBlock(_)) => {
                flush(&mut run, &mut out);
                in_code = true;
                out.push((event, range));
            }
            Event::End(pulldown_cmark::TagEnd::CodeBlock) => {
                in_code = false;
                out.push((event, range));
            }
            Event::Text(t) if !in_code => match &mut run {
                Some((text, r)) => {
                    text.push_str(&t);
                    r.end = range.end;
                }
                None => run = Some((t.to_string(), range)),
            },
            Event::InlineMath(tex) if !dollar_math => {
                let text = format!("${tex}$");
                match &mut run {
                    Some((s, r)) => {
                        s.push_str(&text);
                        r.end = range.end;
                    }
                    None => run = Some((text, range)),
                }
            }
            other => {
                flush(&mut run, &mut out);
                out.push((other, range));
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Cuts one run of text at its `\( \)` and `\[ \]` pairs. Every piece keeps the run's range:
/// a LaTeX error is reported at the paragraph's text.
fn split<'a>(text: String, range: Range<usize>, out: &mut Vec<(Event<'a>, Range<usize>)>) {
    let mut rest = text.as_str();
    loop {
        let open = [("\\(", "\\)", false), ("\\[", "\\]", true)]
            .into_iter()
            .filter_map(|(o, c, d)| rest.find(o).map(|i| (i, o, c, d)))
            .min_by_key(|x| x.0);
        let Some((i, o, c, display)) = open else {
            break;
        };
        let body_start = i + o.len();
        let Some(len) = rest[body_start..].find(c) else {
            break;
        };
        if i > 0 {
            out.push((
                Event::Text(CowStr::from(rest[..i].to_string())),
                range.clone(),
            ));
        }
        let tex = CowStr::from(rest[body_start..body_start + len].to_string());
        out.push((
            if display {
                Event::DisplayMath(tex)
            } else {
                Event::InlineMath(tex)
            },
            range.clone(),
        ));
        rest = &rest[body_start + len + c.len()..];
    }
    if !rest.is_empty() {
        out.push((Event::Text(CowStr::from(rest.to_string())), range));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::{Options, Parser};

    fn kinds(md: &str) -> Vec<String> {
        let events = Parser::new_ext(md, Options::ENABLE_MATH)
            .into_offset_iter()
            .collect();
        mathjax_delimiters(events, false)
            .into_iter()
            .filter_map(|(e, _)| match e {
                Event::Text(t) => Some(format!("text {t}")),
                Event::InlineMath(t) => Some(format!("inline {t}")),
                Event::DisplayMath(t) => Some(format!("display {t}")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn mathjax_delimiters_become_math_and_dollars_stay() {
        assert_eq!(
            kinds("costs $5 and $6, so \\\\( x^2 \\\\) or \\\\[ y \\\\]"),
            vec![
                "text costs $5 and $6, so ",
                "inline  x^2 ",
                "text  or ",
                "display  y "
            ]
        );
        assert_eq!(kinds("$$a$$"), vec!["display a"]);
    }
}
