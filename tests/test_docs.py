"""The documents agree with the code: every path they name exists, and the figures they repeat (player
counts, agents) are the registry's."""

from __future__ import annotations

import re
from pathlib import Path

from conquest.agents import AGENTS
from conquest.core.registry import origins, rulesets

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PATH = re.compile(r"(?<![\w/.~-])((?:conquest|tests|benchmarks|docs|scripts)/[\w./<>*{}-]*)")
PENDING: set[str] = set()
"""Paths promised by a document before the code lands."""


def named_paths(text: str) -> list[str]:
    return [m.group(1).rstrip(".,:;)") for m in PATH.finditer(text)]


def exists(path: str) -> bool:
    """A path, or a pattern with ``<placeholder>``, ``{a,b}`` or ``*`` parts, that names at least one file."""
    pattern = re.sub(r"<[^>]*>|\{[^}]*\}", "*", path)
    if "*" in pattern:
        return any(ROOT.glob(pattern.rstrip("/")))
    return (ROOT / pattern).exists()


def test_the_path_finder_finds_paths_and_placeholders():
    found = named_paths("see `conquest/core/game.py`, docs/rules/<ruleset>.md and tests/scenarios/kingdom/*.yaml.")
    assert found == ["conquest/core/game.py", "docs/rules/<ruleset>.md", "tests/scenarios/kingdom/*.yaml"]
    assert exists("docs/rules/<ruleset>.md") and not exists("conquest/nowhere.py")


def test_every_path_the_docs_name_exists():
    missing = []
    for doc in DOCS:
        for path in named_paths(doc.read_text()):
            if path not in PENDING and not exists(path):
                missing.append(f"{doc.relative_to(ROOT)}: {path}")
    assert not missing, missing


def test_pending_paths_are_still_named_and_still_pending():
    """Once a pending path lands, it leaves the list (the test above then checks it like any other)."""
    text = "\n".join(d.read_text() for d in DOCS)
    for path in PENDING:
        assert path in text
        assert not exists(path), f"{path} exists now: remove it from PENDING"


def test_readme_player_counts_are_the_rulesets():
    readme = (ROOT / "README.md").read_text()
    rows = {line.split("`")[1]: line for line in readme.splitlines() if line.startswith("| `")}
    # the games of this repository (an installed plugin is documented by its own distribution)
    ours = {rid for rid in rulesets() if origins[rid].startswith("conquest.rulesets.")}
    missing = sorted(ours - set(rows))
    assert not missing, (f"README.md's table of games has no row for {', '.join(missing)}: add a row "
                         f"'| `ID` | title | players |' for each ruleset package under conquest/rulesets/")
    unknown = sorted(set(rows) - set(rulesets()))
    assert not unknown, f"README.md's table of games names {', '.join(unknown)}, which the registry does not know"
    for rid in sorted(ours):
        rs, row = rulesets()[rid], rows[rid]
        players = row.rstrip(" |").rsplit("|", 1)[1].strip()
        want = str(rs.min_players) if rs.min_players == rs.max_players else f"{rs.min_players}–{rs.max_players}"
        assert players == want, (rid, players, want)


def test_docs_list_every_agent():
    import conquest.agents  # noqa: F401  (registers the agents)
    readme = (ROOT / "README.md").read_text()
    arch = (ROOT / "docs" / "architecture.md").read_text()
    layout = [line for line in (readme + arch).splitlines() if line.startswith("conquest/agents/")]
    assert len(layout) == 2
    for name in AGENTS:
        assert f"`{name}`" in readme, name
        for line in layout:
            assert name in line, (name, line)
