"""Exact odds in the web app: which legal actions get odds beside them (``Ruleset.has_odds``), the seat's odds
of one of them (cached per game, revision, step and action), and a game's calculator (``Ruleset.calculator``,
conquest/core/calculator.py) served at ``/api/odds/{ruleset}``.

**No hidden information.** A seat is given odds only for the dice-driven actions its ruleset's ``has_odds``
names, and for those ``Ruleset.action_odds`` reads only what every seat sees (docs/web.md, "Odds"; each
ruleset's ``odds.py`` says what it reads). So the odds of an action are the same in every state that agrees with
the seat's view (tests/web/test_odds_api.py checks it on two states that differ only in a hidden hand).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from conquest.core.calculator import Calculator
from conquest.core.errors import ConquestError
from conquest.core.game import Action, Ruleset, State
from conquest.core.odds import OddsError

ODDS_SECONDS = 5.0      # the longest a request waits for odds (the computation runs in the odds lane)
CACHE_SIZE = 512
MAX_PENDING = 16        # odds computing or waiting at a time (beyond: 503 at once)


def seat_odds(rs: Ruleset, state: State, seat: int, action: Action) -> dict[str, Any]:
    """``rs.action_odds`` of ``action``, a legal dice-driven action of ``seat``, the seat to move; a WebError
    (422, one line) for anything else. Reads only what ``seat`` sees (the module's docstring)."""
    from conquest.web.games import WebError
    if state.to_move != seat:
        raise WebError(409, "odds are given to the seat to move, for its own actions")
    if not state.is_legal(action):
        try:
            state.check(action)
        except ConquestError as e:
            raise WebError(422, str(e).splitlines()[0]) from None
        raise WebError(422, f"'{rs.format_action(action)}' is not a legal action here")
    if not rs.has_odds(state, action):
        raise WebError(422, f"'{rs.format_action(action)}' leads into no dice this page weighs (odds are given "
                            f"beside the actions whose dice the page weighs)")
    try:
        return rs.action_odds(state, action)
    except OddsError as e:
        raise WebError(422, str(e).splitlines()[0]) from None


class OddsCache:
    """The odds already computed, by (game, revision, step, action): a seat hovering over an action twice, or
    two seats' pages asking for the same battle, compute it once."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._d: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            v = self._d.get(key)
            if v is not None:
                self._d.move_to_end(key)
                self.hits += 1
            return v

    def put(self, key: tuple[Any, ...], value: dict[str, Any]) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)


def calculator_of(rid: str) -> Calculator:
    """The calculator of the ruleset ``rid``: a WebError (404, one line) when there is no such ruleset or it
    offers none."""
    from conquest.core.errors import UnknownRuleset
    from conquest.core.registry import get_ruleset
    from conquest.web.games import WebError
    try:
        rs = get_ruleset(rid)
    except UnknownRuleset as e:
        raise WebError(404, str(e)) from None
    calc = rs.calculator()
    if calc is None:
        raise WebError(404, f"{rs.id} has no odds calculator (the odds of a game's actions are given in the game)")
    return calc


def calculators() -> list[dict[str, str]]:
    """Every ruleset that offers a calculator: ``[{ruleset, title}]`` in the registry's order."""
    from conquest.core.registry import rulesets
    out = []
    for rs in rulesets().values():
        calc = rs.calculator()
        if calc is not None:
            out.append({"ruleset": rs.id, "title": calc.title})
    return out
