//! The sealed store: ingested WARC files copied in under their SHA-1, made read-only,
//! never modified and never served whole; records are read from it one by one.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::bufread::GzDecoder;
use sha1::{Digest as _, Sha1};

use crate::incoming::{self, Leftovers};
use crate::index::Entry;
use crate::time::Timestamp;
use crate::warc::{open_block, Fields, Reader};
use crate::Error;

/// The store's folder inside an archive directory.
pub const STORE_DIR: &str = "store";

/// A file sealed into the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// Its name in the store: `<sha1 hex>.warc` or `<sha1 hex>.warc.gz`.
    pub name: String,
    pub sha1: String,
    pub size: u64,
    /// This call copied it in: it was not in the store before. Only such a file may be
    /// taken out again ([`Store::unseal`]), by the ingest that sealed it.
    pub fresh: bool,
}

/// One record read back from the store.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The record's bytes as stored: its gzip member, or the plain record.
    pub raw: Vec<u8>,
    pub gzipped: bool,
    pub block: Vec<u8>,
}

/// The sealed store of one archive.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The store of the archive in `archive_dir` (created when missing).
    pub fn new(archive_dir: &Path) -> Result<Store, Error> {
        let dir = archive_dir.join(STORE_DIR);
        fs::create_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
        Ok(Store { dir })
    }

    /// The path of a stored file.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Copies `source` into the store, hashing it on the way (constant memory), and
    /// reports bytes copied to `progress`. A file already stored is not copied twice.
    pub fn seal(&self, source: &Path, progress: &mut dyn FnMut(u64)) -> Result<Sealed, Error> {
        let mut input = File::open(source).map_err(|e| io_error(source, e))?;
        // Named after this process, so that the next ingest can tell a copy this one
        // left (killed mid-copy) from one a running ingest is writing (see `incoming`).
        let incoming = self.dir.join(incoming::name());
        let copied = copy_hashing(&mut input, source, &incoming, progress);
        if copied.is_err() {
            // A copy that failed part way (a directory given as the file, a read error)
            // is no part of the store; the error says what went wrong.
            let _ = fs::remove_file(&incoming);
        }
        let (sha1, size, first) = copied?;
        // No bytes, no record: refused before it is placed, so that no empty file sits
        // in the store with a `files` row and no capture (WARC 1.1 §4: a file is
        // records).
        if size == 0 {
            fs::remove_file(&incoming).map_err(|e| io_error(&incoming, e))?;
            return Err(Error::Warc {
                path: source.to_owned(),
                offset: 0,
                problem: crate::error::WarcProblem::Empty,
            });
        }
        let ext = if first == [0x1f, 0x8b] {
            "warc.gz"
        } else {
            "warc"
        };
        let name = format!("{sha1}.{ext}");
        let path = self.path(&name);
        let fresh = !path.exists();
        let placed = if fresh {
            make_readonly(&incoming)
                .and_then(|()| fs::rename(&incoming, &path).map_err(|e| io_error(&path, e)))
        } else {
            Ok(())
        };
        // The temporary copy is no part of the store unless renamed into place: a copy
        // of a file stored already, or one that could not be placed, goes.
        if !(fresh && placed.is_ok()) {
            let removed = fs::remove_file(&incoming).map_err(|e| io_error(&incoming, e));
            placed?;
            removed?;
        }
        Ok(Sealed {
            name,
            sha1,
            size,
            fresh,
        })
    }

    /// Removes the incoming copies that ingests killed mid-copy left, where their writer
    /// is certainly gone (see `incoming`); what was removed.
    pub fn remove_abandoned(&self) -> Result<Leftovers, Error> {
        incoming::remove_abandoned(&self.dir)
    }

    /// The incoming copies no running ingest is writing: partial copies left behind.
    pub fn leftovers(&self) -> Result<Leftovers, Error> {
        incoming::leftovers(&self.dir)
    }

    /// Takes out a file this ingest sealed ([`Sealed::fresh`]) and then found no record
    /// of worth in (not a WARC file, or damaged before its first capture), so that a
    /// failed ingest leaves the store as it was. A file that was in the store before is
    /// never taken out: an earlier ingest may have indexed records from it.
    pub fn unseal(&self, sealed: &Sealed) -> Result<(), Error> {
        if !sealed.fresh {
            return Ok(());
        }
        let path = self.path(&sealed.name);
        // Read-only files cannot be removed on Windows; on Unix this changes nothing.
        if let Ok(meta) = fs::metadata(&path) {
            let mut perms = meta.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            let _ = fs::set_permissions(&path, perms);
        }
        fs::remove_file(&path).map_err(|e| io_error(&path, e))
    }

    /// Opens the stored file `name`; one that is gone is named as missing from the
    /// store, which only a change to the sealed store can cause.
    pub fn open(&self, name: &str) -> Result<File, Error> {
        let path = self.path(name);
        File::open(&path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => Error::StoreMissing { file: path.clone() },
            _ => io_error(&path, e),
        })
    }

    /// Reads the record an index row points at, checking it is the one indexed.
    pub fn read(&self, entry: &Entry) -> Result<Stored, Error> {
        self.reader().read(entry)
    }

    /// A reader for many records, keeping the last file open between them.
    pub fn reader(&self) -> RecordReader<'_> {
        RecordReader {
            store: self,
            open: None,
        }
    }
}

fn make_readonly(path: &Path) -> Result<(), Error> {
    let mut perms = fs::metadata(path)
        .map_err(|e| io_error(path, e))?
        .permissions();
    perms.set_readonly(true);
    fs::set_permissions(path, perms).map_err(|e| io_error(path, e))
}

/// Copies `input` (the file at `source`) to `incoming`, synced: its SHA-1 in hex, its
/// size and its first two bytes.
fn copy_hashing(
    input: &mut File,
    source: &Path,
    incoming: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<(String, u64, [u8; 2]), Error> {
    let mut out = File::create(incoming).map_err(|e| io_error(incoming, e))?;
    let mut hasher = Sha1::new();
    let mut buf = vec![0u8; 256 * 1024];
    let (mut size, mut first) = (0u64, [0u8; 2]);
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(source, e)),
        };
        if size == 0 && n >= 2 {
            first = [buf[0], buf[1]];
        }
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| io_error(incoming, e))?;
        size += n as u64;
        progress(n as u64);
    }
    out.sync_all().map_err(|e| io_error(incoming, e))?;
    let sha1 = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((sha1, size, first))
}

/// Reads records from the store, reusing the open file while records come from it
/// (a release reads thousands, mostly from few files).
pub struct RecordReader<'s> {
    store: &'s Store,
    open: Option<(String, File)>,
}

impl RecordReader<'_> {
    /// Reads the record an index row points at, checking it is the one indexed.
    pub fn read(&mut self, entry: &Entry) -> Result<Stored, Error> {
        let path = self.store.path(&entry.file);
        let file = match &mut self.open {
            Some((name, file)) if *name == entry.file => file,
            slot => {
                let file = self.store.open(&entry.file)?;
                &mut slot.insert((entry.file.clone(), file)).1
            }
        };
        file.seek(SeekFrom::Start(entry.offset))
            .map_err(|e| io_error(&path, e))?;
        let mut raw = Vec::new();
        file.take(entry.length)
            .read_to_end(&mut raw)
            .map_err(|e| io_error(&path, e))?;
        let mismatch = || Error::StoreMismatch {
            file: entry.file.clone(),
            offset: entry.offset,
        };
        if raw.len() as u64 != entry.length {
            return Err(mismatch());
        }
        let mut reader = Reader::new(BufReader::new(&raw[..]), &path, entry.offset);
        let record = reader
            .next(|_, block| {
                let mut v = Vec::new();
                block.read_to_end(&mut v)?;
                Ok(v)
            })?
            .ok_or_else(mismatch)?;
        if !is_indexed_record(entry, &record.fields) {
            return Err(mismatch());
        }
        Ok(Stored {
            gzipped: raw.starts_with(&[0x1f, 0x8b]),
            raw,
            block: record.value,
        })
    }
}

/// Whether a record read back is the one `entry` indexed: the same WARC-Record-ID, or
/// for a record indexed without one (it had none, or another capture has it), the same
/// capture time.
fn is_indexed_record(entry: &Entry, fields: &Fields) -> bool {
    match entry.warc_record_id.as_deref() {
        Some(id) => fields.get("WARC-Record-ID") == Some(id),
        None => {
            let date = fields.get("WARC-Date");
            date.and_then(|d| Timestamp::parse_rfc3339(d).ok()) == Some(entry.captured)
        }
    }
}

/// A record's block as a stream, read from the store through bounded buffers whatever
/// its size (inflating its gzip member on the way).
pub(crate) type BlockReader = io::Take<Box<dyn BufRead + Send>>;

impl Store {
    /// Opens the block of the record an index row points at, checking it is the one
    /// indexed, for reading as a stream. Only `disclosure` sends what it reads onwards.
    pub(crate) fn open_block(&self, entry: &Entry) -> Result<BlockReader, Error> {
        let path = self.path(&entry.file);
        let mut file = self.open(&entry.file)?;
        file.seek(SeekFrom::Start(entry.offset))
            .map_err(|e| io_error(&path, e))?;
        let mut member = BufReader::new(file.take(entry.length));
        let gzipped = member
            .fill_buf()
            .map_err(|e| io_error(&path, e))?
            .starts_with(&[0x1f, 0x8b]);
        let input: Box<dyn BufRead + Send> = if gzipped {
            Box::new(BufReader::new(GzDecoder::new(member)))
        } else {
            Box::new(member)
        };
        let mismatch = || Error::StoreMismatch {
            file: entry.file.clone(),
            offset: entry.offset,
        };
        let (fields, block) = open_block(input).map_err(|_| mismatch())?;
        if !is_indexed_record(entry, &fields) {
            return Err(mismatch());
        }
        Ok(block)
    }
}

pub(crate) fn io_error(path: &Path, error: io::Error) -> Error {
    Error::Io {
        path: path.to_owned(),
        error,
    }
}
