//! The atlas as a static web site that opens from `file://` with no server or network.
//!
//! [`Site::files`] lists its files, each written by [`SiteFile::write_to`]:
//! `index.html` (every class in a table that `atlas.js` sorts by any column and filters),
//! `atlas.js`, `site.css`, and `class/CODE.html` for each class, named by its standard
//! form, with each member's row anchored `code-CODE`. Every value is written into the
//! pages themselves (no data is fetched) and every link is relative; the bytes depend on
//! the entries and classes alone.

mod class_page;
mod facts;
mod html;
mod index;
mod notation;
mod svg;

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::classes::Class;
use super::entry::{AtlasSettings, Entry};
use super::AtlasError;
use class_page::{class_page, Neighbours};
use html::Entries;

/// The script of the index: sorting and filtering the table.
const SCRIPT: &str = include_str!("atlas.js");
/// The style sheet of every page.
const STYLE: &str = include_str!("site.css");

/// The files that every site has, whatever its classes.
pub const FIXED_FILES: [&str; 3] = ["index.html", "atlas.js", "site.css"];

/// An atlas's entries and classes, ready to be written as a site.
#[derive(Debug)]
pub struct Site<'a> {
    settings: &'a AtlasSettings,
    classes: &'a [Class],
    entries: Entries<'a>,
}

/// One file of a site.
#[derive(Clone, Copy, Debug)]
pub struct SiteFile<'s> {
    site: &'s Site<'s>,
    kind: Kind,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Index,
    Script,
    Style,
    /// The class of this index in the site's classes.
    Class(usize),
}

impl<'a> Site<'a> {
    /// A site of `classes`, whose members are the codes of `entries`.
    ///
    /// # Errors
    /// [`AtlasError::Site`] naming a member of a class that has no entry.
    pub fn new(
        settings: &'a AtlasSettings,
        entries: &'a [Entry],
        classes: &'a [Class],
    ) -> Result<Site<'a>, AtlasError> {
        let entries: BTreeMap<&str, &Entry> =
            entries.iter().map(|e| (e.code.as_str(), e)).collect();
        for class in classes {
            if let Some(code) = class.members.iter().find(|c| !entries.contains_key(c.as_str())) {
                return Err(AtlasError::Site(format!(
                    "class {} has member {code}, which has no entry",
                    class.standard_form
                )));
            }
        }
        Ok(Site { settings, classes, entries })
    }

    /// Every file, the index first, then the script, the style sheet and the classes'
    /// pages in the index's order.
    pub fn files(&self) -> Vec<SiteFile<'_>> {
        let fixed = [Kind::Index, Kind::Script, Kind::Style];
        let pages = (0..self.classes.len()).map(Kind::Class);
        fixed.into_iter().chain(pages).map(|kind| SiteFile { site: self, kind }).collect()
    }

    /// Every file with its bytes.
    pub fn render(&self) -> Vec<(String, Vec<u8>)> {
        self.files().into_iter().map(|f| (f.path(), f.bytes())).collect()
    }
}

impl SiteFile<'_> {
    /// Where the file goes, relative to the site's folder, `/` between parts.
    pub fn path(&self) -> String {
        match self.kind {
            Kind::Index => FIXED_FILES[0].to_string(),
            Kind::Script => FIXED_FILES[1].to_string(),
            Kind::Style => FIXED_FILES[2].to_string(),
            Kind::Class(i) => html::class_path(&self.site.classes[i].standard_form),
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let site = self.site;
        match self.kind {
            Kind::Index => index::index_page(site.settings, site.classes, &site.entries).into(),
            Kind::Script => SCRIPT.into(),
            Kind::Style => STYLE.into(),
            Kind::Class(i) => {
                let around = Neighbours {
                    before: i.checked_sub(1).map(|b| &site.classes[b]),
                    after: site.classes.get(i + 1),
                };
                class_page(site.settings, &site.classes[i], &site.entries, &around).into()
            }
        }
    }

    /// Writes the file's bytes to `out`.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&self.bytes())
    }
}
