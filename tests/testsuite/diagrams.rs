//! Generated diagrams, tables and the play widget: build the `diagrams` fixture book with the
//! real binary and check the HTML against the game engine.

use crate::common::{budget, built, copy_fixture, nimbook, stderr};

use std::path::Path;

use nimbook::game::{self, Game, OctalCode, Outcome};

fn page(out: &Path) -> String {
    std::fs::read_to_string(out.join("01-diagrams.html")).expect("page")
}

/// Every `<svg …>…</svg>` of a page, in order.
fn svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        let tail = &rest[i..];
        let j = tail.find("</svg>").expect("closed svg") + "</svg>".len();
        out.push(&tail[..j]);
        rest = &tail[j..];
    }
    out
}

/// The drawing of `kind` (`wythoff`, `loopy`) on a page, parsed.
fn drawing<'a>(html: &'a str, kind: &str) -> roxmltree::Document<'a> {
    let class = format!("nim-svg {kind}");
    let svg = svgs(html)
        .into_iter()
        .find(|s| s.contains(&class))
        .unwrap_or_else(|| panic!("no {class} drawing"));
    roxmltree::Document::parse(svg).expect("xml")
}

/// The HTML of each `<figure …class="…CLASS…">…</figure>` of a page.
fn figures<'a>(html: &'a str, class: &str) -> Vec<&'a str> {
    html.split("<figure")
        .skip(1)
        .filter(|f| f.split('>').next().is_some_and(|open| open.contains(class)))
        .map(|f| f.split("</figure>").next().unwrap_or(f))
        .collect()
}

fn attr<'a>(html: &'a str, name: &str) -> &'a str {
    let key = format!("{name}=\"");
    let i = html.find(&key).unwrap_or_else(|| panic!("no {name}")) + key.len();
    let j = html[i..].find('"').expect("closing quote");
    &html[i..i + j]
}

#[test]
fn every_svg_is_well_formed_labelled_xml_of_bounded_size() {
    let out = built("diagrams");
    let html = page(&out);
    let all = svgs(&html);
    assert!(!all.is_empty(), "the fixture draws");
    for svg in all {
        let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.attribute("role"), Some("img"), "{svg}");
        assert!(root.attribute("aria-label").is_some_and(|l| !l.is_empty()));
        assert!(
            root.children()
                .any(|c| c.tag_name().name() == "title" && c.text().is_some()),
            "no <title>: {svg}"
        );
        let w: f64 = root
            .attribute("width")
            .expect("width")
            .parse()
            .expect("num");
        let h: f64 = root
            .attribute("height")
            .expect("height")
            .parse()
            .expect("num");
        assert!(w > 0.0 && w < 4000.0 && h > 0.0 && h < 4000.0, "{w} × {h}");
        // Colours come from the stylesheet (CSS variables), never from the SVG.
        assert!(
            !svg.contains("fill=\"#") && !svg.contains("stroke=\"#"),
            "{svg}"
        );
    }
}

#[test]
fn game_graphs_mark_exactly_the_engines_p_positions() {
    let out = built("diagrams");
    let html = page(&out);
    let graphs = figures(&html, "game-graph-figure");
    let games = [Game::nim(vec![1, 2, 3]), Game::cram(2, 3).expect("cram")];
    assert_eq!(graphs.len(), games.len());
    for (fig, g) in graphs.iter().zip(&games) {
        let (positions, moves, ps) = g.graph(&budget()).expect("graph").counts();
        assert_eq!(fig.matches("class=\"gg-node p\"").count(), ps, "{g}");
        assert_eq!(fig.matches("class=\"gg-node ").count(), positions, "{g}");
        assert_eq!(fig.matches("class=\"gg-edge\"").count(), moves, "{g}");
        assert!(
            fig.contains(&format!(
                "{positions} positions, {moves} moves, {ps} P-position"
            )),
            "{fig}"
        );
        assert!(fig.contains("multiset of components"), "{fig}");
    }
    // Nim positions are labelled by their heaps; the empty position by ∅.
    assert!(graphs[0].contains(">1·2·3</text>") && graphs[0].contains(">∅</text>"));
}

#[test]
fn tables_and_captions_show_the_engines_values() {
    let out = built("diagrams");
    let html = page(&out);
    let tables = figures(&html, "nim-table-figure");
    assert_eq!(tables.len(), 6);
    // Cram: row m, column n holds grundy(cram(m, n)).
    let cram = tables[0];
    for m in 1..=4u64 {
        let row_start = cram
            .find(&format!("<tr><th>{m}</th>"))
            .expect("row of the Cram table");
        let row = &cram[row_start..];
        let row = &row[..row.find("</tr>").expect("row end")];
        let cells: Vec<u64> = row
            .split("<td")
            .skip(1)
            .map(|c| {
                let t = &c[c.find('>').expect(">") + 1..];
                t[..t.find('<').expect("<")].parse().expect("number")
            })
            .collect();
        let expect: Vec<u64> = (1..=5)
            .map(|n| {
                Game::cram(m, n)
                    .expect("cram")
                    .grundy(&budget())
                    .expect("value")
            })
            .collect();
        assert_eq!(cells, expect, "row {m}");
    }
    // The Kayles sequence, pre-period and period come from the engine.
    let p = game::period(&OctalCode::kayles(), &budget()).expect("period");
    let seq = tables[4];
    assert!(
        seq.contains(&format!(
            "pre-period {} and period {}",
            p.preperiod, p.period
        )),
        "{seq}"
    );
    assert_eq!(
        seq.matches("<td class=\"pre\">").count() as u64,
        p.preperiod
    );
    assert_eq!(
        seq.matches("<td class=\"periodic\">").count() as u64,
        96 - p.preperiod
    );
    // One period to a row: the header has `period` columns.
    let header = &seq[..seq.find("</thead>").expect("thead")];
    assert_eq!(header.matches("<th>+").count() as u64, p.period);
}

#[test]
fn drawings_carry_engine_values_and_dominoes() {
    let out = built("diagrams");
    let html = page(&out);
    let hb = Game::green_hackenbush("0-1 1-2 1-3 0-4 4-4 0-5 0-5 5-6 6-7 7-5 0-0")
        .expect("graph")
        .grundy(&budget())
        .expect("value");
    assert!(html.contains(&format!("value {hb}, computed by the engine")));
    assert!(html.contains("nim-sum 3 ⊕ 4 ⊕ 5 = 2"));
    let diagram = figures(&html, "nim-figure")
        .into_iter()
        .find(|f| f.contains("class=\"domino\""))
        .expect("cram_diagram");
    assert_eq!(diagram.matches("class=\"domino\"").count(), 2);
    let free = Game::cram_cells("..##/.###/..##")
        .expect("cells")
        .grundy(&budget())
        .expect("value");
    assert!(
        diagram.contains(&format!("Grundy value {free}")),
        "{diagram}"
    );
}

#[test]
fn widgets_embed_the_game_and_engine_values_and_load_the_script() {
    let out = built("diagrams");
    let html = page(&out);
    let widgets: Vec<&str> = html.split("<div class=\"nim-widget\"").skip(1).collect();
    assert_eq!(widgets.len(), 3);
    assert_eq!(attr(widgets[0], "data-game"), "nim");
    assert_eq!(attr(widgets[0], "data-heaps"), "[3,5,7]");
    assert_eq!(attr(widgets[1], "data-game"), "kayles");
    assert_eq!(attr(widgets[1], "data-pins"), "10");
    let grundy: Vec<u64> =
        serde_json::from_str(attr(widgets[1], "data-grundy")).expect("JSON array");
    let engine = game::octal_sequence(&OctalCode::kayles(), 10, &budget()).expect("values");
    assert_eq!(grundy, engine);
    // Without JavaScript each widget still shows the start position.
    assert!(widgets.iter().all(|w| w.contains("<svg")));
    // The script is an asset of the site, loaded with defer, and has no external references.
    assert!(html.contains("<script src=\"widget.js\" defer></script>"));
    let js = std::fs::read_to_string(out.join("widget.js")).expect("widget.js");
    assert!(js.contains("nim-widget") && !js.contains("http"));
}

/// Wythoff's values from the rules alone: the mex over the squares left, below and diagonally
/// below-left, by plain recursion over the whole board.
fn wythoff_by_mex(cols: usize, rows: usize) -> Vec<Vec<u64>> {
    let mut v = vec![vec![0u64; rows]; cols];
    for x in 0..cols {
        for y in 0..rows {
            let mut seen = std::collections::BTreeSet::new();
            seen.extend((0..x).map(|i| v[i][y]));
            seen.extend((0..y).map(|j| v[x][j]));
            seen.extend((1..=x.min(y)).map(|k| v[x - k][y - k]));
            v[x][y] = (0..).find(|g| !seen.contains(g)).expect("a mex");
        }
    }
    v
}

/// Wythoff's theorem in integers: `(x, y)` loses when, with `a ≤ b` and `k = b − a`,
/// `a = ⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋)/2⌋`.
fn wythoff_losing(x: u64, y: u64) -> bool {
    let (a, b) = (x.min(y), x.max(y));
    let k = b - a;
    let n = 5 * k * k;
    let mut r = (n as f64).sqrt() as u64;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    a == (k + r) / 2
}

#[test]
fn the_wythoff_widget_carries_the_values_of_its_board() {
    let out = built("diagrams");
    let html = page(&out);
    let w = html
        .split("<div class=\"nim-widget\"")
        .find(|w| w.contains("data-game=\"wythoff\""))
        .expect("a Wythoff widget");
    assert_eq!(attr(w, "data-queen"), "[9,12]");
    let values: Vec<Vec<u64>> = serde_json::from_str(attr(w, "data-grundy")).expect("JSON");
    assert_eq!(values, wythoff_by_mex(10, 13));
    // Without JavaScript: the board with the queen, and no losing square given away.
    let svg = svgs(w)[0];
    assert!(
        svg.contains("class=\"queen\"") && !svg.contains("square p"),
        "{svg}"
    );
}

/// The Wythoff table is laid out as the board is drawn (issue 39: the board took `a` as the
/// column, the table as the row): column `a` from the left, row `b` counted up from the bottom.
#[test]
fn the_wythoff_table_puts_the_queens_square_where_the_board_does() {
    let html = page(&built("diagrams"));
    let table = figures(&html, "nim-table-figure")[5];
    assert!(table.contains("b \\ a"), "{table}");
    let values = wythoff_by_mex(4, 6);
    let rows: Vec<&str> = table.split("<tr><th>").skip(1).collect();
    assert_eq!(rows.len(), 6, "{table}");
    for (i, row) in rows.iter().enumerate() {
        let b = 5 - i;
        assert!(row.starts_with(&format!("{b}</th>")), "row {i}: {row}");
        let cells: Vec<&str> = row.split("<td").skip(1).collect();
        assert_eq!(cells.len(), 4, "{row}");
        for (a, cell) in cells.iter().enumerate() {
            let text = &cell[cell.find('>').expect(">") + 1..];
            let value: u64 = text[..text.find('<').expect("<")].parse().expect("number");
            assert_eq!(value, values[a][b], "square ({a}, {b})");
            let shaded = cell.starts_with(" class=\"p\"");
            assert_eq!(
                shaded,
                wythoff_losing(a as u64, b as u64),
                "square ({a}, {b})"
            );
        }
    }
}

#[test]
fn the_wythoff_board_shades_exactly_the_theorems_losing_squares() {
    let html = page(&built("diagrams"));
    let doc = drawing(&html, "wythoff");
    let num =
        |n: &roxmltree::Node, a: &str| -> f64 { n.attribute(a).expect(a).parse().expect("num") };
    let squares: Vec<_> = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').next() == Some("square"))
        })
        .collect();
    assert_eq!(squares.len(), 14 * 22);
    let side = num(&squares[0], "width");
    let left = squares
        .iter()
        .map(|n| num(n, "x"))
        .fold(f64::INFINITY, f64::min);
    let bottom = squares.iter().map(|n| num(n, "y")).fold(0.0, f64::max);
    for n in squares {
        let col = ((num(&n, "x") - left) / side).round() as u64;
        let row = ((bottom - num(&n, "y")) / side).round() as u64;
        let shaded = n.attribute("class") == Some("square p");
        assert_eq!(shaded, wythoff_losing(col, row), "square ({col}, {row})");
    }
    let value = wythoff_by_mex(14, 22)[13][21];
    assert!(html.contains(&format!(
        "queen at (13, 21), column 13 and row 21: value {value}"
    )));
}

#[test]
fn a_loopy_graph_is_drawn_with_every_vertexs_outcome() {
    let html = page(&built("diagrams"));
    let doc = drawing(&html, "loopy");
    // The fixture's graph, "0-1 0>2 1>3 4>4 4>0 5>4", as the oracle's successor lists.
    let succ = vec![vec![1, 2], vec![0, 3], vec![], vec![], vec![4, 0], vec![4]];
    let want = crate::game_loopy::wld(&succ);
    let mut seen = 0;
    for g in doc.descendants().filter(|n| n.tag_name().name() == "g") {
        let class = g.attribute("class").expect("class");
        let v: usize = g
            .descendants()
            .find(|n| n.tag_name().name() == "text")
            .and_then(|t| t.text())
            .expect("vertex number")
            .parse()
            .expect("number");
        let drawn = if class.contains(" p") {
            Outcome::P
        } else if class.contains(" n") {
            Outcome::N
        } else {
            Outcome::D
        };
        assert_eq!(drawn, want[v], "vertex {v}: {class}");
        assert_eq!(class.contains("token"), v == 5, "vertex {v}: {class}");
        seen += 1;
    }
    assert_eq!(seen, 6);
    // Arrows: one path per move, a move both ways drawn as two.
    assert_eq!(doc.input_text().matches("class=\"lp-edge\"").count(), 7);
    // The caption names the token's outcome, the oracle's.
    assert_eq!(want[5], Outcome::D);
    assert!(html.contains("The token is on vertex 5 (ringed)") && html.contains("so a draw"));
}

#[test]
fn builds_are_deterministic() {
    let book = copy_fixture("diagrams");
    let o = nimbook(&["build"], book.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(page(&book.path().join("out")), page(&built("diagrams")));
}

/// The main part of a built page: the lesson's own HTML, without the template around it.
fn lesson_html(page: &str) -> &str {
    let start = page.find("<main").expect("<main");
    let end = page.rfind("</main>").expect("</main>");
    &page[start..end + "</main>".len()]
}

/// The HTML of every fixture lesson, snapshotted: a change to any table, drawing, claim or
/// mark shows up in review, where a count would only notice a missing element.
#[test]
fn fixture_lessons_render_as_snapshotted() {
    for (book, lesson) in [
        ("basic", "01-sums.html"),
        ("basic", "02-products.html"),
        ("diagrams", "01-diagrams.html"),
    ] {
        let page = std::fs::read_to_string(built(book).join(lesson)).expect("page");
        insta::assert_snapshot!(format!("{book}-{lesson}"), lesson_html(&page));
    }
}
