"""What a Nerath player reads at the table: actions in words with no space id, prompts that name the question,
battle lines that name every defender (a Castle too) and never "against no one", illustrative dice consistent
with the hits, and the headlines "since your turn" (docs/rules/nerath.md, "Dice in the battle window")."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

from conquest.core.game import CHANCE
from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.state import IDS
from conquest.rulesets.nerath.webboard import board_json, card_effect, prompt

RS = get_ruleset("nerath")
SPACE_ID = re.compile(r"\b(" + "|".join(map(re.escape, IDS)) + r")\b")
DICE = re.compile(r"\b(?:\d+ |its |a )d(?:4|6|8|10|12|20)\b")


@lru_cache(maxsize=1)
def steps() -> list[tuple[Any, Any, Any]]:
    """(state before, action, state after) of three random 4-realm games."""
    out = []
    for seed in range(3):
        st = RS.new_game(4, {}, seed=seed)
        rng = random.Random(seed)
        for _ in range(2500):
            if st.is_terminal():
                break
            if st.to_move == CHANCE:  # a chance outcome drawn with its probability
                outs = st.chance_outcomes()
                a = rng.choices([o for o, _p in outs], weights=[p for _o, p in outs])[0]
            else:
                a = rng.choice(st.legal_actions())
            nxt = st.apply(a)
            out.append((st, a, nxt))
            st = nxt
    return out


def test_no_action_text_names_a_space_id_and_card_plays_carry_their_text() -> None:
    verbs, cards = set(), 0
    for st, _a, _n in steps()[::3]:
        if st.to_move == CHANCE:
            continue
        for a in st.legal_actions():
            text = RS.describe_action(st, a)
            assert not SPACE_ID.search(DICE.sub("", text)), text
            verbs.add(a[0])
            if a[0] == "play":
                assert card_effect(a[1]) in text
                cards += 1
    assert {"move", "battle", "hit", "press", "buy", "done", "play"} <= verbs and cards


def test_no_log_line_names_a_space_id() -> None:
    for st, a, nxt in steps():
        for seat in (None, 0):
            line = RS.narrate(st.view(seat), a, nxt.view(seat), seat)
            assert not SPACE_ID.search(DICE.sub("", line["text"])), line["text"]
            assert not SPACE_ID.search(line.get("news", "")), line["news"]


def test_a_battle_line_names_every_defender_or_says_no_one_defends() -> None:
    """"against no one" was written when only a Castle defended (and the Castle then rolled) or nobody did."""
    castle = unopposed = 0
    for st, a, nxt in steps():
        if a[0] != "battle":
            continue
        line = RS.narrate(st.view(None), a, nxt.view(None), None)
        assert "no one" not in line["text"] or "no one defends it" in line["text"]
        if "no one defends it" in line["text"]:
            unopposed += 1
            # no dice follow (a Monster that took it may still run amok); the last battle of the step may be
            # followed by the Guardian tiles of a dungeon won earlier in the turn, drawn as Reposition begins
            assert nxt.to_move != CHANCE or nxt.battle is None and nxt.phase == "reposition" and nxt.dealing_guardians
        elif "Castle" in line["text"] and line["text"].endswith("'s Castle"):
            castle += 1
            assert nxt.view(None)["battle"] is not None  # a battle is fought against the Castle
    assert castle and unopposed


def test_each_die_has_a_face_consistent_with_the_hits_and_the_same_on_every_telling() -> None:
    rolls = 0
    for st, a, nxt in steps():
        if a[0] != "hits" or not st.view(None).get("battle"):
            continue
        line = RS.narrate(st.view(None), a, nxt.view(None), None)
        again = RS.narrate(st.view(None), a, nxt.view(None), None)
        assert line["dice"] == again["dice"]
        for d in line["dice"]:
            faces, need = int(d["die"][1:]), int(d["need"][:-1])
            assert 1 <= d["value"] <= faces and d["hit"] == (d["value"] >= need) or need > faces
        assert sum(d["hit"] for d in line["dice"]) == min(a[1], len(line["dice"]))
        rolls += 1
    assert rolls > 50


def test_the_set_up_is_no_news_and_conquests_are() -> None:
    took = 0
    for st, a, nxt in steps():
        line = RS.narrate(st.view(0), a, nxt.view(0), 0)
        if st.view(None)["phase"] == "deal":
            assert line["changed"] == []
        if " took " in line.get("news", ""):
            took += 1
            assert line["tint"].startswith("#")
    assert took


def test_prompts_name_the_question() -> None:
    seen: dict[str, str] = {}
    for st, _a, _n in steps():
        seat = st.to_move
        if seat == CHANCE or seat is None:
            continue
        p = prompt(st.view(seat), seat)
        assert p is not None and p["text"]
        assert not SPACE_ID.search(p["text"]), p["text"]
        b = st.view(seat).get("battle") or {}
        key = b.get("step") if b.get("step") in ("assign", "press", "window") else st.view(seat)["phase"]
        seen.setdefault(key, p["text"])
        if "must leave it: choose the exit" in p["text"]:  # Heroes that plundered a dungeon
            seen.setdefault("exit", p["text"])
        if key == "assign" and "hits" in p:
            assert "choose your casualties" in p["text"] and "{nth}" in p["text"]
        assert prompt(st.view(seat), (seat + 1) % 4) is None  # not that seat's question
    assert "Press on for another round, or retreat?" in seen["press"]
    assert "play one of these cards now, or none?" in seen["window"]
    assert seen["reposition"].startswith("Reposition step") and seen["reinforce"].startswith("Reinforce step")
    assert "exit" in seen and "Heroes in" in seen["exit"]


def test_the_board_is_laid_out_legibly_and_opens_on_the_seats_realm() -> None:
    st = RS.new_game(4, {}, seed=1)
    b = board_json(st.view(0), 0)
    assert b["legible"]["name_px"] >= 11 and b["legible"]["count_px"] >= 12
    assert "k01" in b["legible"]["focus"] or b["legible"]["focus"]  # Karkoth's spaces
    assert all(sp.startswith("k") or sp.startswith("d") for sp in b["legible"]["focus"])
    assert sum(1 for r in b["regions"].values() if r.get("ring")) == 4
