//! What a directive makes: a typed block of the checked document, not HTML.
//!
//! A `nimbook` directive computes its content with the engines (a table's values, a drawing,
//! the steps of an expansion, a widget's position and its winning moves, an exercise's answer)
//! and hands it over as one [`Block`]. A writer (the page's, `page`) turns a block into its
//! output and computes nothing.
//! Every block type is `serde`-serialisable, so a directive's result can be kept and used again
//! without running it.
//!
//! The words a block shows around its content (a hint's rule, the status line of a widget)
//! live here, beside the type, so that the page and the paper say the same.

use serde::{Deserialize, Serialize};

use super::notation::Formula;

/// One piece of rich inline text: a caption, a question, an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Run {
    /// Text given by the author or made from a value: every character HTML treats specially
    /// is escaped on the page, quotes included.
    Text(String),
    /// nimbook's own wording around the values, which the page has always written with only
    /// `<`, `>` and `&` escaped.
    Prose(String),
    /// Code: a position or an expression as the claim language writes it.
    Code(String),
    /// Strong emphasis: a computed answer.
    Strong(String),
    /// A superscript (`2` with `i` raised).
    Sup(String),
    /// A subscript (the K of a loopy value ∞_K).
    Sub(String),
    /// A colour key: a swatch of the class that colours the cells or vertices it names, and
    /// its word (`grey`, `green`; empty for a swatch before its own words).
    Key {
        /// The swatch's classes (`key pre`, `gg-key p`).
        class: String,
        /// The word inside the swatch.
        text: String,
    },
    /// Inline LaTeX, as the author wrote it between dollar signs.
    Tex(String),
    /// A formula in the reader's notation.
    Math(Formula),
}

/// What a directive made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum Block {
    /// A table of computed values.
    Table(Table),
    /// A drawing with its caption.
    Figure(Figure),
    /// A worked derivation, every step checked.
    Steps(Steps),
    /// A game to play against the computer, with its static form.
    Widget(Widget),
    /// A question whose answer the build computed.
    Exercise(Exercise),
    /// A multiple-choice question whose correct options the engine decided.
    Choice(Choice),
    /// Practice problems drawn without end on the page, and a fixed set on paper.
    Practice(Practice),
    /// A criterion a prover applies, in the words stated beside the code that checks it.
    Criterion(Criterion),
}

/// A criterion's statement (`criterion(name)`): its title, then its parts in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Criterion {
    /// `The Guy–Smith criterion`.
    pub(crate) title: String,
    /// Its paragraphs and its numbered conditions, in order.
    pub(crate) parts: Vec<CriterionPart>,
}

/// A part of a criterion's statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum CriterionPart {
    /// A paragraph.
    Paragraph(Vec<Run>),
    /// Numbered conditions, one item each.
    Conditions(Vec<Vec<Run>>),
}

/// A table: a caption, a corner cell, a header row, and rows that open with a label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Table {
    /// What kind of table it is, as a class after `nim-table` (`grundy`, `sequence`, `rare`).
    pub(crate) kind: Option<String>,
    /// The caption.
    pub(crate) caption: Caption,
    /// The top-left cell: the operation or the names of the axes.
    pub(crate) corner: String,
    /// The header row's cells.
    pub(crate) head: Vec<Cell>,
    /// The rows.
    pub(crate) rows: Vec<Row>,
}

/// Where a table's caption goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Caption {
    /// Inside the table, above it: plain text.
    Inside(String),
    /// Under the table, which then sits in a figure: a table's own caption is as narrow as the
    /// table, and some tables are a few columns wide.
    Below(Vec<Run>),
}

/// A row of a table: its class, its label and its cells (the last row of a sequence may be
/// short).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Row {
    /// The row's class.
    pub(crate) class: Option<CellClass>,
    /// The label at its start.
    pub(crate) label: Vec<Run>,
    /// Its cells.
    pub(crate) cells: Vec<Cell>,
}

/// A header or body cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Cell {
    /// What the cell is, beyond its value.
    pub(crate) class: Option<CellClass>,
    /// Its content.
    pub(crate) runs: Vec<Run>,
}

impl Cell {
    /// A cell of plain text.
    pub(crate) fn text(class: Option<CellClass>, text: impl Into<String>) -> Self {
        Cell {
            class,
            runs: vec![Run::Text(text.into())],
        }
    }
}

/// What a cell or row is, beyond its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum CellClass {
    /// Where a larger subfield begins: a line before it.
    FieldStart,
    /// A P-position (value 0): shaded.
    P,
    /// The pre-period of a sequence.
    Pre,
    /// The periodic part of a sequence.
    Periodic,
}

impl CellClass {
    /// The class `style.css` colours it by.
    pub(crate) fn css(self) -> &'static str {
        match self {
            CellClass::FieldStart => "field-start",
            CellClass::P => "p",
            CellClass::Pre => "pre",
            CellClass::Periodic => "periodic",
        }
    }
}

/// A drawing and its caption.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Figure {
    /// The drawing: an SVG whose shapes carry classes, never colours.
    pub(crate) svg: String,
    /// The caption.
    pub(crate) caption: Vec<Run>,
    /// How the page frames it.
    pub(crate) frame: Frame,
}

/// How the page frames a drawing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Frame {
    /// As it is.
    Plain,
    /// In a box of its own that scrolls sideways when the drawing is wider than a phone, the
    /// caption staying put; with a class added to the figure's.
    Scroll(Option<String>),
}

/// A worked derivation: each step an expression equal to the one before, with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Steps {
    /// The steps, the first being the expression derived from.
    pub(crate) steps: Vec<Step>,
}

/// One step of a derivation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Step {
    /// The expression (no items when it did not parse: its error is reported).
    pub(crate) expr: Formula,
    /// Why it follows.
    pub(crate) why: String,
    /// Whether the checker verified it equal to the step before (every step but the first).
    pub(crate) verified: bool,
}

/// A game to play against the computer on the page; on paper its start position, value and
/// winning moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Widget {
    /// The game and what the page's script needs to play it perfectly.
    pub(crate) game: WidgetGame,
    /// The game in words (`Nim with heaps 3, 5, 7`).
    pub(crate) title: String,
    /// The start position drawn.
    pub(crate) svg: String,
    /// The start position as the claim language writes it (`nim(3, 5, 7)`).
    pub(crate) position: String,
    /// Its Grundy value, computed by the engine.
    pub(crate) value: u64,
    /// The moves to a position of value 0, as the claim language writes each position
    /// reached, at most [`Widget::MAX_MOVES`] of them.
    pub(crate) winning: Vec<String>,
    /// How many winning moves there are in all.
    pub(crate) winning_count: usize,
}

impl Widget {
    /// The most winning moves a widget lists.
    pub(crate) const MAX_MOVES: usize = 12;

    /// The line under the board before the script takes over.
    pub(crate) const STATUS: &'static str =
        "The start position. Turn on JavaScript to play it against the computer.";

    /// What the widget is, where it cannot be played (on paper).
    // Only the printed book (feature `pdf`) reads a block's form on paper.
    #[cfg_attr(not(feature = "pdf"), allow(dead_code))]
    pub(crate) const ON_PAPER: &'static str =
        "a game to play against the computer on the book's web page";

    /// The widget's static form in words: the start position, its value, and the moves that
    /// win from it, as the engine computed them.
    #[cfg_attr(not(feature = "pdf"), allow(dead_code))]
    pub(crate) fn static_form(&self) -> String {
        let mut s = format!(
            "Start position {}: value {} (computed by the engine), so ",
            self.position, self.value
        );
        if self.value == 0 {
            s.push_str("a P-position: the player to move loses, whatever they do.");
            return s;
        }
        s.push_str("an N-position: the player to move wins. ");
        s.push_str(if self.winning_count == 1 {
            "The winning move leads to "
        } else {
            "The winning moves lead to "
        });
        s.push_str(&self.winning.join(", "));
        if self.winning_count > self.winning.len() {
            s.push_str(&format!(
                " and {} more",
                self.winning_count - self.winning.len()
            ));
        }
        s.push_str(", each a position of value 0.");
        s
    }
}

/// The game of a widget, with the engine's values the page's script plays by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum WidgetGame {
    /// Nim: the heaps.
    Nim {
        /// The heaps.
        heaps: Vec<u64>,
    },
    /// Kayles on a row of pins: the Grundy values of rows of `0 … pins` pins.
    Kayles {
        /// The pins.
        pins: u64,
        /// The values.
        grundy: Vec<u64>,
    },
    /// Wythoff's queen at column `a`, row `b`: the values of every square, a list of columns.
    Wythoff {
        /// Where the queen starts.
        queen: (u64, u64),
        /// The values.
        grundy: Vec<Vec<u64>>,
    },
}

/// How a student's answer is checked on the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Grading {
    /// The page carries the answer in its canonical form.
    Shown(String),
    /// Graded mode: the page carries a salt and the SHA-256 of the salted answer.
    Hashed {
        /// The salt.
        salt: String,
        /// The hash, 64 lowercase hexadecimal digits.
        hash: String,
    },
}

/// The kind of an exercise's answer: what a student types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum AnswerKind {
    /// A number.
    Number,
    /// An outcome class: `P` or `N`, and `D` too when the game is loopy (the prompt offers a
    /// draw whenever the answer could be one, so it never gives away that it is not).
    Outcome {
        /// Whether `D` is among the answers offered.
        draws: bool,
    },
    /// `true` or `false`.
    Truth,
}

impl AnswerKind {
    /// Its name in the page's `data-kind`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            AnswerKind::Number => "number",
            AnswerKind::Outcome { .. } => "outcome",
            AnswerKind::Truth => "truth",
        }
    }

    /// What the answer field asks for: the answers it accepts.
    pub(crate) fn placeholder(self) -> &'static str {
        match self {
            AnswerKind::Number => "a number, such as 12 or 0xC",
            AnswerKind::Outcome { draws: false } => "P or N",
            AnswerKind::Outcome { draws: true } => "P, N or D",
            AnswerKind::Truth => "true or false",
        }
    }
}

/// A question answered on the page, its answer computed by the build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Exercise {
    /// Its element id (`exercise-3`).
    pub(crate) id: String,
    /// Its number in the lesson (exercises and choices are numbered together).
    pub(crate) number: usize,
    /// What the student types.
    pub(crate) kind: AnswerKind,
    /// The question.
    pub(crate) question: Vec<Run>,
    /// How the page checks an answer.
    pub(crate) grading: Grading,
    /// A hint prepared from the shape of the answer expression.
    pub(crate) hint: Option<Hint>,
    /// The answer expression as written (`6 * 13`).
    pub(crate) source: String,
    /// The answer the engine computed, in its canonical form (`15`).
    pub(crate) answer: String,
}

impl Exercise {
    /// The answer as shown: the expression and, when it is not the value itself, its value.
    pub(crate) fn shown(&self) -> Vec<Run> {
        if self.source == self.answer {
            vec![Run::Code(self.answer.clone())]
        } else {
            vec![
                Run::Code(self.source.clone()),
                Run::Prose(" = ".into()),
                Run::Strong(self.answer.clone()),
            ]
        }
    }
}

/// A hint of an exercise, by the shape of its answer expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Hint {
    /// A product in graded mode: the method, since the expansion ends in the answer.
    ProductRule,
    /// A product: its worked expansion.
    Expansion(Steps),
    /// A nim-sum: the operands in binary, one to a row, and the total unless graded.
    Columns {
        /// The operands.
        terms: Vec<u64>,
        /// Their nim-sum, or `None` in graded mode.
        total: Option<u64>,
    },
    /// The value or outcome of a game: its options and theirs.
    Moves {
        /// The position, as the claim language writes it.
        position: String,
        /// Each option (at most [`Hint::MAX_MOVES`]) and its value or outcome.
        moves: Vec<(String, String)>,
        /// How many options were left out.
        more: usize,
        /// The rule that decides the position from its options.
        rule: MoveRule,
    },
    /// A position with no move.
    NoMoves,
}

impl Hint {
    /// The most options of a game a hint lists.
    pub(crate) const MAX_MOVES: usize = 40;
    /// The graded hint of a product.
    pub(crate) const PRODUCT_RULE: &'static str = "Split both factors into sums of powers of two and distribute. A product of powers of two is a product of distinct Fermat 2-powers 2, 4, 16, 256, …, and a Fermat 2-power F has F ⊗ F = F ⊕ F/2.";
    /// What opens a product's expansion.
    pub(crate) const EXPANSION: &'static str =
        "The worked expansion, every step checked by nimbook:";
    /// What opens a nim-sum's columns.
    pub(crate) const COLUMNS: &'static str = "Write the numbers in binary and add each column without carrying: a column is 1 when it holds an odd number of ones.";
    /// The hint of a position without moves.
    pub(crate) const NO_MOVES: &'static str = "There is no move from this position: the player to move loses, so its value is 0 and it is a P-position.";
}

/// The rule that decides a position from its options, as a hint states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum MoveRule {
    /// The Grundy value is the mex.
    Mex,
    /// P exactly when no move leads to P.
    Outcome,
    /// Win, lose or draw, for a loopy game.
    Loopy,
}

impl MoveRule {
    /// The rule in words.
    pub(crate) fn sentence(self) -> &'static str {
        match self {
            MoveRule::Loopy => "A position wins (N) when some move leads to a P-position, loses (P) when every move leads to an N-position, and is otherwise a draw (D): the play can be kept going for ever.",
            MoveRule::Outcome => "A position is P exactly when no move leads to a P-position (a position of value 0).",
            MoveRule::Mex => "The Grundy value is the mex, the least number not among the values of the options.",
        }
    }
}

/// A multiple-choice question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Choice {
    /// Its element id (`exercise-3`).
    pub(crate) id: String,
    /// Its number in the lesson.
    pub(crate) number: usize,
    /// The question.
    pub(crate) question: Vec<Run>,
    /// The options, judged by the engine.
    pub(crate) options: Vec<ChoiceOption>,
    /// How the page checks an answer.
    pub(crate) grading: Grading,
    /// The hint.
    pub(crate) hint: String,
}

impl Choice {
    /// What follows the question.
    pub(crate) const NOTE: &'static str = "(Select every correct option.)";

    /// The answer as shown: the correct options, or that none is.
    pub(crate) fn shown(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        for option in self.options.iter().filter(|o| o.correct) {
            if !runs.is_empty() {
                runs.push(Run::Prose("; ".into()));
            }
            runs.push(option.label.clone());
        }
        if runs.is_empty() {
            runs.push(Run::Prose("None of the options is correct.".into()));
        }
        runs
    }
}

/// One option of a choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ChoiceOption {
    /// How it is shown: a position as code, or a formula.
    pub(crate) label: Run,
    /// Its text as a reader reads it.
    pub(crate) name: String,
    /// Whether the engine found it correct.
    pub(crate) correct: bool,
}

/// Practice problems: drawn without end on the page; on paper a fixed set, seeded, with the
/// answers the engine computed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Practice {
    /// Its element id.
    pub(crate) id: String,
    /// What it practises, in words.
    pub(crate) title: String,
    /// What the page's script draws from.
    pub(crate) kind: PracticeKind,
    /// The printed problems and their answers.
    pub(crate) problems: Vec<Problem>,
}

impl Practice {
    /// The line shown before the script draws a problem.
    pub(crate) const NO_SCRIPT: &'static str =
        "Turn on JavaScript to draw practice problems without end.";
    /// How many problems the printed book gives.
    pub(crate) const PRINTED: usize = 6;
    /// What the printed problems are, beside the page's.
    // Only the printed book (feature `pdf`) reads a block's form on paper.
    #[cfg_attr(not(feature = "pdf"), allow(dead_code))]
    pub(crate) const ON_PAPER: &'static str =
        "a fixed set of problems; the book's web page draws new ones without end";
}

/// What a practice draws from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum PracticeKind {
    /// Nim arithmetic below a bound: `nim-sum`, `nim-product` or `inverse`.
    Range {
        /// The kind's name.
        kind: String,
        /// The bound, in decimal.
        max: String,
    },
    /// Grundy values of a heap game.
    Grundy {
        /// The game's name.
        game: String,
        /// Its rule for the page's move generator (`077`, `grundys_game`).
        rule: String,
        /// The largest heap.
        max: u64,
        /// The values of heaps `0 … max`.
        values: Vec<u64>,
    },
}

/// One printed practice problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Problem {
    /// The question.
    pub(crate) question: Vec<Run>,
    /// The answer the engine computed.
    pub(crate) answer: String,
}
