"""Shared test helpers: where the corpus and the `robots` command are, and the rule that
a test needing something absent skips with a notice locally but fails in CI."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
# As the Rust tests find it: $ROBOTS_SHARED, else ../shared beside the repository.
CORPUS = pathlib.Path(os.environ.get("ROBOTS_SHARED", ROOT.parent / "shared")) / "corpus"
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


def need(what: str, present: bool) -> None:
    """Skip, saying what is missing, unless in CI, where a missing tool is a failure."""
    if present:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing in CI; scripts/test should have made it")
    print(f"notice: skipped: {what} is absent")
    pytest.skip(f"{what} is absent")


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    # The corpus is shared data outside the repository: absent on a fresh clone, and
    # then skipped with a notice even in CI (the rule for corpus tests).
    if not (CORPUS / "cases.jsonl").is_file():
        print(f"notice: skipped: the corpus is not at {CORPUS}")
        pytest.skip(f"the corpus is not at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def robots_cli() -> pathlib.Path:
    """The `robots` command cargo built (scripts/test runs cargo test first)."""
    path = TARGET / "debug" / "robots"
    need(f"the robots command ({path}; run cargo build -p robots-cli)", path.is_file())
    return path
