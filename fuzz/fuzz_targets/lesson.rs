//! Fuzzes the markdown pass: a whole lesson with claims, inline forms, directives, math and
//! links, rendered as the site would. Nothing may panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nimbook::claim::Limits;
use nimbook::site::lesson::{check_lesson, LessonSettings};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut settings = LessonSettings::default();
    settings.set_limits(Limits {
        max_bits: 256,
        max_cases: 4096,
        max_table: 16,
        ..Limits::default()
    });
    let lesson = check_lesson(text, "fuzz.md", &settings);
    std::hint::black_box(lesson.html.len());
});
