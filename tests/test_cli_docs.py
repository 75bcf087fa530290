"""The screens in docs/cli.md are real runs. Each block there that follows a comment
``<!-- screen: ARGS; input: A|B|C*20; tail: N -->`` is what ``regalia ARGS`` prints (its
last N lines, when given) with the lines A, B and 20 times C on stdin. Regenerate them after a change with
``python -m tests.test_cli_docs``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.cli_helpers import run

PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
SCREEN = re.compile(
    r"<!-- screen: (?P<args>[^;]*?)(?:; input: (?P<input>[^;]*?))?(?:; tail: (?P<tail>\d+))? -->\n"
    r"```text\n(?P<shown>.*?)```",
    re.S,
)


def screen(args: str, input: str | None, tail: str | None) -> str:
    """What the command prints, as the page shows it."""
    lines = None
    if input is not None:
        parts = [
            part.rpartition("*") if re.fullmatch(r".*\*\d+", part) else (part, "", "1") for part in input.split("|")
        ]
        lines = "".join(f"{line}\n" * int(count) for line, _, count in parts)
    out = run(*shlex.split(args), input=lines).stdout
    shown = [line.rstrip() for line in out.splitlines()]
    return "\n".join(shown[-int(tail) :] if tail else shown) + "\n"


def test_the_screens_of_the_page_are_real_runs() -> None:
    found = list(SCREEN.finditer(PAGE.read_text(encoding="utf-8")))
    assert found, "docs/cli.md shows no screen"
    for m in found:
        assert m["shown"] == screen(m["args"], m["input"], m["tail"]), f"regenerate: {m['args']}"


def regenerate() -> None:
    """Rewrites every screen of the page from a fresh run."""
    text = PAGE.read_text(encoding="utf-8")

    def fresh(m: re.Match[str]) -> str:
        head = m.group(0)[: m.start("shown") - m.start()]
        return head + screen(m["args"], m["input"], m["tail"]) + "```"

    PAGE.write_text(SCREEN.sub(fresh, text), encoding="utf-8")


if __name__ == "__main__":
    regenerate()
