//! WARC (ISO 28500, versions 1.0 and 1.1): records as header fields plus a block, read
//! and written one record at a time, plain or gzipped one member per record.

mod fields;
mod reader;
mod writer;

pub(crate) use reader::open_block;
pub use reader::{Reader, Record};
pub use writer::Writer;

pub(crate) use fields::{read_line, split_field};
pub use fields::{Fields, Location};
