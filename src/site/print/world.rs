//! The book as Typst's `World`: the one seam between the typesetter and everything outside it.
//!
//! Typst asks its world for the main source, for files (the preamble, the drawings, the
//! book's images), for fonts and for today's date. Here everything is in memory before
//! typesetting starts: the sources were written from the checked documents, the images were
//! read through the book's confined reader and checked, the fonts are the ones Typst ships,
//! compiled into the binary. So typesetting reads no file, uses no network and no clock
//! (`today` is `None`: the book carries no date unless `SOURCE_DATE_EPOCH` gives one), and the
//! same book gives the same bytes.

use std::collections::HashMap;
use std::sync::LazyLock;

use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// The fonts Typst ships, read once per process: Libertinus Serif, New Computer Modern and its
/// math font, DejaVu Sans Mono.
static FONTS: LazyLock<(LazyHash<FontBook>, Vec<Font>)> = LazyLock::new(|| {
    let fonts: Vec<Font> = typst_assets::fonts()
        .flat_map(|data| Font::iter(Bytes::new(data)))
        .collect();
    (LazyHash::new(FontBook::from_fonts(&fonts)), fonts)
});

/// Typst's standard library, built once per process.
static LIBRARY: LazyLock<LazyHash<Library>> = LazyLock::new(|| LazyHash::new(Library::default()));

/// The id of a file at `path` (absolute, `/`-separated) of the book's virtual project.
pub(crate) fn file_id(path: &str) -> Option<FileId> {
    let vpath = VirtualPath::new(path).ok()?;
    Some(RootedPath::new(VirtualRoot::Project, vpath).intern())
}

/// A printed book's world: its main source, the other sources and files it names, the fonts.
pub(crate) struct BookWorld {
    main: Source,
    sources: HashMap<FileId, Source>,
    files: HashMap<FileId, Bytes>,
}

/// The path of the main source.
pub(crate) const MAIN: &str = "/main.typ";
/// The path of the preamble.
pub(crate) const PREAMBLE: &str = "/preamble.typ";

impl BookWorld {
    /// The world of a book whose main source is `main`, with the preamble and `files` (path,
    /// bytes) beside it. A path that is not a valid virtual path is left out (the writer makes
    /// every path it names, so none is).
    pub(crate) fn new(main: String, files: Vec<(String, Vec<u8>)>) -> Option<Self> {
        let main_id = file_id(MAIN)?;
        let preamble_id = file_id(PREAMBLE)?;
        let mut sources = HashMap::new();
        sources.insert(
            preamble_id,
            Source::new(preamble_id, include_str!("preamble.typ").to_string()),
        );
        let files = files
            .into_iter()
            .filter_map(|(path, bytes)| Some((file_id(&path)?, Bytes::new(bytes))))
            .collect();
        Some(BookWorld {
            main: Source::new(main_id, main),
            sources,
            files,
        })
    }

    /// The main source.
    pub(crate) fn main_source(&self) -> &Source {
        &self.main
    }
}

impl World for BookWorld {
    fn library(&self) -> &LazyHash<Library> {
        &LIBRARY
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &FONTS.0
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            return Ok(self.main.clone());
        }
        self.sources.get(&id).cloned().ok_or_else(|| {
            FileError::NotFound(std::path::Path::new(id.vpath().get_with_slash()).into())
        })
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if let Ok(source) = self.source(id) {
            return Ok(Bytes::from_string(source.text().to_string()));
        }
        self.files.get(&id).cloned().ok_or_else(|| {
            FileError::NotFound(std::path::Path::new(id.vpath().get_with_slash()).into())
        })
    }

    fn font(&self, index: usize) -> Option<Font> {
        FONTS.1.get(index).cloned()
    }

    /// No clock: a printed book carries no date but the one `SOURCE_DATE_EPOCH` gives its
    /// metadata.
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}

/// Why `bytes` are not an image Typst can draw, if they are not.
pub(crate) fn check_image(bytes: &[u8]) -> Result<&'static str, String> {
    use typst::visualize::{ImageFormat, RasterImage, SvgImage, VectorFormat};
    let data = Bytes::new(bytes.to_vec());
    match ImageFormat::detect(bytes) {
        Some(ImageFormat::Raster(format)) => RasterImage::plain(data, format)
            .map(|_| "raster")
            .map_err(|e| e.to_string()),
        Some(ImageFormat::Vector(VectorFormat::Svg)) => SvgImage::new(data)
            .map(|_| "svg")
            .map_err(|e| format!("{e:?}")),
        Some(ImageFormat::Vector(_)) | None => {
            Err("it is not an image nimbook can print (PNG, JPEG, GIF, WebP or SVG)".into())
        }
    }
}
