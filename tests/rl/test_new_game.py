"""A game with no encoding of its own (tests/rl/newgame.py, registered for each test) has its RL environments
at once: the generic encoding built from its view passes PettingZoo's and Gymnasium's checks, and reaches the
actions its sample games never showed (a word from another seed, a negative number) through the mask."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import conquest.rl as rl  # noqa: E402
from conquest.core.view_encoding import ViewEncoding  # noqa: E402
from tests.rl.newgame import TaggedRuleset, registered  # noqa: E402


@pytest.fixture
def game() -> Iterator[TaggedRuleset]:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")
    with registered() as rs:
        yield rs


def test_the_library_checks_pass(game: TaggedRuleset) -> None:
    env = rl.env(game.id, max_decisions=200)
    assert isinstance(env.match.encoding, ViewEncoding)
    api_test(env, num_cycles=200)
    seed_test(lambda: rl.env(game.id, max_decisions=100), num_cycles=40)
    check_env(rl.gym_env(game.id, opponents="random", max_decisions=200), skip_render_check=True)


def test_actions_the_sample_never_showed_are_reached_through_the_mask(game: TaggedRuleset) -> None:
    env = rl.env(game.id)
    size = env.match.codec.size
    assert "s9" not in env.match.encoding.strings()
    env.reset(seed=9)
    m = env.match
    for wanted in (("call", "s9"), ("shift", -1)):
        d = m.decision
        assert d is not None and wanted in d.actions
        points = list(m.state.points)
        for token in m.codec.tokens_of(wanted):
            obs = env.observe(env.agent_selection)
            if m.decision is not d:
                break  # the rest of the action was forced
            assert obs["action_mask"][token] == 1
            env.step(int(token))
        assert m.actions[-1] == wanted
        if wanted[0] == "shift":
            assert m.state.points[m.state.turn] == points[m.state.turn] - 1
    assert m.codec.token_name(m.codec.tokens_of(("call", "s9"))[1]) == "s9"
    assert m.codec.size == size == env.action_space(env.agent_selection).n


def test_random_games_to_the_end(game: TaggedRuleset) -> None:
    env = rl.env(game.id)
    rng = random.Random(4)
    for seed in range(20, 26):
        env.reset(seed=seed)
        for _agent in env.agent_iter(max_iter=5000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["observation"].shape == (env.match.obs_size,)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.match.over()
