//! What one lesson's check carries from its first event to its last: the claim checker (the
//! lesson's text, its `let` bindings, the claims counted, the diagnostics found) and the answer
//! key its exercises add to. The lesson stage owns one per lesson; the markdown pass and the
//! number account work through it, and a directive gets only a [`DirectiveEnv`], the part it
//! needs.

use std::cell::Cell;
use std::sync::Arc;

use super::memo::MemoView;
use crate::claim::ast::{Expr, Spanned};
use crate::claim::{Checked, Checker, ClaimError, Directive, Limits, MappedText, Value};
use crate::diag::{Diagnostic, SourceFile, Span};

/// One entry of a lesson's answer key: an exercise or a multiple-choice question, with the
/// answer the engine computed when the lesson was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerKey {
    /// The element id of the question on the page (`exercise-3`).
    pub id: String,
    /// The question, as the author wrote it.
    pub question: String,
    /// The answer expression as written (`6 * 13`), or the options judged, for a choice.
    pub source: String,
    /// The answer, as the engine computed it (`15`; for a choice, the correct options).
    pub answer: String,
    /// For a choice, every option as the claim language prints it (what a worked answer writes
    /// to name it) and whether the engine found it correct; empty for an exercise.
    pub options: Vec<(String, bool)>,
    /// The "Show the answer" text as HTML: the key the engine computed.
    pub shown: String,
    /// Where the directive stands in the lesson.
    pub span: Span,
}

/// One lesson being checked.
pub(crate) struct LessonContext {
    checker: Checker,
    answers: Vec<AnswerKey>,
    /// Graded mode (`[nimbook] answers = "hidden"`): the salt that the lesson's questions
    /// extend with their ids; `None` shows the answers.
    answer_salt: Option<String>,
    /// The build's memory of decided results, if the cache is used.
    memo: Option<MemoView>,
}

/// What a lesson's check found, once its last event is done.
pub(crate) struct Found {
    /// Every diagnostic, in the order found.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Claims checked.
    pub(crate) claims: usize,
}

impl LessonContext {
    /// The context of the lesson in `file`, checked under `limits`, recalling and remembering
    /// decided results in `memo` when there is one.
    pub(crate) fn new(file: Arc<SourceFile>, limits: Limits, memo: Option<MemoView>) -> Self {
        let mut checker = Checker::new(file, limits);
        if let Some(view) = &memo {
            let key_limits = view.key_limits(checker.limits()).clone();
            checker.set_memo(Arc::new(view.clone()), key_limits);
        }
        LessonContext {
            checker,
            answers: Vec::new(),
            answer_salt: None,
            memo,
        }
    }

    /// Puts the lesson in graded mode with this salt (the book's title and the lesson's path),
    /// or shows its answers (`None`).
    pub(crate) fn set_answer_salt(&mut self, salt: Option<String>) {
        self.answer_salt = salt;
    }

    /// Whether the lesson is in graded mode, its pages without answers.
    pub(crate) fn answers_hidden(&self) -> bool {
        self.answer_salt.is_some()
    }

    /// The answer key so far, in document order.
    pub(crate) fn answers(&self) -> &[AnswerKey] {
        &self.answers
    }

    /// The lesson's text.
    pub(crate) fn file(&self) -> &Arc<SourceFile> {
        self.checker.file()
    }

    /// The limits of every computation the lesson asks for.
    pub(crate) fn limits(&self) -> &Limits {
        self.checker.limits()
    }

    /// Records a diagnostic found outside the claims (bad math, a count of unverified numbers).
    pub(crate) fn report(&mut self, d: Diagnostic) {
        self.checker.push_diagnostic(d);
    }

    /// Checks a `nim` block.
    pub(crate) fn check_block(&mut self, block: &MappedText) -> Vec<Checked> {
        self.checker.check_block(block)
    }

    /// Checks an inline `nim:` form.
    pub(crate) fn check_inline(&mut self, text: &MappedText) -> Checked {
        self.checker.check_inline(text)
    }

    /// The directives of a `nimbook` block, their arguments evaluated; errors are reported.
    pub(crate) fn directives(&mut self, block: &MappedText) -> Vec<Directive> {
        self.checker.directives(block)
    }

    /// What a directive may use of the lesson.
    pub(crate) fn directive_env(&mut self) -> DirectiveEnv<'_> {
        DirectiveEnv {
            checker: &mut self.checker,
            answers: &mut self.answers,
            answer_salt: self.answer_salt.as_deref(),
            memo: self.memo.as_ref(),
            reads: Cell::new(Reads::default()),
        }
    }

    /// Takes the answer key so far, in document order, leaving none.
    pub(crate) fn take_answers(&mut self) -> Vec<AnswerKey> {
        std::mem::take(&mut self.answers)
    }

    /// What the check found.
    pub(crate) fn finish(mut self) -> Found {
        Found {
            diagnostics: self.checker.take_diagnostics(),
            claims: self.checker.claims(),
        }
    }
}

/// What a directive may use of its lesson: the text (to place an error), the limits, the `let`
/// bindings in scope (to evaluate an operand, verify a derivation or decide a claim, each
/// counted as the lesson's claims) and the answer key, to which it can only add. It cannot
/// bind a name, check a block or read what was found before it; its own error it returns.
///
/// It notes which parts of the lesson the directive read beyond its arguments ([`Reads`]), so
/// that the memory of results (`memo`) knows what a remembered result depends on.
pub(crate) struct DirectiveEnv<'a> {
    checker: &'a mut Checker,
    answers: &'a mut Vec<AnswerKey>,
    answer_salt: Option<&'a str>,
    memo: Option<&'a MemoView>,
    reads: Cell<Reads>,
}

/// What a directive read of its lesson beyond its arguments and the limits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Reads {
    /// The lesson's text.
    pub(crate) file: bool,
    /// The `let` bindings in scope: it evaluated, verified or decided something.
    pub(crate) scope: bool,
    /// Its place among the lesson's questions: how many came before, and the graded-mode salt.
    pub(crate) position: bool,
    /// Where it stands in the lesson ([`DirectiveEnv::place`]).
    pub(crate) place: bool,
}

/// How much a lesson's check holds at one moment, so that what a directive added can be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Claims counted.
    pub(crate) claims: usize,
    /// Diagnostics found.
    pub(crate) diagnostics: usize,
    /// Questions in the answer key.
    pub(crate) answers: usize,
}

impl DirectiveEnv<'_> {
    fn note(&self, read: impl FnOnce(&mut Reads)) {
        let mut reads = self.reads.get();
        read(&mut reads);
        self.reads.set(reads);
    }

    /// What the directive read so far.
    pub(crate) fn reads(&self) -> Reads {
        self.reads.get()
    }

    /// The build's memory of decided results, if the cache is used.
    pub(crate) fn memo(&self) -> Option<&MemoView> {
        self.memo
    }

    /// How much the lesson's check holds now.
    pub(crate) fn tally(&self) -> Tally {
        Tally {
            claims: self.checker.claims(),
            diagnostics: self.checker.diagnostics().len(),
            answers: self.answers.len(),
        }
    }

    /// The questions added to the answer key since it held `from`.
    pub(crate) fn answers_since(&self, from: usize) -> &[AnswerKey] {
        self.answers.get(from..).unwrap_or_default()
    }

    /// Every binding in scope, one a line: what an evaluation may have read.
    pub(crate) fn scope_text(&self) -> String {
        self.checker.scope_text()
    }

    /// The graded-mode salt, read without counting as the directive's read.
    pub(crate) fn salt(&self) -> Option<&str> {
        self.answer_salt
    }

    /// Puts back what a remembered run of the directive added to the lesson: the claims it
    /// checked and its questions.
    pub(crate) fn restore(&mut self, claims: usize, answers: Vec<AnswerKey>) {
        self.checker.add_claims(claims);
        self.answers.extend(answers);
    }

    /// The lesson's text.
    pub(crate) fn file(&self) -> &Arc<SourceFile> {
        self.note(|r| r.file = true);
        self.checker.file()
    }

    /// Where directive `d` stands in the lesson (its first byte), for ids that must be unique
    /// in the page. What a directive makes of its spans must come from here, never from
    /// `d.span` itself, so that its result is remembered for this place only (the spans of a
    /// directive are not part of its key, so that an edit above it does not make it run again).
    pub(crate) fn place(&self, d: &Directive) -> usize {
        self.note(|r| r.place = true);
        d.span.start
    }

    /// The limits of every computation the directive asks for.
    pub(crate) fn limits(&self) -> &Limits {
        self.checker.limits()
    }

    /// The value of an expression in the lesson's scope; nothing is reported.
    pub(crate) fn evaluate(&self, e: &Expr) -> Result<Value, ClaimError> {
        self.note(|r| r.scope = true);
        self.checker.evaluate(e)
    }

    /// Verifies a worked derivation step by step (see [`Checker::verify_steps`]).
    pub(crate) fn verify_steps(&mut self, steps: &[String], at: &Span) -> Vec<Option<Expr>> {
        self.note(|r| r.scope = true);
        self.checker.verify_steps(steps, at)
    }

    /// Decides a claim written as text (see [`Checker::decide`]).
    pub(crate) fn decide(&mut self, text: &MappedText) -> Option<(bool, Spanned)> {
        self.note(|r| r.scope = true);
        self.checker.decide(text)
    }

    /// How many questions the answer key holds so far.
    pub(crate) fn answers_so_far(&self) -> usize {
        self.note(|r| r.position = true);
        self.answers.len()
    }

    /// In graded mode, the lesson's salt (see [`LessonContext::set_answer_salt`]); `None` when
    /// the page shows its answers.
    pub(crate) fn answer_salt(&self) -> Option<&str> {
        self.note(|r| r.position = true);
        self.answer_salt
    }

    /// Adds a question and its computed answer to the lesson's answer key.
    pub(crate) fn add_answer(&mut self, key: AnswerKey) {
        self.note(|r| r.position = true);
        self.answers.push(key);
    }
}
