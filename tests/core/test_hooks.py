"""Every hook the generic layers call is declared on ``Ruleset`` (conquest/core/game.py) with a type, a docstring
and a default (issue 28), and the defaults do what their docstrings say for a game that declares nothing."""

from __future__ import annotations

import inspect
import random

import pytest

from conquest.core.calculator import Calculator
from conquest.core.game import CHANCE, Ruleset
from conquest.core.registry import rulesets

HOOKS = ("board_json", "seat_names", "render_text", "help_terms", "log_visible", "seat_factions", "round_of",
         "faction_rotation", "faction_opening", "confirm_text", "has_odds", "calculator", "action_odds",
         "describe_action", "narrate", "log_names", "game_stats", "determinize", "evaluate", "variant_schema")


@pytest.mark.parametrize("name", HOOKS)
def test_each_hook_is_declared_with_a_type_and_a_docstring(name: str) -> None:
    fn = Ruleset.__dict__.get(name)
    assert callable(fn), f"Ruleset.{name} is not declared on Ruleset"
    assert not getattr(fn, "__isabstractmethod__", False), f"Ruleset.{name} has no default"
    assert inspect.getdoc(fn), f"Ruleset.{name} has no docstring"
    sig = inspect.signature(fn)
    assert sig.return_annotation is not inspect.Signature.empty, f"Ruleset.{name} has no return type"
    assert all(p.annotation is not inspect.Parameter.empty for p in list(sig.parameters.values())[1:]), name


def _plain() -> Ruleset:
    """A game that overrides no hook: the toy of the web tests without its board and its confirmation."""
    from tests.web.toy import PLAIN
    return PLAIN


def test_the_defaults_of_a_game_that_declares_nothing() -> None:
    rs = _plain()
    st = rs.new_game(2)
    while st.to_move == CHANCE:
        st = st.apply(st.legal_actions()[0])
    view = st.view(st.to_move)
    assert Ruleset.board_json(rs, view, 0) is None
    assert Ruleset.confirm_text(rs, view, ("end",)) is None
    assert Ruleset.calculator(rs) is None
    assert Ruleset.log_visible(rs, st, ("end",), st.apply(("end",)), 1) is None
    assert Ruleset.seat_factions(rs, None, st) == [{}, {}]
    assert Ruleset.round_of(rs, st) is None
    assert Ruleset.faction_rotation(rs, 2, {}) is None and Ruleset.faction_opening(rs, st, ["a"]) == []
    assert Ruleset.seat_names(rs, 3, {}) == ["Player 1", "Player 2", "Player 3"]
    # nothing may be varied: no variant option, and a variant is refused in one line
    from conquest.core.errors import OptionError
    from conquest.core.variants import normalize_variant
    assert Ruleset.variant_schema(rs) is None and "variant" not in [o.name for o in rs.options().options]
    with pytest.raises(OptionError, match="declares nothing that a variant may change"):
        normalize_variant(rs, {"name": "x"})
    # odds beside an action that leads straight into dice (the end of the turn rolls a die), not elsewhere
    assert Ruleset.has_odds(rs, st, ("end",)) is True
    assert Ruleset.has_odds(rs, st, ("place", "north")) is False
    assert Ruleset.has_odds(rs, st, ("place", "nowhere-at-all")) is False   # a crash in apply is no odds


def _positions(rs: Ruleset, n: int = 400, seed: int = 1):
    rng = random.Random(seed)
    st = rs.new_game()
    for _ in range(n):
        if st.to_move is None:
            st = rs.new_game(seed=rng.randrange(100))
        if st.to_move != CHANCE:
            yield st
        st = st.apply_unchecked(rng.choice(list(st.legal_actions())))


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_confirmations_and_odds_flags_are_cheap_and_well_formed(rid: str) -> None:
    """Each game's confirm_text answers a question or None, and has_odds a bool, for every legal action of
    positions of a random game (the page asks both for every legal action it shows)."""
    rs = rulesets()[rid]
    for st in _positions(rs):
        view = st.view(st.to_move)
        for a in list(st.legal_actions())[:60]:
            q = rs.confirm_text(view, a)
            assert q is None or (isinstance(q, str) and "?" in q), (rid, a, q)
            assert isinstance(rs.has_odds(st, a), bool)


def test_a_calculator_declares_its_fields_and_answers_both_ways() -> None:
    for rs in rulesets().values():
        calc = rs.calculator()
        if calc is None:
            continue
        assert isinstance(calc, Calculator) and calc.title and calc.fields
        names = [f.name for f in calc.fields]
        assert len(set(names)) == len(names) and all(f.kind in ("text", "flag") for f in calc.fields)
        assert isinstance(calc.describe(), dict)


@pytest.mark.parametrize("rid, view, text, asks", [
    # the questions the page used to hard-code in log.js, now each game's own confirm_text
    ("smallworld", {}, "decline", "Go into decline?"),
    ("smallworld", {"phase": "conquer", "turn_state": {"race": "x"}, "races": {"x": {"hand": 3}}}, "end",
     "Stop conquering with 3 token(s) still in hand?"),
    ("smallworld", {"phase": "conquer", "turn_state": {"race": "x"}, "races": {"x": {"hand": 0}}}, "end", None),
    ("smallworld", {"phase": "redeploy"}, "end", None),
    ("kingdom", {"soldiers": [2, 0], "current": 0}, "stop", "Stop your conquest with 2 Soldier token(s) left?"),
    ("kingdom", {"soldiers": [0, 4], "current": 0}, "stop", None),
    ("nerath", {}, "retreat", "Retreat?"),
    ("nerath", {"phase": "move"}, "done", "End the Move step?"),
    ("nerath", {"phase": "buy"}, "done", None),
    ("narby", {"actions_left": 2}, "end", "End your turn with 2 action(s) left?"),
    ("narby", {"actions_left": 0}, "end", None),
    ("narby", {}, "abandon 3,4", "Take back this claim ring?"),
])
def test_each_games_confirmation(rid: str, view: dict, text: str, asks: str | None) -> None:
    rs = rulesets()[rid]
    q = rs.confirm_text(view, rs.parse_action(text))
    assert (q is None) if asks is None else (q is not None and q.startswith(asks)), q


def test_narrate_defaults_to_the_narrate_module_of_the_rulesets_package() -> None:
    """The default ``narrate`` tells the line with ``<package>.narrate.narrate`` when the ruleset's package has
    one (kingdom, narby, nerath, smallworld keep no copy of the override), also for a subclass defined elsewhere, and
    falls back to who acted and the notation when it has none (the toy of the web tests)."""
    from conquest.core.game import package_narrator
    from conquest.rulesets.kingdom.narrate import narrate as kingdom_narrate
    from conquest.rulesets.kingdom.ruleset import KingdomRuleset
    from conquest.rulesets.narby.narrate import narrate as narby_narrate
    from conquest.rulesets.narby.ruleset import NarbyRuleset
    from conquest.rulesets.nerath.narrate import narrate as nerath_narrate
    from conquest.rulesets.nerath.ruleset import NerathRuleset
    from conquest.rulesets.smallworld.narrate import narrate as smallworld_narrate
    from conquest.rulesets.smallworld.ruleset import SmallWorldRuleset

    assert package_narrator(KingdomRuleset) is kingdom_narrate
    assert package_narrator(NarbyRuleset) is narby_narrate
    assert package_narrator(SmallWorldRuleset) is smallworld_narrate
    assert package_narrator(NerathRuleset) is nerath_narrate
    for cls in (KingdomRuleset, NarbyRuleset, NerathRuleset, SmallWorldRuleset):
        assert "narrate" not in cls.__dict__, f"{cls.__name__} still overrides narrate"

    class Variant(KingdomRuleset):  # a subclass in a package without a narrate module
        pass
    assert package_narrator(Variant) is kingdom_narrate
    assert package_narrator(type(_plain())) is None

    rs = KingdomRuleset()
    st = rs.new_game(2, None, 1)
    a = st.legal_actions()[0]
    after = st.apply(a)
    before_view, after_view = st.view(0), after.view(0)
    names = rs.seat_names(2, before_view["options"])
    assert rs.narrate(before_view, a, after_view, 0) == kingdom_narrate(before_view, a, after_view, 0, names)
