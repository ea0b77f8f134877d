"""Who may read each log entry and which actions undo may cross, derived from ``view(seat)`` alone."""

from __future__ import annotations

from typing import Any

from conquest.web.games import action_visibility, hidden_part, hidden_parts
from tests.web.toy import TOY, ToyRuleset, ToyState


def dealt(first: int = 2, second: int = 3) -> Any:
    return TOY.new_game(2, {}, 0).apply(f"deal 0 {first}").apply(f"deal 1 {second}")


def vis(before: Any, text: str, **kw: Any) -> tuple[list[int | None], bool]:
    after = before.apply(text)
    return action_visibility(before, TOY.parse_action(text), after, hidden_parts(before), hidden_parts(after),
                             **kw)


def test_hidden_part_is_what_the_view_does_not_show() -> None:
    s = dealt()
    full = s.to_json()
    assert hidden_part(full, full) == frozenset()
    assert hidden_part(full, s.view(0)) == frozenset({(("secret", 1), repr("zq1x3"))})
    assert hidden_part(full, s.view(None)) == frozenset({(("secret", 0), repr("zq0x2")),
                                                         (("secret", 1), repr("zq1x3"))})


def test_a_card_dealt_is_hidden_from_the_others_and_a_die_is_public() -> None:
    s = TOY.new_game(2, {}, 0).apply("deal 0 1")
    assert vis(s, "deal 1 2") == ([None, 0], True)  # seat 1 sees its own card; seat 0 and spectators not
    s = dealt().apply("end")
    # every face but a 6 leaves the same state: the referee cannot tell them apart either, so it is public
    assert vis(s, "roll 3") == ([], True)
    assert vis(s, "roll 6") == ([], True)


def test_public_moves_are_shown_and_can_be_undone_but_a_peek_cannot() -> None:
    s = dealt()
    assert vis(s, "place north") == ([], False)
    assert vis(s, "peek") == ([], True)  # the peek reveals seat 1's card to seat 0: no undo across it


def test_an_exhausted_search_hides_rather_than_leaks() -> None:
    s = TOY.new_game(2, {}, 0).apply("deal 0 1")
    hidden, _ = vis(s.apply("deal 1 2").apply("end"), "roll 2", budget=0.0)
    assert hidden == [None, 0, 1]


def test_a_ruleset_may_answer_for_itself() -> None:
    class Secretive(ToyRuleset):
        id = "secretive"

        def log_visible(self, before: Any, action: Any, after: Any, seat: int | None) -> bool | None:
            return False if action[0] == "place" else None

    class SecretiveState(ToyState):
        pass

    Secretive.state_class = SecretiveState  # before the instance: Ruleset() binds its state class to itself
    rs = Secretive()
    s = rs.new_game(2, {}, 0).apply("deal 0 2").apply("deal 1 3")
    after = s.apply("place north")
    hidden, _ = action_visibility(s, ("place", "north"), after, hidden_parts(s), hidden_parts(after))
    assert hidden == [None, 1]
