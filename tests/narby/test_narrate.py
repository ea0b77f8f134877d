"""The Narby log told as sentences (``narby/narrate.py``), from each seat's views: every word of the notation
and every chance outcome, the two-d20 locations as one event, and cards that stay secret."""

from __future__ import annotations

from functools import lru_cache

from conquest.core.registry import get_ruleset
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.narrate import card_name, narrate
from conquest.rulesets.narby.notation import KEY_WORDS, NO_ARG, SQ_WORDS
from tests.narration import Step, play, told_words

RS = get_ruleset("narby")


@lru_cache(maxsize=1)
def games() -> tuple[Step, ...]:
    out: list[Step] = []
    for seed in (1, 2, 3):
        out.extend(play("narby", seed=seed, steps=900,
                        prefer=("attack", "steal", "power", "destroy", "play", "claim", "upgrade")))
    return tuple(out)


def test_every_word_and_chance_outcome_gets_a_sentence() -> None:
    seen = told_words(RS, games())
    words = KEY_WORDS | NO_ARG | SQ_WORDS | {"attack", "steal", "play", "choose", "roll", "card", "token"}
    assert words <= seen, words - seen


def test_using_a_place_of_power_is_told() -> None:
    """A place of power's power ("power PLACE [ARG]"), rare in random play: the sentence names the place."""
    st = next(s for s in games() if s.verb == "move")
    view = st.before.view(0)
    names = RS.seat_names(2, view["options"])
    line = narrate(view, RS.parse_action("power darkheart_cottage"), view, 0, names)
    assert "uses the power of Darkheart Cottage" in line["text"] and line["kind"] == "card"
    line = narrate(view, RS.parse_action("power tower_of_unquenched_flame 13,16"), view, 0, names)
    assert "Tower of Unquenched Flame (column 13, row 16)" in line["text"]


def test_claiming_two_at_once_is_told() -> None:
    """Citadel of Torture: "May claim two settlements adjacent to dragon as a single action" — a rare action;
    its sentence names both squares."""
    st = next(s for s in games() if s.verb == "claim")
    view = st.before.view(0)
    a, b = B.parse_sq("3,4"), B.parse_sq("4,4")
    line = narrate(view, ("claim2", a, b), view, 0, RS.seat_names(2, view["options"]))
    assert "claims" in line["text"] and "column 3, row 4" in line["text"] and "column 4, row 4" in line["text"]


def test_a_location_of_two_d20_is_one_event() -> None:
    """"roll two d20 for the location" (the cave, a settlement, a place of power, the chest): the column and
    the row are two chance outcomes with one group."""
    seq = list(games())
    for i, st in enumerate(seq[:-1]):
        node = st.before.view(None)["node"]
        if node in ("settle_x", "cave_x", "chest_x", "pop_x"):
            nxt = seq[i + 1]
            if nxt.before.view(None)["node"] != node[:-1] + "y":  # the game stopped between the two dice
                continue
            x, y = st.lines[None], nxt.lines[None]
            assert x["group"] == y["group"], (st.notation, nxt.notation)
            assert x["dice"][0]["value"] == int(st.notation.split()[1])
            assert y["dice"][0]["value"] == int(nxt.notation.split()[1])
            assert "column" in x["text"] and "row" in y["text"]
    assert any(s.before.view(None)["node"] == "settle_x" for s in seq)


def test_tribute_steal_and_attack_rolls_say_who_rolled_and_what_came_of_it() -> None:
    kinds = set()
    for st in games():
        if st.verb != "roll" or st.before.view(None)["node"] != "roll":
            continue
        ev = st.before.view(None)["event"]
        line = st.lines[None]
        (d,) = line["dice"]
        assert d["die"] == "d20" and d["value"] == int(st.notation.split()[1]) and d["who"]
        if ev["type"] == "tribute":
            assert "collects tribute" in line["text"] and "coin" in d["outcome"]
        if ev["type"] == "steal":
            assert "steals from" in line["text"]
        if ev["type"] == "attack" and "first" in ev:
            assert "wins" in d["outcome"]
        kinds.add(ev["type"])
    assert {"tribute", "steal", "attack", "destroy"} <= kinds, kinds


def test_a_drawn_card_is_named_to_its_owner_only() -> None:
    """Another seat's card is "hidden" in a seat's view: its log says "draws a card"."""
    told = 0
    for st in games():
        if st.verb != "card":
            continue
        drawer = st.before.view(None)["step"]
        name = card_name(st.notation.split()[1])
        for viewer, line in st.lines.items():
            if viewer == drawer:
                told += 1
                assert name in line["text"]
            else:
                assert viewer in st.hidden_from and name not in line["text"], (viewer, line["text"])
                assert line["text"].endswith("draws a card")
    assert told


def test_the_last_line_breaks_the_score_down() -> None:
    """A dragon's score is its coins plus its treasure tokens: the line that ends the game gives both."""
    from tests.narration import finished
    before, after = finished("narby", seed=3)
    action = None  # the breakdown is read from the views alone
    line = narrate(before.view(0), action, after.view(0), 0, RS.seat_names(after.players, after.options))
    for p, row in enumerate(line["final"]):
        parts = dict(row["parts"])
        assert parts["coins"] + parts["treasure tokens"] == row["total"] == after.scores()[p]
