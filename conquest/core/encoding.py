"""The reinforcement-learning encoding of a game: what every ruleset's encoding provides (``Encoding``), and the
small helpers that write a view as numbers (``Features``).

A ruleset's own encoding lives in its package (``conquest/rulesets/<id>/encoding.py``) and is returned by its
``Ruleset.rl_encoding`` hook; a ruleset without one gets the generic encoding built from its view
(``conquest/core/view_encoding.py``). The environments (``conquest/rl``) and the OpenSpiel games
(``conquest/openspiel``) take whichever the hook returns and never name a game. This module imports nothing:
the rulesets' encodings import it without leaving ``core``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

_ZEROS = [0.0] * 256


class Features:
    """A growing list of floats: what the helpers append, in a fixed order, is the observation."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[float] = []

    def add(self, x: Any, scale: float = 1.0) -> None:
        self.values.append(0.0 if x is None else x / scale)

    def many(self, xs: Iterable[Any], scale: float = 1.0) -> None:
        self.values.extend([0.0 if x is None else x / scale for x in xs])

    def flag(self, cond: Any) -> None:
        self.values.append(1.0 if cond else 0.0)

    def one_hot(self, value: Any, choices: Sequence[Any]) -> None:
        """One slot per choice (all zero when ``value`` is none of them)."""
        v = self.values
        start = len(v)
        v.extend(_ZEROS[:len(choices)] if len(choices) <= len(_ZEROS) else [0.0] * len(choices))
        if value is not None and value is not False and value in choices:
            v[start + choices.index(value)] = 1.0


class Encoding:
    """A ruleset's encoding for one player count and options.

    ``strings()``: every string an action of the ruleset can hold (verbs and arguments), the action vocabulary
    with the numbers (``small``: how many ints are single tokens). ``features(view, seat)``: the observation of
    ``seat``, from its ``view`` only, always ``size`` numbers."""

    ruleset = ""
    small = 64
    spare = 0
    """Tokens kept free for strings that ``strings()`` did not list, each given one the first time an action holds
    it (the generic encoding's: it learns its vocabulary from sample games). 0: every string is listed, and an
    action holding another one is an error."""
    signed = False
    """A negative whole number in an action is written as a sign token then its size (the generic encoding's:
    it cannot know that a game's numbers are never negative). False: no sign token in the vocabulary."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.players = players
        self.options = options

    def strings(self) -> list[str]:
        raise NotImplementedError

    def features(self, view: dict[str, Any], seat: int) -> Any:
        """A list of floats or a 1-d numpy array."""
        raise NotImplementedError

    def observe(self, state: Any, seat: int) -> Any:
        """The observation's numbers for ``seat``: ``features(state.view(seat), seat)``.

        An encoding may override this with a faster reading of the same numbers straight from the parts of the
        state that ``view(seat)`` shows (no JSON document is built). Such an override must give exactly the
        view's numbers: tests/rl/test_envs.py plays random games and holds ``observe(state, seat)`` equal to
        ``features(state.view(seat), seat)`` at every decision, for every seat, and checks that changing a part
        hidden from a seat leaves its observation as it was."""
        return self.features(state.view(seat), seat)

    def others(self, seat: int) -> list[int]:
        """The seats in the order the observation lists them: ``seat`` first, then the next ones."""
        return [(seat + k) % self.players for k in range(self.players)]
