//! Diagnostics
