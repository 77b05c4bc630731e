//! `robots lint`: every diagnostic with line, column, stable code, severity, message and
//! suggestion; exit 1 on errors (or warnings with --deny-warnings). Codes the site owner
//! accepts on purpose (`--allow`) are neither shown nor counted, only tallied.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use robots::{Code, Diagnostic, Severity};
use robots_present::DiagnosticJson;

use crate::input::{self, ParsingArgs};
use crate::snippet::Source;
use crate::style::{counted, printable, ColorChoice, Style};

/// Find mistakes in a robots.txt before crawlers do.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Examples:
  robots lint --robots examples/robots.txt
  robots lint --robots robots.txt --deny-warnings --format json
  robots lint --robots robots.txt --deny-warnings --allow indexing-rule,prefixed-directive

With --format json, each diagnostic gives one line with \"file\", \"line\", \"column\"
(1-based, in bytes), \"code\", \"severity\" (error, warning or info), \"message\" and
\"suggestion\" (null when there is none), in that order. Findings allowed by --allow are
left out; text output counts them in its summary line.

`robots lint --help` lists every code, with its severity and meaning, under --allow.

Exit status: 1 when there is an error (or a warning, with --deny-warnings) that
--allow does not accept, else 0; 2 on a usage error (an unknown code too) or an
unreadable file.")]
pub struct Args {
    /// The robots.txt file to check (`-` for standard input).
    #[arg(long = "robots", value_name = "FILE")]
    pub robots: PathBuf,

    #[command(flatten)]
    pub parsing: ParsingArgs,

    /// Output format: diagnostics like a compiler's, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = crate::cmd::check::Format::Text)]
    pub format: crate::cmd::check::Format,

    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,

    /// Accept findings with this code: they are not shown and do not count toward the
    /// exit status; the summary line says how many there were. Repeat the option or
    /// separate codes with commas. Any code may be allowed, errors too: the site owner
    /// decides what the file means (an error allowed still means crawlers ignore or
    /// misread that line). Codes are matched ignoring case.
    #[arg(
        long,
        value_name = "CODE",
        value_delimiter = ',',
        ignore_case = true,
        value_parser = code_parser()
    )]
    pub allow: Vec<Code>,

    /// When to colour text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let options = args.parsing.options()?;
    let file = input::read_file(&args.robots, options)?;
    let robots = file.parse(options);
    let bytes = file.bytes;
    let (allowed, diagnostics): (Vec<Diagnostic>, Vec<Diagnostic>) = robots
        .lint(&bytes)
        .into_iter()
        .partition(|d| args.allow.contains(&d.code));
    let name = args.robots.display().to_string();
    // Written, not printed: a reader that stops early (`| head`) is an error to report,
    // not a panic.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        crate::cmd::check::Format::Json => {
            for d in &diagnostics {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string(&DiagnosticJson::in_file(&name, d))?
                )?;
            }
        }
        crate::cmd::check::Format::Text => {
            let style = args.color.style();
            let source = Source::new(&name, &bytes);
            for d in &diagnostics {
                writeln!(out, "{}", as_text(d, &source, style))?;
            }
            writeln!(out, "{}", summary(&name, &diagnostics, allowed.len()))?;
        }
    }
    out.flush()?;
    let count = |s| diagnostics.iter().filter(|d| d.severity() == s).count();
    let failed = count(Severity::Error) > 0 || (args.deny_warnings && count(Severity::Warning) > 0);
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn as_text(d: &Diagnostic, source: &Source<'_>, style: Style) -> String {
    let head = match d.severity() {
        Severity::Error => style.red(&format!("error[{}]", d.code.as_str())),
        Severity::Warning => style.yellow(&format!("warning[{}]", d.code.as_str())),
        Severity::Info => style.dim(&format!("info[{}]", d.code.as_str())),
    };
    let mut out = format!("{head}: {}\n", printable(&d.message));
    let name = printable(source.name);
    out += &source
        .render(d.line, Some(d.span.clone()), 0, style)
        .replacen(
            &format!("{name}:{}", d.line),
            &format!("{name}:{}:{}", d.line, d.column),
            1,
        );
    if let Some(help) = &d.suggestion {
        out += &format!("  = help: {}\n", printable(help));
    }
    out
}

/// The last line of text output: the findings shown, by severity, and how many
/// `--allow` hid (only when some were), so that none is lost without a word.
fn summary(name: &str, diagnostics: &[Diagnostic], allowed: usize) -> String {
    let count = |s| diagnostics.iter().filter(|d| d.severity() == s).count() as u64;
    let mut line = format!(
        "{}: {}, {}, {} info",
        printable(name),
        counted(count(Severity::Error), "error"),
        counted(count(Severity::Warning), "warning"),
        count(Severity::Info)
    );
    if allowed > 0 {
        line += &format!(" ({allowed} allowed by --allow)");
    }
    line
}

/// `--allow`'s values: the engine's code names, each with its severity and meaning, which
/// `--help` lists. clap then refuses an unknown code as a usage error (exit 2), listing
/// the codes and naming the closest one to a typo.
fn code_parser() -> impl TypedValueParser<Value = Code> {
    let names = Code::ALL.iter().map(|&code| {
        PossibleValue::new(code.as_str()).help(format!(
            "{}: {}",
            code.severity(),
            code.description()
        ))
    });
    PossibleValuesParser::new(names).map(|name| {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str().eq_ignore_ascii_case(&name))
            .expect("clap passes on only the names it was given, ignoring case")
    })
}
