"""What a position must hold between its fields (each ruleset's ``coherence.check_coherence``, bound as
``State.check_coherence``) is what play keeps: after every action of seeded random games, with the fewest and the
most players, the check refuses nothing, and the position's JSON reads back to the same position. A state read
from a document goes through the same check (``Ruleset.state_from_json``), so a document is refused exactly
where play could never have produced it. Rulesets come from the registry: a new game is covered without a line
here."""

from __future__ import annotations

import random

import pytest

from conquest.core.chance import sample_chance
from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE, State
from conquest.core.registry import rulesets

RULESETS = sorted(rulesets())
STEPS = 1500
"""Actions per game, at most: a whole game of Kingdom, Narby and Small World; several rounds of Nerath, with its
battles at sea and on land, dungeons, card windows and every step of a turn."""


def _games() -> list[tuple[str, int, int]]:
    return [(rid, players, seed) for rid in RULESETS
            for players in sorted({rulesets()[rid].min_players, rulesets()[rid].max_players})
            for seed in (1, 2)]


@pytest.mark.parametrize(("rid", "players", "seed"), _games())
def test_play_keeps_every_position_coherent(rid: str, players: int, seed: int) -> None:
    rs = rulesets()[rid]
    rng = random.Random(seed)
    state: State = rs.new_game(players, {}, seed)
    for step in range(STEPS):
        state.check_coherence()
        if step % 25 == 0:   # the document of a position reached in play reads back to it
            assert rs.state_from_json(state.to_json()).to_json() == state.to_json()
        if state.to_move is None:
            break
        state = state.apply(sample_chance(state, rng) if state.to_move == CHANCE
                            else rng.choice(list(state.legal_actions())))
    state.check_coherence()


@pytest.mark.parametrize("rid", [r for r in RULESETS if r in ("kingdom", "narby", "smallworld", "nerath")])
def test_a_document_incoherent_between_fields_is_refused_by_the_check(rid: str) -> None:
    """The reader maps the document; the check it ends with refuses what play cannot reach. Each case breaks one
    field against another and names the field refused."""
    rs = rulesets()[rid]
    doc = rs.new_game(None, {}, 3).to_json()
    field = {"kingdom": "reserve/0", "narby": "order", "smallworld": "seat", "nerath": "winners"}[rid]
    if rid == "kingdom":
        doc["reserve"][0] -= 1             # an army lost: 11 in all
    elif rid == "narby":
        doc["order"] = [0] * len(doc["order"])   # a seat twice in the turn order
    elif rid == "smallworld":
        doc["seat"] = doc["players"]       # a seat past the last
    else:
        doc["phase"], doc["winners"] = "over", None   # a finished game without winners
    with pytest.raises(StateFormatError) as e:
        rs.state_from_json(doc)
    assert e.value.field == field
