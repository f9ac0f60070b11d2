//! The render stage: pages from templates, the table of contents, the search index, the print
//! page, 404 and redirects.

pub(crate) mod pages;
pub(crate) mod search;
pub(crate) mod templates;
