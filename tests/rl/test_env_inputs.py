"""Issue 33, section 5: what the environments take from a learner's code. An action is one token, a whole
number (a Python int, a numpy integer or a 0-d integer array, as Gymnasium's ``Discrete.contains``); anything else
(``1.5``, ``1.0``, ``"1"``, ``inf``, ``None``, lists, 2-D arrays) is ``ValueError`` and never truncated into a
token; ``reset`` seeds are whole numbers from 0 to 2^63-1; ``max_decisions`` and ``shaped_reward`` are checked
when the environment is made; the Gymnasium environment refuses a step after its episode ended (docs/rl.md)."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import conquest.rl as rl  # noqa: E402
from conquest.rl.codec import ActionCodec  # noqa: E402

NOT_TOKENS = [1.5, 1.0, "1", "abc", float("inf"), float("nan"), None, [1], (1,), np.array([1]), np.array([[1]]),
              np.float64(1.0), np.array(1.0), True, np.bool_(True), b"1"]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")
    warnings.filterwarnings("ignore", module="gymnasium")


def _legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("illegal", ["raise", "lose"])
def test_gym_refuses_every_value_that_is_not_a_token_and_plays_nothing(illegal: str) -> None:
    g = rl.gym_env("kingdom", opponents="random", illegal=illegal)
    g.reset(seed=3)
    before = g.match.state.to_json()
    for a in NOT_TOKENS:
        with pytest.raises(ValueError, match="an action is one token"):
            g.step(a)
        assert g.match.state.to_json() == before and g.match.decisions == 0, a
    # a token in the mask is played, as an int, a numpy integer or a 0-d integer array
    for kind in (int, np.int64, np.uint8, np.array):
        _, _, terminated, truncated, _ = g.step(kind(_legal(g.action_masks())))
        assert not (terminated or truncated)
    assert g.match.decisions == 4


def test_pettingzoo_refuses_every_value_that_is_not_a_token() -> None:
    env = rl.env("narby")
    env.reset(seed=2)
    agent, before = env.agent_selection, env.match.state.to_json()
    for a in NOT_TOKENS:
        if a is None:
            continue   # None is the step of an agent that is done: refused for a live one in its own words
        with pytest.raises(ValueError, match="an action is one token"):
            env.step(a)
    assert env.match.state.to_json() == before and env.agent_selection == agent
    with pytest.raises(ValueError, match="None is only for agents that are done"):
        env.step(None)
    env.step(np.int32(_legal(env.observe(agent)["action_mask"])))
    assert env.match.decisions == 1


def test_the_codec_decodes_only_whole_number_tokens() -> None:
    codec = ActionCodec(["move", "a1"])
    move = codec.vocabulary.index("move")
    assert codec.decode([np.int64(move)]) == ("move",)
    with pytest.raises(ValueError, match="an action is one token"):
        codec.decode([float(move)])


def test_gym_illegal_lose_then_every_step_needs_a_reset() -> None:
    g = rl.gym_env("kingdom", opponents="random")
    with pytest.raises(gym.error.ResetNeeded):
        g.step(0)   # before the first reset
    g.reset(seed=4)
    bad = int(np.flatnonzero(~g.action_masks())[0])
    _, reward, terminated, _, _ = g.step(bad)
    assert (reward, terminated) == (-1.0, True)
    with pytest.raises(gym.error.ResetNeeded):
        g.step(_legal(g.action_masks()))


def test_gym_a_won_episode_is_not_stepped_into_a_loss() -> None:
    g = rl.gym_env("kingdom", opponents="random")
    for seed in range(20):   # play first-legal tokens until an episode ends with this seat winning
        g.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            _, reward, terminated, truncated, _ = g.step(_legal(g.action_masks()))
        if terminated and reward > 0:
            break
    assert terminated and reward > 0, "no won episode in 20 seeds"
    with pytest.raises(gym.error.ResetNeeded):
        g.step(0)
    with pytest.raises(ValueError, match="an action is one token"):
        g.step(None)


def test_gym_truncated_episode_needs_a_reset() -> None:
    g = rl.gym_env("kingdom", opponents="random", max_decisions=3)
    g.reset(seed=1)
    truncated = False
    for _ in range(3):
        _, _, _, truncated, _ = g.step(_legal(g.action_masks()))
    assert truncated
    with pytest.raises(gym.error.ResetNeeded):
        g.step(_legal(g.action_masks()))


@pytest.mark.parametrize("make", ["gym", "aec"])
def test_reset_seeds_are_whole_numbers_from_0_to_2_63(make: str) -> None:
    env = rl.gym_env("kingdom", opponents="random") if make == "gym" else rl.env("kingdom")
    for ok in (np.array(3), 0, 2 ** 63 - 1):
        env.reset(seed=ok)
    env.reset(seed=np.int64(3))
    again = env.match.state.to_json()
    env.reset(seed=3)
    assert env.match.state.to_json() == again   # the numpy seed is the same seed
    for bad in ("abc", 1.5, float("nan"), -1, 2 ** 70, 2 ** 63, True, [3]):
        with pytest.raises(ValueError, match="seed must be"):
            env.reset(seed=bad)


@pytest.mark.parametrize("make", [rl.env, lambda r, **kw: rl.gym_env(r, opponents="random", **kw)])
def test_settings_are_checked_when_the_environment_is_made(make) -> None:  # type: ignore[no-untyped-def]
    for kw in ({"max_decisions": -1}, {"max_decisions": 0}, {"max_decisions": 2.5}, {"max_decisions": "9"}):
        with pytest.raises(ValueError, match="max_decisions must be"):
            make("kingdom", **kw)
    for kw in ({"shaped_reward": float("nan")}, {"shaped_reward": float("inf")}, {"shaped_reward": "0.1"},
               {"shaped_reward": 10 ** 400}, {"shaped_reward": None}):
        with pytest.raises(ValueError, match="shaped_reward must be"):
            make("kingdom", **kw)
    env = make("kingdom", max_decisions=np.int64(5), shaped_reward=np.float32(0.5))
    assert env.match.max_decisions == 5 and env.match.shaped_reward == 0.5
