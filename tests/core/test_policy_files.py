"""Issue 33 section 1: a policy file is never a pickle. The crafted sb3-style zip (tests/policy_attack.py) does not
run through the Python API or the command line; the policy format is JSON and safetensors only."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from conquest.agents import get_agent
from conquest.core.errors import ConquestError
from tests.policy_attack import crafted_pair, crafted_zip, payload

ROOT = Path(__file__).resolve().parents[2]


def test_the_payload_is_live(tmp_path: Path) -> None:
    """The crafted files carry a working payload: unpickling it writes the marker (so its absence below means
    that nothing unpickled it)."""
    marker = tmp_path / "marker"
    pickle.loads(payload(marker))  # noqa: S301 - the point of the test
    assert marker.read_text().startswith("pwned by")


def test_the_python_api_never_unpickles_a_policy_path(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    evil = crafted_zip(tmp_path / "evil.zip", marker)
    for spec in (f"policy:path={evil}", f"policy:path={evil.with_suffix('')}", f"policy:path={tmp_path}"):
        with pytest.raises(ConquestError, match="conquest policy convert") as e:
            get_agent(spec)
        assert "\n" not in str(e.value)
    assert not marker.exists()


def test_a_pickle_in_place_of_the_weights_is_refused_unread(tmp_path: Path) -> None:
    pytest.importorskip("safetensors")
    pytest.importorskip("numpy")
    marker = tmp_path / "marker"
    desc = crafted_pair(tmp_path, "evil", marker)
    for spec in (f"policy:path={desc}", f"policy:path={desc.with_suffix('.safetensors')}",
                 f"policy:path={desc.with_suffix('')}"):
        with pytest.raises(ConquestError, match="not a safetensors file"):
            get_agent(spec)
    assert not marker.exists()


def test_the_command_line_never_unpickles_a_policy_path(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    evil = crafted_zip(tmp_path / "evil.zip", marker)
    for seats in (f"policy:path={evil},random", f"random,policy:path={evil}"):
        r = subprocess.run([sys.executable, "-m", "conquest.cli", "simulate", "kingdom", "--seats", seats],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert r.returncode == 2, r.stderr
        assert r.stderr.count("\n") == 1 and "conquest policy convert" in r.stderr and "Traceback" not in r.stderr
    assert not marker.exists()


@pytest.mark.parametrize("plain_kwargs, refusal", [(False, "policy_kwargs"), (True, "policy.pth is not plain weights")])
def test_converting_the_crafted_zip_refuses_it_without_running_it(tmp_path: Path, plain_kwargs: bool,
                                                                   refusal: str) -> None:
    """`conquest policy convert` never calls MaskablePPO.load: ``data`` is read as JSON and ``policy.pth`` by torch's
    weights-only loader, so even the owner's explicit conversion does not run this payload."""
    pytest.importorskip("torch")
    marker = tmp_path / "marker"
    evil = crafted_zip(tmp_path / "evil.zip", marker, plain_kwargs=plain_kwargs)
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "policy", "convert", str(evil), str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert refusal in r.stderr
    assert not marker.exists() and not (tmp_path / "out.json").exists()


def test_a_description_that_does_not_match_its_weights_is_refused(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("safetensors")
    from conquest.rl.policy_agent import read_policy, write_policy
    desc = {"ruleset": "kingdom", "players": 2, "options": {}, "observation_size": 3, "actions": 2,
            "net": {"hidden": [4], "activation": "relu"}}
    arrays = {"hidden.0.weight": np.ones((4, 3)), "hidden.0.bias": np.zeros(4),
              "out.weight": np.ones((2, 4)), "out.bias": np.zeros(2)}
    write_policy(str(tmp_path / "p"), desc, arrays)
    p = read_policy(str(tmp_path / "p.json"))
    assert p.logits(np.array([1.0, 2.0, 3.0])).tolist() == [24.0, 24.0]  # 4 hidden units of relu(6), summed
    assert p.logits(np.array([1.0, 0.0, -2.0])).tolist() == [0.0, 0.0]  # relu(-1) = 0
    with pytest.raises(ConquestError, match="shape"):
        write_policy(str(tmp_path / "q"), {**desc, "observation_size": 5}, arrays)
    assert not (tmp_path / "q.json").exists() and not (tmp_path / "q.safetensors").exists()
    with pytest.raises(ConquestError, match="net.activation"):
        write_policy(str(tmp_path / "r"), {**desc, "net": {"hidden": [4], "activation": "softsign"}}, arrays)
