"""``conquest new RULESET_ID``: a working skeleton package of a new game, written from the templates in
``conquest/templates/newgame/`` — a tiny complete game on a map of five holds (set-up, an attack with a die as an
explicit chance node, a secret objective card, a victory, scenarios, notation, a rules page) that passes every
check of the project at once (``conquest doctor RULESET_ID``). Into ``conquest/rulesets/<id>/``, or with
``into`` into a folder of its own as an installable plugin (its ``pyproject.toml`` declares the
``conquest.rulesets`` entry point)."""

from __future__ import annotations

import importlib.util
import keyword
import re
from pathlib import Path

from conquest.core.errors import ConquestError

TEMPLATES = Path(__file__).resolve().parent / "templates" / "newgame"
RULESETS_DIR = Path(__file__).resolve().parent / "rulesets"
ID = re.compile(r"[a-z][a-z0-9_]{1,29}\Z")

PYPROJECT = '''[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "conquest-{id}"
version = "0.1.0"
description = "{title}: a Conquest ruleset plugin"
requires-python = ">=3.10"
dependencies = ["conquest"]

[project.entry-points."conquest.rulesets"]
{id} = "{id}"

[tool.setuptools]
packages = ["{id}", "{id}.scenarios"]

[tool.setuptools.package-data]
"{id}" = ["*.yaml", "*.md"]
"{id}.scenarios" = ["*.yaml"]
'''


def class_name(rid: str) -> str:
    return "".join(part.capitalize() for part in rid.split("_") if part)


def check_id(rid: str, into: Path | None = None) -> Path:
    """The package folder ``rid`` would be written to; a ``ConquestError`` (one line) for an id that is not a
    lower-case name, is taken by a registered ruleset, or whose folder exists."""
    from conquest.core.registry import broken, rulesets
    if not isinstance(rid, str) or not ID.match(rid) or keyword.iskeyword(rid):
        raise ConquestError(f"'{rid}' is not a ruleset id: use 2 to 30 lower-case letters, digits and '_', "
                            f"starting with a letter (e.g. islands)")
    if rid in rulesets() or rid in broken:
        raise ConquestError(f"a ruleset '{rid}' exists already: choose another id")
    if into is None:
        target = RULESETS_DIR / rid
    else:
        if into.exists() and not into.is_dir():
            raise ConquestError(f"--into {into}: not a folder")
        target = into / rid
        if importlib.util.find_spec(rid) is not None:
            raise ConquestError(f"'{rid}' is the name of an installed Python module: a plugin package of that "
                                f"name would hide it or be hidden; choose another id")
    if target.exists():
        raise ConquestError(f"{target} exists already: choose another id or folder")
    return target


def render(text: str, rid: str, title: str) -> str:
    return (text.replace("{{id}}", rid).replace("{{Class}}", class_name(rid)).replace("{{title}}", title))


def new_package(rid: str, into: Path | None = None, title: str | None = None) -> list[Path]:
    """Write the skeleton package of ``rid``; returns the files written: the package's, then the README's new
    row of its game (in this repository), or a plugin's ``pyproject.toml`` (``into`` given, when it has none)."""
    target = check_id(rid, into)
    title = title or rid.replace("_", " ").title()
    if any(c in title for c in '"\\\n'):
        raise ConquestError("the title may not hold quotes, backslashes or line breaks")
    written: list[Path] = []
    for tmpl in sorted(TEMPLATES.rglob("*.tmpl")):
        dest = target / tmpl.relative_to(TEMPLATES).with_suffix("")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(render(tmpl.read_text(encoding="utf-8"), rid, title), encoding="utf-8")
        written.append(dest)
    if into is None:
        readme = add_readme_row(rid, title)
        if readme is not None:
            written.append(readme)
    if into is not None and not (into / "pyproject.toml").exists():
        (into / "pyproject.toml").write_text(PYPROJECT.format(id=rid, title=title), encoding="utf-8")
        written.append(into / "pyproject.toml")
    return written


def add_readme_row(rid: str, title: str) -> Path | None:
    """A game of this repository has a row in the README's table of games (tests/test_docs.py checks it
    against the registry): added after the last row. None when there is no README with such a table."""
    readme = RULESETS_DIR.parent.parent / "README.md"
    if not readme.is_file():
        return None
    lines = readme.read_text(encoding="utf-8").splitlines(keepends=True)
    rows = [k for k, line in enumerate(lines) if line.startswith("| `")]
    if not rows:
        return None
    lines.insert(rows[-1] + 1, f"| `{rid}` | {title} (made by `conquest new`) | 2–4 |\n")
    readme.write_text("".join(lines), encoding="utf-8")
    return readme
