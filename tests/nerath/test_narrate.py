"""The Nerath log told as sentences (``nerath/narrate.py``), from each seat's views: every word of the
notation and every chance outcome, battles (both sides, each side's dice, the result) as one group, and
cards that stay secret."""

from __future__ import annotations

from functools import lru_cache

from conquest.core.registry import get_ruleset
from conquest.rulesets.nerath.cards import event_cards
from conquest.rulesets.nerath.narrate import narrate
from conquest.rulesets.nerath.notation import WORDS
from tests.narration import Step, check_line, play, told_words

RS = get_ruleset("nerath")


@lru_cache(maxsize=1)
def games() -> tuple[Step, ...]:
    out: list[Step] = []
    for seed in (1, 2):
        out.extend(play("nerath", seed=seed, steps=700, players=2,
                        prefer=("battle", "press", "retreat", "amok", "withdraw-ship", "play")))
    return tuple(out)


def battle_view() -> tuple[dict, dict]:
    """A view in the middle of a battle (before and after one of its steps), for the rare words."""
    st = next(s for s in games() if s.before.view(None)["battle"] and s.verb == "hits")
    return st.before.view(0), st.after.view(0)


def test_every_word_and_chance_outcome_gets_a_sentence() -> None:
    seen = told_words(RS, games())
    # the rare ones, told from a real battle's views
    before, after = battle_view()
    names = RS.seat_names(2, before["options"])
    space = before["battle"]["space"]
    rare = {"amok": f"amok {space}", "stay": "stay", "withdraw-ship": "withdraw-ship 3 s5",
            "withdraw-aboard": "withdraw-aboard 3 footsoldier", "extra": "extra vailin",
            "split": "split vailin 1 nerath 2", "treasure": "treasure crown-of-ages"}
    for word, text in rare.items():
        action = RS.parse_action(text)
        b = dict(before, to_move="chance" if word in ("extra", "treasure") else 0)
        line = narrate(b, action, after, 0, names)
        check_line(line)
        assert not line["text"].startswith("Chance:") and text not in line["text"], line
        seen.add(word)
    assert set(WORDS) <= seen, set(WORDS) - seen


def test_an_attack_names_the_attacker_the_space_and_the_pieces() -> None:
    st = next(s for s in games() if s.verb == "move" and "attacks" in s.lines[None]["text"])
    text = st.lines[None]["text"]
    _, frm, to, piece, n = RS.parse_action(st.notation)
    assert text.startswith(("Karkoth attacks", "Vailin attacks", "The Iron Circle attacks", "Nerath attacks"))
    assert st.lines[None]["kind"] == "battle" and to in st.lines[None]["changed"]


def test_a_battle_is_one_group_with_both_sides_dice_and_a_result() -> None:
    """"Each side rolls ... every roll that meets or beats the number hits" (000): each side's roll is a line
    with its dice (how many of which die, the number needed) and the hits; the battle's lines share a group
    and the last one says how it ended."""
    seq = list(games())
    start = next(i for i, s in enumerate(seq) if s.verb == "battle" and s.lines[None].get("battle")
                 and s.lines[None]["battle"]["forces"]
                 and len(s.lines[None]["battle"]["forces"]) == 2)
    line = seq[start].lines[None]
    group = line["group"]
    assert line["battle"]["attacker"] in line["battle"]["forces"]
    members = [s for s in seq if s.lines[None].get("group") == group]
    rolls = [(s.notation, s.lines[None]) for s in members if s.verb == "hits"]
    assert {r["side"] for _n, r in rolls} == {"attacker", "defender"}
    for notation, r in rolls:
        assert r["hits"] == int(notation.split()[1]) and f"{r['hits']} hit" in r["text"]
        for d in r["dice"]:  # one die each: its face and whether it hit (illustrative faces, docs/rules/nerath.md)
            faces, need = int(d["die"][1:]), int(d["need"][:-1])
            assert 1 <= d["value"] <= faces and d["hit"] == (d["value"] >= need)
        assert sum(d["hit"] for d in r["dice"]) == min(r["hits"], len(r["dice"]))
    ends = [s.lines[None]["battle_end"] for s in members if "battle_end" in s.lines[None]]
    assert len(ends) == 1 and ends[0]["space"] == line["battle"]["space"] and ends[0]["result"]


def test_an_event_card_is_named_to_its_realm_only() -> None:
    """Event hands are hidden from other seats: a drawn card (not Play Immediately) is "an Event card" to
    them."""
    told = 0
    for st in games():
        if st.verb != "draw":
            continue
        card = event_cards()[st.notation.split()[1]]
        for viewer, line in st.lines.items():
            if viewer in st.hidden_from:
                assert card["name"] not in line["text"] and line["text"].endswith("draws an Event card")
            else:
                told += 1
                assert card["name"] in line["text"]
    assert told


def test_no_line_names_a_card_its_seat_cannot_see() -> None:
    """A seat's lines name no Event card held in a hand its view hides (compared with the referee's state)."""
    for st in games():
        full = st.after.to_json()
        for viewer, line in st.lines.items():
            view = st.after.view(viewer)
            for realm, hand in full["event_hands"].items():
                if isinstance(view["event_hands"][realm], list):
                    continue
                for cid in hand:
                    assert event_cards()[cid]["name"] not in line["text"] or st.notation.startswith("play"), \
                        (viewer, line["text"])


def test_the_last_line_gives_every_realms_victory_points() -> None:
    from tests.narration import finished
    before, after = finished("nerath", seed=3)
    line = narrate(before.view(0), None, after.view(0), 0, RS.seat_names(after.players, after.options))
    assert line["kind"] == "end" and "The game is over" in line["text"]
    assert [row["total"] for row in line["final"]] == list(after.scores())


def test_a_card_is_played_by_its_realm_even_in_anothers_turn() -> None:
    """A battle's card window opens for each side in turn: the line names the realm whose card it is."""
    from conquest.rulesets.nerath.narrate import SHORT, cap
    plays = [s for s in games() if s.verb == "play" and s.notation.split()[1] in event_cards()]
    assert plays
    for st in plays:
        realm = event_cards()[st.notation.split()[1]]["realm"]
        assert st.lines[None]["text"].startswith(f"{cap(SHORT[realm])} plays"), st.lines[None]["text"]
