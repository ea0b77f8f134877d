"""Allies' damage (docs/rules/nerath.md, reading 12): "Allies decide among themselves how to take damage in battle.
If there is no consensus, each takes half the total damage." A seat that plays both allied realms is always of one
mind: it splits the hits as it likes (`split REALM N REALM M`, step `choose`); allies of two seats take half each,
the odd hit by the rules' own chance node. The notation, the state document, the log, the battle calculator, the
RL action codec and the computer players with the new decision."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquest.agents.specs import decide, get_agent
from conquest.analysis.runner import sample_chance
from conquest.core.errors import ConquestError, NotationError, StateFormatError
from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.montecarlo import NerathBattle, battle_document, monte_carlo

RS = get_ruleset("nerath")
SPACE = "n04"


def position(players: int, defenders: dict[str, dict[str, int]], options: dict[str, Any] | None = None,
             three_player: str = "three-sides", attacker: str = "karkoth", space: str = SPACE) -> Any:
    """The attacker (5 Monsters) to fight a declared battle in ``space`` (Nerath's n04, held by Nerath) against
    ``defenders``: the battle begun (``battle n04``)."""
    opts = {"board_setup": "empty", "events": "none", "three_player": three_player, **(options or {})}
    doc = RS.new_game(players, opts, 0).to_json()
    doc.pop("to_move", None)
    doc.update(phase="fight", realm=attacker, battles=[space], movable={},
               pieces={space: {attacker: {"monster": 5}, **defenders}})
    return RS.state_from_json(doc).apply(f"battle {space}")


ALLIES = {"vailin": {"footsoldier": 2}, "nerath": {"footsoldier": 1, "dragon": 1}}


def test_one_seat_chooses_every_split_its_pieces_can_take() -> None:
    # "Allies decide among themselves how to take damage in battle." - the 2-player game: seat 1 plays Vailin and
    # Nerath. 3 hits: Vailin's 2 Footsoldiers absorb 2 at most, Nerath's Footsoldier and Dragon (2 hits) 3.
    s = position(2, ALLIES).apply("hits 3").apply("hits 0")
    assert s.to_json()["battle"]["step"] == "choose" and s.to_move == 1
    assert s.to_json()["battle"]["split_hits"] == 3
    assert [RS.format_action(a) for a in s.legal_actions()] == [
        "split vailin 0 nerath 3", "split vailin 1 nerath 2", "split vailin 2 nerath 1"]
    assert s.chance_outcomes() == []          # no coin: the seat decides
    # each split is applied as chosen, then each realm chooses its own casualties
    s21 = s.apply("split vailin 2 nerath 1")
    b = s21.to_json()["battle"]
    assert b["step"] == "assign" and b["split_hits"] == 0
    # Vailin's 2 hits destroy its 2 Footsoldiers at once; Nerath (seat 1) chooses its casualty for its 1 hit
    assert "vailin" not in s21.to_json()["pieces"][SPACE] and b["queue"] == [["nerath", 1]] and s21.to_move == 1
    assert sorted(RS.format_action(a) for a in s21.legal_actions()) == ["hit dragon", "hit footsoldier"]
    s03 = s.apply("split vailin 0 nerath 3")
    assert s03.to_json()["pieces"][SPACE].get("vailin") == {"footsoldier": 2}
    assert "nerath" not in s03.to_json()["pieces"][SPACE]
    s12 = s.apply("split vailin 1 nerath 2")
    assert s12.to_json()["pieces"][SPACE]["vailin"] == {"footsoldier": 1}
    assert s12.to_json()["battle"]["queue"] == [["nerath", 2]] and s12.to_move == 1
    # a split the pieces cannot take, the realms in the other order, or a sum that is not the hits: refused
    for bad in ("split vailin 3 nerath 0", "split nerath 1 vailin 2", "split vailin 1 nerath 1"):
        with pytest.raises(ConquestError, match="split the 3 hits"):
            s.apply(bad)


def test_hits_that_destroy_both_or_leave_one_split_are_not_asked() -> None:
    # 5 hits on a capacity of 2 + 3: both destroyed, no question
    s = position(2, ALLIES).apply("hits 5").apply("hits 0")
    assert s.to_json()["battle"] is None or s.to_json()["battle"]["step"] != "choose"
    assert set(s.to_json()["pieces"][SPACE]) == {"karkoth"}
    # 4 hits: Vailin takes at most 2, Nerath at most 3: (1, 3) and (2, 2)
    s = position(2, ALLIES).apply("hits 4").apply("hits 0")
    assert [RS.format_action(a) for a in s.legal_actions()] == ["split vailin 1 nerath 3", "split vailin 2 nerath 2"]


@pytest.mark.parametrize("players,three,one_seat", [(2, "three-sides", True), (3, "three-sides", True),
                                                    (4, "three-sides", False)])
def test_who_plays_both_vailin_and_nerath(players: int, three: str, one_seat: bool) -> None:
    # seats (docs/rules/nerath.md §1): 2 players, seat 1 Vailin and Nerath; 3 players, seat 1 Vailin and Nerath;
    # 4 players, each realm its own seat
    s = position(players, {"vailin": {"footsoldier": 2}, "nerath": {"footsoldier": 2}}, three_player=three)
    s = s.apply("hits 3").apply("hits 0")
    assert (s.to_json()["battle"]["step"] == "choose") == one_seat


@pytest.mark.parametrize("players,options,attacker,defenders", [
    (4, {}, "karkoth", {"vailin": {"footsoldier": 2}, "nerath": {"footsoldier": 2}}),
    # 3 players, two sides: Karkoth (seat 0) and the Iron Circle (seat 2) are allies of two seats
    (3, {"three_player": "two-sides"}, "vailin", {"karkoth": {"footsoldier": 2}, "iron": {"footsoldier": 2}}),
    # (in Karkoth's k04)
    # the option's half split: one seat too takes half each
    (2, {"ally_split": "half"}, "karkoth", {"vailin": {"footsoldier": 2}, "nerath": {"footsoldier": 2}}),
])
def test_two_seats_take_half_and_the_odd_hit_falls_at_random(players: int, options: dict[str, Any],
                                                             attacker: str, defenders: dict[str, Any]) -> None:
    # "If there is no consensus, each takes half the total damage. On an number of hits, the ally with the most
    # pieces in the space takes the extra; if you each have the same number of pieces there, decide randomly."
    s = position(players, defenders, options, three_player=options.get("three_player", "three-sides"),
                 attacker=attacker, space="n04" if attacker == "karkoth" else "k04")
    s = s.apply("hits 3").apply("hits 0")
    a, b = list(defenders)
    assert s.to_json()["battle"]["step"] == "split" and s.to_move == CHANCE
    assert set(s.chance_outcomes()) == {(("extra", a), 0.5), (("extra", b), 0.5)}
    assert not any(x[0] == "split" for x in s.legal_actions())
    t = s.apply(f"extra {b}")
    # b takes 2 hits (its 2 Footsoldiers destroyed), a the other (one Footsoldier left)
    assert t.to_json()["pieces"][s.to_json()["battle"]["space"]] == {attacker: {"monster": 5},
                                                                      a: {"footsoldier": 1}}


def test_the_pending_split_survives_the_state_document() -> None:
    s = position(2, ALLIES).apply("hits 3").apply("hits 0")
    doc = s.to_json()
    back = RS.state_from_json(doc)
    assert back.to_json() == doc and back.legal_actions() == s.legal_actions() and back.to_move == 1
    assert back.apply("split vailin 1 nerath 2").to_json() == s.apply("split vailin 1 nerath 2").to_json()


def _refused(doc: dict[str, Any], field: str) -> str:
    with pytest.raises(StateFormatError) as e:
        RS.state_from_json(doc)
    text = str(e.value)
    assert field in text and "\n" not in text, text
    return text


def test_a_document_whose_split_does_not_fit_the_battle_is_refused() -> None:
    doc = position(2, ALLIES).apply("hits 3").apply("hits 0").to_json()
    doc.pop("to_move")
    no_hits = {**doc, "battle": {**doc["battle"], "split_hits": 0}}
    _refused(no_hits, "battle/split_hits")
    one_defender = {**doc, "battle": {**doc["battle"], "defenders": ["vailin"]}}
    _refused(one_defender, "battle/split_hits")
    drawn = {**doc, "battle": {**doc["battle"], "step": "split"}}
    assert "splits the hits itself" in _refused(drawn, "battle/step")
    half = {**doc, "options": {**doc["options"], "ally_split": "half"}}
    assert "step 'choose'" in _refused(half, "battle/step")
    left_over = {**doc, "battle": {**doc["battle"], "step": "assign", "queue": [["vailin", 1]]}}
    _refused(left_over, "battle/split_hits")
    four = position(4, ALLIES).apply("hits 3").apply("hits 0").to_json()
    four.pop("to_move")
    assert four["battle"]["step"] == "split"     # 4 players: half each, the odd hit drawn (2 pieces each)
    _refused({**four, "battle": {**four["battle"], "step": "choose"}}, "battle/step")


def test_split_notation_round_trips() -> None:
    for text in ("split vailin 2 nerath 1", "split karkoth 0 iron 4"):
        action = RS.parse_action(text)
        assert action == ("split",) + tuple(int(x) if x.isdigit() else x for x in text.split()[1:])
        assert RS.format_action(action) == text
    assert RS.parse_action("  SPLIT Vailin 2  nerath 1 ") == ("split", "vailin", 2, "nerath", 1)
    for bad in ("split vailin 2 vailin 1", "split vailin x nerath 1", "split vailin 2", "split elves 1 nerath 1"):
        with pytest.raises(NotationError):
            RS.parse_action(bad)


def test_the_split_is_told_in_words() -> None:
    s = position(2, ALLIES).apply("hits 3").apply("hits 0")
    names = RS.seat_names(2, s.options)
    for text, said in (("split vailin 2 nerath 1", "Vailin takes 2 hits, Nerath 1"),
                       ("split vailin 0 nerath 3", "Nerath takes 3 hits, Vailin none"),
                       ("split vailin 1 nerath 2", "Vailin takes 1 hit, Nerath 2")):
        action = RS.parse_action(text)
        assert RS.describe_action(s, action) == said
        for seat in (0, 1, None):
            line = RS.narrate(s.view(seat), action, s.apply(action).view(seat), seat, names)
            assert line["text"] == said and line["kind"] == "battle"
    prompt = RS.board_json(s.view(1), 1)["prompt"]["text"]
    assert prompt.startswith("Karkoth scored 3 hits on Vailin and Nerath") and "split" in prompt


# ------------------------------------------------------------------------------------ the battle calculator
def test_the_calculator_assumes_the_cheapest_split_across_both_realms() -> None:
    # one seat: hit by hit the cheaper next casualty of either realm (the calculator's "cheapest" order);
    # Nerath's Dragon is wounded only after Vailin's two Footsoldiers are gone
    one = NerathBattle(["monster"], ["dragon"], ally=["footsoldier", "footsoldier"], names=("nerath", "vailin"),
                       one_seat=True)
    assert [one.d.chosen_split(0, 0, h) for h in range(5)] == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]
    listed = NerathBattle(["monster"], ["dragon"], ally=["footsoldier", "footsoldier"], names=("nerath", "vailin"),
                          one_seat=True, order="listed")
    assert [listed.d.chosen_split(0, 0, h) for h in range(4)] == [(0, 0), (1, 0), (2, 0), (2, 1)]
    # two seats: half each (2 hits: 1 and 1)
    half = NerathBattle(["monster"], ["dragon"], ally=["footsoldier", "footsoldier"], names=("nerath", "vailin"))
    assert half.d.next_states[0][2] == [(half.d.index[(1, 1)], 1)]
    assert one.d.next_states[0][2] == [(one.d.index[(0, 2)], 1)]


def test_a_positions_odds_know_that_one_seat_plays_both() -> None:
    s2 = position(2, ALLIES)
    doc = s2.to_json()
    doc.pop("to_move")
    doc.update(battles=[SPACE], battle=None)
    pos = RS.state_from_json(doc)
    r = RS.action_odds(pos, f"battle {SPACE}")
    assert r["battle"]["ally_split"] == "choose"
    assert "allies played by one seat" in " ".join(r["battle"]["beyond_calculator"])
    ref = NerathBattle(["monster"] * 5, ["footsoldier", "footsoldier"], ally=["footsoldier", "dragon"],
                       names=("vailin", "nerath"), one_seat=True).solve()
    got = {o["outcome"]: o["probability"] for o in r["outcomes"]}
    assert abs(got["attacker wins"] - ref.attacker_wins) < 1e-12
    four = RS.state_from_json({**doc, "players": 4, "options": {**doc["options"]}})
    assert RS.action_odds(four, f"battle {SPACE}")["battle"]["ally_split"] == "half"


@pytest.mark.parametrize("kw", [
    dict(attacker=["monster", "monster", "dragon"], defender=["footsoldier", "dragon", "castle"],
         ally=["footsoldier", "siege", "fighter"]),
    dict(attacker=["storm", "dragon", "warship"], defender=["warship", "fighter"], ally=["dragon", "warship"],
         sea=True, order="listed"),
], ids=["land-castle", "sea-listed"])
def test_one_seat_exact_agrees_with_monte_carlo_through_the_rules(kw: dict[str, Any]) -> None:
    """The Monte Carlo plays the rules' `split` at step `choose` as the calculator assumes it, and checks every
    battle's end against the chain (a mismatch raises)."""
    b = NerathBattle(names=("nerath", "vailin"), one_seat=True, **kw)
    assert battle_document(b)[0]["options"]["ally_split"] == "choose"
    n = 500
    ex, mc = b.solve(), monte_carlo(b, n, seed=4)
    for k in ("attacker_wins", "defender_holds", "both_destroyed"):
        p = getattr(ex, k)
        assert abs(getattr(mc, k) - p) <= 4.5 * max((p * (1 - p) / n) ** 0.5, 1 / n), k


# ------------------------------------------------------------------------------------ players and codecs
def test_the_computer_players_choose_a_split() -> None:
    s = position(2, ALLIES).apply("hits 3").apply("hits 0")
    rng = random.Random(1)
    for spec in ("random", "greedy", "ismcts:iterations=30"):
        action = decide(get_agent(spec), s, rng)
        assert action in s.legal_actions(), spec


def test_rl_codec_writes_every_split() -> None:
    np = pytest.importorskip("numpy")
    from conquest.rl.match import Match
    match = Match("nerath", 2)
    s = position(2, ALLIES).apply("hits 3").apply("hits 0")
    d = match.at(s)
    seen = set()
    for action in s.legal_actions():
        tokens = match.codec.encode(action)
        assert match.codec.decode(tokens) == action
        seen.add(tokens)
    assert len(seen) == 3
    # one choice: the verb and the first realm are forced, then the count Vailin takes (0, 1 or 2)
    assert d.advance_forced() is None
    voc = match.codec.vocabulary
    assert [voc[t] for t in d.prefix] == ["split", "vailin"]
    assert sorted(voc[t] for t in d.options()) == [0, 1, 2]
    done = d.choose(voc.index(1)) or d.advance_forced()
    assert done == ("split", "vailin", 1, "nerath", 2)
    assert np.asarray(match.encoding.observe(s, 1)).shape == np.asarray(
        match.encoding.features(s.view(1), 1)).shape


def test_a_random_two_player_game_with_splits_runs_to_the_end() -> None:
    rng = random.Random(2)
    s = RS.new_game(2, {}, 2)
    splits = 0
    while s.to_move is not None:
        if s.to_move == CHANCE:
            s = s.apply_unchecked(sample_chance(s, rng))
            continue
        legal = s.legal_actions()
        if legal[0][0] == "split":
            splits += 1
            assert RS.state_from_json(s.to_json()).legal_actions() == legal
        s = s.apply(legal[rng.randrange(len(legal))])
    assert splits > 0 and s.result() is not None
