"""R35: the flow of the game does not tell who holds which card. From two positions that differ only in one
seat's secret card, the same action leaves the same views for every other seat (who moves next, the node, the
reaction queue, the log of public facts), at every step of random games.

Rules document 001: "Each dragon gets one bonus card" (a secret hand); the Pro-creator after "the dice rolled
for settlement placement", Governor, Sheriff and Mayor at tribute, the reaction cards against a declared action,
Vigor's "+1 action" at the end of a turn."""

from __future__ import annotations

import random
from typing import Any

from conquest.core.chance import sample_chance
from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE
from conquest.rulesets.narby import RULESET
from conquest.rulesets.narby.tables import TABLES as T
from tests.narby.helpers import legal_texts, play, position


def _twin(state: Any, seat: int, rng: random.Random) -> Any:
    """The same position with ``seat``'s card swapped for one not dealt (None if there is none)."""
    doc = state.to_json()
    used = {c for c in doc["hands"] if c is not None} | set(doc["played"])
    free = [c for c in T.card_ids if c not in used]
    if doc["hands"][seat] is None or not free:
        return None
    doc["hands"][seat] = rng.choice(free)
    try:
        return RULESET.state_from_json(doc)
    except StateFormatError:
        return None


def _reveals(seed: int, steps: int, players: int) -> tuple[int, int]:
    rng = random.Random(seed)
    state = RULESET.new_game(players, {}, seed)
    compared = reveals = 0
    for _ in range(steps):
        if state.to_move is None:
            break
        legal = list(state.legal_actions())
        action = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(legal)
        if state.node != "draw":
            for seat in range(players):
                if seat == state.to_move:
                    continue  # the seat deciding knows its own card; the others' hands are what is compared
                twin = _twin(state, seat, rng)
                if twin is None or action not in twin.legal_actions():
                    continue
                a, b = state.apply(action), twin.apply(action)
                compared += 1
                if any(a.view(o) != b.view(o) for o in range(players) if o != seat) or a.view(None) != b.view(None):
                    reveals += 1
        state = state.apply(action)
    return compared, reveals


def test_the_flow_does_not_depend_on_a_hidden_hand() -> None:
    compared = reveals = 0
    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 5)):
        c, r = _reveals(seed, 250, players)
        compared += c
        reveals += r
    assert compared > 500
    assert reveals == 0


def test_every_seat_holding_a_card_is_asked_after_the_settlement_dice() -> None:
    """"Pro-creator: +/- 2 on one of the dice": the question goes to every seat holding a card, in seat order; a
    seat holding another card can only pass."""
    st = position({"phase": "populate", "node": "settle_x", "seat": None, "hands": ["vigor", "procreator"]})
    st = play(st, "roll 5", "roll 6")
    assert st.node == "procreator" and st.to_move == 0
    assert legal_texts(st) == ["pass"]
    st = play(st, "pass")
    assert st.node == "procreator" and st.to_move == 1
    assert "play procreator x+2" in legal_texts(st)


def test_a_tributing_seat_holding_any_card_is_asked() -> None:
    """Governor "+2 on tribute dice", Sheriff, Mayor: asked of the tributing seat whenever it holds a card."""
    st = position({"node": "act", "hands": ["vigor", "governor"], "claims": {"5,6": 0, "15,16": 1},
                   "turn": 1, "seat": 1, "actions_left": 0})
    st = play(st, "end")
    assert st.node == "tribute_card" and st.to_move == 0
    assert legal_texts(st) == ["pass"]
    st = play(st, "pass", "roll 10")
    while st.node == "token":
        st = play(st, "token 1")
    assert st.node == "tribute_card" and st.to_move == 1
    assert legal_texts(st) == ["pass", "play governor"]


def test_a_dragon_holding_a_card_ends_its_turn_itself() -> None:
    """With no action left, a dragon holding a card (Vigor: "+1 action") decides to end; one without ends at
    once."""
    st = position({"hands": ["horror", None], "actions_left": 1})
    after = play(st, "move 6,5")
    assert after.node == "act" and after.to_move == 0 and legal_texts(after)[0] == "end"
    st = position({"hands": [None, None], "actions_left": 1})
    assert play(st, "move 6,5").to_move == 1
