"""A game's odds calculator: a form of inputs that is not a position (a battle's pieces, its cards) answered with
exact odds. A ruleset offers one through ``Ruleset.calculator()`` (``None``: none); the generic layers serve it
without naming the game:

* the web app: ``GET /api/odds/{ruleset}`` (``describe``: what the page's form offers), ``POST
  /api/odds/{ruleset}`` (a ``body`` document, strict, answered by ``web``), the page ``/calc/{ruleset}``;
* the command line: ``conquest odds RULESET --FIELD VALUE ...`` (each of ``fields`` an option; ``cli`` answers
  with the JSON result and its text report), ``--monte-carlo N`` when ``monte_carlo`` is set.

A refusal of the inputs is an ``OddsError`` with a one-line message (a 422 in the web app, exit 2 on the command
line). The calculator's inputs name what every seat may see; it never reads a game's hidden parts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

Table = tuple[list[str], list[list[str]]]
"""A table of a text report: its column headers, then its rows (cells as text)."""
Block = str | Table
"""One block of a text report: a line of plain text or a table."""


@dataclass(frozen=True)
class Field:
    """One input of a calculator on the command line: ``--NAME VALUE`` (``kind`` "text"), or ``--NAME`` alone
    (``kind`` "flag", ``True`` when given). ``name`` is written with hyphens (``attacker-cards``); the value
    reaches ``Calculator.cli`` under the name with underscores (``attacker_cards``)."""

    name: str
    help: str
    kind: str = "text"
    default: Any = None

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")


class Calculator(ABC):
    """The interface the web app and the CLI call (the module's docstring)."""

    title: ClassVar[str]
    """What the page and the help call it ("Nerath battle calculator")."""
    body: ClassVar[type[BaseModel]]
    """The web request body: a strict pydantic model (unknown fields, wrong types refused naming the field)."""
    fields: ClassVar[tuple[Field, ...]] = ()
    """The command line's inputs, in the order ``conquest odds --help`` lists them."""
    monte_carlo: ClassVar[bool] = False
    """Whether ``cli`` also plays N games by the rules instead (``--monte-carlo N``), a cross-check."""

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """What the page's form offers (pieces, cards, limits...): the answer of ``GET /api/odds/{ruleset}``,
        with ``title`` added by the web app."""

    @abstractmethod
    def web(self, body: Any) -> dict[str, Any]:
        """The exact odds of the inputs ``body`` (an instance of ``body``) as JSON, within the web app's
        limits; ``OddsError`` refuses them."""

    @abstractmethod
    def cli(self, values: dict[str, Any], options: dict[str, Any], monte_carlo: int | None,
            seed: int) -> tuple[dict[str, Any], list[Block]]:
        """The odds of the command line's inputs: ``values`` by field key (a field not given holds its default),
        ``options`` the ruleset's options resolved (``--option``), ``monte_carlo`` N games by the rules or
        ``None`` (exact), ``seed`` for them. Returns the JSON result and its text report; ``OddsError``
        refuses the inputs."""
