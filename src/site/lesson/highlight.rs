//! Build-time syntax highlighting of ordinary fenced code with syntect.
//!
//! Code is marked up with CSS classes rather than inline colours, so that the light and dark
//! themes each bring their own palette (`highlight.css`, generated from two syntect themes).

use std::sync::OnceLock;

use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxDefinition, SyntaxSet};
use syntect::util::LinesWithEndings;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Grammars syntect does not bundle: Nim, for books about the Nim language (in a non-nimbook
/// book a `nim` fence is Nim code). A set of their own, because rebuilding the default set to
/// add one grammar costs more than highlighting a large book.
fn extra_syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut builder = syntect::parsing::SyntaxSetBuilder::new();
        builder.add_plain_text_syntax();
        for grammar in EXTRA_GRAMMARS {
            if let Ok(def) = SyntaxDefinition::load_from_str(grammar, true, None) {
                builder.add(def);
            }
        }
        builder.build()
    })
}

/// Grammars added to syntect's defaults.
const EXTRA_GRAMMARS: &[&str] = &[include_str!(
    "../../../templates/syntaxes/nim.sublime-syntax"
)];

const STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// Highlights `code` written in `lang` (a fence's first word). Unknown languages are escaped
/// and shown plain.
pub(crate) fn highlight(code: &str, lang: &str) -> String {
    let (set, syntax) = match syntaxes().find_syntax_by_token(lang) {
        Some(found) => (syntaxes(), found),
        None => match extra_syntaxes().find_syntax_by_token(lang) {
            Some(found) => (extra_syntaxes(), found),
            None => (syntaxes(), syntaxes().find_syntax_plain_text()),
        },
    };
    let mut gen = ClassedHTMLGenerator::new_with_class_style(syntax, set, STYLE);
    for line in LinesWithEndings::from(code) {
        if gen
            .parse_html_for_line_which_includes_newline(line)
            .is_err()
        {
            return crate::site::html::escape(code);
        }
    }
    gen.finalize()
}

/// The background of code boxes in the light and the dark theme (`--code-bg` in `style.css`).
const LIGHT_CODE_BG: Rgb = Rgb(0xf5, 0xf5, 0xf3);
const DARK_CODE_BG: Rgb = Rgb(0x22, 0x26, 0x2b);

/// WCAG 2.1 AA asks for a contrast of 4.5 for ordinary text; a little more leaves room for
/// rounding in browsers.
const MIN_CONTRAST: f64 = 4.6;

/// The stylesheet for the highlighting classes: a light and a dark palette, each applied in its
/// theme, whether the reader chose it (`data-theme` on `<html>`) or the system did. The syntect
/// themes' colours are made dark or light enough to be read on the code background.
pub(crate) fn stylesheet() -> String {
    let themes = ThemeSet::load_defaults();
    let rules = |name: &str, background: Rgb| {
        let css = themes
            .themes
            .get(name)
            .and_then(|t| css_for_theme_with_class_style(t, STYLE).ok())
            .unwrap_or_default();
        readable_rules(&css, background)
    };
    let light = rules("InspiredGitHub", LIGHT_CODE_BG);
    let dark = rules("base16-ocean.dark", DARK_CODE_BG);
    let mut out = String::new();
    for (palette, theme, other) in [(&light, "light", "dark"), (&dark, "dark", "light")] {
        out.push_str(&scoped(palette, &format!(":root[data-theme=\"{theme}\"]")));
        out.push_str(&format!("@media (prefers-color-scheme: {theme}) {{\n"));
        out.push_str(&scoped(
            palette,
            &format!(":root:not([data-theme=\"{other}\"])"),
        ));
        out.push_str("}\n");
    }
    out
}

/// One CSS rule: its selectors and its declarations.
struct Rule {
    selectors: Vec<String>,
    declarations: Vec<String>,
}

/// The rules of a syntect stylesheet, comments dropped, with every colour made readable on
/// `background` and every background dropped (code boxes bring their own).
fn readable_rules(css: &str, background: Rgb) -> Vec<Rule> {
    let mut text = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    text.push_str(rest);
    text.split('}')
        .filter_map(|chunk| {
            let (selectors, body) = chunk.split_once('{')?;
            let selectors: Vec<String> = selectors
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            let declarations: Vec<String> = body
                .split(';')
                .filter_map(|d| {
                    let (property, value) = d.split_once(':')?;
                    let (property, value) = (property.trim(), value.trim());
                    match property {
                        "background-color" | "background" => None,
                        "color" => Some(match Rgb::parse(value) {
                            Some(c) => format!("color: {}", c.readable_on(background).hex()),
                            None => format!("color: {value}"),
                        }),
                        _ => Some(format!("{property}: {value}")),
                    }
                })
                .collect();
            (!selectors.is_empty() && !declarations.is_empty()).then_some(Rule {
                selectors,
                declarations,
            })
        })
        .collect()
}

/// The rules with `prefix` (an ancestor selector) in front of every selector.
fn scoped(rules: &[Rule], prefix: &str) -> String {
    let mut out = String::new();
    for rule in rules {
        let selectors: Vec<String> = rule
            .selectors
            .iter()
            .map(|s| format!("{prefix} {s}"))
            .collect();
        out.push_str(&format!(
            "{} {{ {}; }}\n",
            selectors.join(", "),
            rule.declarations.join("; ")
        ));
    }
    out
}

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rgb(u8, u8, u8);

impl Rgb {
    /// `#rrggbb` (or `#rrggbbaa`, alpha ignored).
    fn parse(s: &str) -> Option<Rgb> {
        let hex = s.strip_prefix('#')?;
        if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb(byte(0)?, byte(2)?, byte(4)?))
    }

    fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Relative luminance, as WCAG 2.1 defines it.
    fn luminance(self) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }

    /// The WCAG contrast ratio of two colours, from 1 to 21.
    fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// This colour mixed toward black or white (whichever is further from `background`) in
    /// small steps until its contrast with `background` reaches `MIN_CONTRAST`; the hue stays.
    fn readable_on(self, background: Rgb) -> Rgb {
        let toward = if background.luminance() > 0.18 {
            0.0
        } else {
            255.0
        };
        let mix = |c: u8, t: f64| (f64::from(c) + (toward - f64::from(c)) * t).round() as u8;
        (0..=50)
            .map(|step| {
                let t = f64::from(step) / 50.0;
                Rgb(mix(self.0, t), mix(self.1, t), mix(self.2, t))
            })
            .find(|c| c.contrast(background) >= MIN_CONTRAST)
            .unwrap_or(if toward == 0.0 {
                Rgb(0, 0, 0)
            } else {
                Rgb(255, 255, 255)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Published WCAG examples: black on white is 21, and #767676 on white is the lightest grey
    // that passes AA (4.54).
    #[test]
    fn contrast_matches_published_ratios() {
        let white = Rgb(255, 255, 255);
        assert!((Rgb(0, 0, 0).contrast(white) - 21.0).abs() < 1e-9);
        assert!((Rgb(0x76, 0x76, 0x76).contrast(white) - 4.54).abs() < 0.01);
        assert!((Rgb(0x77, 0x77, 0x77).contrast(white) - 4.48).abs() < 0.01);
    }

    #[test]
    fn every_colour_in_both_palettes_is_readable_on_its_background() {
        let mut seen = 0;
        for rule in stylesheet()
            .lines()
            .filter(|l| l.contains('{') && l.contains('}'))
        {
            let background = if rule.starts_with(":root[data-theme=\"light\"]")
                || rule.starts_with(":root:not([data-theme=\"dark\"])")
            {
                LIGHT_CODE_BG
            } else {
                DARK_CODE_BG
            };
            for value in rule.split("color: ").skip(1) {
                let c = Rgb::parse(&value[..7]).expect("a #rrggbb colour");
                seen += 1;
                assert!(c.contrast(background) >= 4.5, "{} in {rule}", c.hex());
            }
        }
        assert!(seen > 40, "{seen} colours");
    }

    #[test]
    fn each_palette_is_scoped_to_its_theme() {
        let css = stylesheet();
        assert!(css.contains(":root[data-theme=\"light\"] .hl-comment"));
        assert!(css.contains(":root[data-theme=\"dark\"] .hl-comment"));
        assert!(css.contains(":root:not([data-theme=\"dark\"]) .hl-comment"));
        assert!(!css.contains("background"));
    }

    #[test]
    fn nim_code_is_highlighted_as_nim() {
        let html = super::highlight(
            "proc hello(name: string) =\n  echo \"hi\"  # greet\n",
            "nim",
        );
        assert!(
            html.contains("hl-storage hl-type hl-function hl-nim"),
            "{html}"
        );
        assert!(html.contains("hl-string"), "{html}");
        assert!(html.contains("hl-comment"), "{html}");
    }
}
