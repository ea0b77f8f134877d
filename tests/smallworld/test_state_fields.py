"""The Small World state declared once (``base.FIELDS``, ``serial.DOCUMENT``): the generated clone copies what
play changes and shares nothing mutable; the derived schema refuses what the hand-written checks used to."""

from __future__ import annotations

import random

import pytest

from conquest.analysis.runner import sample_chance
from conquest.core.errors import StateFormatError
from conquest.core.fields import SHARE
from conquest.core.game import CHANCE
from conquest.core.jsondoc import merge_patch
from conquest.rulesets.smallworld import RULESET
from conquest.rulesets.smallworld.base import FIELDS
from tests.smallworld.helpers import make


def test_every_slot_is_declared_and_the_clone_shares_nothing_mutable():
    rng = random.Random(5)
    s = RULESET.new_game(4, {}, 5)
    for _ in range(120):
        acts = s.legal_actions()
        s = s.apply_unchecked(sample_chance(s, rng) if s.to_move == CHANCE else acts[rng.randrange(len(acts))])
    c = s.clone()
    assert c.to_json() == s.to_json()
    for name, policy in FIELDS.policies.items():
        assert getattr(c, name) == getattr(s, name), name
        if policy != SHARE:
            assert getattr(c, name) is not getattr(s, name), name
    c.tokens[0] += 1
    c.stats["conquests"] += 1
    assert c.tokens[0] != s.tokens[0] and c.stats["conquests"] != s.stats["conquests"]


@pytest.mark.parametrize(("patch", "field"), [
    ({"races": {"ratmen": {"seat": 0, "power": "hilly"}}}, "races/ratmen/power"),
    ({"column": [{"race": "elves", "power": "nowhere"}]}, "column/0/power"),
    ({"turn_state": {"race": "goblins"}}, "turn_state/race"),
    ({"turn_state": {"defender": 2}}, "turn_state/defender"),      # two players: seats 0 and 1
    ({"turn_state": {"attacked": [0, 2]}}, "turn_state/attacked/1"),
    ({"regions": {"r1": {"lair": 2}}}, "regions/r1/lair"),
    ({"stats": {"conquests": -1}}, "stats/conquests"),
    ({"stats": {"naps": 1}}, "stats/naps"),
    ({"seats": [{"coins": 5, "coins_at_least": 6}, {"coins": 5}]}, "seats/0/coins_at_least"),
])
def test_the_declared_document_refuses_naming_the_field(patch, field):
    doc = make().to_json()
    doc.pop("to_move")
    with pytest.raises(StateFormatError) as e:
        RULESET.state_from_json(merge_patch(doc, patch))
    assert e.value.field.startswith(field), e.value
