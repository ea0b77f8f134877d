"""The generic reinforcement-learning encoding, built from the view: what ``Ruleset.rl_encoding`` returns for a
game that has no encoding of its own, so that a new game has PettingZoo, Gymnasium and OpenSpiel games at once.

At construction it plays a few seeded random games (``SAMPLE_GAMES`` of at most ``SAMPLE_STEPS`` actions; game
``g`` is ``new_game(players, options, seed=g)`` played with ``random.Random(g)``) and reads every seat's view at
every decision and at the end. From what they show it learns:

- **the observation's layout.** Every place of the view (a path of object keys and list positions; the header
  fields ``format``, ``ruleset``, ``rules_version`` and ``options`` are left out: they are the same all game)
  gets the numbers of what was seen there: 1 when it is null or missing (when the samples saw it so), the number
  divided by the largest size seen there, 1/0 for a boolean, a one-hot of the strings seen there (the
  ``MAX_STRINGS`` most frequent) and one more place for any other string; a list gets its length (divided by the
  longest seen) and its first ``min(longest seen, MAX_LIST)`` items, each laid out as the items seen; an object
  gets its keys seen (sorted), each laid out on its own. The observation starts with the seat's one-hot. A list
  longer than any the samples showed is cut, a key they never showed is left out, a string they never showed at
  a place counts as "another string": the layout never changes size.
- **the action vocabulary**: every string of every legal action of the sample games (sorted), plus ``SPARE``
  places for strings they missed (``conquest/rl/codec.py``: a new string takes one the first time it is legal,
  so the mask always covers every legal action until ``SPARE`` new strings have been met; then the environment
  raises an error saying so). Numbers need no vocabulary, negative ones included (``signed``).

Everything is sorted or seeded, so two processes learn the same layout and a trained policy keeps loading, as
long as the game's code and its views stay the same. The sample costs a few seconds once per (game, players,
options) and process (``for_ruleset`` keeps the layouts learned). This module imports nothing from the rest of
the package but ``core.kinds`` and ``core.errors`` (``core.game`` imports it)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from conquest.core.encoding import Encoding
from conquest.core.errors import ConquestError
from conquest.core.kinds import CHANCE

if TYPE_CHECKING:
    from conquest.core.game import Ruleset, State

SAMPLE_GAMES = 3
SAMPLE_STEPS = 400
"""The sample: games, and engine actions (decisions and chance outcomes) at most in each."""
MAX_STRINGS = 64
"""Strings one-hot at one place of the view (the most frequent; the others count as "another string")."""
MAX_LIST = 64
"""Items of a list written at most."""
MAX_KEYS = 1024
"""Keys of an object written at most (the most frequent)."""
MAX_SIZE = 200_000
"""The largest observation the generic encoding makes; a game whose views need more must write an encoding."""
SPARE = 512
"""Spare tokens for action strings the sample games did not show."""
HEADER = frozenset({"format", "ruleset", "rules_version", "options"})


class _Seen:
    """What the sample views held at one place: counts of each kind, the largest number, the strings, the keys of
    objects and the items of lists."""

    __slots__ = ("count", "null", "number", "biggest", "flag", "strings", "objects", "keys", "lists", "items",
                 "longest")

    def __init__(self) -> None:
        self.count = 0
        self.null = False
        self.number = False
        self.biggest = 0.0
        self.flag = False
        self.strings: dict[str, int] = {}
        self.objects = 0
        self.keys: dict[str, _Seen] = {}
        self.lists = False
        self.items: _Seen | None = None
        self.longest = 0

    def see(self, value: Any) -> None:
        self.count += 1
        t = type(value)
        if value is None:
            self.null = True
        elif t is bool:
            self.flag = True
        elif t is int or t is float:
            self.number = True
            if abs(value) > self.biggest:
                self.biggest = abs(value)
        elif t is str:
            self.strings[value] = self.strings.get(value, 0) + 1
        elif t is dict:
            self.objects += 1
            keys = self.keys
            for k, v in value.items():
                child = keys.get(k)
                if child is None:
                    child = keys[k] = _Seen()
                child.see(v)
        elif t is list or t is tuple:
            self.lists = True
            if len(value) > self.longest:
                self.longest = len(value)
            if value:
                if self.items is None:
                    self.items = _Seen()
                for v in value:
                    self.items.see(v)


class _Place:
    """Where the numbers of one place of the view are written (-1: not written)."""

    __slots__ = ("null_at", "number_at", "scale", "flag_at", "strings", "other_at", "keys", "length_at", "longest",
                 "items")

    def __init__(self) -> None:
        self.null_at = self.number_at = self.flag_at = self.other_at = self.length_at = -1
        self.scale = 1.0
        self.strings: dict[str, int] = {}
        self.keys: list[tuple[str, _Place]] = []
        self.longest = 1
        self.items: list[_Place] = []


def _top(counts: dict[str, int], limit: int) -> list[str]:
    """The ``limit`` most frequent (ties by name), sorted."""
    return sorted(sorted(counts, key=lambda s: (-counts[s], s))[:limit])


class _Layout:
    """Places laid out one after the other from ``size``."""

    def __init__(self, start: int) -> None:
        self.size = start

    def take(self, n: int = 1) -> int:
        at = self.size
        self.size += n
        if self.size > MAX_SIZE:
            raise ConquestError(f"the views of this game need more than {MAX_SIZE} numbers for the generic "
                                f"encoding: write an encoding for it (Ruleset.rl_encoding, docs/rl.md)")
        return at

    def place(self, seen: _Seen, parent_count: int) -> _Place:
        p = _Place()
        if seen.null or seen.count < parent_count:
            p.null_at = self.take()
        if seen.number:
            p.number_at = self.take()
            p.scale = max(1.0, float(seen.biggest))
        if seen.flag:
            p.flag_at = self.take()
        if seen.strings:
            p.strings = {s: self.take() for s in _top(seen.strings, MAX_STRINGS)}
            p.other_at = self.take()
        if seen.objects:
            keys = _top({k: v.count for k, v in seen.keys.items()}, MAX_KEYS)
            p.keys = [(k, self.place(seen.keys[k], seen.objects)) for k in keys]
        if seen.lists:
            p.length_at = self.take()
            p.longest = max(1, seen.longest)
            if seen.items is not None:
                p.items = [self.place(seen.items, seen.items.count) for _ in range(min(seen.longest, MAX_LIST))]
        return p


def _write(p: _Place, value: Any, out: list[float]) -> None:
    if value is None:
        if p.null_at >= 0:
            out[p.null_at] = 1.0
        return
    t = type(value)
    if t is bool:
        if p.flag_at >= 0:
            out[p.flag_at] = 1.0 if value else 0.0
    elif t is int or t is float:
        if p.number_at >= 0:
            out[p.number_at] = value / p.scale
    elif t is str:
        if p.other_at >= 0:
            out[p.strings.get(value, p.other_at)] = 1.0
    elif t is dict:
        for k, child in p.keys:
            _write(child, value.get(k), out)
    elif t is list or t is tuple:
        if p.length_at >= 0:
            out[p.length_at] = len(value) / p.longest
            for child, v in zip(p.items, value):
                _write(child, v, out)


def _pick(outcomes: Sequence[tuple[Any, float]], rng: random.Random) -> Any:
    r = rng.random() * sum(p for _, p in outcomes)
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]


def sample(rs: Ruleset, players: int, options: dict[str, Any], games: int = SAMPLE_GAMES,
           steps: int = SAMPLE_STEPS) -> tuple[_Seen, list[str]]:
    """What the seeded sample games show: the views of every seat (header left out) and the strings of the legal
    actions."""
    seen = _Seen()
    strings: set[str] = set()
    for g in range(games):
        rng = random.Random(g)
        st: State = rs._new_game(players, options, g)
        for _ in range(steps):
            tm = st.to_move
            if tm is None:
                break
            if tm == CHANCE:
                st = st.apply_unchecked(_pick(st.chance_outcomes(), rng))
                continue
            for s in range(players):
                seen.see(_body(st.view(s)))
            legal = st.legal_actions()
            for a in legal:
                strings.update(x for x in a if type(x) is str)
            st = st.apply_unchecked(legal[rng.randrange(len(legal))])
        for s in range(players):
            seen.see(_body(st.view(s)))
    return seen, sorted(strings)


def _body(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in HEADER}


class ViewEncoding(Encoding):
    """The generic encoding of ``ruleset``'s views (see the module's docstring)."""

    small = 64
    spare = SPARE
    signed = True

    def __init__(self, ruleset: Ruleset, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.ruleset = ruleset.id
        seen, self._strings = sample(ruleset, players, options)
        layout = _Layout(players)  # the seat's one-hot first
        self._root = layout.place(seen, seen.count)
        self.size = layout.size

    _LEARNED: dict[tuple[str, str, int, str], ViewEncoding] = {}

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset, players: int, options: dict[str, Any]) -> ViewEncoding:
        """The encoding of ``ruleset`` for ``players`` and ``options``, learned once per process."""
        key = (ruleset.id, ruleset.rules_version, players, json.dumps(options, sort_keys=True, default=str))
        enc = cls._LEARNED.get(key)
        if enc is None:
            enc = cls._LEARNED[key] = cls(ruleset, players, options)
        return enc

    def strings(self) -> list[str]:
        return list(self._strings)

    def features(self, view: dict[str, Any], seat: int) -> list[float]:
        out = [0.0] * self.size
        out[seat] = 1.0
        _write(self._root, _body(view), out)
        return out
