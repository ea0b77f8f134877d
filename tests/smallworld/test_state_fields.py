"""The Small World state declared once (``base.FIELDS``, ``serial.DOCUMENT``): the generated clone copies what
play changes and shares nothing mutable; the derived schema refuses what the hand-written checks used to."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import pytest

from conquest.analysis.runner import sample_chance
from conquest.core.errors import StateFormatError
from conquest.core.fields import SHARE
from conquest.core.game import CHANCE
from conquest.core.jsondoc import merge_patch
from conquest.rulesets.smallworld import RULESET
from conquest.rulesets.smallworld.base import COMMON, FIELDS, StateBase
from conquest.rulesets.smallworld.data import __file__ as DATA_FILE
from conquest.rulesets.smallworld.owned import MARKERS, OWNED
from conquest.rulesets.smallworld.state import SmallWorldState
from tests.smallworld.helpers import make

HERE = Path(DATA_FILE).parent


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
    # what an entry's own fields must hold (its ``check_fields``): a Hole-in-the-Ground only in the first 2
    # regions conquered ("holes_used"), 2 Heroes in the box, the Diplomat's peace between seats of the game
    ({"races": {"halflings": {"seat": 0, "power": "alchemist"}},
      "regions": {"r1": {"race": "halflings", "tokens": 1, "hole": 1}}}, "holes_used"),
    ({"races": {"ratmen": {"seat": 0, "power": "heroic"}},
      "regions": {r: {"race": "ratmen", "tokens": 1, "hero": 1} for r in ("r1", "r3", "r4")}}, "regions/hero"),
    ({"peace": {"diplomat": 3, "opponent": 0}}, "peace/diplomat"),
])
def test_the_declared_document_refuses_naming_the_field(patch, field):
    doc = make().to_json()
    doc.pop("to_move")
    with pytest.raises(StateFormatError) as e:
        RULESET.state_from_json(merge_patch(doc, patch))
    assert e.value.field.startswith(field), e.value


# ---- the fields the races and powers own (issue 29: "each race and power owns its fields and its actions (no
# race fields in the base state)") ----------------------------------------------------------------------------
def _names(module: str) -> set[str]:
    """The attributes a module reads or writes on a state (``st.x``, ``s.x``, ``self.x``)."""
    tree = ast.parse((HERE / f"{module}.py").read_text())
    return {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in ("st", "s", "self")}


def test_the_entries_own_their_fields_and_the_slots_are_the_common_ones_plus_theirs():
    owners = {name: owner for name, (owner, _) in OWNED.items()}
    assert owners == {"lair": "trolls", "hole": "halflings", "holes_used": "halflings", "amazon_debt": "amazons",
                      "converted": "sorcerers", "berserk_die": "berserk", "camp": "bivouacking",
                      "camps_loose": "bivouacking", "peace_by": "diplomat", "peace_to": "diplomat",
                      "dragon": "dragon-master", "dragon_used": "dragon-master", "fort": "fortified",
                      "fort_placed": "fortified", "hero": "heroic"}
    assert not set(COMMON) & set(OWNED)
    assert FIELDS.policies == {**COMMON, **{n: own.policy for n, (_, own) in OWNED.items()}}
    # the composed state annotates exactly the owned fields for the type checker; the base state none of them
    assert set(inspect.get_annotations(SmallWorldState)) == set(OWNED)
    assert not set(inspect.get_annotations(StateBase)) & set(OWNED)


def test_the_base_state_and_the_common_steps_name_no_owned_field():
    owned = set(OWNED)
    for module in ("base", "combo", "decline", "scoring", "dispatch", "state", "coherence"):
        named = _names(module) & owned
        if module == "state":  # its annotations only (checked against the declarations above)
            named -= set(inspect.get_annotations(SmallWorldState))
        assert not named, (module, named)
    # what is left for a later step of issue 29 (the Berserk die and the Dragon in the conquest's actions, the
    # Encampments the defenders place again, the Amazons' give-back): exactly these, no new ones
    assert _names("conquest") & owned == {"berserk_die", "dragon_used"}
    assert _names("turn") & owned == {"berserk_die", "camps_loose"}
    assert _names("redeployment") & owned == {"amazon_debt"}


def test_a_new_game_starts_the_owned_fields_from_their_declarations():
    s = RULESET.new_game(3, {}, 2)
    for name, (_, own) in OWNED.items():
        assert getattr(s, name) == ([0] * s.board.n if own.region else own.start), name


def test_an_abandoned_region_loses_every_owned_marker_and_the_markers_do_what_their_entries_say():
    s = make()
    r = next(i for i in range(s.board.n) if not s.board.water[i])
    x = s.region_race[r] if s.region_race[r] >= 0 else 0
    base_cost = s.conquest_cost(x, r)
    for name in MARKERS:
        own = OWNED[name][1]
        t = s.clone()
        getattr(t, name)[r] = 1
        # "+1 additional Race token for each Encampment, Fortress, Mountain, or Troll's Lair marker" (003)
        assert t.conquest_cost(x, r) == base_cost + own.defends, name
        assert t.immune(r) == own.immune, name
        t._clear_region(r)
        assert getattr(t, name)[r] == 0 and t.region_race[r] == -1 and t.tokens[r] == 0, name
    assert {n for n in MARKERS if OWNED[n][1].defends} == {"lair", "fort", "camp"}
    assert {n for n in MARKERS if OWNED[n][1].immune} == {"hole", "hero", "dragon"}


def test_a_field_owned_twice_is_refused(monkeypatch):
    from conquest.rulesets.smallworld import owned, races
    monkeypatch.setattr(races.Ghouls, "fields", {"lair": races.marker()}, raising=False)
    with pytest.raises(ValueError, match="'lair' declared by ghouls and trolls"):
        owned._gather()
