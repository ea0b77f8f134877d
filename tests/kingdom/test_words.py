"""What a player reads in the web app: every choice says what it costs and what it does, in the game's words
(territory names, bonus kinds), never an id such as "fernmarch" or "fernmarch.1"."""

from __future__ import annotations

import re

from conquest.web.board import board_for
from tests.kingdom.helpers import KINGDOM, play, state_with
from tests.kingdom.test_rules import CONQUEST_RED

IDS = re.compile(r"\b[a-z]+\.\d\b|\b(fernmarch|redhold|southbay|bluehold)\b")


def _said(state) -> list[str]:
    return [KINGDOM.describe_action(state, a) for a in state.legal_actions()]


def test_a_move_says_its_soldier_token_cost_before_the_choice():
    """"Spend 1 Soldier token per army you wish to move from your starting territories\" — the cost is on the
    move itself and in the question, before any army is chosen."""
    s = state_with({**CONQUEST_RED, "soldiers": [3, 0]})
    moves = [t for t in _said(s) if t.startswith("move armies into")]
    assert moves and all("1 Soldier token per army" in t for t in moves)
    board = board_for(KINGDOM, s, s.view(0), 0)
    assert board is not None and "3 Soldier tokens" in board["question"] and "every army you move" in board["question"]
    s = play(s, "move southbay")
    froms = [t for t in _said(s) if t.startswith("bring")]
    assert froms and all(re.search(r"\(\d+ Soldier tokens?\)$", t) for t in froms), froms
    for t in _said(s):
        assert not IDS.search(t), t


def test_the_bonus_location_choice_is_explained():
    """"If you remove an army from a bonus location ... you immediately lose the bonus effect" — the vacate
    choice names the bonus and says it is lost; the question says why the game asks."""
    s = play(state_with({**CONQUEST_RED, "soldiers": [3, 0]}), "move southbay", "from fernmarch 1", "go")
    assert s.phase == "vacate"
    said = _said(s)
    assert said and all(t.startswith("take the army off the ") and "you lose its bonus" in t for t in said), said
    assert not any(IDS.search(t) for t in said)
    board = board_for(KINGDOM, s, s.view(0), 0)
    assert board is not None and "choose which bonus you give up" in board["question"]
    assert not any(IDS.search(n) for n in board["notes"])
