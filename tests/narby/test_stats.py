"""The figures of a finished Narby game for simulation reports (``NarbyRuleset.game_stats``): each one checked
against the final state or against a count taken independently while the game is replayed, step by step,
from the public state JSON (claims, places and settlements, rolls, cards, tribute)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquest.analysis.runner import sample_chance
from conquest.core.game import CHANCE
from conquest.rulesets.narby import RULESET
from conquest.rulesets.narby.rules import NarbyState
from conquest.rulesets.narby.state import STAT_KEYS


def _replay(players: int, seed: int, options: dict[str, Any] | None = None) -> tuple[NarbyState, dict[str, int]]:
    """A seeded random game to its end, and the counts seen in the JSON before and after each step."""
    rng = random.Random(seed)
    st = RULESET.new_game(players, options or {}, seed)
    seen = dict.fromkeys(("claims", "claims_taken", "places_claimed", "places_destroyed", "settlements_destroyed",
                          "settlements_ruined", "attacks", "steals", "destroys", "cards_played", "tribute_coins",
                          "places_placed", "tribute rolls"), 0)
    while st.to_move is not None:
        legal = st.legal_actions()
        a = sample_chance(st, rng) if st.to_move == CHANCE else legal[rng.randrange(len(legal))]
        before = st.to_json()
        st = st.apply_unchecked(a)  # type: ignore[assignment]
        after = st.to_json()
        ev = before["event"]
        if before["node"] == "roll" and ev is not None:
            if ev["type"] == "attack" and "first" in ev:
                seen["attacks"] += 1  # the defender's die: the attack is resolved
            elif ev["type"] in ("steal", "destroy"):
                seen[ev["type"] + "s"] += 1
            elif ev["type"] == "tribute":
                seen["tribute_coins"] += after["coins"][ev["seat"]] - before["coins"][ev["seat"]]
                seen["tribute rolls"] += 1
        for key, seat in after["claims"].items():
            old = before["claims"].get(key)
            if old != seat:
                seen["claims"] += 1
                seen["claims_taken"] += old is not None
                seen["places_claimed"] += key in after["places"]
        gone = set(before["places"]) - set(after["places"])
        seen["places_destroyed"] += len(gone)
        seen["places_placed"] += len(set(after["places"]) - set(before["places"]))
        for sq, kind in before["settlements"].items():
            now = after["settlements"].get(sq)
            seen["settlements_destroyed"] += now is None
            seen["settlements_ruined"] += kind != "ruin" and now == "ruin"
        # "Possible Cards, discarded after use": a card leaves a hand for the discards
        if after["round"] == before["round"]:
            seen["cards_played"] += len(after["played"]) - len(before["played"])
    return st, seen


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 5), (3, 8)])
def test_stats_match_the_final_state_and_the_replayed_game(players: int, seed: int) -> None:
    """"Game plays until a player exceeds 50, 75, or 100 coins": how the game ended, its rounds, winner and
    margin agree with the final state; each running count agrees with what the replay saw happen."""
    st, seen = _replay(players, seed)
    stats = RULESET.game_stats(st)
    assert stats["end_reason"] == ("coins" if max(st.coins) > st.options["win"] else "round limit")
    assert stats["rounds"] == st.round > 0
    totals = [st.coins[t] + st.tok_sum[t] for t in range(players)]
    assert stats["margin"] == sorted(totals)[-1] - sorted(totals)[-2]
    won = [t for t, r in enumerate(st.result() or ()) if r > 0]
    assert stats["winner"] == (st.dragon_id(won[0]) if len(won) == 1 else "shared")
    for t in range(players):
        assert stats[f"total_{st.dragon_id(t)}"] == totals[t] == st.scores()[t]
    assert stats["chest_coins"] == st.chest_coins
    for key, n in seen.items():
        if key != "tribute rolls":
            assert stats[key] == n, key
    # each tribute roll is counted once, in the band of its modified roll
    bands = {k: v for k, v in stats.items() if k.startswith("tribute_rolls_")}
    assert len(bands) == 5 and sum(bands.values()) == seen["tribute rolls"] > 0
    assert stats["claims"] > 0 and stats["tribute_coins"] > 0 and stats["cards_played"] > 0
    assert stats["places_placed"] == len(st.places) + stats["places_destroyed"]
    assert stats["powers_used"] >= 0
    for v in stats.values():
        assert isinstance(v, str) and len(v) <= 20 or isinstance(v, int) and not isinstance(v, bool)
    assert len(stats) <= 23 + players


def test_round_limit_and_unfinished_games() -> None:
    """Option ``max_rounds``: a game cut off by the round limit says so; a game not over says ``unfinished``."""
    st, _ = _replay(2, 3, {"max_rounds": 2})
    assert st.round == 2 and max(st.coins) <= st.options["win"]
    assert RULESET.game_stats(st)["end_reason"] == "round limit"
    fresh = RULESET.game_stats(RULESET.new_game(3, {}, 0))
    assert fresh["end_reason"] == "unfinished" and fresh["winner"] == "none" and fresh["rounds"] == 0
    assert all(fresh[k] == 0 for k in STAT_KEYS)
