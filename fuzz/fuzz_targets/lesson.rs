//! Fuzzes the markdown pass: a whole lesson with claims, inline forms, directives, math and
//! links, rendered as the site would. Nothing may panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nimbook::claim::{Limits, LessonChecker};
use nimbook::diag::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let limits = Limits {
        max_bits: 256,
        max_cases: 4096,
        max_table: 16,
        ..Limits::default()
    };
    let mut checker = LessonChecker::new(SourceFile::new("fuzz.md", text), limits);
    let page = nimbook::site::render_lesson(&mut checker, "fuzz.md", Default::default());
    std::hint::black_box(page.html.len());
});
