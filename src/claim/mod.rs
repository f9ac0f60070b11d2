//! Claims
