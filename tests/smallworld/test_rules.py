"""Rules that scenarios cannot show well: chance nodes, hidden coins, the seat to move inside a turn, the
state format, refusals naming their rule, and invariants over random games."""

from __future__ import annotations

import json
import random

import pytest

from conquest.analysis.runner import sample_chance
from conquest.core.errors import IllegalAction, NotationError, StateFormatError
from conquest.core.game import CHANCE
from conquest.rulesets.smallworld import RULESET, data as D
from tests.smallworld.helpers import make, play


def test_reinforcement_die_is_a_chance_node_with_the_published_faces():
    """"Reinforcement die faces: 0, 0, 0, 1, 2, 3." The final conquest's region is chosen before the roll."""
    st = make(setup={"phase": "conquer", "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 1}},
                     "regions": {"r12": {"race": "ratmen", "tokens": 1}},
                     "turn_state": {"race": "ratmen", "readied": True}})
    st = play(st, "final r13")
    assert st.to_move == CHANCE
    outcomes = dict((RULESET.format_action(a), p) for a, p in st.chance_outcomes())
    assert outcomes == pytest.approx({"die 0": 0.5, "die 1": 1 / 6, "die 2": 1 / 6, "die 3": 1 / 6})
    assert st.to_json()["turn_state"]["final_region"] == "r13"


def test_combo_draws_are_chance_nodes_over_the_piles():
    """"14 race banners and 20 special-power badges are shuffled; 6 race+power combos are visible"."""
    st = RULESET.new_game(3, {}, 0)
    assert st.to_move == CHANCE
    outs = st.chance_outcomes()
    assert len(outs) == 14 and all(abs(p - 1 / 14) < 1e-12 for _, p in outs)
    rng = random.Random(1)
    while st.to_move == CHANCE:
        st = st.apply(sample_chance(st, rng))
    col = st.to_json()["column"]
    assert len(col) == 6 and len({c["race"] for c in col}) == 6 and len({c["power"] for c in col}) == 6
    assert st.to_move == 0 and st.to_json()["phase"] == "pick"


def test_coins_are_hidden_from_other_seats():
    """"Coins are kept face down: a player's total is hidden from others." """
    st = make(3, setup={"seats": [{"coins": 7}, {"coins": 9}, {"coins": 11}]})
    v1 = st.view(1)
    assert [s["coins"] for s in v1["seats"]] == [None, 9, None]
    assert [s["coins"] for s in st.view(None)["seats"]] == [None, None, None]
    assert [s["coins"] for s in st.to_json()["seats"]] == [7, 9, 11]
    assert "7" not in RULESET.render_text(st, 1).split("seat 0:")[1].split("\n")[0]


def test_defender_redeploys_inside_the_attackers_turn():
    """003: the defender keeps the other tokens "and redeploy them in any other Region(s) still occupied by his
    race (if any) as the final action of the current player's turn" - a decision of the defender's seat."""
    st = make(3, setup={
        "phase": "conquer",
        "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 6},
                  "humans": {"seat": 2, "power": "hill", "hand": 0}},
        "regions": {"r2": {"race": "ratmen", "tokens": 1}, "r3": {"race": "humans", "tokens": 3},
                    "r25": {"race": "humans", "tokens": 1}},
        "turn_state": {"race": "ratmen", "readied": True}})
    st = play(st, "conquer r3", "end", "redeploy r3 5", "end")
    assert st.to_json()["phase"] == "defend"
    assert st.to_move == 2 and st.seat == 0
    legal = {RULESET.format_action(a) for a in st.legal_actions()}
    assert legal == {"redeploy r25 1", "redeploy r25 2"}
    st = play(st, "redeploy r25 2")
    assert st.seat == 1 and st.tokens[24] == 3


def test_refusals_name_the_rule_and_change_nothing():
    st = make(setup={"phase": "conquer", "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 2}},
                     "regions": {"r12": {"race": "ratmen", "tokens": 1}},
                     "turn_state": {"race": "ratmen", "readied": True}})
    before = st.to_json()
    with pytest.raises(IllegalAction, match="adjacent"):
        st.apply("conquer r1")
    with pytest.raises(IllegalAction, match="Seas and Lakes"):
        st.apply("conquer r7")
    with pytest.raises(IllegalAction, match="you need 3 tokens"):
        st.apply("conquer r13")
    with pytest.raises(IllegalAction, match="r1 to r23"):
        st.apply("conquer r99")
    with pytest.raises(IllegalAction, match="pick"):
        st.apply("pick 0")
    assert st.to_json() == before


def test_notation_round_trips_and_refuses_garbage():
    for text in ["pick 3", "conquer r12", "final r1", "dragon r7", "convert r2", "berserk", "abandon r5",
                 "decline", "end", "redeploy r4 3", "camp r1", "fortress r2", "hero r3", "peace 2",
                 "race ghouls", "power dragon-master", "die 0"]:
        assert RULESET.format_action(RULESET.parse_action(text)) == text
    for bad in ["", "conquer", "conquer 12", "conquer rx", "redeploy r1", "race goblins", "fly r2", "pick -1"]:
        with pytest.raises(NotationError):
            RULESET.parse_action(bad)


def test_state_json_errors_name_the_field():
    doc = make().to_json()
    cases = [({"regions": {"r3": {"race": "ratmen", "tokens": 1}}}, "regions/r3/race"),
             ({"races": {"goblins": {"seat": 0, "power": "hill"}}}, "races/goblins"),
             ({"regions": {"r2": {"tokens": 2}}}, "regions/r2/tokens"),
             ({"phase": "lunch"}, "phase"),
             ({"races": {"ratmen": {"seat": 0, "power": "flying"}}, "regions": {"r2": {"race": "ratmen", "tokens": 1}}},
              "regions/r2/race"),
             ({"map": {"id": "elsewhere", "seed": 0}}, "map/id")]
    from conquest.core.jsondoc import merge_patch
    for patch, field in cases:
        with pytest.raises(StateFormatError) as e:
            RULESET.state_from_json(merge_patch(doc, patch))
        assert e.value.field.startswith(field), (patch, e.value)


def test_column_option_is_validated():
    from conquest.core.errors import OptionError
    with pytest.raises(OptionError):
        RULESET.new_game(2, {"column": "ratmen:ratmen"})
    with pytest.raises(OptionError):
        RULESET.new_game(2, {"column": "ratmen:hill,elves:hill"})


def _invariants(st) -> None:
    b = st.board
    for x in range(len(D.RACES)):
        if st.rstatus[x]:
            assert 0 <= st.race_total(x) <= D.SUPPLY[x] + (4 if x == D.AMAZONS else 0), D.RACE_IDS[x]
        else:
            assert x not in st.region_race and st.rhand[x] == 0
    for i in range(b.n):
        y = st.region_race[i]
        assert (y >= 0) == (st.tokens[i] > 0)
        if y >= 0:
            assert not st.lost[i]
            if b.water[i]:
                assert st.rpower[y] == D.SEAFARING
            if st.rstatus[y] == 2 and y != D.GHOULS:
                assert st.tokens[i] == 1 or st.seat == st.rseat[y]
        else:
            assert not (st.lair[i] or st.fort[i] or st.camp[i] or st.hole[i] or st.hero[i] or st.dragon[i])
    assert sum(st.camp) <= 5 and sum(st.fort) <= 6 and sum(st.hero) <= 2 and sum(st.dragon) <= 1
    for t in range(st.players):
        assert st.coins[t] >= 0
        assert sum(1 for x in range(len(D.RACES)) if st.rseat[x] == t and st.rstatus[x] == 1) <= 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_the_invariants_and_json(players):
    for seed in range(3):
        rng = random.Random(seed)
        st = RULESET.new_game(players, {"map": "generated"} if seed == 2 else {}, seed)
        steps = 0
        while st.to_move is not None:
            _invariants(st)
            if steps % 5 == 0:
                doc = json.loads(json.dumps(st.to_json()))
                assert RULESET.state_from_json(doc).to_json() == doc
            a = sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions())
            if steps % 11 == 0:
                assert st.apply(a).to_json() == st.apply_unchecked(a).to_json()
            st = st.apply_unchecked(a)
            steps += 1
        assert st.turn == D.FIGURES[players]["turns"]
        res = st.result()
        assert res is not None and abs(sum(res) - 1) < 1e-9


def test_board_for_the_browser_uses_the_view_only():
    """The map file drives the browser too; the board is built from ``view(seat)``, so hidden coins stay
    hidden, and every region-naming action can be chosen on the board."""
    from conquest.web.board import board_for, places, region_ids
    st = make(3, setup={"phase": "conquer", "seats": [{"coins": 31}, {"coins": 7}, {"coins": 5}],
                        "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 4},
                                  "giants": {"seat": 1, "power": "hill", "status": "declined"}},
                        "regions": {"r2": {"race": "ratmen", "tokens": 2}, "r3": {"race": "giants", "tokens": 1}},
                        "turn_state": {"race": "ratmen", "readied": True}})
    board = board_for(RULESET, st, st.view(1), 1)
    assert board is not None
    assert "31 coins" not in json.dumps(board)
    assert board["panels"][0]["score"][0][:2] == ["coins", "face down"]
    assert board["panels"][1]["score"][0][:2] == ["coins", 7]
    assert [h[:2] for h in board["panels"][0]["holds"]] == [["Ratmen in hand", 4]]
    assert board["regions"]["r2"]["owner"] == 0 and board["regions"]["r2"]["pieces"][0]["count"] == 2
    assert "in decline" in board["regions"]["r3"]["pieces"][0]["kind"]
    ids = region_ids(board)
    assert len(ids) == 30
    for a in st.legal_actions():
        if a[0] != "end":
            assert places(a, ids) == [a[1]]


def test_the_panel_counts_the_tokens_in_hand_at_the_start_of_a_turn():
    """"Ready your troops" (smallworld-standard-rules.md): at the start of its turn a race takes back all but one
    token of each region; the panel shows that hand before the first conquest, not 0."""
    from conquest.web.board import board_for
    st = make(3, setup={"phase": "conquer", "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 0}},
                        "regions": {"r2": {"race": "ratmen", "tokens": 3}, "r3": {"race": "ratmen", "tokens": 2}},
                        "turn_state": {"race": "ratmen", "readied": False}})
    board = board_for(RULESET, st, st.view(0), 0)
    assert board is not None
    assert board["panels"][0]["holds"][0][:2] == ["Ratmen in hand", 3]
    assert "3 tokens in hand" in board["question"]


def test_actions_and_board_name_regions_never_their_ids():
    """Every action is described with region names and the cost of a conquest; no "r4" or 0-based seat."""
    import re
    st = make(3, setup={"phase": "conquer", "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 6}},
                        "regions": {"r2": {"race": "ratmen", "tokens": 1}},
                        "turn_state": {"race": "ratmen", "readied": True}})
    texts = [RULESET.describe_action(st, a) for a in st.legal_actions()]
    assert any(t.startswith("conquer ") and re.search(r"\(\d+ tokens?\)$", t) for t in texts), texts
    for t in texts:
        assert not re.search(r"\br\d+\b|\bseat \d", t), t


def test_mangled_state_documents_fail_cleanly():
    """A set-up that breaks the state format raises StateFormatError naming a field, never a crash; a document
    that loads can be played."""
    import copy

    from conquest.core.errors import ConquestError
    rng = random.Random(3)
    st = RULESET.new_game(3, {}, 3)
    docs = []
    while st.to_move is not None:
        docs.append(st.to_json())
        acts = st.legal_actions()
        st = st.apply_unchecked(sample_chance(st, rng) if st.to_move == CHANCE else acts[rng.randrange(len(acts))])
    junk = [None, -1, 0, 1, 99, "x", "r5", [], {}, True, 2.5, "ratmen", "active", "hill", "r999"]

    def paths(d, pre=()):
        items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else []
        for k, v in items:
            yield pre + (k,)
            yield from paths(v, pre + (k,))

    for _ in range(1500):
        d = copy.deepcopy(rng.choice(docs))
        d.pop("to_move")
        ps = [p for p in paths(d) if p[0] not in ("format", "ruleset", "rules_version", "players", "options")]
        p = rng.choice(ps)
        cur = d
        for k in p[:-1]:
            cur = cur[k]
        cur[p[-1]] = rng.choice(junk)
        try:
            s2 = RULESET.state_from_json(d)
        except ConquestError:
            continue
        for a in s2.legal_actions()[:3]:
            s2.apply(a)


def test_the_rules_doc_lists_every_race_and_power_id():
    """The doc's state JSON section lists the ids a scenario writer needs ("Races and powers are written in lower
    case"): every race id and power id of the tables, e.g. `dragon-master`."""
    from pathlib import Path
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "smallworld.md").read_text()
    section = doc[doc.index("**Ids.**"):doc.index("**Writing a scenario.**")]
    for ident in D.RACE_IDS + D.POWER_IDS:
        assert f"`{ident}`" in section, ident


def test_notation_refusals_say_what_is_missing_or_wrong():
    """The notation `redeploy rN K` (docs): a missing count or a count below 1 is named as such."""
    for text, msg in [("redeploy", "the region and the number of tokens are missing"),
                      ("redeploy r15", "the number of tokens is missing"),
                      ("redeploy r15 -1", "must be positive"), ("redeploy r15 0", "must be positive"),
                      ("conquer", "the region is missing"), ("end now", "unexpected 'now'"),
                      ("pick -1", "0 or more")]:
        with pytest.raises(NotationError, match=msg):
            RULESET.parse_action(text)


def test_wrong_step_refusals_name_the_rule_of_the_step():
    """"Redeploy: move active tokens freely between your active regions" comes after the conquests: an action of
    another step is refused with the rule of the current one, and counts are written in the singular for 1."""
    st = make(setup={"phase": "redeploy", "races": {"ratmen": {"seat": 0, "power": "heroic", "hand": 1}},
                     "regions": {"r12": {"race": "ratmen", "tokens": 1}},
                     "turn_state": {"race": "ratmen", "readied": True}})
    with pytest.raises(IllegalAction, match="you are redeploying: the turn's conquests are over"):
        st.apply("conquer r13")
    with pytest.raises(IllegalAction, match="redeploy the 1 token in hand first"):
        st.apply("end")
    with pytest.raises(IllegalAction, match="choose a combo first"):
        make().apply("conquer r12")
    with pytest.raises(IllegalAction, match="costs 1 coin "):
        make(setup={"seats": [{"coins": 0}, {"coins": 0}]}).apply("pick 1")


def test_text_board_explains_decline_marks_and_names_the_winner_at_the_end():
    """"End: after the last turn of the turn track, the most coins wins": the finished board says the game is over
    and who won, not whose turn it is; the legend explains the decline marks used on the board and the table."""
    rng = random.Random(5)
    st = RULESET.new_game(2, {}, 5)
    while st.to_move is not None:
        st = st.apply(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions()))
    text = RULESET.render_text(st, 0)
    header = text.split("\n")[0]
    assert "game over" in header and "to play" not in header and "(over)" not in header
    winner = max(range(2), key=lambda t: st.result()[t])
    assert f"seat {winner} wins" in header or "share the win" in header
    assert "* in the table below (Elves*)" in text
    assert "in decline" in text.split("(Elves*)")[0].split("\n")[-1]


def test_a_state_saved_between_the_two_draws_of_a_combo_keeps_the_race() -> None:
    """003: "a new combo is revealed at the bottom" — drawn as a race then a power (two chance outcomes); a
    state saved between them holds the race (`drawn_race`), so loading it plays on the same way, and `==`
    tells apart two states whose drawn races differ."""
    from conquest.rulesets.smallworld import RULESET as SW
    st = SW.new_game(2, {}, 0)
    outcomes = [a for a, _p in st.chance_outcomes()]
    a = st.apply(outcomes[0])
    b = st.apply(outcomes[1])
    assert a.to_json()["drawn_race"] == outcomes[0][1]
    again = SW.state_from_json(a.to_json())
    assert again == a and again != b
    power = again.chance_outcomes()[0][0]
    assert again.apply(power).to_json()["column"] == a.apply(power).to_json()["column"]
