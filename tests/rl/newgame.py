"""A game with no encoding of its own, registered for the length of a test: the web tests' Toy (dice, a secret
card, several decisions a turn) with two more actions that a sample of games cannot foresee - ``shift -1`` (a
negative number) and ``call NAME``, whose word comes from the game's seed (the generic encoding's sample games
use seeds 0, 1, 2, so the word of any other seed is new to it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from conquest.core import registry
from conquest.core.game import Action, State
from tests.web.toy import ToyRuleset, ToyState


class TaggedState(ToyState):
    tag = "s0"

    def legal_actions(self) -> list[Action]:
        acts = super().legal_actions()
        if self.to_move is not None and self.to_move >= 0:
            acts += [("shift", -1), ("call", self.tag)]
        return acts

    def _apply(self, a: Action) -> None:
        if a[0] == "shift":
            self.points[self.turn] -= 1
        elif a[0] != "call":
            super()._apply(a)

    def _body_json(self) -> dict[str, Any]:
        return {**super()._body_json(), "tag": self.tag}

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> TaggedState:
        s = super()._from_body({k: v for k, v in data.items() if k != "tag"}, players, options)
        assert isinstance(s, TaggedState)
        s.tag = str(data["tag"])
        return s


class TaggedRuleset(ToyRuleset):
    id = "rlnewgame"
    title = "A game without an RL encoding"
    state_class = TaggedState

    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        st = TaggedState(players, options)
        st.tag = f"s{seed}"
        return st

    def parse_action(self, text: str) -> Action:
        p = text.split()
        if len(p) == 2 and p[0] == "shift":
            return ("shift", -1)
        if len(p) == 2 and p[0] == "call":
            return ("call", p[1])
        return super().parse_action(text)


NEW_GAME = TaggedRuleset()


@contextmanager
def registered() -> Iterator[TaggedRuleset]:
    """The game in the registry, as a package under conquest/rulesets would be, then out of it again."""
    found = registry.rulesets()
    found[NEW_GAME.id] = NEW_GAME
    try:
        yield NEW_GAME
    finally:
        del found[NEW_GAME.id]
