"""The kingdom log told as sentences (``kingdom/narrate.py``), from each seat's views."""

from __future__ import annotations

from conquest.core.registry import get_ruleset
from conquest.rulesets.kingdom.notation import NOTATION
from tests.narration import check_line, generic, play

RS = get_ruleset("kingdom")


def steps(seeds: range = range(1, 4), **kw: object) -> list:
    out = []
    for seed in seeds:
        out.extend(play("kingdom", seed=seed, steps=400, prefer=("move", "from", "go"), **kw))  # type: ignore[arg-type]
    return out


def test_every_verb_and_the_die_get_a_sentence() -> None:
    seen: dict[str, str] = {}
    for st in steps():
        for line in st.lines.values():
            check_line(line)
            assert not generic(RS, st, line), (st.notation, line)
        seen.setdefault(st.verb, st.lines[None]["text"])
    # companion mode: the Soldier tokens brought to the Conquest phase
    for st in play("kingdom", seed=1, steps=3, options={"mode": "companion"}):
        if st.verb == "soldiers":
            seen["soldiers"] = st.lines[None]["text"]
            assert "Soldier token" in st.lines[None]["text"]
    assert set(NOTATION.forms) == set(seen), set(NOTATION.forms) ^ set(seen)


def test_a_move_into_enemy_armies_sends_them_home() -> None:
    """"All enemy armies in the destination territory return to their castle, and you return the same number
    of armies from this territory to your castle." (rules 002) — said in the sentence of the move."""
    found = False
    for st in steps(range(1, 8)):
        if st.verb == "go" and "go home" in st.lines[None]["text"]:
            found = True
            line = st.lines[None]
            assert line["kind"] == "battle"
            mover = st.before.to_move
            victim_line = st.lines[1 - mover]
            assert "of your armies go home" in victim_line["text"]
            assert st.lines[mover]["text"].startswith("You move")
            assert line["changed"], "the regions of the move are marked"
            break
    assert found, "no move into enemy armies in these games"


def test_the_soldier_die_is_a_die_with_who_rolled_it() -> None:
    st = next(s for s in steps(range(1, 2)) if s.verb == "roll")
    line = st.lines[None]
    assert line["kind"] == "dice" and line["group"].startswith("income-")
    (d,) = line["dice"]
    assert d["die"] == "d6" and d["value"] == int(st.notation.split()[1]) and "Soldier token" in d["outcome"]
    assert d["who"] in ("Red", "Blue")


def test_a_move_is_one_group_from_start_to_go() -> None:
    seq = [s for s in steps(range(1, 2)) if s.verb in ("move", "from", "go")]
    start = next(i for i, s in enumerate(seq) if s.verb == "move")
    group = seq[start].lines[None]["group"]
    i = start + 1
    while seq[i].verb == "from":
        assert seq[i].lines[None]["group"] == group
        i += 1
    assert seq[i].verb == "go" and seq[i].lines[None]["group"] == group


def test_the_last_line_breaks_the_score_down() -> None:
    """The score is the territories' VP plus the production points: the line that ends the game gives both."""
    last = list(play("kingdom", seed=2, steps=2000))[-1]
    assert last.after.to_move is None
    final = last.lines[None]["final"]
    scores = last.after.scores()
    for p, row in enumerate(final):
        parts = dict(row["parts"])
        assert parts["territories (VP)"] + parts["production points"] == row["total"] == scores[p]
