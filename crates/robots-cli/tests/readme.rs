//! The README's examples that run on `examples/robots.txt` print exactly what the
//! README shows, so the two cannot drift apart.

mod common;

use std::path::PathBuf;

#[test]
fn readme_examples_on_the_example_file_print_what_the_readme_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut lines = readme.lines().peekable();
    let mut ran = 0;
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ robots ") else {
            continue;
        };
        // The output shown: the lines up to the next command or the end of the block.
        let mut shown = Vec::new();
        while let Some(next) = lines.next_if(|l| !l.starts_with("$ ") && !l.starts_with("```")) {
            shown.push(next);
        }
        if !command.contains("examples/robots.txt") {
            continue;
        }
        let args: Vec<&str> = command.split_whitespace().collect();
        let out = common::run_in(&root, &args, "");
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap().trim_end(),
            shown.join("\n").trim_end(),
            "README: $ robots {command}"
        );
        ran += 1;
    }
    assert_eq!(ran, 3, "the README's examples on examples/robots.txt");
}
