//! WARC writer: each record a gzip member of its own, so that any reader can seek to a
//! record by offset, and already-gzipped members are copied byte for byte.

use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;

use super::fields::{Fields, Location};

/// Writes records, gzipped one member per record, counting offsets as it goes.
pub struct Writer<W: Write> {
    out: W,
    pos: u64,
}

impl<W: Write> Writer<W> {
    /// A writer at the start of `out`.
    pub fn new(out: W) -> Writer<W> {
        Writer { out, pos: 0 }
    }

    /// Writes a `WARC/1.1` record with `fields` (Content-Length is added) and `block`.
    pub fn write_record(&mut self, fields: &Fields, block: &[u8]) -> io::Result<Location> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(b"WARC/1.1\r\n")?;
        for (name, value) in fields.iter() {
            // A CR or LF inside a value would end the header early: values come from
            // captured data, so they are flattened rather than trusted.
            let value = value.replace(['\r', '\n'], " ");
            write!(gz, "{name}: {value}\r\n")?;
        }
        write!(gz, "Content-Length: {}\r\n\r\n", block.len())?;
        gz.write_all(block)?;
        gz.write_all(b"\r\n\r\n")?;
        let member = gz.finish()?;
        self.write_member(&member)
    }

    /// Copies one complete gzip member that holds exactly one record.
    pub fn write_member(&mut self, member: &[u8]) -> io::Result<Location> {
        self.out.write_all(member)?;
        let location = Location {
            offset: self.pos,
            length: member.len() as u64,
        };
        self.pos += member.len() as u64;
        Ok(location)
    }

    /// Gzips and writes one complete plain record (version line to final CRLFCRLF).
    pub fn write_plain_record(&mut self, record: &[u8]) -> io::Result<Location> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(record)?;
        let member = gz.finish()?;
        self.write_member(&member)
    }

    /// Flushes and hands back the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Reader;
    use super::*;
    use std::path::Path;

    fn read_all(bytes: &[u8]) -> Vec<(Location, Fields, Vec<u8>)> {
        let mut reader = Reader::new(bytes, Path::new("test.warc.gz"), 0);
        let mut out = Vec::new();
        while let Some(r) = reader
            .next(|_, block| {
                let mut v = Vec::new();
                block.read_to_end(&mut v)?;
                Ok(v)
            })
            .unwrap()
        {
            out.push((r.location, r.fields, r.value));
        }
        out
    }

    #[test]
    fn written_records_read_back_with_their_member_offsets() {
        let mut w = Writer::new(Vec::new());
        let mut f = Fields::new();
        f.push("WARC-Type", "resource");
        let a = w.write_record(&f, b"first block").unwrap();
        let b = w.write_record(&f, b"").unwrap();
        let bytes = w.finish().unwrap();
        let records = read_all(&bytes);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].0, a);
        assert_eq!(records[1].0, b);
        assert_eq!(b.offset, a.length);
        assert_eq!(records[0].2, b"first block");
        assert_eq!(records[0].1.get("warc-type"), Some("resource"));
        assert_eq!(records[1].1.get("Content-Length"), Some("0"));
        // Each location is a whole gzip member that reads alone.
        let alone = &bytes[b.offset as usize..(b.offset + b.length) as usize];
        assert_eq!(read_all(alone).len(), 1);
    }

    #[test]
    fn values_cannot_inject_header_lines() {
        let mut w = Writer::new(Vec::new());
        let mut f = Fields::new();
        f.push("WARC-Target-URI", "http://x/\r\nWARC-Type: evil");
        w.write_record(&f, b"").unwrap();
        let records = read_all(&w.finish().unwrap());
        assert_eq!(records[0].1.get("WARC-Type"), None);
    }
}
