"""The contract, checked for every registered ruleset by random play (OpenSpiel's random_sim_test idea):
every game ends; every state round-trips through JSON; notation round-trips; illegal actions are refused and
change nothing; the checked and unchecked apply agree; views are JSON; records replay."""

from __future__ import annotations

import json
import random

import pytest

from conquest.analysis.runner import play_game, sample_chance
from conquest.core.errors import ConquestError, IllegalAction
from conquest.core.game import CHANCE
from conquest.core.records import Record, replay
from conquest.core.registry import rulesets

RULESETS = sorted(rulesets())
MAX_STEPS = 20_000


def _player_counts(rs):
    return sorted({rs.min_players, rs.max_players})


def _scramble(doc):
    """Empty every list and object of ``doc``, deepest first: a list or object the document shares with the
    state (a writer declared ``fresh`` that is not, a copy left out) empties the state's too."""
    for v in list(doc.values()) if isinstance(doc, dict) else list(doc):
        if isinstance(v, (dict, list)):
            _scramble(v)
    doc.clear()


def _random_game(rs, players, seed, check_every):
    rng = random.Random(seed)
    state = rs.new_game(players, {}, seed)
    seen_actions = []
    steps = 0
    while state.to_move is not None:
        assert steps < MAX_STEPS, f"{rs.id}: game did not end in {MAX_STEPS} steps"
        legal = list(state.legal_actions())
        assert legal, f"{rs.id}: no legal action at step {steps} though the game is not over"
        if steps % check_every == 0:
            doc = state.to_json()
            text = json.dumps(doc)
            again = rs.state_from_json(json.loads(text))
            assert again.to_json() == doc, f"{rs.id}: JSON round-trip changed the state at step {steps}"
            assert again.to_move == state.to_move
            assert sorted(map(rs.format_action, again.legal_actions())) == sorted(map(rs.format_action, legal))
            for a in legal:
                text_a = rs.format_action(a)
                assert rs.parse_action(text_a) == a, f"{rs.id}: notation {text_a!r} does not round-trip"
                assert rs.format_action(rs.parse_action(text_a)) == text_a
            for seat in range(state.players):
                json.dumps(state.view(seat))
            json.dumps(state.view(None))
            legal_set = set(legal)
            for other in seen_actions[-40:]:
                if other not in legal_set:
                    with pytest.raises(IllegalAction):
                        state.apply(other)
                    assert state.to_json() == doc, f"{rs.id}: a refused action changed the state"
                    break
            _scramble(doc)  # "a caller who edits it never edits the game" (State.to_json)
            assert state.to_json() == json.loads(text), f"{rs.id}: editing a to_json document edited the state"
            if state.to_move == CHANCE:
                outcomes = state.chance_outcomes()
                assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert {o for o, _ in outcomes} == legal_set
        if state.to_move == CHANCE:
            a = sample_chance(state, rng)
        else:
            a = legal[rng.randrange(len(legal))]
        if steps % check_every == 0:
            assert state.apply(a).to_json() == state.apply_unchecked(a).to_json()
        seen_actions.append(a)
        state = state.apply_unchecked(a)
        steps += 1
    res = state.result()
    assert res is not None and len(res) == state.players
    assert state.legal_actions() == [] or list(state.legal_actions()) == []
    return steps


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_random_games_keep_the_contract(ruleset_id):
    rs = rulesets()[ruleset_id]
    for players in _player_counts(rs):
        for seed in range(2):
            _random_game(rs, players, seed, check_every=1 if ruleset_id == "kingdom" else 7)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_records_replay_and_verify(ruleset_id):
    rs = rulesets()[ruleset_id]
    record, final = play_game(rs, ["random"], players=rs.min_players, seed=11)
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    state = replay(again, verify=True)
    assert state.to_json() == final.to_json()
    tampered = Record.from_json(record.to_json())
    tampered.result = [0.25] * len(final.result())
    with pytest.raises(ConquestError, match="result mismatch"):
        replay(tampered, verify=True)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_bad_options_and_players_are_refused(ruleset_id):
    rs = rulesets()[ruleset_id]
    with pytest.raises(ConquestError):
        rs.new_game(rs.max_players + 1)
    with pytest.raises(ConquestError):
        rs.new_game(None, {"no_such_option": 1})


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_state_json_validation_names_the_field(ruleset_id):
    rs = rulesets()[ruleset_id]
    doc = rs.new_game().to_json()
    bad = dict(doc, format="conquest-state/0")
    with pytest.raises(ConquestError, match="format"):
        rs.state_from_json(bad)
    bad = dict(doc, players="two")
    with pytest.raises(ConquestError, match="players"):
        rs.state_from_json(bad)


def test_every_ruleset_package_loads():
    from conquest.core.registry import broken
    assert broken == {}
    assert {"kingdom", "narby", "smallworld", "nerath"} <= set(RULESETS)
