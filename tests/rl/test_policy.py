"""A short MaskablePPO run on kingdom (the smoke training of `make test`), the saved policy (JSON + safetensors, no
pickle) as an agent, and `conquest policy convert` of an sb3-contrib zip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("pettingzoo")

from conquest.agents import AGENTS
from conquest.analysis.runner import play_game
from conquest.core.errors import ConquestError
from conquest.core.records import replay
from conquest.core.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The example script, run as a user runs it, with a short budget (a smoke run, not the 90% run)."""
    folder = tmp_path_factory.mktemp("policy")
    out = folder / "kingdom"
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "train_kingdom.py"), "--steps", "1024",
                           "--eval", "2", "--out", str(out)], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"win_rate"' in done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["kingdom.json", "kingdom.safetensors"]  # no zip, no pickle
    return str(out) + ".json"


def test_the_saved_policy_plays_legal_games_as_an_agent(policy_file: str) -> None:
    agent = AGENTS["policy"](path=policy_file)
    assert agent.id == "policy"
    rs = get_ruleset("kingdom")
    for seed in range(3):
        record, state = play_game(rs, [agent, "random"] if seed % 2 == 0 else ["random", agent], seed=seed)
        assert state.result() is not None
        replay(record, verify=True)  # every action it chose passes the checked apply


def test_the_policy_is_an_agent_spec_in_every_runner(policy_file: str) -> None:
    """`policy:path=FILE` names the agent wherever agent specs are taken (play, simulate, tournament, web)."""
    from conquest.agents import get_agent
    agent = get_agent(f"policy:path={policy_file}")
    assert agent.spec == f"policy:path={policy_file}"
    record, state = play_game(get_ruleset("kingdom"), [agent.spec, "random"], seed=5)
    assert record.seats[0] == agent.spec and state.result() is not None
    with pytest.raises(ConquestError, match="has no parameter 'speed'"):
        get_agent(f"policy:path={policy_file}:speed=2")


def test_the_policy_refuses_another_games_positions(policy_file: str) -> None:
    agent = AGENTS["policy"](path=policy_file)
    st = get_ruleset("smallworld").new_game(2, None, 0)
    while st.to_move == -1:
        st = st.apply(st.chance_outcomes()[0][0])
    with pytest.raises(ConquestError, match="another ruleset, player count or options"):
        agent.choose(st, __import__("random").Random(0))


def test_policy_agent_errors_are_one_line() -> None:
    with pytest.raises(ConquestError, match="policy:path=FILE"):
        AGENTS["policy"]()
    with pytest.raises(ConquestError, match="policy file not found"):
        AGENTS["policy"](path="/nonexistent/policy.json")


def test_a_file_that_is_not_a_policy_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text("not a policy")
    (tmp_path / "notes.safetensors").write_text("not weights")
    with pytest.raises(ConquestError, match="is not a conquest policy"):
        AGENTS["policy"](path=str(bad))


def test_a_converted_sb3_model_plays_as_maskableppo_predicts(tmp_path: Path) -> None:
    """`conquest policy convert` (the owner's explicit step) turns a MaskablePPO zip into the safe format; the
    rebuilt network gives the same logits and the same deterministic tokens as MaskablePPO itself, and the result
    plays through `conquest simulate`."""
    import random

    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO

    import conquest.rl as rl
    from conquest.rl.match import Match
    from conquest.rl.policy_agent import read_policy
    env = rl.gym_env("kingdom", seat="random", opponents="random")
    model = MaskablePPO("MlpPolicy", env, seed=3, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [32, 16]},
                        device="cpu")
    model.save(str(tmp_path / "model.zip"))
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "policy", "convert", str(tmp_path / "model.zip"),
                        str(tmp_path / "conv"), "--help-text", "a test model"], capture_output=True, text=True,
                       timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    policy = read_policy(str(tmp_path / "conv.json"))
    assert policy.help == "a test model" and [w.shape[0] for w, _b in policy.hidden] == [32, 16]
    m = Match("kingdom", 2, {})
    m.reset(1)
    rng = random.Random(0)
    for i in range(200):
        if m.state.to_move is None:
            m.reset(i)
        seat = m.state.to_move
        obs, mask = m.observe(seat), m.mask().astype(bool)
        with torch.no_grad():
            t, _ = model.policy.obs_to_tensor(obs)
            ref = model.policy.get_distribution(t).distribution.logits[0].numpy()
        mine = policy.logits(obs)
        assert np.allclose(ref - ref.max(), mine - mine.max(), atol=1e-4)
        want, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert int(want) == int(np.argmax(np.where(mask, mine, -np.inf)))
        m.choose(int(rng.choice(np.flatnonzero(mask))))
    done = subprocess.run([sys.executable, "-m", "conquest.cli", "simulate", "kingdom", "--seats",
                           f"policy:path={tmp_path / 'conv.json'},random", "--seed", "4"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
