//! What the printed book looks like beyond its Typst preamble: the drawings' colours on paper
//! and the swatches of a caption's colour key.
//!
//! A drawing's shapes carry classes, never colours; on the page `style.css` colours them with
//! the theme's variables. On paper the same rules of `style.css` (those whose selector names
//! `.nim-svg`) are put inside the SVG as its own `<style>`, each `var(--name)` replaced by the
//! print palette, so the drawing's colours are defined in one place for both.

/// The site's stylesheet, whose drawing rules are reused.
const STYLESHEET: &str = include_str!("../../../templates/style.css");

/// The colours of paper, by the name of the site's CSS variable: the light theme, with tints
/// a little stronger so that they survive a printer.
const PALETTE: &[(&str, &str)] = &[
    ("--bg", "#ffffff"),
    ("--fg", "#1d1f21"),
    ("--muted", "#555c66"),
    ("--accent", "#2b58a6"),
    ("--rule", "#c5c8ce"),
    ("--sidebar-bg", "#eeeeeb"),
    ("--code-bg", "#eeeeeb"),
    ("--ok", "#1b6f35"),
    ("--ok-bg", "#dcefe2"),
    ("--fail", "#b3261e"),
    ("--focus", "#1a56c4"),
    ("--piece-white", "#ffffff"),
    ("--piece-black", "#1d1f21"),
];

/// The colour of a CSS variable on paper.
fn colour(name: &str) -> &'static str {
    PALETTE
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("#1d1f21", |(_, c)| c)
}

/// Replaces every `var(--name)` (with or without a fallback) by its print colour.
fn resolve_vars(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(at) = rest.find("var(") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let end = after.find(')').unwrap_or(after.len());
        let name = after[..end].split(',').next().unwrap_or("").trim();
        out.push_str(colour(name));
        rest = after.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// The stylesheet put into every printed drawing: the site's `.nim-svg` rules in print
/// colours, and the book's serif for the drawings' text.
pub(crate) fn svg_style() -> String {
    let mut css = String::new();
    for rule in STYLESHEET.split_inclusive('}') {
        let rule = rule.trim();
        let selector = rule.split('{').next().unwrap_or("");
        // Only drawing rules, and only plain ones: a media query's nested rules are the dark
        // theme's, not paper's.
        if selector.contains(".nim-svg") && !selector.contains('@') && rule.contains('{') {
            css.push_str(&resolve_vars(rule));
            css.push('\n');
        }
    }
    css.push_str(".nim-svg text { font-family: \"Libertinus Serif\"; }\n");
    css
}

/// `svg` with the print stylesheet `style` inside its opening tag.
pub(crate) fn styled_svg(svg: &str, style: &str) -> String {
    match svg.find('>') {
        Some(end) if svg.starts_with("<svg") => format!(
            "{}<style>{}</style>{}",
            &svg[..=end],
            style.replace('<', ""),
            &svg[end + 1..]
        ),
        _ => svg.to_string(),
    }
}

/// The text alternative a drawing carries (its `aria-label`), entities decoded.
pub(crate) fn svg_label(svg: &str) -> Option<String> {
    let head = &svg[..svg.find('>')?];
    let start = head.find("aria-label=\"")? + "aria-label=\"".len();
    let end = head[start..].find('"')? + start;
    Some(crate::site::html::decode_attr(&head[start..end]))
}

/// The Typst call that draws the swatch of a caption's colour key, by the swatch's classes
/// (`key pre`, `gg-key p`, `lp-key d`).
pub(crate) fn swatch(class: &str, text_markup: &str) -> String {
    let has = |c: &str| class.split_whitespace().any(|k| k == c);
    let round = has("lp-key");
    let (fill, dashed) = if has("pre") {
        ("nb-shade", false)
    } else if has("periodic") {
        ("nb-ok-bg", false)
    } else if has("p") {
        ("nb-accent", false)
    } else {
        ("white", has("d"))
    };
    let stroke = if dashed {
        "(paint: nb-accent, thickness: 0.8pt, dash: \"dashed\")"
    } else if has("gg-key") || round {
        "0.8pt + nb-accent"
    } else {
        "0.5pt + nb-rule"
    };
    format!(
        "#nb-swatch(fill: {fill}, stroke: {stroke}, radius: {})[{text_markup}]",
        if round { "50%" } else { "2pt" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_print_style_takes_the_sites_drawing_rules_in_print_colours() {
        let css = svg_style();
        assert!(css.contains(".nim-svg.cram .cell"), "{css}");
        assert!(!css.contains("var("), "{css}");
        // The dark theme's rules are not paper's.
        assert!(!css.contains("#17191c"), "{css}");
        assert!(!css.contains(".sidebar"), "{css}");
    }

    #[test]
    fn a_drawing_gets_the_style_inside_its_root_and_keeps_its_label() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"nim-svg nim\" aria-label=\"Nim heaps 3, 5 &amp; 7\"><rect/></svg>";
        let styled = styled_svg(svg, ".x{fill:red}");
        assert!(styled.contains("\"Nim heaps 3, 5 &amp; 7\"><style>.x{fill:red}</style><rect/>"));
        assert_eq!(svg_label(svg).as_deref(), Some("Nim heaps 3, 5 & 7"));
    }
}
