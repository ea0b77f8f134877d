"""The battle in progress and the card window outside battles are typed records (state.Battle, state.Reaction)
whose attribute names are the state JSON's keys, and a state's clone copies them: a change to the copy's battle
leaves the original as it was."""

from __future__ import annotations

import dataclasses
import random

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.state import Battle, Reaction

RS = get_ruleset("nerath")


def _in_battle(seed: int):
    rng = random.Random(seed)
    st = RS.new_game(4, {}, seed=seed)
    for _ in range(5000):
        if st.battle is not None and st.battle.queue:
            return st
        if st.to_move is None:
            break
        a = sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions())
        st = st.apply(a)
    raise AssertionError("no battle with hits to assign in the seeded game")


def test_record_names_are_the_json_names():
    st = _in_battle(3)
    doc = st.to_json()
    assert {f.name for f in dataclasses.fields(Battle)} == set(doc["battle"]) - {"rolling"}  # rolling: derived
    assert {f.name for f in dataclasses.fields(Reaction)} == {"kind", "realms", "space", "mover"}


def test_clone_copies_the_battle():
    st = _in_battle(3)
    before = st.to_json()
    c = st.clone()
    b = c.battle
    assert b is not None and b is not st.battle
    b.queue[0][1] += 5
    b.defenders.append(0)
    b.wounded_dragons[0] += 1
    b.window.append(1)
    b.offered.append(2)
    b.guardian_tiles.append("wraith")
    b.step = "press"
    assert st.to_json() == before


def test_done_during_a_sea_landing_is_described_as_landing_no_more() -> None:
    """The button of ``done`` while the attacker lands pieces from its Warships says what it does ("Land no more
    pieces from the Warships"), read from the state's typed battle record as from a view's battle object."""
    import random

    from conquest.core.game import CHANCE
    from conquest.core.registry import get_ruleset

    rs = get_ruleset("nerath")
    found = 0
    for g in range(40):
        rng = random.Random(g)
        s = rs.new_game(2, None, g)
        for _ in range(3000):
            if s.to_move is None:
                break
            legal = s.legal_actions()
            if s.battle is not None and s.battle.step == "landing" and ("done",) in legal:
                assert rs.describe_action(s, ("done",)) == "Land no more pieces from the Warships"
                found += 1
                break
            if s.to_move == CHANCE:
                outcomes = s.chance_outcomes()
                a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                a = rng.choice(legal)
            s = s.apply(a)
        if found:
            break
    assert found, "no seeded game reached a sea landing"
    start = rs.new_game(2, None, 0)
    while start.to_move == CHANCE:
        start = start.apply(start.chance_outcomes()[0][0])
    if ("done",) in start.legal_actions():
        assert rs.describe_action(start, ("done",)).startswith("End the ")
