//! Fuzzes the claim language: lexer, parser, evaluator and checker on arbitrary text, as one
//! `nim` block and as one `calc` line. Nothing may panic, overflow the stack or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nimbook::claim::{calc, Limits, Checker, MappedText};
use nimbook::diag::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Small budgets keep every case fast, so the fuzzer explores syntax rather than arithmetic.
    let limits = Limits {
        max_bits: 256,
        max_cases: 4096,
        ..Limits::default()
    };
    let mut checker = Checker::new(SourceFile::new("fuzz.md", text), limits.clone());
    let _ = checker.check_block(&MappedText::contiguous(text, 0));
    for d in checker.diagnostics() {
        let _ = d.render(nimbook::diag::MessageFormat::Human, false);
    }
    let mut calc_checker = Checker::new(SourceFile::new("<calc>", ""), limits);
    if let Some(line) = text.lines().next() {
        let _ = calc(line, &mut calc_checker);
    }
});
