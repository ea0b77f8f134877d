"""Conquest of Nerath: the Event decks as played by default, card windows outside battles (income, another
realm's movement) in random games, hidden information in ``view``, and the statistics hook."""

from __future__ import annotations

import json
import random

import pytest

import conquest.rulesets.nerath.cards as cards_module
from conquest.analysis.runner import sample_chance
from conquest.core.game import CHANCE
from conquest.rulesets.nerath import RULESET
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import REALMS, DataError, guardian_tiles


def _random_game(seed: int, players: int = 4, **options: object):
    """Yield every state of a random game (random decisions, sampled chance)."""
    st = RULESET.new_game(players, dict(options), seed)
    rng = random.Random(seed)
    while True:
        yield st
        if st.to_move is None:
            return
        a = sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(st.legal_actions())
        st = st.apply(a)


def test_event_decks_are_on_by_default() -> None:
    """"Each player shuffles his realm's Event deck and draws 2 cards" (the game as the document describes it:
    option events=decks is the default)."""
    st = RULESET.new_game(4, {}, 0)
    assert st.options["events"] == "decks"
    assert st.phase == "deal"
    for s in _random_game(0):
        if s.phase == "move":
            break
    assert all(len(h) + len(d) >= 2 for h, d in zip(s.hands, s.discards))
    assert all(len(d) + len(h) + len(x) == sum(1 for c in event_cards().values() if c["realm"] == REALMS[r])
               for r, (d, h, x) in enumerate(zip(s.decks, s.hands, s.discards)))


def test_card_windows_outside_battles_open_in_random_games_and_never_stall() -> None:
    """"All other cards can be kept in hand until required": income and enemy-movement windows are offered to
    the seat holding the card, in the other realm's turn too; `pass` is always legal, and every game ends."""
    kinds: dict[str, int] = {}
    other_seat = 0
    for seed in range(4):
        for st in _random_game(seed):
            if st.reaction is not None:
                kinds[st.reaction.kind] = kinds.get(st.reaction.kind, 0) + 1
                assert ("pass",) in st.legal_actions()
                if st.to_move != st.seat_of[st.realm]:
                    other_seat += 1
        assert st.to_move is None and st.end_reason in ("victory", "round limit")
    assert kinds.get("move", 0) > 0 and kinds.get("income", 0) > 0
    assert other_seat > 0


def test_view_hides_hands_decks_and_facedown_tiles_from_other_seats() -> None:
    """Hidden information: "hands and facedown tiles are absent from `view` of other seats" — no id of a card
    in another seat's hand, in a deck or pile, nor of a facedown Guardian, appears anywhere in the view."""
    tiles = set(guardian_tiles())
    checked = 0
    for seed in range(2):
        for k, st in enumerate(_random_game(seed, length="long")):
            if k % 41:
                continue
            for seat in range(st.players):
                doc = st.view(seat)
                text = json.dumps(doc)
                hidden = set()
                for r in range(4):
                    hidden.update(st.decks[r])
                    if st.seat_of[r] != seat:
                        hidden.update(st.hands[r])
                        hidden.update(st.treasures[r])
                        assert doc["event_hands"][REALMS[r]] == len(st.hands[r])
                        # "discard it facedown", but every seat saw it played: the public history shows it
                        assert doc["event_discards"][REALMS[r]] == st.discards[r]
                        assert doc["treasure_hands"][REALMS[r]] == len(st.treasures[r])
                    else:
                        assert doc["event_hands"][REALMS[r]] == st.hands[r]
                hidden.update(st.treasure_deck)
                hidden.update(st.guardian_pile)
                for gs in st.guardians.values():
                    hidden.update(g[0] for g in gs if not g[1])
                # the Guardians of the battle being fought were shown face up (a defeated one's tile is back in
                # the pile, and may even be drawn again facedown): naming them tells nothing hidden
                hidden -= set(st.battle.guardian_tiles if st.battle else ())
                # a card id in the (public) discards may also be in a deck or hand: naming it there tells nothing
                hidden -= {c for r in range(4) for c in st.discards[r]}
                for cid in hidden:
                    assert f'"{cid}"' not in text, (seat, cid)
                for gs in doc["guardians"].values():
                    for g in gs:
                        assert g["face_up"] or (g["tile"] == "facedown" and g["dice"] == [])
                assert all(isinstance(v, int) for v in doc["event_decks"].values())
                checked += 1
            # the referee's view (seat None) and the full state keep everything
            full = json.dumps(st.to_json())
            assert all(f'"{c}"' in full for h in st.hands for c in h)
    assert checked > 50
    assert tiles  # the tile table is loaded


def test_game_stats_are_numbers_or_short_strings() -> None:
    """The statistics hook for `conquest simulate --json`: every value a number or a short string."""
    for st in _random_game(3):  # noqa: B007 - the game is played out; st is its last state
        pass
    stats = RULESET.game_stats(st)
    for key in ("end_reason", "rounds", "battles", "explored", "plundered", "treasures_won",
                "treasures_played", "events_played", "events_out_of_turn"):
        assert key in stats
    for v in stats.values():
        assert isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, str) and len(v) <= 20
    assert stats["end_reason"] in ("victory", "round limit")
    assert stats["events_played"] > 0
    assert RULESET.game_stats(RULESET.new_game(4, {}, 0))["end_reason"] == "unfinished"
    assert treasure_cards()


def test_log_hides_draws_from_other_seats() -> None:
    """The draw and flip are chance outcomes in the record, but a card drawn into a hand is seen only by its
    holder, and a facedown Guardian tile by nobody ("place it facedown")."""
    st = RULESET.new_game(4, {}, 0)
    assert st.phase == "deal" and st.dealing_guardians
    g = st.chance_outcomes()[0][0]
    after = st.apply(g)
    assert [RULESET.log_visible(st, g, after, s) for s in [0, 1, 2, 3, None]] == [False] * 5
    while st.dealing_guardians:
        st = st.apply(st.chance_outcomes()[0][0])
    normal = next(a for a, _ in st.chance_outcomes() if not event_cards()[a[1]].get("immediate"))
    after = st.apply(normal)
    assert [RULESET.log_visible(st, normal, after, s) for s in range(4)] == [True, False, False, False]
    immediate = next(a for a, _ in st.chance_outcomes() if event_cards()[a[1]].get("immediate"))
    assert all(RULESET.log_visible(st, immediate, st.apply(immediate), s) for s in range(4))
    # a spectator's view shows no hand (only how many cards it holds): nor does its log show the card drawn
    assert not RULESET.log_visible(st, normal, after, None)
    assert isinstance(after.view(None)["event_hands"]["karkoth"], int)
    assert RULESET.log_visible(st, immediate, st.apply(immediate), None)


def test_every_treasure_scores_1_to_3_vp_and_the_loader_refuses_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """"1-3 VP Play a Treasure card": every card of treasures.yaml scores 1 to 3, and a card file giving one
    0 VP is refused by name."""
    assert all(1 <= c["vp"] <= 3 for c in treasure_cards().values())
    bad = {"cards": [{"id": "empty-chest", "name": "Empty Chest", "vp": 0, "power": [], "property": []}]}
    monkeypatch.setattr(cards_module.yaml, "safe_load", lambda _text: bad)
    treasure_cards.cache_clear()
    try:
        with pytest.raises(DataError, match="empty-chest: vp must be 1 to 3"):
            treasure_cards()
    finally:
        monkeypatch.undo()
        treasure_cards.cache_clear()
    assert "empty-chest" not in treasure_cards()


def test_no_event_card_scores_vp_and_the_loader_refuses_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """"You score VP for conquering enemy land spaces and claiming Treasures": our Event decks add no third
    source of VP, and an Event card file giving VP is refused by name."""
    assert not any(e[0] == "vp" for c in event_cards().values() for e in c["effects"])
    bad = {"cards": {"karkoth": [{"id": "glory", "name": "Glory", "immediate": False, "when": "any",
                                  "effects": [["vp", 1, "*"]]}]}}
    monkeypatch.setattr(cards_module.yaml, "safe_load", lambda _text: bad)
    event_cards.cache_clear()
    try:
        with pytest.raises(DataError, match=r"glory: effect \['vp', 1, '\*'\] is not"):
            event_cards()
    finally:
        monkeypatch.undo()
        event_cards.cache_clear()
    assert "glory" not in event_cards()
