"""The rulesets as OpenSpiel games: OpenSpiel's own checks (``random_sim_test``, the simulation test and the API
conformance its Python games go through), the game facts, the token encoding, view-only observations and
information states, resampling, the returns, and OpenSpiel's bots playing games to the end."""

from __future__ import annotations

import json
import pickle
import random

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[openspiel]')")

import numpy as np
import pyspiel
from open_spiel.integration_tests import api_test
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.tests import games_sim_test

import conquest.openspiel as cos
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Ruleset
from conquest.core.registry import get_ruleset, rulesets
from conquest.rl.codec import codec_for
from conquest.rl.match import encoding_for

RULESETS = sorted(rulesets())
REGISTERED = [r for r in RULESETS if f"conquest_{r}" in cos.GAMES]
"""Every ruleset is an OpenSpiel game (its own encoding or the generic one): a missing one fails (``_need``)."""


def _need(rid: str) -> None:
    if rid not in REGISTERED:
        pytest.fail(f"{rid} is not registered as an OpenSpiel game (every ruleset has an encoding, its own or "
                    f"the generic one from its view)")
# long games are cut (the cap is a parameter of every game) so that the checks stay quick
CAP = {"nerath": 200, "narby": 400}
PLAYERS = {"kingdom": [2], "narby": [2, 3], "smallworld": [2, 4], "nerath": [2, 4]}


def game_string(rid: str, players: int | None = None, cap: int | None = None, **params: object) -> str:
    parts = {**({"players": players} if players else {}), **params}
    cap = cap if cap is not None else CAP.get(rid)
    if cap:
        parts["max_game_length"] = cap
    inner = ",".join(f"{k}={v}" for k, v in parts.items())
    return f"conquest_{rid}" + (f"({inner})" if inner else "")


def random_walk(state: pyspiel.State, rng: random.Random, steps: int) -> pyspiel.State:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# ---- the games and their facts ----------------------------------------------------------------------------
def test_every_ruleset_is_registered():
    names = {g.short_name for g in pyspiel.registered_games()}
    assert {f"conquest_{r}" for r in REGISTERED} <= names
    assert cos.GAMES == sorted(f"conquest_{r}" for r in REGISTERED)
    for rid in sorted(set(RULESETS) - set(REGISTERED)):
        with pytest.raises(ConquestError, match="no reinforcement-learning encoding"):
            encoding_for(rid, 2, get_ruleset(rid).options().resolve({}))


@pytest.mark.parametrize("rid", RULESETS)
def test_game_facts(rid):
    _need(rid)
    rs = get_ruleset(rid)
    game = pyspiel.load_game(f"conquest_{rid}")
    gt = game.get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    hidden = type(rs).determinize is not Ruleset.determinize
    assert gt.information == (pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                              else pyspiel.GameType.Information.PERFECT_INFORMATION)
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (rs.min_players, rs.max_players)
    assert game.num_players() == rs.default_players()
    # the actions are the tokens of the RL codec, for the ruleset and its options
    enc = encoding_for(rid, game.num_players(), rs.options().resolve({}))
    assert game.num_distinct_actions() == codec_for(enc).size
    # the bound of a chance node is the ruleset's declaration (Ruleset.max_chance_outcomes)
    assert game.max_chance_outcomes() == rs.max_chance_outcomes
    assert game.max_game_length() == 20_000
    # every option is a parameter, with its default
    params = gt.parameter_specification
    for o in rs.options().options:
        assert str(params[o.name]) == str(o.default)


def test_players_and_options_are_parameters():
    game = pyspiel.load_game("conquest_nerath(players=4,mode=free-for-all,max_game_length=500)")
    assert game.num_players() == 4 and game.max_game_length() == 500
    st = game.new_initial_state()
    assert st._c.state.options["mode"] == "free-for-all" and st._c.state.players == 4
    narby = pyspiel.load_game("conquest_narby(players=3,adjacency=4)")
    assert narby.new_initial_state()._c.state.options["adjacency"] == "4"


@pytest.mark.parametrize("bad", ["conquest_kingdom(players=3)", "conquest_narby(adjacency=5)",
                                 "conquest_kingdom(colour=red)", "conquest_kingdom(max_game_length=0)"])
def test_bad_parameters_are_refused(bad):
    with pytest.raises(Exception) as e:
        pyspiel.load_game(bad)
    assert "Traceback" not in str(e.value)
    assert str(e.value).strip()


# ---- OpenSpiel's own checks -------------------------------------------------------------------------------
@pytest.mark.parametrize("rid,players", [(r, p) for r in RULESETS for p in PLAYERS.get(r, [None])])
def test_random_sim_test_with_serialization(rid, players):
    _need(rid)
    game = pyspiel.load_game(game_string(rid, players))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("rid", RULESETS)
def test_games_sim_test(rid):
    """OpenSpiel's python/tests/games_sim_test.py ``sim_game``: pickling of the game, its type and states,
    native serialization, clones, returns within the utilities."""
    _need(rid)
    case = games_sim_test.GamesSimTest()
    case.sim_game(pyspiel.load_game(game_string(rid)))


def _api_cases():
    for rid in REGISTERED:
        cls = type(f"TestAPIConformance_{rid}", (api_test.EnforceAPIOnPartialTreeBase,),
                   {"game_name": f"conquest_{rid}", "game": pyspiel.load_game(game_string(rid))})
        yield rid, cls


# OpenSpiel's integration_tests/api_test.py, the checks it runs on every game (a partial tree of 400 states)
for _rid, _cls in _api_cases():
    globals()[_cls.__name__] = _cls


# ---- the encoding, the returns, the cap ------------------------------------------------------------------
@pytest.mark.parametrize("rid", RULESETS)
def test_the_tokens_play_legal_engine_actions(rid):
    """Every engine action the tokens make is legal by the rules: the history replays through the engine's
    checked ``apply`` from the start, chance outcomes being the published ones with their probabilities."""
    _need(rid)
    game = pyspiel.load_game(game_string(rid))
    st = random_walk(game.new_initial_state(), random.Random(5), 400)
    trail = []
    node = st._c.trail
    while node.parent is not None:
        trail.append((node.mover, node.action))
        node = node.parent
    engine = game.new_initial_state()._c.trail
    while engine.parent is not None:  # forced moves made before the first choice
        engine = engine.parent
    eng = engine.state
    for mover, action in reversed(trail):
        assert eng.to_move == mover
        if mover == CHANCE:
            assert action in dict(eng.chance_outcomes())
        eng = eng.apply(action)
    assert eng.to_json() == st._c.state.to_json()


@pytest.mark.parametrize("rid", ["kingdom", "smallworld"])
def test_returns_at_the_end(rid):
    game = pyspiel.load_game(f"conquest_{rid}")
    st = random_walk(game.new_initial_state(), random.Random(2), 100_000)
    assert st.is_terminal()
    res = st._c.state.result()
    n = game.num_players()
    assert st.returns() == pytest.approx([(n * r - sum(res)) / (n - 1) for r in res])
    assert sum(st.returns()) == pytest.approx(0.0)
    assert max(st.returns()) == 1.0 or res.count(max(res)) > 1  # the winner has 1 unless winners share


def test_the_cap_stops_the_game_with_returns_zero():
    game = pyspiel.load_game("conquest_nerath(players=4,max_game_length=50)")
    st = random_walk(game.new_initial_state(), random.Random(1), 1000)
    assert st.is_terminal() and len(st.history()) == 50
    assert st.returns() == [0.0] * 4 and st.legal_actions() == []
    assert st._c.state.to_move is not None  # the rules had not ended it


def test_chance_outcomes_are_the_rules_distribution():
    game = pyspiel.load_game("conquest_smallworld")
    st = game.new_initial_state()
    assert st.is_chance_node()
    engine = st._c.state.chance_outcomes()
    assert [p for _i, p in st.chance_outcomes()] == [p for _a, p in engine]
    assert [st.action_to_string(pyspiel.PlayerId.CHANCE, i) for i, _ in st.chance_outcomes()] == \
        [get_ruleset("smallworld").format_action(a) for a, _ in engine]


# ---- what a player is shown ------------------------------------------------------------------------------
@pytest.mark.parametrize("rid", ["narby", "smallworld", "nerath"])
def test_observations_come_from_the_view(rid):
    """Resampling what a player cannot see (the engine's ``determinize``) changes nothing the player is shown:
    its observation string and tensor, its information state and its legal actions."""
    game = pyspiel.load_game(game_string(rid))
    rng = random.Random(11)
    checked = 0
    st = game.new_initial_state()
    for _ in range(60):
        st = random_walk(st, rng, rng.randrange(1, 8))
        if st.is_terminal():
            break
        if st.is_chance_node():
            continue
        p = st.current_player()
        other = st.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(rng.randrange(1000), 0.0, 1.0))
        assert other.information_state_string(p) == st.information_state_string(p)
        assert other.observation_string(p) == st.observation_string(p)
        assert other.observation_tensor(p) == st.observation_tensor(p)
        assert other.legal_actions() == st.legal_actions()
        view = json.dumps(st._c.state.view(p), sort_keys=True, separators=(",", ":"))
        assert view in st.observation_string(p)
        checked += 1
    assert checked > 10


def test_resampling_changes_what_is_hidden():
    game = pyspiel.load_game("conquest_nerath(players=4,max_game_length=2000)")
    st = random_walk(game.new_initial_state(), random.Random(3), 200)
    while st.is_chance_node():
        st = random_walk(st, random.Random(4), 1)
    p = st.current_player()
    full = json.dumps(st._c.state.to_json(), sort_keys=True)
    others = {json.dumps(st.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(s, 0.0, 1.0))._c.state
                         .to_json(), sort_keys=True) for s in range(6)}
    assert others - {full}, "determinize drew nothing new: the test position has nothing hidden"


def test_information_state_has_perfect_recall_of_own_actions():
    """Two different own actions that lead to the same view are still told apart by the information state."""
    game = pyspiel.load_game("conquest_kingdom")
    st = random_walk(game.new_initial_state(), random.Random(0), 30)
    while st.is_chance_node():
        st = random_walk(st, random.Random(1), 1)
    p = st.current_player()
    strings = set()
    for a in st.legal_actions():
        strings.add(st.child(a).information_state_string(p))
    assert len(strings) == len(st.legal_actions())


def test_observation_tensor_marks_the_tokens_chosen():
    game = pyspiel.load_game("conquest_nerath(players=4,max_game_length=2000)")
    rng = random.Random(8)
    st = game.new_initial_state()
    for _ in range(500):
        st = random_walk(st, rng, 1)
        d = st._c.decision
        if d is not None and d.prefix:
            break
    else:
        pytest.fail("no decision of several tokens met")
    p = st.current_player()
    board = st._c.setup.board_size
    t = np.array(st.observation_tensor(p))
    assert t[board] == 1.0
    assert set(np.flatnonzero(t[board + 1:board + 1 + game.num_distinct_actions()])) == set(d.prefix)
    other = (p + 1) % game.num_players()
    assert np.array(st.observation_tensor(other))[board:].sum() == 0.0


def test_pickled_state_keeps_information_states():
    game = pyspiel.load_game("conquest_smallworld")
    st = random_walk(game.new_initial_state(), random.Random(6), 120)
    back = pickle.loads(pickle.dumps(st))
    for p in range(game.num_players()):
        assert back.information_state_string(p) == st.information_state_string(p)
        assert back.observation_string(p) == st.observation_string(p)
    assert str(back) == str(st)


# ---- OpenSpiel's bots play games to the end -------------------------------------------------------------
def _play(game, bots, seed=3):
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    assert sum(returns) == pytest.approx(0.0)
    return returns


@pytest.mark.parametrize("rid", RULESETS)
def test_random_bots(rid):
    _need(rid)
    game = pyspiel.load_game(game_string(rid))
    _play(game, [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(game.num_players())])


@pytest.mark.parametrize("rid", ["kingdom", "smallworld"])
def test_cpp_mcts_bot(rid):
    game = pyspiel.load_game(f"conquest_{rid}")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    bots = [pyspiel.MCTSBot(game, evaluator, 2.0, 8, 1000, False, 1 + p, False) for p in range(2)]
    _play(game, bots)


def test_python_mcts_bot():
    game = pyspiel.load_game("conquest_kingdom")
    rng = np.random.RandomState(1)
    bots = [mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng) for _ in range(2)]
    _play(game, bots)


def test_python_ismcts_bot():
    game = pyspiel.load_game("conquest_smallworld")
    rng = np.random.RandomState(2)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
            for _ in range(2)]
    _play(game, bots)


def test_python_ismcts_bot_in_nerath_against_random():
    game = pyspiel.load_game("conquest_nerath(players=4,max_game_length=200)")
    rng = np.random.RandomState(3)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)] + \
        [pyspiel.make_uniform_random_bot(p, p) for p in range(1, 4)]
    _play(game, bots)


def test_cpp_ismcts_bot_cannot_resample_a_python_game():
    """OpenSpiel 2.0.2's C++ ISMCTSBot resamples through C++ ``State::ResampleFromInfostate``, which a game
    written in Python cannot override (and its ``SetResampler`` is not bound in Python): it refuses, as it does
    OpenSpiel's own Python games. The Python ISMCTSBot plays them (above)."""
    game = pyspiel.load_game("conquest_smallworld")
    bots = [pyspiel.ISMCTSBot(1 + p, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 4) for p in range(2)]
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)  # (bot.step itself releases the GIL: a crash)


def test_ismcts_refuses_a_perfect_information_game():
    game = pyspiel.load_game("conquest_kingdom")
    bots = [pyspiel.ISMCTSBot(1 + p, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 4) for p in range(2)]
    with pytest.raises(pyspiel.SpielError, match="ImperfectInformation"):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)


@pytest.mark.parametrize("rid", ["nerath", "narby"])
def test_apply_engine_action_plays_the_whole_action(rid):
    """``apply_engine_action`` plays an engine action as its tokens: the engine state afterwards is the one the
    rules give, the history grew by the tokens asked for, and an action that is not legal is refused."""
    game = pyspiel.load_game(game_string(rid, cap=5000))
    rng = random.Random(4)
    st = game.new_initial_state()
    played = multi = 0
    while played < 40 and not st.is_terminal():
        if st.is_chance_node():
            st = random_walk(st, rng, 1)
            continue
        actions = st.engine_actions()
        assert actions and all(st.engine_state().is_legal(a) for a in actions)
        action = rng.choice(actions)
        before = st.engine_state()
        n = len(st.history())
        st.apply_engine_action(action)
        after = st._c.trail
        while after.parent is not None and after.parent.state is not before:
            after = after.parent  # skip what the game resolved by itself after the action
        assert after.parent is not None and after.action == action
        multi += len(st.history()) - n > 1
        played += 1
    assert multi > 0, "every action was one token: the test saw no multi-token action"
    if not st.is_terminal() and not st.is_chance_node():
        with pytest.raises(ValueError, match="not a legal action"):
            st.apply_engine_action(("no-such-verb",))
