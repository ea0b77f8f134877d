"""Conquest of Nerath: dice distributions, hidden information, the contract (JSON, notation, illegal actions),
random games in every mode, greedy against random, and the scenario folder."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conquest.analysis.runner import play_game, random_playout, sample_chance
from conquest.core.errors import IllegalAction
from conquest.core.game import CHANCE
from conquest.core.jsondoc import merge_patch
from conquest.core.scenarios import run_file, scenario_files
from conquest.rulesets.nerath import RULESET
from conquest.rulesets.nerath.dice import hit_chance, hit_distribution

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "nerath"


def make(patch: dict, players: int = 4, **options: object):
    st = RULESET.new_game(players, {"board_setup": "empty", "events": "none", **options}, 0)
    doc = st.to_json()
    doc.pop("to_move")
    return RULESET.state_from_json(merge_patch(doc, patch))


def play(st, *actions: str):
    for a in actions:
        st = st.apply(a)
    return st


def test_hit_on_six_or_higher() -> None:
    """"Each piece rolls the appropriate attack die in battle. You score a hit if you roll a 6 or higher.\""""
    assert hit_chance(6, 6) == pytest.approx(1 / 6)
    assert hit_chance(8, 6) == pytest.approx(3 / 8)
    assert hit_chance(10, 6) == pytest.approx(5 / 10)
    assert hit_chance(12, 6) == pytest.approx(7 / 12)
    assert hit_chance(20, 6) == pytest.approx(15 / 20)


def test_siege_engine_two_dice_when_attacking() -> None:
    """"Powerful Attack: Roll 2 d8 when attacking and can score 2 hits if both rolls are 6+.\""""
    st = make({"pieces": {"k13": {"karkoth": {"siege": 1}}, "n01": {"nerath": {"siege": 1}}}, "movable": "all"})
    st = play(st, "move k13 n01 siege 1", "done", "battle n01")
    out = dict(st.chance_outcomes())
    assert out[("hits", 2)] == pytest.approx((3 / 8) ** 2)
    st = st.apply("hits 0")
    out = dict(st.chance_outcomes())   # defending: one die
    assert set(out) == {("hits", 0), ("hits", 1)}
    assert out[("hits", 1)] == pytest.approx(3 / 8)


def test_castle_defends_with_d20() -> None:
    """The Castle's die is missing from the document; d20 (rules README): a hit on 6-20, 15 chances in 20."""
    st = make({"pieces": {"n04": {"karkoth": {"footsoldier": 1}}}, "control": {"n04": "karkoth"},
               "movable": "all"})
    st = play(st, "move n04 n07 footsoldier 1", "done", "battle n07", "hits 0")
    assert dict(st.chance_outcomes())[("hits", 1)] == pytest.approx(0.75)


def test_storm_elemental_capsize_two_dice_at_sea() -> None:
    """"Capsize: In a sea battle, roll 2 d8, both when attacking and defending.\""""
    st = make({"pieces": {"k14": {"karkoth": {"footsoldier": 1}}, "s9": {"vailin": {"storm": 1}}},
               "ships": {"1": {"owner": "karkoth", "space": "s5", "moves": 0, "flags": [], "cargo": []}},
               "next_ship": 2, "movable": "all"})
    st = play(st, "sail 1 s9", "done", "battle s9", "hits 0")
    out = dict(st.chance_outcomes())
    assert out[("hits", 2)] == pytest.approx((3 / 8) ** 2)


def test_distribution_sums_to_one() -> None:
    dist = hit_distribution(((6, 6, 5), (8, 6, 3), (20, 6, 1)))
    assert sum(dist) == pytest.approx(1.0)
    assert len(dist) == 10


def test_attack_bonus_effect_lowers_the_hit_number() -> None:
    """Hook for the cards: "Event cards that grants a Hero a bonus to attack rolls" — a +1 makes a d6 hit on 5+."""
    st = make({"pieces": {"k13": {"karkoth": {"footsoldier": 1}}, "n01": {"nerath": {"footsoldier": 1}}},
               "movable": "all", "effects": [["karkoth", "attack_bonus", 1, "*", "turn"]]})
    st = play(st, "move k13 n01 footsoldier 1", "done", "battle n01")
    assert dict(st.chance_outcomes())[("hits", 1)] == pytest.approx(2 / 6)


def test_view_hides_other_hands() -> None:
    """Hands are secret: "All other cards can be kept in hand until required"."""
    st = make({"phase": "move", "dealing": [], "event_hands": {"vailin": ["v-swift-sails"]},
               "treasure_hands": {"nerath": ["x"]}}, events="decks")
    mine = st.view(1)
    other = st.view(0)
    assert mine["event_hands"]["vailin"] == ["v-swift-sails"]
    assert other["event_hands"]["vailin"] == 1
    assert other["treasure_hands"]["nerath"] == 1
    assert isinstance(other["event_decks"]["karkoth"], int)
    assert st.to_json()["event_hands"]["vailin"] == ["v-swift-sails"]


def test_illegal_action_names_the_rule_and_changes_nothing() -> None:
    st = make({"pieces": {"k13": {"karkoth": {"footsoldier": 1}}}, "movable": "all"})
    before = st.to_json()
    with pytest.raises(IllegalAction) as e:
        st.apply("move k13 n03 footsoldier 1")
    assert "enemy space" in str(e.value)
    assert st.to_json() == before


@pytest.mark.parametrize("players,options", [
    (2, {"length": "short"}), (3, {"length": "medium"}), (3, {"three_player": "two-sides"}),
    (4, {"mode": "free-for-all"}), (4, {"length": "long", "max_rounds": 8}), (4, {"events": "decks"}),
])
def test_random_games_end_and_round_trip(players: int, options: dict) -> None:
    for seed in range(2):
        st = RULESET.new_game(players, options, seed)
        rng = random.Random(seed)
        steps = 0
        while st.to_move is not None:
            if steps % 23 == 0:
                doc = st.to_json()
                again = RULESET.state_from_json(doc)
                assert again.to_json() == doc
                assert again.legal_actions() == st.legal_actions()
            if st.to_move == CHANCE:
                outcomes = st.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                a = sample_chance(st, rng)
            else:
                acts = st.legal_actions()
                assert len(set(acts)) == len(acts)
                a = acts[rng.randrange(len(acts))]
                assert RULESET.parse_action(RULESET.format_action(a)) == a
            st = st.apply(a)
            steps += 1
            assert min(st.pieces) >= 0 and min(st.gold) >= 0
        assert st.result() is not None and st.end_reason in ("victory", "round limit")


def test_unchecked_apply_agrees_with_checked() -> None:
    st = RULESET.new_game(4, {}, 3)
    rng = random.Random(3)
    for _ in range(600):
        if st.to_move is None:
            break
        a = sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions())
        assert st.apply(a).to_json() == st.apply_unchecked(a).to_json()
        st = st.apply(a)


def test_record_replays() -> None:
    from conquest.core.records import replay
    rec, end = play_game(RULESET, ["random", "random"], players=2, seed=5)
    assert replay(rec).to_json() == end.to_json()


def test_greedy_beats_random() -> None:
    wins = 0.0
    for seed in range(4):
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        _, end = play_game(RULESET, seats, players=2, seed=seed)
        wins += end.result()[seed % 2]
    assert wins >= 3


def test_random_playout_is_finite_with_default_options() -> None:
    end, steps = random_playout(RULESET.new_game(4, {"length": "long"}, 1), random.Random(1))
    assert end.to_move is None and end.round <= 60


def test_scenarios() -> None:
    failures = []
    for path in scenario_files([str(SCENARIOS)]):
        res = run_file(path)
        failures.extend(f"{path.name}: {f}" for f in res.failures)
    assert not failures, "\n".join(failures)


def _dungeon(tile: str, **patch: object):
    st = make({"pieces": {"k13": {"karkoth": {"fighter": 1}}}, "guardians": {"d3": [{"tile": tile}]},
               "movable": "all", **patch})
    return play(st, "move k13 d3 fighter 1", "done", "battle d3")


def test_heroes_need_eight_against_a_wraith() -> None:
    """"Heroes Need 7+/8+ to Hit: A Hero scores a hit against the Guardian only on an attack roll of the
    specified number or higher.\""""
    st = _dungeon("wraith")
    assert dict(st.chance_outcomes())[("hits", 1)] == pytest.approx(3 / 10)


def test_heroes_need_applies_against_all_guardians_of_the_entrance() -> None:
    """"If the dungeon entrance contains multiple Dungeon Guardians, the disadvantage affects all the Heroes'
    attack rolls during that battle—even against Dungeon Guardians that would otherwise be easy to hit.\""""
    st = make({"pieces": {"k13": {"karkoth": {"fighter": 1}}}, "movable": "all",
               "guardians": {"d3": [{"tile": "gelatinous-cube"}, {"tile": "goblin-pack"}]}})
    st = play(st, "move k13 d3 fighter 1", "done", "battle d3")
    assert dict(st.chance_outcomes())[("hits", 1)] == pytest.approx(4 / 10)


def test_event_bonus_trumps_heroes_need() -> None:
    """"An Event card that grants a Hero a bonus to attack rolls trumps this special ability.\""""
    st = _dungeon("wraith", effects=[["karkoth", "attack_bonus", 1, "fighter", "turn"]])
    assert dict(st.chance_outcomes())[("hits", 1)] == pytest.approx(6 / 10)


def test_facedown_guardians_are_hidden() -> None:
    """Facedown tiles: "place one on each dungeon entrance" facedown; only the referee knows them."""
    st = RULESET.new_game(4, {}, 0)
    while st.phase == "deal":
        st = st.apply(st.chance_outcomes()[0][0])
    assert all(len(g) == 1 for g in st.to_json()["guardians"].values())
    view = st.view(0)
    assert all(g[0]["tile"] == "facedown" for g in view["guardians"].values())
    assert isinstance(view["guardian_pile"], int)


def test_guardians_rolled_by_the_other_player_in_a_two_player_game() -> None:
    """"the opponent to your left rolls attack dice for the Guardian" — with 2 players, the other player."""
    st = make({"pieces": {"k13": {"karkoth": {"fighter": 1}}}, "movable": "all",
               "guardians": {"d3": [{"tile": "minotaur"}]}}, players=2)
    st = play(st, "move k13 d3 fighter 1", "done", "battle d3")
    assert st.to_json()["battle"]["guardian_seat"] == 1


def test_board_for_the_web_app_uses_only_the_view() -> None:
    """The board drawn in the browser: hex outlines, controllers by seat, pieces, no facedown Guardian names."""
    from conquest.rulesets.nerath.data import guardian_tiles
    st = RULESET.new_game(2, {}, 0)
    while st.phase == "deal":
        st = st.apply(st.chance_outcomes()[0][0])
    board = RULESET.board_json(st.view(1), 1)
    regions = board["map"]["regions"]
    assert len(regions) == 70 and all(len(r["polygon"]) >= 6 for r in regions)
    assert board["regions"]["k07"]["owner"] == 0 and board["regions"]["v05"]["owner"] == 1
    assert "capital" in [i["key"] for i in board["regions"]["k07"]["icons"]]
    assert any(p["help"] == "piece:dragon" and p["icon"] == "D" for p in board["regions"]["k07"]["pieces"])
    for i in range(1, 7):  # the Guardians are face down: the entrance says how many, not which
        (entrance,) = [x for x in board["regions"][f"d{i}"]["icons"] if x["key"] == "dungeon"]
        assert "a face-down Guardian" in entrance["title"]
        assert not any(g.name in entrance["title"] for g in guardian_tiles().values())


def test_free_for_all_is_for_four_players() -> None:
    """"4 player free-for-all game: each player controls one realm"."""
    from conquest.core.errors import OptionError
    with pytest.raises(OptionError):
        RULESET.new_game(2, {"mode": "free-for-all"}, 0)
    with pytest.raises(OptionError):
        RULESET.new_game(3, {"mode": "free-for-all"}, 0)


def test_seats_and_sides() -> None:
    """"2 player alliance game: the allied realms of Karkoth and the Iron Circle vs. the allied realms of Vailin
    and Nerath." / 3 players: "the allied realms of Vailin and Nerath vs. the realm of Karkoth vs. the realm of
    the Iron Circle." / "If you play 2 allied realms, take each realm's turn in the normal order.\""""
    two = RULESET.new_game(2, {"board_setup": "empty"}, 0)
    assert two.seat_of == (0, 1, 0, 1) and two.team == (0, 1, 0, 1)
    three = RULESET.new_game(3, {"board_setup": "empty"}, 0)
    assert three.seat_of == (0, 1, 2, 1) and len(set(three.team)) == 3
    three_b = RULESET.new_game(3, {"board_setup": "empty", "three_player": "two-sides"}, 0)
    assert three_b.team[0] == three_b.team[2] != three_b.team[1]
    ffa = RULESET.new_game(4, {"board_setup": "empty", "mode": "free-for-all"}, 0)
    assert len(set(ffa.team)) == 4
    assert RULESET.seat_names(2, {}) == ["Dark Empire of Karkoth & Iron Circle", "Vailin Alliance & Nerathan League"]


def test_a_battle_field_of_the_wrong_type_is_refused_naming_the_battle() -> None:
    """A state document's battle with a name where a number belongs (the hits queue) is refused naming
    ``battle/queue``, not as a document the loader could not read (found by the fuzzer)."""
    from conquest.core.errors import StateFormatError
    rng = random.Random(4)
    st = RULESET.new_game(4, {}, 4)
    while st.to_move is not None:
        doc = st.to_json()
        if doc.get("battle") and doc["battle"].get("queue"):
            doc["battle"]["queue"][0][1] = "x"
            with pytest.raises(StateFormatError) as e:
                RULESET.state_from_json(doc)
            assert e.value.field == "battle/queue" and "hits left to assign" in str(e.value)
            return
        legal = st.legal_actions()
        st = st.apply_unchecked(sample_chance(st, rng) if st.to_move == CHANCE else legal[rng.randrange(len(legal))])
    pytest.fail("no battle with a queue of hits in this game")
