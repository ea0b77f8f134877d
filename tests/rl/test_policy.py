"""A short MaskablePPO run on kingdom (the smoke training of `make test`) and the saved policy as an agent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("pettingzoo")

from conquest.agents import AGENTS  # noqa: E402
from conquest.analysis.runner import play_game  # noqa: E402
from conquest.core.errors import ConquestError  # noqa: E402
from conquest.core.registry import get_ruleset  # noqa: E402
from conquest.core.records import replay  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The example script, run as a user runs it, with a short budget (a smoke run, not the 90% run)."""
    out = tmp_path_factory.mktemp("policy") / "kingdom.zip"
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "train_kingdom.py"), "--steps", "1024",
                           "--eval", "2", "--out", str(out)], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"win_rate"' in done.stdout and out.exists()
    return str(out)


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
        AGENTS["policy"](path="/nonexistent/policy.zip")


def test_a_file_that_is_not_a_policy_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.zip"
    bad.write_text("not a policy")
    with pytest.raises(ConquestError, match="is not a MaskablePPO policy file"):
        AGENTS["policy"](path=str(bad))
