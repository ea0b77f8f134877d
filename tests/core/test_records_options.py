"""Old saved games and records keep the options they were made with (issue 27): a record stores every option's
resolved value, so a default changed later changes no finished game; a record (or saved state) made before an
option existed is read with that option's ``legacy`` value, the rules it was played with."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from conquest.analysis.runner import sample_chance
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State
from conquest.core.records import Record, replay
from conquest.core.registry import get_ruleset

# the defaults that changed, with the value each had before (and the options that did not exist before)
OLD = {
    "narby": {"win_check": "round", "ties": "coins", "destroy_own_claims": False},
    "smallworld": {"convert_needs_token": False, "reinforcement_die": "each_race"},
    "nerath": {"heroes_need_lasts": "while_standing", "ally_split": "half"},
}
NEW_OPTIONS = {"narby": ["destroy_own_claims"], "smallworld": ["convert_needs_token", "reinforcement_die"],
               "nerath": ["ally_split"]}
PLAYERS = {"narby": 3, "smallworld": 3, "nerath": 2}


def random_record(ruleset: str, options: dict[str, Any], seed: int, max_steps: int = 6000) -> tuple[Record, State]:
    """A random game (random legal actions, chance drawn from the seed) made the way the CLI and the runner
    make records: the options stored are the new game's resolved ones."""
    rs = get_ruleset(ruleset)
    state = rs.new_game(PLAYERS[ruleset], options, seed)
    rec = Record(ruleset=rs.id, rules_version=rs.rules_version, players=state.players,
                 options=dict(state.options), seats=["random"] * state.players, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if state.to_move is None:
            break
        legal = list(state.legal_actions())
        action = sample_chance(state, rng) if state.to_move == CHANCE else legal[rng.randrange(len(legal))]
        rec.actions.append(rs.format_action(action))
        state = state.apply(action)
    res = state.result()
    rec.result = list(res) if res is not None else None
    return rec, state


def replays_the_same(doc: dict[str, Any], end: State) -> bool:
    """Whether the record document replays, with the options it holds, to the same final state."""
    try:
        got = replay(Record.from_json(json.loads(json.dumps(doc))))
    except ConquestError:
        return False
    return got.to_json() == end.to_json()


@pytest.mark.parametrize("ruleset", sorted(OLD))
def test_record_keeps_the_resolved_options(ruleset: str) -> None:
    rec, _end = random_record(ruleset, OLD[ruleset], 1, max_steps=50)
    rs = get_ruleset(ruleset)
    assert set(rec.options) == {o.name for o in rs.options().options}   # every option, resolved
    for name, value in OLD[ruleset].items():
        assert rec.to_json()["options"][name] == value


@pytest.mark.parametrize("ruleset", ["narby", "smallworld", "nerath"])
def test_a_record_made_with_the_old_default_replays_identically(ruleset: str) -> None:
    """A game played under the old defaults replays to the same end, whole; and the changed defaults would
    have played it otherwise (in at least one of the seeds tried), so the stored options are what keeps it."""
    differs = False
    for seed in range(6):
        rec, end = random_record(ruleset, OLD[ruleset], seed)
        doc = rec.to_json()
        assert replays_the_same(doc, end), (ruleset, seed)
        with_new_defaults = dict(doc, options={k: v for k, v in doc["options"].items() if k not in OLD[ruleset]})
        with_new_defaults["options"].update({k: get_ruleset(ruleset).options().resolve({})[k] for k in OLD[ruleset]})
        differs = differs or not replays_the_same(with_new_defaults, end)
        if differs:
            break
    assert differs, f"no game tried is played differently under the new {ruleset} defaults"


@pytest.mark.parametrize("ruleset", ["narby", "smallworld", "nerath"])
def test_a_record_from_before_an_option_existed_plays_by_the_old_rules(ruleset: str) -> None:
    """A record that does not name an option made later (it was written before the option existed) is read with
    the option's legacy value: the old rules it was played with."""
    rs = get_ruleset(ruleset)
    for seed in range(6):
        rec, end = random_record(ruleset, OLD[ruleset], seed)
        doc = rec.to_json()
        doc["options"] = {k: v for k, v in doc["options"].items() if k not in NEW_OPTIONS[ruleset]}
        loaded = Record.from_json(doc)
        for name in NEW_OPTIONS[ruleset]:
            assert loaded.options[name] == OLD[ruleset][name] != rs.options().resolve({})[name]
        assert replays_the_same(doc, end), (ruleset, seed)
        # a saved state that does not name the option is read the same way
        state_doc = end.to_json()
        for name in NEW_OPTIONS[ruleset]:
            del state_doc["options"][name]
        assert rs.state_from_json(state_doc).to_json() == end.to_json()


def test_options_named_in_a_record_are_never_replaced() -> None:
    """``saved`` fills only what a record does not name: a record made with the new defaults keeps them."""
    rs = get_ruleset("narby")
    new = rs.options().resolve({})
    assert rs.options().saved(new) == new
    assert rs.options().saved({})["destroy_own_claims"] is False
    assert rs.options().resolve({})["destroy_own_claims"] is True
