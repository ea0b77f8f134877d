"""The boards the rulesets give the web app (``board_json``), their rules help (``help_terms``) and the
clickable places of actions: built from ``view(seat)`` only, so nothing leaks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquest.core.helptext import verbs_from_docstring
from conquest.core.registry import get_ruleset
from conquest.rulesets.narby.tables import TABLES as NARBY
from conquest.web.board import board_for, places, region_ids


def play_until(rid: str, players: int, want: Any, seed: int = 1, limit: int = 3000) -> Any:
    rs = get_ruleset(rid)
    st = rs.new_game(players, rs.options().resolve({}), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if want(st):
            return rs, st
        st = st.apply(rng.choice(list(st.legal_actions())))
    pytest.fail(f"{rid}: the wanted position did not come")


def test_narby_board_has_400_squares_and_moves_name_their_square() -> None:
    rs, st = play_until("narby", 3, lambda s: s.to_move == 0 and any(a[0] == "move" for a in s.legal_actions()))
    board = board_for(rs, st, st.view(0), 0)
    assert board is not None
    ids = region_ids(board)
    assert len(ids) == 400 and "1,1" in ids and "20,20" in ids
    for a in st.legal_actions():
        if a[0] == "move":
            text = rs.format_action(a)
            assert places(a, ids, text, board["aliases"]) == [text.split()[1]]
    dragons = [o for o in board["overlays"] if o["kind"] == "dragon"]
    assert len(dragons) == 3 and all(o["w"] == o["h"] == 2 for o in dragons)  # a dragon covers 2x2 squares


def test_narby_panels_show_only_the_own_card() -> None:
    rs, st = play_until("narby", 2, lambda s: all(h for h in s.hand))
    view = st.view(0)
    board = board_for(rs, st, view, 0)
    assert board is not None
    own, other = board["panels"]
    names = {c.id: c.name for c in NARBY.cards}
    assert own["holds"][-1][1] == names[st.hand[0]]
    assert other["holds"][-1][1] == "one, face down"
    assert st.hand[1] != st.hand[0] and names[st.hand[1]] not in str(board["panels"])


def test_narby_place_of_power_claims_are_clicked_on_its_square() -> None:
    rs, st = play_until("narby", 2, lambda s: s.to_move in (0, 1) and bool(s.places))
    seat = st.to_move
    board = board_for(rs, st, st.view(seat), seat)
    assert board is not None
    pid, anchor = next((k, v) for k, v in board["aliases"].items() if k in st.places)
    assert places(("claim", pid), region_ids(board), f"claim {pid}", board["aliases"]) == [anchor]
    red = st.view(seat)["dragons"][1 - seat]
    assert places(("attack", red), region_ids(board)) == []  # without the aliases nothing names a square
    assert places(("attack", red), region_ids(board), f"attack {red}", board["aliases"]) == \
        [st.view(seat)["dragon_at"][1 - seat]]  # an attack is clicked on the other dragon


def test_nerath_board_shows_alliances_target_and_pieces_by_kind() -> None:
    rs, st = play_until("nerath", 4, lambda s: s.to_move == 0)
    board = board_for(rs, st, st.view(0), 0)
    assert board is not None
    badges = [b[0] for p in board["panels"] for b in p["badges"]]
    assert "allied with Iron Circle" in badges and "wins at 20 VP" in badges  # alliance mode, short game
    kinds = {p["icon"] for r in board["regions"].values() for p in r["pieces"]}
    assert {"F", "S"} <= kinds
    for r in board["regions"].values():
        assert "label" not in r or r.get("hideLabel")  # one name per space: the map's


def test_nerath_moves_are_grouped_by_a_final_count() -> None:
    """The page's stepper joins actions differing only in a final number: there must be such groups."""
    rs, st = play_until("nerath", 4, lambda s: s.to_move == 0)
    texts = [rs.format_action(a) for a in st.legal_actions()]
    heads: dict[str, int] = {}
    for t in texts:
        if t.startswith("move "):
            heads[t.rsplit(" ", 1)[0]] = heads.get(t.rsplit(" ", 1)[0], 0) + 1
    assert max(heads.values()) >= 2


def test_smallworld_declined_regions_and_tokens_in_hand() -> None:
    def declined(s: Any) -> bool:
        return any(v["status"] == "declined" for v in s.view(0)["races"].values())
    rs, st = play_until("smallworld", 3, declined)
    view = st.view(0)
    board = board_for(rs, st, view, 0)
    assert board is not None
    assert any(r.get("declined") for r in board["regions"].values())
    for r in board["regions"].values():
        assert not r.get("label", "").startswith("r")  # no region ids on the map
    coins = [p["score"][0][1] for p in board["panels"]]
    assert coins[0] == view["seats"][0]["coins"] and "face down" in coins[1:]


@pytest.mark.parametrize("rid,kinds", [("smallworld", {"race": 14, "power": 20}),
                                       ("narby", {"card": len(NARBY.cards), "dragon": 10,
                                                  "place of power": len(NARBY.places)}),
                                       ("nerath", {"piece": 9}), ("kingdom", {"bonus location": 10})])
def test_help_terms_cover_every_race_power_card_and_piece(rid: str, kinds: dict[str, int]) -> None:
    terms = get_ruleset(rid).help_terms()
    for kind, n in kinds.items():
        got = [t for t in terms.values() if t["kind"] == kind]
        assert len(got) == n and all(t["text"] and t["name"] for t in got), kind
    assert any(t["kind"] == "action" for t in terms.values())


def test_nerath_help_covers_every_event_and_treasure_card() -> None:
    from conquest.rulesets.nerath.cards import event_cards, treasure_cards
    terms = get_ruleset("nerath").help_terms()
    assert {f"event:{c}" for c in event_cards()} <= set(terms)
    assert {f"treasure:{c}" for c in treasure_cards()} <= set(terms)


def test_verbs_are_read_from_a_notation_docstring() -> None:
    doc = """Notation:

    move FROM TO N          N pieces move
    press | retreat         the attacker's choice
    hit PIECE | hit ship SHIP
                            the owner chooses
                            which piece
  chance outcomes:
    roll N                  a die
"""
    assert verbs_from_docstring(doc) == {"move": "N pieces move", "press": "the attacker's choice",
                                         "retreat": "the attacker's choice",
                                         "hit": "the owner chooses which piece", "roll": "a die"}
