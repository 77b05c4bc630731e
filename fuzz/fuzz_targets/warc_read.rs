//! Fuzz target `warc_read`: arbitrary bytes are read as a WARC file (plain, or gzipped
//! one member per record, detected per record), as the archive's ingest reads it, and
//! what is read must hold up:
//! - reading gives records, then the end or an error naming a WARC problem, never a
//!   panic;
//! - each record's location lies inside the input, after the previous one's, and ends
//!   where the reader stopped; the block has exactly the Content-Length it declared;
//! - the bytes at a location, read alone, give that record again (the archive serves
//!   records by offset, so a wrong location replays the wrong bytes);
//! - a record written back by the archive's `Writer` reads back with the same fields
//!   (values flattened as the writer flattens them) and the same block.

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use robots_archive::warc::{Fields, Location, Reader, Writer};
use robots_archive::Error;

/// One record as read: where it is, its fields, its block.
type RecordRead = (Location, Fields, Vec<u8>);

fuzz_target!(|data: &[u8]| {
    let mut reader = Reader::new(data, Path::new("fuzz.warc"), 0);
    let mut end_of_last = 0;
    loop {
        let record = match reader.next(|_, block| read_block(block)) {
            Ok(Some(record)) => record,
            Ok(None) => {
                assert_eq!(reader.position(), data.len() as u64, "ended early");
                break;
            }
            // Bytes in memory never fail to be read, so every error is a WARC problem,
            // placed at or after the last record read. Nothing after it is read.
            Err(Error::Warc { offset, .. }) => {
                assert!(offset >= end_of_last && offset <= data.len() as u64);
                break;
            }
            Err(e) => panic!("not a WARC problem: {e}"),
        };
        let Location { offset, length } = record.location;
        assert!(offset >= end_of_last, "{offset} before {end_of_last}");
        assert_eq!(offset + length, reader.position());
        assert!(offset + length <= data.len() as u64);
        end_of_last = offset + length;
        let declared = record
            .fields
            .get("Content-Length")
            .and_then(|v| v.parse().ok());
        assert_eq!(declared, Some(record.value.len() as u64));

        let at = &data[offset as usize..end_of_last as usize];
        let alone = read_all(at).expect("a record's bytes read alone");
        assert_eq!(alone.len(), 1, "one record at {offset}");
        assert_eq!(alone[0].0, Location { offset: 0, length });
        assert_eq!(alone[0].1, record.fields);
        assert_eq!(alone[0].2, record.value);

        written_back(&record.fields, &record.value);
    }
});

/// Writes a record with the archive's writer and reads it back.
fn written_back(fields: &Fields, block: &[u8]) {
    // The writer adds its own Content-Length and flattens line ends inside values (read
    // values neither start nor end with white space).
    let mut kept = Fields::new();
    for (name, value) in fields.iter() {
        if !name.eq_ignore_ascii_case("Content-Length") {
            kept.push(name, value.replace(['\r', '\n'], " "));
        }
    }
    let mut writer = Writer::new(Vec::new());
    let location = writer
        .write_record(&kept, block)
        .expect("writing to memory");
    let bytes = writer.finish().expect("writing to memory");
    let back = read_all(&bytes).expect("a written record reads back");
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].0, location);
    let without_length: Vec<_> = back[0]
        .1
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("Content-Length"))
        .collect();
    assert_eq!(without_length, kept.iter().collect::<Vec<_>>());
    assert_eq!(back[0].2, block);
}

fn read_all(bytes: &[u8]) -> Result<Vec<RecordRead>, Error> {
    let mut reader = Reader::new(bytes, Path::new("alone.warc"), 0);
    let mut records = Vec::new();
    while let Some(r) = reader.next(|_, block| read_block(block))? {
        records.push((r.location, r.fields, r.value));
    }
    Ok(records)
}

fn read_block(block: &mut dyn std::io::BufRead) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    block.read_to_end(&mut bytes)?;
    Ok(bytes)
}
