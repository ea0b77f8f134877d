"""What every command of the ``conquest`` command line shares: the consoles, one-line errors, seat lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

PLAYERS_HELP = "number of players (default: the ruleset's usual count; see `conquest rulesets`)"


def fail(message: str, code: int = 2) -> None:
    err.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def _seats(text: str) -> list[str]:
    """Comma-separated agent specs (``ismcts:time=1.0,greedy``); see ``conquest.agents.specs``."""
    from conquest.agents import split_seats
    return split_seats(text)


VARIANT_HELP = "a variant file (YAML): the game's data it changes and options it sets (docs/balance.md)"


def variant_options(ruleset: str, variant: Path | None, option: list[str]) -> dict[str, Any]:
    """The options of ``-o key=value`` pairs with the variant file ``variant`` (None: none) under them: a bad
    file is one line and exit 2 (``VariantError``, a ``ConquestError``)."""
    from conquest.core.options import parse_option_pairs
    from conquest.core.registry import get_ruleset
    from conquest.core.variants import with_variant
    opts: dict[str, Any] = dict(parse_option_pairs(option))
    return with_variant(get_ruleset(ruleset), variant, opts) if variant is not None else opts


def _board(text: str) -> Any:
    """A ruleset's text board for printing: boards written in Rich console markup (closing tags ``[/...]``)
    are rendered (colours in a terminal, plain text when piped); others are printed as they are."""
    from rich.errors import MarkupError
    from rich.text import Text
    if "[/" in text:
        try:
            return Text.from_markup(text)
        except MarkupError:
            pass
    return Text(text)
