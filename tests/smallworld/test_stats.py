"""The figures of a finished Small World game for simulation reports (``SmallWorldRuleset.game_stats``): each
one checked against the final state or against a count taken independently while the game is replayed, step
by step, from the state JSON (regions changing hands, races going into decline) and the actions taken."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquest.analysis.runner import sample_chance
from conquest.core.game import CHANCE
from conquest.rulesets.smallworld import RULESET
from conquest.rulesets.smallworld.base import STAT_KEYS
from conquest.rulesets.smallworld.state import SmallWorldState


def _replay(players: int, seed: int, **options: Any) -> tuple[SmallWorldState, dict[str, int]]:
    """A seeded random game to its end, and the counts seen in the JSON and the actions of each step."""
    rng = random.Random(seed)
    st = RULESET.new_game(players, options, seed)
    seen = dict.fromkeys(STAT_KEYS, 0)
    while st.to_move is not None:
        legal = st.legal_actions()
        a = sample_chance(st, rng) if st.to_move == CHANCE else legal[rng.randrange(len(legal))]
        verb = RULESET.format_action(a).split()[0]
        before = st.to_json()
        st = st.apply_unchecked(a)  # type: ignore[assignment]
        after = st.to_json()
        if verb == "pick":
            seen["combos_picked"] += 1
            seen["pick_coins_paid"] += a[1]  # "slot i costs i coins, one laid on each combo above it"
        seen["reinforcement_rolls"] += verb == "die"
        seen["conversions"] += verb == "convert"
        for race, info in after["races"].items():
            seen["declines"] += info["status"] == "declined" and before["races"].get(race, {}).get("status") == "active"
        if verb == "convert":
            continue
        for rid, now in after["regions"].items():
            was = before["regions"][rid]
            if now["race"] is None or now["race"] == was["race"]:
                continue
            seen["conquests"] += 1
            if was["race"] is not None:
                seen["conquests_of_enemies"] += (before["races"][was["race"]]["seat"]
                                                 != after["races"][now["race"]]["seat"])
            else:
                seen["lost_tribes_conquered"] += was["lost_tribe"]
    return st, seen


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 4), (5, 6)])
def test_stats_match_the_final_state_and_the_replayed_game(players: int, seed: int) -> None:
    """"End: after the last turn of the turn track, the most coins wins; a tie goes to the most race tokens on
    the map": the turns, the winner's coins and margin, its race and power and the regions held agree with the
    final state; each running count agrees with what the replay saw happen."""
    st, seen = _replay(players, seed)
    stats = RULESET.game_stats(st)
    assert stats["rounds"] == st.turn == st.turns
    coins = sorted(st.coins)
    assert stats["winner_coins"] == coins[-1] and stats["margin"] == coins[-1] - coins[-2]
    won = [t for t, r in enumerate(st.result() or ()) if r > 0]
    doc = st.to_json()
    if len(won) == 1:
        mine = [(race, info["power"]) for race, info in doc["races"].items()
                if info["seat"] == won[0] and info["status"] == "active"]
        assert (stats["winner_race"], stats["winner_power"]) == (mine[0] if mine else ("none", "none"))
    else:
        assert stats["winner_race"] == stats["winner_power"] == "shared"
    held = [r["race"] for r in doc["regions"].values() if r["race"] is not None]
    assert stats["regions_held"] == len(held) > 0
    assert stats["regions_in_decline"] == sum(doc["races"][x]["status"] == "declined" for x in held)
    sources = ("coins_regions", "coins_race", "coins_power", "coins_column")
    for key, n in seen.items():
        if key not in sources:
            assert stats[key] == n, key
    # "Scoring Victory Coins": every coin at the end came from the start, a source, or the column, less what
    # the picks laid on the column
    assert sum(st.coins) == 5 * players + sum(stats[k] for k in sources) - stats["pick_coins_paid"]
    assert stats["coins_regions"] > 0
    assert stats["conquests"] > stats["conquests_of_enemies"] + stats["lost_tribes_conquered"] > 0
    assert stats["combos_picked"] >= players
    for v in stats.values():
        assert isinstance(v, str) and len(v) <= 20 or isinstance(v, int) and not isinstance(v, bool)
    assert len(stats) <= 20


def test_sorcerers_conversions_are_counted() -> None:
    """Sorcerers: "once per opponent per turn, replace a lone active enemy token in an adjacent region with one
    of theirs": a conversion has its own count, not a conquest's."""
    for seed in range(40):
        st, seen = _replay(3, seed, column="sorcerers:alchemist,amazons:commando,wizards:merchant,"
                                           "dwarves:wealthy,orcs:pillaging,trolls:swamp")
        if seen["conversions"]:
            assert RULESET.game_stats(st)["conversions"] == seen["conversions"]
            return
    pytest.fail("no random game with the Sorcerers converted a token")


def test_unfinished_game() -> None:
    fresh = RULESET.game_stats(RULESET.new_game(2, {}, 0))
    assert fresh["winner_race"] == "none" and fresh["regions_held"] == 0
    assert all(fresh[k] == 0 for k in STAT_KEYS)
