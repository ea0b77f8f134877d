"""Option heroes_need_lasts (docs/rules/nerath.md §3.22): "If the dungeon entrance contains multiple Dungeon
Guardians, the disadvantage affects all the Heroes' attack rolls during that battle—even against Dungeon Guardians
that would otherwise be easy to hit." Exact hand computations under both choices, the Event-card trump under
both, and a game's odds mid-battle after the Guardian with the ability fell (the battle's guardian_tiles)."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.montecarlo import NerathBattle, battle_document

LASTS = ("while_standing", "whole_battle")


def dungeon(a: list[str], tiles: list[str], **kw: Any) -> NerathBattle:
    return NerathBattle(a, tiles, dungeon=True, **kw)


@pytest.mark.parametrize("lasts", LASTS)
def test_heroes_need_lasts_by_hand(lasts):
    # a Fighter (d10) against the Wraith (d10, Heroes Need 8), then the Skeleton Guard (d8), listed order. While
    # both stand: the Fighter hits 3/10, the Guardians miss it 1/2 * 5/8. The Wraith gone, the Fighter hits the
    # Skeleton Guard 1/2 (while_standing) or still 3/10 (whole_battle); the Skeleton misses it 5/8.
    r = dungeon(["fighter"], ["wraith", "skeleton-guard"], order="listed", heroes_need_lasts=lasts).solve(exact=True)
    miss_both = F(1, 2) * F(5, 8)
    reach = F(3, 10) * miss_both / (1 - F(7, 10) * miss_both)
    p = F(1, 2) if lasts == "while_standing" else F(3, 10)
    assert r.extra["exact_fractions"]["attacker_wins"] == str(reach * p * F(5, 8) / (1 - (1 - p) * F(5, 8)))


@pytest.mark.parametrize("lasts", LASTS)
def test_heroes_need_lasts_keeps_the_event_card_trump(lasts):
    # "An Event card that grants a Hero a bonus to attack rolls trumps this special ability." - under both
    # choices: with Dark Rites (+1, an Event card) the Fighter hits on 5+ all battle long. A Treasure's bonus
    # (the Sword of Kas, +1 Fighters) does not trump: 8+ while the number lasts, 5+ once it is gone.
    card = dungeon(["fighter"], ["wraith", "skeleton-guard"], order="listed", attacker_cards=["k-dark-rites"],
                   heroes_need_lasts=lasts)
    assert {card.a.dice(0, False, hn) for hn in card.d.variant} == {((10, 5, 1),)}
    sword = dungeon(["fighter"], ["wraith", "skeleton-guard"], order="listed", attacker_cards=["sword-of-kas"],
                    heroes_need_lasts=lasts)
    after = sword.a.dice(0, False, sword.d.variant[1])     # the Wraith destroyed by the first hit
    assert after == (((10, 5, 1),) if lasts == "while_standing" else ((10, 8, 1),))


def test_a_games_option_rules_its_odds_mid_battle():
    """``press`` after the Wraith fell in round 1: under whole_battle the game's odds keep its 8+."""
    rs = get_ruleset("nerath")
    got = {}
    for lasts in LASTS:
        doc, x, _a, _d = battle_document(dungeon(["fighter", "fighter"], ["goblin-pack", "wraith"],
                                                 heroes_need_lasts=lasts))
        assert doc["options"]["heroes_need_lasts"] == lasts
        s = rs.state_from_json(doc).apply(f"battle {x}").apply("hits 1").apply("hits 0").apply("hit guardian 2 10")
        assert [g["tile"] for g in s.to_json()["guardians"][x]] == ["goblin-pack"]
        r = rs.action_odds(s, "press")
        ref = dungeon(["fighter", "fighter"], ["goblin-pack"], fought=["goblin-pack", "wraith"],
                      heroes_need_lasts=lasts).solve()
        assert abs(r["attacker_wins"] - ref.attacker_wins) < 1e-12
        got[lasts] = r["attacker_wins"]
    assert got["whole_battle"] < got["while_standing"]


def test_one_heroes_need_rule_for_the_game_and_the_calculator():
    # "Heroes Need 7+/8+ to Hit ... this affects all the Heroes' attack rolls against all the Guardians": the
    # highest number among the tiles that count (dungeons.heroes_need, called by the rules' hero_need and by the
    # calculator's Guardians side)
    from conquest.rulesets.nerath.dungeons import heroes_need
    from conquest.rulesets.nerath.odds_sides import _Guardians
    assert heroes_need(["wraith", "gelatinous-cube", "goblin-pack"], [], "while_standing") == 8
    assert heroes_need(["goblin-pack"], ["wraith", "goblin-pack"], "while_standing") == 0
    assert heroes_need(["goblin-pack"], ["wraith", "goblin-pack"], "whole_battle") == 8
    assert heroes_need(["gelatinous-cube"], ["gelatinous-cube"], "whole_battle") == 7
    # the calculator, while standing: the Goblin Pack's two dice fall first (cheapest), then the Wraith
    assert _Guardians([("wraith", [10]), ("goblin-pack", [6, 6])], "cheapest").variant == [8, 8, 8, 0]
