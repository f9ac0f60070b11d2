//! Impartial games and the Sprague–Grundy solver (filled in by issue 5).
