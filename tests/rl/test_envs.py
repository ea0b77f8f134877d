"""The PettingZoo and Gymnasium environments of every ruleset: the libraries' own checks, the action encoding,
fairness (observations come from the seat's view) and refused actions."""

from __future__ import annotations

import copy
import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import conquest.rl as rl  # noqa: E402
from conquest.core.chance import sample_chance  # noqa: E402
from conquest.core.game import CHANCE  # noqa: E402
from conquest.core.registry import get_ruleset, rulesets  # noqa: E402
from conquest.rl.codec import Decision  # noqa: E402
from conquest.rl.match import Match, encoding_for  # noqa: E402

RULESETS = sorted(rulesets())


def _cut(ruleset: str) -> int | None:
    """Where a long game is cut for the library checks (a truncation is part of both APIs): the ruleset's
    ``test_settings.rl_max_decisions``. A game without an encoding of its own gets the generic one built from
    its view (``Ruleset.rl_encoding``), so every registered game is checked."""
    rs = get_ruleset(ruleset)
    encoding_for(ruleset, rs.default_players(), rs.options().resolve({}))
    return rs.test_settings.rl_max_decisions


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test(ruleset: str) -> None:
    api_test(rl.env(ruleset, max_decisions=_cut(ruleset)), num_cycles=300)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_seed_test(ruleset: str) -> None:
    seed_test(lambda: rl.env(ruleset, max_decisions=_cut(ruleset)), num_cycles=60)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_check_env(ruleset: str) -> None:
    env = rl.gym_env(ruleset, opponents="random", max_decisions=_cut(ruleset))
    check_env(env, skip_render_check=True)
    assert env.observation_space.shape == (env.match.obs_size,)


def _walk(decision: Decision, tokens: tuple[int, ...]) -> object:
    """Feed an action's tokens to a fresh decision as an agent would (each checked against the mask)."""
    done = decision.advance_forced()
    k = len(decision.prefix)
    while done is None:
        opts = decision.options()
        if k < len(tokens):
            assert tokens[k] in opts
            done = decision.choose(tokens[k])
            k += 1
        else:
            assert 0 in opts  # END: this action is also the start of a longer one
            done = decision.choose(0)
        if done is None:
            done = decision.advance_forced()
            k = len(decision.prefix)
    return done


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_legal_action_round_trips_and_is_reachable(ruleset: str) -> None:
    """index -> action -> index over random games, and every legal action reachable through the masks."""
    _cut(ruleset)
    rs = get_ruleset(ruleset)
    match = Match(ruleset)
    codec = match.codec
    checked = 0
    for seed in range(20):  # two games, more for a short game
        if seed >= 2 and checked > 100:
            break
        rng = random.Random(seed)
        st = rs.new_game(None, None, seed=seed)
        for _ in range(250):
            if st.to_move is None:
                break
            if st.to_move == CHANCE:
                st = st.apply_unchecked(sample_chance(st, rng))
                continue
            legal = list(st.legal_actions())
            for a in legal:
                tokens = codec.encode(a)
                assert codec.decode(tokens) == a
                assert codec.encode(codec.decode(tokens)) == tokens
                assert _walk(Decision(codec, legal), tokens) == a
                checked += 1
            st = st.apply_unchecked(legal[rng.randrange(len(legal))])
    assert checked > 100


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_whole_action_is_played_through_the_environment_as_docs_rl_says(ruleset: str) -> None:
    """docs/rl.md: pick a whole action from env.match.decision.actions, step
    tokens[len(decision.prefix)] (END once they are all chosen) until it is played."""
    _cut(ruleset)
    e = rl.env(ruleset)
    rng = random.Random(1)
    played = 0
    for episode in range(10):  # one game, more for a short game
        if played >= 20:
            break
        e.reset(seed=3 + episode)
        target = current = None
        before = 0
        for _ in e.agent_iter(max_iter=600):
            _, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            m = e.match
            d = m.decision
            if d is not current:  # the target was played: a new decision is under way
                if target is not None:
                    assert target in m.actions[before:]
                    played += 1
                target, current, before = rng.choice(list(d.actions)), d, len(m.actions)
            tokens = m.codec.tokens_of(target)
            e.step(tokens[len(d.prefix)] if len(d.prefix) < len(tokens) else 0)
    assert played >= 20


def test_long_numbers_round_trip() -> None:
    codec = Match("kingdom").codec
    for n in (0, 1, 63, 64, 65, 4095, 4096, 10**9):
        tokens = codec.encode(("soldiers", n))
        assert codec.decode(tokens) == ("soldiers", n)
    assert len(codec.encode(("soldiers", 63))) == 2 and len(codec.encode(("soldiers", 64))) == 4


def _observations_differ_only_by(ruleset: str, players: int, steps: int, hide: object, seat: int = 0
                                  ) -> None:
    """Play ``steps`` random actions, change another seat's hidden part of the state with ``hide(doc)``: the
    observation of ``seat`` stays the same, the other seat's changes."""
    rs = get_ruleset(ruleset)
    match = Match(ruleset, players)
    match.reset(3)
    rng = random.Random(3)
    for _ in range(steps):
        if match.over():
            break
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
    doc = match.state.to_json()
    changed = copy.deepcopy(doc)
    other = hide(changed)
    before = match.observe(seat)
    before_other = match.observe(other)
    match.state = rs.state_from_json(changed)
    assert match.state.to_json() != doc
    assert np.array_equal(match.observe(seat), before)
    assert not np.array_equal(match.observe(other), before_other)


def test_smallworld_other_seats_coins_are_not_observed() -> None:
    def hide(doc: dict) -> int:
        doc["seats"][1]["coins"] += 7
        return 1
    _observations_differ_only_by("smallworld", 2, 40, hide)


def test_narby_other_seats_card_is_not_observed() -> None:
    def hide(doc: dict) -> int:
        from conquest.rulesets.narby.tables import TABLES as T
        used = set(doc["played"]) | {h for h in doc["hands"] if h}
        doc["hands"][1] = next(c for c in T.card_ids if c not in used and c not in ("governor", "sheriff", "mayor"))
        return 1
    _observations_differ_only_by("narby", 2, 150, hide)


def test_nerath_other_realms_event_cards_are_not_observed() -> None:
    def hide(doc: dict) -> int:
        # seat 0 is Karkoth in the 4-player game: Vailin swaps a card of its hand for one of its deck
        hand, deck = doc["event_hands"]["vailin"], doc["event_decks"]["vailin"]
        if hand:
            hand[0], deck[0] = deck[0], hand[0]
        else:
            hand.append(deck.pop(0))
        return 1
    _observations_differ_only_by("nerath", 4, 120, hide)


@pytest.mark.parametrize("ruleset", ["kingdom", "smallworld"])
def test_an_action_outside_the_mask_is_refused_naming_it(ruleset: str) -> None:
    env = rl.env(ruleset)
    env.reset(seed=5)
    obs = env.observe(env.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.match.state.to_json()
    with pytest.raises(ValueError, match=f"action {bad} "):
        env.step(bad)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(10**6)
    assert env.match.state.to_json() == before
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], obs["action_mask"])

    g = rl.gym_env(ruleset, opponents="random", illegal="raise")
    g.reset(seed=5)
    bad = int(np.flatnonzero(~g.action_masks())[0])
    before = g.match.state.to_json()
    with pytest.raises(ValueError, match=f"action {bad} "):
        g.step(bad)
    assert g.match.state.to_json() == before

    g = rl.gym_env(ruleset, opponents="random")
    g.reset(seed=5)
    before = g.match.state.to_json()
    _, reward, terminated, _, info = g.step(bad)
    assert (reward, terminated) == (-1.0, True) and f"action {bad} " in info["illegal_action"]
    assert g.match.state.to_json() == before


def test_rewards_are_the_result_at_the_end() -> None:
    env = rl.env("kingdom")
    env.reset(seed=11)
    rng = random.Random(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert reward == 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    result = env.match.result()
    assert result is not None and sorted(result) == [0.0, 1.0] or result == (0.5, 0.5)
    assert [totals[a] for a in env.possible_agents] == list(result)


def test_shaped_reward_follows_the_evaluation() -> None:
    env = rl.env("kingdom", shaped_reward=0.01)
    env.reset(seed=2)
    rs = env.match.rs
    rng = random.Random(1)
    for _ in range(30):
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        obs = env.observe(agent)
        before = rs.evaluate(env.match.state, seat)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if env.match.over():
            break
        if env.match.last_shaping is not None:
            after = rs.evaluate(env.match.state, seat)
            assert env.rewards[agent] == pytest.approx(0.01 * (after - before))


def test_agents_are_named_after_the_seats() -> None:
    assert rl.env("kingdom").possible_agents == ["red", "blue"]
    assert rl.env("nerath", players=2).possible_agents == ["dark_empire_of_karkoth_and_iron_circle",
                                                           "vailin_alliance_and_nerathan_league"]


def test_gym_opponents_play_the_other_seats() -> None:
    g = rl.gym_env("smallworld", seat=1, opponents=["random", "random"], players=3)
    g.reset(seed=4)
    assert g.match.state.to_move == 1
    with pytest.raises(Exception, match="2 other seats"):
        rl.gym_env("smallworld", opponents=["random"], players=3)


def test_gym_opponents_decide_from_their_seats_determinization_not_the_referees_state() -> None:
    """An opponent agent in the Gymnasium environment is given what every runner gives it: a state that agrees
    with its seat's view, with the parts hidden from it resampled (Nerath: the other realms' cards)."""
    from conquest.agents.base import Agent

    seen: list[tuple[object, object, int]] = []

    class Recorder(Agent):
        id = "recorder"

        def choose(self, state, rng):  # type: ignore[no-untyped-def]
            seen.append((state, g.match.state, state.to_move))
            legal = state.legal_actions()
            return legal[rng.randrange(len(legal))]

    g = rl.gym_env("nerath", seat=0, opponents=Recorder(), players=4, max_decisions=60)
    g.reset(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        mask = g.action_masks()
        _obs, _r, term, trunc, _info = g.step(int(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            break
    assert seen
    resampled = 0
    for given, referee, seat in seen:
        assert given is not referee
        assert given.view(seat) == referee.view(seat)  # type: ignore[attr-defined]
        resampled += given.to_json() != referee.to_json()  # type: ignore[attr-defined]
    assert resampled > 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_observation_is_the_numbers_of_the_seats_view(ruleset: str) -> None:
    """An encoding may read its numbers straight from the state (``Encoding.observe``, the fast path) only if
    they are exactly the numbers it writes from ``view(seat)``: checked for every seat at every decision and at
    the end of random games, with the options that change what is seen."""
    _cut(ruleset)
    rs = get_ruleset(ruleset)
    # the games whose every decision is checked: whole games, or the first decisions of long ones
    games, limit = rs.test_settings.rl_observation_games
    setups: list[tuple[int | None, dict]] = [(None, {})]
    if ruleset == "smallworld":
        setups += [(4, {}), (5, {}), (3, {"map": "generated"})]
    elif ruleset == "nerath":
        # 2 and 3 players: a seat with two realms (its hands are all seen, the others' counted); a game cut
        # to 3 rounds: its end is observed too
        setups += [(2, {}), (3, {}), (4, {"max_rounds": 3})]
    elif ruleset == "narby":
        setups.append((3, {}))
        # dragons picked (node dragon_select), places chosen, another win amount (the coins' scale), five seats
        setups.append((5, {"dragons": "select", "places": "select", "win": 75, "populate_repeat": "all"}))
        setups.append((2, {"cards": False, "win": 100, "adjacency": "4", "chest_blocks": True, "city": "beside"}))
    compared = 0
    for players, options in setups:
        match = Match(ruleset, players, options)
        rng = random.Random(11)
        for game in range(games):
            match.reset(500 + game)
            for _step in range(limit):
                st = match.state
                for s in range(match.players):
                    fast = np.asarray(match.encoding.observe(st, s), dtype=np.float32)
                    slow = np.asarray(match.encoding.features(st.view(s), s), dtype=np.float32)
                    assert fast.shape == slow.shape == (match.board_size,)
                    if not np.array_equal(fast, slow):
                        bad = np.flatnonzero(fast != slow)[:8].tolist()
                        raise AssertionError(f"{rs.id}: seat {s}, game {game}, step {_step}: the fast "
                                             f"observation differs from the view's at {bad}")
                    compared += 1
                if match.over():
                    break
                opts = sorted(match.decision.options())  # type: ignore[union-attr]
                match.choose(opts[rng.randrange(len(opts))])
    assert compared > 100


def test_bench_rl_reports_the_environment_beside_the_engine() -> None:
    """``conquest bench RULESET --rl``: the environment's steps per CPU second and its three ratios to the
    engine, each from a real run (steps taken, games replayed)."""
    from conquest.rl.bench import bench_both
    data = bench_both("kingdom", seconds=0.3)
    env = data["env"]
    assert env["env_steps"] > 0 and env["games"] > 0
    assert env["engine_on_the_same_games_per_cpu_second"] > env["engine_actions_in_env_per_cpu_second"] > 0
    for key in ("env_steps_vs_engine_actions", "engine_actions_in_env_vs_engine", "env_vs_engine_on_the_same_games"):
        assert 0 < data[key] < 1.5, key
    # the ceiling: the engine's own cost per step plus an environment that does nothing but the API
    assert data["api_floor_us_per_step"] > 0
    assert data["env_steps_vs_engine_actions"] < data["ratio_ceiling"]
