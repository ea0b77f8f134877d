"""The Small World log told as sentences (``smallworld/narrate.py``), from each seat's views: every word of the
notation and every chance outcome, the conquest summary, and coins that stay secret."""

from __future__ import annotations

import re
from functools import lru_cache

from conquest.core.registry import get_ruleset
from conquest.rulesets.smallworld.notation import VERBS
from tests.narration import Step, play, told_words

RS = get_ruleset("smallworld")
# fixed combos at the top of the column, so that every power's action comes up
COLUMNS = ["sorcerers:dragon-master,humans:fortified", "sorcerers:bivouacking,humans:heroic",
           "humans:fortified,sorcerers:dragon-master", ""]


@lru_cache(maxsize=1)
def games() -> tuple[Step, ...]:
    out: list[Step] = []
    for col in COLUMNS:
        for seed in (1, 2):
            out.extend(play("smallworld", seed=seed, steps=600, options={"column": col},
                            prefer=("pick", "dragon", "convert", "camp", "fortress", "conquer", "decline", "hero",
                                    "peace", "berserk", "final")))
    return tuple(out)


def test_every_word_and_chance_outcome_gets_a_sentence() -> None:
    seen = told_words(RS, games())
    words = set(VERBS) | {"conquer", "final", "dragon", "convert", "abandon", "camp", "fortress", "hero"}
    assert words <= seen, words - seen


def test_a_conquest_says_what_the_defender_lost() -> None:
    """"the owner of the region's tokens must immediately remove them ... one of these tokens is discarded,
    the others are taken back in hand" (003): the sentence counts both."""
    for st in games():
        text = st.lines[None]["text"]
        m = re.search(r"the (\w+) lose (\d+) tokens?(?:, (\d+) goe?s? back to their hand)?", text)
        if st.verb == "conquer" and m:
            assert m.group(2) == "1", text
            line = st.lines[None]
            assert line["kind"] == "battle" and line["group"].startswith("conquest-")
            assert st.notation.split()[1] in line["changed"]
            return
    raise AssertionError("no conquest of another race's region in these games")


def test_the_reinforcement_die_is_shown_with_its_face_and_result() -> None:
    for st in games():
        if st.verb == "die" and st.before.view(None)["turn_state"]["final_region"]:
            line = st.lines[None]
            (d,) = line["dice"]
            assert d["die"] == "reinforcement die" and d["value"] == int(st.notation.split()[1])
            assert d["outcome"] in ("conquered", "not enough: the conquest fails")
            return
    raise AssertionError("no final conquest in these games")


def test_coins_are_told_to_their_owner_only() -> None:
    """Coin totals are secret (victory coins are kept face down): a seat's log tells its own coins, never
    another's."""
    own = 0
    for st in games():
        if st.verb != "end" or st.chance:
            continue
        mover = st.before.to_move
        for viewer, line in st.lines.items():
            if viewer == mover and "scores" in line["text"]:
                own += 1
                assert re.search(r"scores \d+ coins? \(\d+ in all\)", line["text"])
            if viewer != mover:
                assert "coin" not in line["text"], (viewer, line["text"])
    assert own, "a seat's own score was never told"


def test_the_last_line_turns_every_seats_coins_over() -> None:
    """"End: after the last turn of the turn track, the most coins wins" (smallworld-standard-rules.md): the
    coins kept face down during the game are counted at the end, so every row of the breakdown has its total
    (the web app's result table already shows every score once the game is over)."""
    from conquest.rulesets.smallworld.narrate import narrate
    from tests.narration import finished
    before, after = finished("smallworld", seed=3)
    for seat in range(after.players):
        line = narrate(before.view(seat), None, after.view(seat), seat, RS.seat_names(after.players, after.options))
        totals = [row.get("total") for row in line["final"]]
        assert totals == list(after.scores())
        # before the end, the others' coins stay face down in the seat's view
        assert all(st["coins"] is None for p, st in enumerate(before.view(seat)["seats"]) if p != seat)


def test_the_seat_that_moved_is_told_of_its_own_race_as_yours() -> None:
    """The log speaks to its reader: the seat that conquers reads "Your Orcs conquer ...", the others and the
    spectators read the seat's name ("Player 1's Orcs conquer ...")."""
    told = 0
    for st in games():
        if st.verb != "conquer" or st.chance:
            continue
        mover = st.before.to_move
        own, other = st.lines[mover]["text"], st.lines[None]["text"]
        assert own.startswith("Your "), own
        assert not other.startswith("Your ") and "'s " in other.split(" conquer ")[0], other
        told += 1
    assert told > 10
