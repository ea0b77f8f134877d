"""The commands of the ``conquest`` command line for game designers: ``new`` (a skeleton package of a new
game, ``conquest.scaffold``) and ``doctor`` (every check of the project for one game, ``conquest.doctor``)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from conquest.cli_common import fail, out
from conquest.core.errors import ConquestError


def new(ruleset: str = typer.Argument(..., metavar="RULESET_ID", help="the new game's id (lower case, e.g. "
                                                                        "islands)"),
        into: Path | None = typer.Option(None, "--into", help="write a plugin package into this folder (with "
                                            "a pyproject.toml declaring its conquest.rulesets entry point) "
                                            "instead of conquest/rulesets/"),
        title: str | None = typer.Option(None, "--title", help="the game's title (default: from the id)")) -> None:
    """Write a working skeleton of a new game: a tiny complete game to grow into yours."""
    from conquest.scaffold import new_package
    try:
        written = new_package(ruleset, into, title)
    except ConquestError as e:
        fail(str(e))
    package = written[0].parent
    inside = [p for p in written if package in p.parents]
    out.print(f"wrote the package {package} ({len(inside)} files)", markup=False)
    for extra in written:
        if extra not in inside:
            out.print(f"wrote {extra}" if extra.name == "pyproject.toml" else f"added a row for {ruleset} to {extra}",
                      markup=False)
    out.print(f"next: conquest doctor {ruleset}" + (f"  (with {into} on PYTHONPATH, or pip install -e {into})"
                                                     if into is not None else ""), markup=False)


def doctor(ruleset: str = typer.Argument(..., metavar="RULESET_ID", help="ruleset id")) -> None:
    """Run every check of the project for one game; say what fails and which section of the docs to read."""
    from conquest.doctor import Check, run

    def line(c: Check) -> None:
        mark = {True: "[green]pass[/green]", False: "[red]FAIL[/red]", None: "[yellow]skip[/yellow]"}[c.ok]
        out.print(f"{mark}  {escape(c.name)}: {escape(c.detail)}")
        if c.ok is False:
            out.print(f"      read: {escape(c.doc)}")

    checks = run(ruleset, line)
    failed = [c for c in checks if c.ok is False]
    out.print(f"{len(checks) - len(failed)} of {len(checks)} checks pass" if not failed
              else f"{len(failed)} of {len(checks)} checks fail", markup=False)
    if failed:
        raise typer.Exit(1)
