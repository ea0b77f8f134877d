"""Whole games: every option set ends and keeps the contract; greedy beats random."""

from __future__ import annotations

import json
import random

import pytest

from conquest.analysis.runner import play_game, sample_chance
from conquest.core.errors import IllegalAction
from conquest.core.game import CHANCE
from conquest.rulesets.narby import RULESET

OPTION_SETS = [
    {},
    {"dragons": "select", "places": "select", "city": "beside", "adjacency": "4", "populate_repeat": "all"},
    {"turnabout": "target", "undead_steal": "never", "high_place_roll": "reroll", "win": 75, "baba_yaga": "dragon"},
    {"cards": False, "win": 100, "max_rounds": 15},
]


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_random_games_with_every_option_end_and_round_trip(k):
    """"Game plays until a player exceeds 50, 75, or 100 coins" (or the round limit): random games end, and
    every 5th state survives JSON, notation and a refused action unchanged."""
    opts = OPTION_SETS[k]
    for seed, players in ((k, 2 + 2 * k), (k + 10, 10 - k)):
        rng = random.Random(seed)
        st = RULESET.new_game(players, opts, seed)
        steps = 0
        while st.to_move is not None:
            legal = st.legal_actions()
            if steps % 5 == 0:
                doc = st.to_json()
                again = RULESET.state_from_json(json.loads(json.dumps(doc)))
                assert again.to_json() == doc
                assert list(again.legal_actions()) == list(legal)  # a saved game lists them as the original
                for a in legal:
                    assert RULESET.parse_action(RULESET.format_action(a)) == a
                if st.to_move != CHANCE:
                    with pytest.raises(IllegalAction):
                        st.apply("move 20,20")  # never legal: a 2x2 dragon cannot stand with its corner there
                    assert st.to_json() == doc
            a = sample_chance(st, rng) if st.to_move == CHANCE else legal[rng.randrange(len(legal))]
            st = st.apply_unchecked(a)
            steps += 1
            assert steps < 50_000
        assert st.phase == "over"
        limit = st.options["max_rounds"]
        assert max(st.coins) > st.options["win"] or st.round == limit


def test_a_saved_game_keeps_the_order_the_places_of_power_came_on_the_board():
    """The ``power`` actions are listed in the order the places came on the board, so the JSON keeps that order
    (it once sorted them by table order, and a loaded game listed its actions in another order)."""
    from conquest.rulesets.narby.base import PIDX
    for seed in range(40):
        rng = random.Random(seed)
        st = RULESET.new_game(4, {}, seed)
        while st.to_move is not None and st.round < 6:
            places = list(st.places)  # in the order they came on the board
            if places != sorted(places, key=PIDX.__getitem__) and any(a[0] == "power" for a in st.legal_actions()):
                again = RULESET.state_from_json(json.loads(json.dumps(st.to_json())))
                assert list(again.to_json()["places"]) == places
                assert list(again.legal_actions()) == list(st.legal_actions())
                return
            legal = st.legal_actions()
            st = st.apply_unchecked(sample_chance(st, rng) if st.to_move == CHANCE
                                    else legal[rng.randrange(len(legal))])
    pytest.fail("no game brought places of power on the board out of table order")


def test_greedy_beats_random():
    """The greedy evaluation (coins, claims, expected tribute) must clearly beat random play: two greedy seats
    against two random ones win at least two games in three (an even share would be one in two)."""
    wins = [0.0] * 4
    for seed in range(12):
        _, end = play_game(RULESET, ["random", "greedy", "random", "greedy"], players=4, seed=seed)
        for i, r in enumerate(end.result()):
            wins[i] += r
    assert wins[1] + wins[3] >= 8
