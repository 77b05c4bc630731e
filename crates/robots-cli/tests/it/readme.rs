//! The examples of the README and the docs that run on `examples/robots.txt` print
//! exactly what they show, so the two cannot drift apart.

use crate::common;

use std::path::PathBuf;

#[test]
fn readme_examples_on_the_example_file_print_what_the_readme_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut ran = 0;
    for page in ["README.md", "docs/cli.md"] {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ robots ") else {
                continue;
            };
            // The output shown: the lines up to the next command or the end of the block.
            let mut shown = Vec::new();
            while let Some(next) = lines.next_if(|l| !l.starts_with("$ ") && !l.starts_with("```"))
            {
                shown.push(next);
            }
            if !command.contains("examples/robots.txt") {
                continue;
            }
            let args: Vec<&str> = command.split_whitespace().collect();
            let out = common::run_in(&root, &args, "");
            assert_eq!(out.status.code(), Some(0), "{page}: {command}");
            assert_eq!(
                String::from_utf8(out.stdout).unwrap().trim_end(),
                shown.join("\n").trim_end(),
                "{page}: $ robots {command}"
            );
            ran += 1;
        }
    }
    assert_eq!(
        ran, 5,
        "the examples on examples/robots.txt: 2 in the README, 3 in docs/cli.md"
    );
}
