//! The lesson stage: one lesson from markdown to a checked HTML fragment, its diagnostics and its
//! number account. It knows nothing of templates, servers, handouts or output folders, and
//! writes no file.

pub(crate) mod claims;
pub(crate) mod codelines;
pub(crate) mod coverage;
pub(crate) mod directives;
pub(crate) mod footnotes;
pub(crate) mod highlight;
pub(crate) mod markdown;
pub(crate) mod mathml;
pub(crate) mod texmath;
