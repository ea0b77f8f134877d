"""Issue 28, "Done when": a game is one package. ``conquest new`` writes a game into a temporary folder as an
installed plugin (a distribution on ``sys.path`` whose ``entry_points.txt`` declares it in the
``conquest.rulesets`` group, as ``pip install`` would), and the registry, the CLI (``rulesets``, ``simulate``,
``doctor``), the web API, the RL environment and the suite's own checks over the registry treat it like the
four games, with no file of this repository touched. Also: the registry reports a broken plugin like a broken
package, ``conquest new`` refuses a bad id in one line, and ``conquest doctor`` fails naming the section to
read."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from conquest.core import registry
from conquest.core.errors import ConquestError, UnknownRuleset
from conquest.scaffold import new_package

ROOT = Path(__file__).resolve().parents[1]
RID = "testisles"


def _git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout


def install_plugin(root: Path, rid: str) -> None:
    """What ``pip install`` leaves for the plugin: its metadata with the entry point, beside the package."""
    info = root / f"conquest_{rid}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: conquest-{rid}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[conquest.rulesets]\n{rid} = {rid}\n")


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("plugin")
    before = _git_status()
    written = new_package(RID, root, title="Test Isles")
    assert _git_status() == before, "conquest new --into wrote into the repository"
    assert all(root in p.parents for p in written)
    install_plugin(root, RID)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    registry.clear()
    yield root
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m == RID or m.startswith(RID + ".")]:
        del sys.modules[name]
    registry.clear()
    assert _git_status() == before, "checking the plugin wrote into the repository"


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(ROOT)])}


def _cli(root: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], cwd=root, env=_env(root), text=True,
                          capture_output=True, timeout=timeout)


def test_the_registry_finds_the_plugin_like_a_package(plugin: Path) -> None:
    found = registry.rulesets()
    assert {"kingdom", "narby", "nerath", "smallworld", RID} <= set(found)
    assert registry.origins[RID] == f"plugin {RID} = {RID}" and not registry.broken
    assert registry.get_ruleset(RID).title == "Test Isles"


def test_the_cli_plays_simulates_and_doctors_the_plugin(plugin: Path) -> None:
    r = _cli(plugin, "rulesets")
    assert r.returncode == 0 and RID in r.stdout, r.stderr
    r = _cli(plugin, "simulate", RID, "-n", "6", "--seats", "random,greedy", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["games"] == 6
    r = _cli(plugin, "play", RID, "--seats", "random,greedy", "--seed", "3", "--save", "game.json")
    assert r.returncode == 0 and "game over" in r.stdout.lower(), (r.stdout[-500:], r.stderr)
    r = _cli(plugin, "replay", "game.json")
    assert r.returncode == 0, r.stderr
    r = _cli(plugin, "doctor", RID)
    lines = r.stdout.splitlines()
    assert len([ln for ln in lines if ln.startswith(("pass", "FAIL", "skip"))]) == 8, r.stdout
    failing = [ln for ln in lines if ln.startswith("FAIL")]
    assert not failing and r.returncode == 0, r.stdout


def test_the_web_api_plays_the_plugin_to_the_end(plugin: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from conquest.doctor import web_game
    from conquest.web.server import create_app
    with TestClient(create_app(str(tmp_path / "g.sqlite3")), raise_server_exceptions=False) as client:
        listed = client.get("/api/rulesets").json()
        assert RID in json.dumps(listed)
        game = web_game(client, RID, 3, {"rounds": 4}, seed=9)
    assert game["game"]["over"] and sum(game["game"]["result"]) == pytest.approx(1.0)


def test_the_rl_environment_takes_the_plugin(plugin: Path) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import conquest.rl as rl
    from conquest.rl.match import encoding_for
    encoding_for(RID, 2, {"rounds": 6})   # the generic encoding built from the view (Ruleset.rl_encoding)
    api_test(rl.env(RID), num_cycles=100)


SUITE = ["tests/test_boundaries.py", "tests/core/test_contract.py", "tests/core/test_agents.py",
         "tests/web/test_spectators.py", "tests/test_narration_consistency.py", "tests/rl/test_envs.py"]


def test_the_suites_checks_over_the_registry_run_for_the_plugin(plugin: Path) -> None:
    """The suite's loops over games take the plugin too (none skips it silently): the tests named after it
    run and pass; the only skips allowed say why (the generic RL encoding not being in this branch)."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "-k", RID, *SUITE],
                       cwd=ROOT, env=_env(plugin), text=True, capture_output=True, timeout=900)
    tail = r.stdout[-3000:]
    assert r.returncode == 0, tail
    passed = re.findall(r"^PASSED (\S+)", r.stdout, flags=re.M)
    assert len(passed) >= 12 and all(p.endswith(f"{RID}]") for p in passed), tail
    assert {p.split("::")[0] for p in passed} >= set(SUITE) - {"tests/rl/test_envs.py"}, passed
    for skip in re.findall(r"^SKIPPED \[\d+\] (.*)", r.stdout, flags=re.M):
        assert "generic default encoding" in skip, skip


# ---- a broken plugin, a bad id, a failing check -----------------------------------------------------------
def test_a_broken_plugin_is_reported_and_the_others_load(monkeypatch: pytest.MonkeyPatch) -> None:
    eps = [EntryPoint("ghost", "conquest_no_such_module", registry.PLUGIN_GROUP),
           EntryPoint("twin", "conquest.rulesets.kingdom", registry.PLUGIN_GROUP),
           EntryPoint("kingdom", "conquest.rulesets.kingdom", registry.PLUGIN_GROUP)]
    monkeypatch.setattr(registry, "plugin_entry_points", lambda: eps)
    registry.clear()
    try:
        assert {"kingdom", "narby", "nerath", "smallworld"} <= set(registry.rulesets())
        assert "ModuleNotFoundError" in registry.broken["ghost"]
        assert "its ruleset's id is 'kingdom', not the entry point's name 'twin'" in registry.broken["twin"]
        assert "is taken by conquest.rulesets.kingdom" in registry.broken["kingdom"]
        with pytest.raises(UnknownRuleset, match="^ruleset 'ghost' failed to load: plugin ghost = "):
            registry.get_ruleset("ghost")
    finally:
        monkeypatch.undo()
        registry.clear()


@pytest.mark.parametrize("rid, words", [
    ("Islands", "is not a ruleset id"), ("9lives", "is not a ruleset id"), ("a", "is not a ruleset id"),
    ("is-les", "is not a ruleset id"), ("class", "is not a ruleset id"), ("narby", "exists already"),
    ("json", "the name of an installed Python module"),
])
def test_conquest_new_refuses_a_bad_id_in_one_line(tmp_path: Path, rid: str, words: str) -> None:
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "new", rid, "--into", str(tmp_path)], cwd=ROOT,
                       env=_env(tmp_path), text=True, capture_output=True, timeout=120)
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_conquest_new_refuses_a_folder_that_exists(tmp_path: Path) -> None:
    (tmp_path / "oldisles").mkdir()
    with pytest.raises(ConquestError, match="exists already"):
        new_package("oldisles", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["oldisles"]


def test_doctor_names_the_failing_check_and_the_section_to_read(plugin: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from conquest import doctor
    rs: Any = registry.get_ruleset(RID)
    # a determinize that hands the agents the referee's cards
    monkeypatch.setattr(type(rs), "determinize", lambda self, state, seat, rng: state.clone())
    checks = {c.key: c for c in doctor.run(RID)}
    assert checks["determinize"].ok is False and "must resample" in checks["determinize"].detail
    assert checks["determinize"].doc == "docs/architecture.md#the-contract-conquestcoregamepy"
    assert checks["scenarios"].ok is True and checks["web"].ok is True

    def peeks(self: Any, state: Any, seat: int, rng: Any) -> Any:  # deals the seat's own card again too
        new = state.clone()
        new.objectives = [rng.choice(["north", "east", "south", "west", "keep"]) if c else c
                          for c in state.objectives]
        return new
    monkeypatch.setattr(type(rs), "determinize", peeks)
    check = next(c for c in doctor.run(RID) if c.key == "determinize")
    assert check.ok is False and "does not agree with view" in check.detail, check


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


def test_every_section_the_doctor_names_exists() -> None:
    from conquest.doctor import DOCS
    for link in set(DOCS.values()):
        path, _, anchor = link.partition("#")
        text = (ROOT / path).read_text(encoding="utf-8")
        if anchor:
            anchors = {_slug(h.lstrip("#")) for h in text.splitlines() if h.startswith("#")}
            assert anchor in anchors, link


def test_doctor_of_an_unknown_game_fails_in_one_line() -> None:
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "doctor", "nosuchgame"], cwd=ROOT, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120)
    assert r.returncode == 1
    assert "FAIL  the ruleset loads: unknown ruleset 'nosuchgame'" in r.stdout
    assert "read: docs/architecture.md#adding-a-game" in r.stdout


@pytest.mark.parametrize("rid", sorted(registry.rulesets()))
def test_every_games_scenarios_pass(rid: str) -> None:
    """The scenarios of every registered game, from its package (``scenarios/``, as ``conquest new`` writes
    them) and from ``tests/scenarios/<id>/``: ``conquest doctor``'s check; a game without any fails."""
    from conquest import doctor
    assert doctor.check_scenarios(registry.get_ruleset(rid)).endswith("scenario files pass")


def test_doctor_passes_a_game_of_the_repository() -> None:
    """Kingdom, which has every part (an RL encoding included): every check passes, in a line each."""
    from conquest import doctor
    checks = doctor.run("kingdom")
    assert [c.key for c in checks] == [key for _name, key, _fn in doctor.CHECKS]
    assert all(c.ok is not False for c in checks), [c for c in checks if c.ok is False]


def test_the_plugins_pyproject_builds_a_wheel_that_declares_the_entry_point(tmp_path: Path) -> None:
    """``conquest new --into DIR`` makes an installable distribution: its wheel holds the package with its data
    (map, pages, scenarios) and the ``conquest.rulesets`` entry point."""
    pytest.importorskip("setuptools")
    import zipfile
    src = tmp_path / "src"
    new_package("wheelisles", src)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", str(src),
                        "-w", str(tmp_path / "dist")], text=True, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"wheelisles/map.yaml", "wheelisles/rules.md", "wheelisles/howto.md",
            "wheelisles/scenarios/attack_hits_on_four.yaml", "wheelisles/ruleset.py"} <= names
    points = zipfile.ZipFile(wheel).read("conquest_wheelisles-0.1.0.dist-info/entry_points.txt").decode()
    assert "[conquest.rulesets]\nwheelisles = wheelisles" in points
