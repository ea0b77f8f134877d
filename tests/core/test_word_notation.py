"""core.notation.WordNotation, the one notation toolkit of every ruleset (issue 29): the shapes of a word,
kinds with their own writer, a word spelled for another action name with a check, the messages of a missing or
an unexpected argument, and that every ruleset's notation is one."""

from __future__ import annotations

import pytest

from conquest.core.errors import NotationError
from conquest.core.notation import WordNotation
from conquest.core.registry import rulesets


def _square(tok: str) -> int:
    x, _, y = tok.partition(",")
    if not (x.isdigit() and y.isdigit()):
        raise ValueError(f"'{tok}' is not a square x,y")
    return (int(y) - 1) * 10 + int(x) - 1


def _square_text(v: object) -> str:
    if type(v) is not int:
        raise TypeError("a square is an index")
    return f"{v % 10 + 1},{v // 10 + 1}"


def _pair(action: tuple) -> tuple:
    if action[1] == action[2]:
        raise ValueError("two different squares")
    return ("pair", min(action[1], action[2]), max(action[1], action[2]))


N = WordNotation("test", {
    "take": ["sq"], "pair": ["sq", "sq"], "give": [["int"], ["=all"]], "put": [["colour", "sq"], ["=here", "int"]],
    "send": ["id", "int"],
}, kinds={"sq": (_square, _square_text), "colour": lambda t: t if t in ("red", "blue") else
          (_ for _ in ()).throw(ValueError(f"unknown colour '{t}'"))},
    spell={"pair": "take"}, check={"pair": _pair}, labels={"send": ("the target", "the count")},
    usage={"send": "send ID N"})


def test_kinds_with_a_writer_round_trip() -> None:
    assert N.parse("take 3,2") == ("take", 12)
    assert N.format(("take", 12)) == "take 3,2"


def test_a_word_spelled_for_another_action_with_its_check() -> None:
    assert N.parse("take 3,2 1,1") == ("pair", 0, 12) == N.parse("take 1,1 3,2")
    assert N.format(("pair", 0, 12)) == "take 1,1 3,2"
    with pytest.raises(NotationError, match="two different squares"):
        N.parse("take 1,1 1,1")


def test_format_takes_the_first_shape_whose_arguments_fit() -> None:
    assert N.format(("give", "all")) == "give all"
    assert N.format(("give", 3)) == "give 3"
    assert N.format(("put", "red", 11)) == "put red 2,2"
    assert N.format(("put", "here", 11)) == "put here 11"  # 'here' is no colour: the second shape writes it


def test_the_refusal_of_the_shape_that_read_most() -> None:
    with pytest.raises(NotationError, match="is not a square"):
        N.parse("put red x")  # the colour was read: the square is what is wrong
    with pytest.raises(NotationError, match="unknown colour 'green'"):
        N.parse("put green 3")  # no shape read its first argument: the first shape's refusal


def test_named_arguments_say_what_is_missing_or_extra() -> None:
    with pytest.raises(NotationError, match="the target and the count are missing \\(write send ID N\\)"):
        N.parse("send")
    with pytest.raises(NotationError, match="the count is missing"):
        N.parse("send bob")
    with pytest.raises(NotationError, match="unexpected 'now' \\(write send ID N\\)"):
        N.parse("send bob 2 now")
    with pytest.raises(NotationError, match="expected 'take SQ' or 'take SQ SQ'"):
        N.parse("take")


def test_every_ruleset_notation_is_a_word_notation() -> None:
    """"WordNotation for every notation" (issue 29): each ruleset's parse and format are one WordNotation's."""
    import importlib
    for rs in rulesets().values():
        module = importlib.import_module(f"conquest.rulesets.{rs.id}.notation")
        assert isinstance(module.NOTATION, WordNotation), rs.id
        assert module.parse_action == module.NOTATION.parse and module.format_action == module.NOTATION.format


def test_format_refuses_what_is_not_an_action_even_after_an_equal_one() -> None:
    """``True == 1``: the texts kept for the listings must not answer for a value that is not an action."""
    assert N.format(("give", 1)) == "give 1"
    for bad in [("give", True), ("give", 1.0), ["give", 1], (), ("nope",)]:
        with pytest.raises(NotationError):
            N.format(bad)
