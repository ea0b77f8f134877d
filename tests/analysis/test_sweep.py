"""What-if sweeps (``conquest balance --sweep``): arms on the same seeds, exact paired tests, one comparison
report; the same summary from the local and the Dask backends; nothing in --out lost on a bad variant."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from conquest.analysis.balance import Plan
from conquest.analysis.sweep import arms_of, run_sweep
from conquest.analysis.sweep_report import binomial_two_sided, fisher_two_sided
from conquest.core.errors import ConquestError

SHORT = {"rounds": 1}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], capture_output=True, text=True,
                          timeout=600)


# ------------------------------------------------------------------------------------------ exact tests
def test_the_exact_binomial_test_by_hand() -> None:
    assert binomial_two_sided(0, 5) == pytest.approx(2 / 32)
    assert binomial_two_sided(5, 5) == pytest.approx(2 / 32)
    assert binomial_two_sided(2, 4) == 1.0 and binomial_two_sided(0, 0) == 1.0
    assert binomial_two_sided(1, 10) == pytest.approx(2 * 11 / 1024)


def test_the_exact_tests_agree_with_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for k, n in ((3, 17), (40, 100), (0, 12), (250, 430)):
        assert binomial_two_sided(k, n) == pytest.approx(stats.binomtest(k, n).pvalue, rel=1e-9)
    for table in ((3, 7, 9, 1), (40, 60, 55, 45), (0, 10, 4, 6), (120, 280, 150, 250)):
        a, b, c, d = table
        assert fisher_two_sided(a, b, c, d) == pytest.approx(stats.fisher_exact([[a, b], [c, d]]).pvalue,
                                                              rel=1e-6)


# ------------------------------------------------------------------------------------------------- arms
def test_an_option_sweep_finds_the_baseline_among_its_values() -> None:
    plan = Plan.make("kingdom", ["greedy"], options=SHORT)
    arms = arms_of(plan, "rounds=1,2,3")
    assert [a.label for a in arms] == ["rounds=1 (baseline)", "rounds=2", "rounds=3"]
    assert arms[0].plan is plan and [a.plan.options["rounds"] for a in arms] == [1, 2, 3]
    assert all(a.plan.seed == plan.seed and a.plan.agents == plan.agents for a in arms)


def test_a_variant_field_sweep_and_a_file_of_named_variants(tmp_path: Path) -> None:
    plan = Plan.make("kingdom", ["greedy"], options=SHORT)
    arms = arms_of(plan, "castle_icon=0,3")
    assert [a.label for a in arms] == ["baseline", "castle_icon=0", "castle_icon=3"]
    assert [a.plan.options["variant"] for a in arms] == ["", '{"castle_icon":0}', '{"castle_icon":3}']
    f = tmp_path / "sweep.yaml"
    f.write_text("variants:\n  gold rush: {points: {gold: 4}}\n  long: {options: {rounds: 2}}\n")
    arms = arms_of(plan, str(f))
    assert [a.label for a in arms] == ["baseline", "gold rush", "long"]
    assert json.loads(arms[1].plan.options["variant"]) == {"name": "gold rush", "points": {"gold": 4}}
    assert arms[2].plan.options["rounds"] == 2


@pytest.mark.parametrize("sweep, message", [
    ("castle_icon=-1", "variant field 'castle_icon': Input should be greater than or equal to 0"),
    ("rounds=0", "--sweep rounds=0: option rounds"),
    ("nothing=1,2", "variant field 'nothing': unknown field"),
    ("rounds=1", "every value gives the baseline's game"),
    ("rounds", "write NAME=V1,V2"),
])
def test_a_bad_sweep_is_one_line(sweep: str, message: str) -> None:
    with pytest.raises(ConquestError) as e:
        arms_of(Plan.make("kingdom", ["greedy"], options=SHORT), sweep)
    assert message in str(e.value) and "\n" not in str(e.value)


# ------------------------------------------------------------------------------------------------- runs
def test_the_comparison_pairs_the_same_seeds(tmp_path: Path) -> None:
    plan = Plan.make("kingdom", ["random", "greedy"], options=SHORT)
    summary = run_sweep(arms_of(plan, "castle_icon=5"), 6, tmp_path)
    assert summary["format"] == "conquest-sweep/1" and summary["games"] == 6
    assert [a["label"] for a in summary["arms"]] == ["baseline", "castle_icon=5"]
    length = next(t for t in summary["tests"] if t["measure"] == "length")
    assert length["pairs"] == 6 and length["test"] == "sign (exact)"
    seats = [t for t in summary["tests"] if t["measure"] == "seat"]
    assert [t["pairs"] for t in seats] == [6, 6] and all(t["test"] == "McNemar (exact)" for t in seats)
    assert summary["changed"][0].startswith("castle_icon=5 against baseline: ")
    html = (tmp_path / "report.html").read_text()
    assert "What changed" in html and "data:image/png;base64," in html
    for arm in ("baseline", "castle_icon=5"):
        assert (tmp_path / "arms" / arm / "games.parquet").is_file()
        assert (tmp_path / "arms" / arm / "report.html").is_file()
    # the baseline's games are its seeds: the arm's game i has the same seed
    from conquest.analysis.balance import read_games
    base = read_games(tmp_path / "arms" / "baseline")[1]
    arm = read_games(tmp_path / "arms" / "castle_icon=5")[1]
    assert [r["seed"] for r in base] == [r["seed"] for r in arm] and [r["agents"] for r in base] == \
        [r["agents"] for r in arm]


def test_local_and_dask_give_the_same_summary(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    from conquest.analysis.dask_backend import DaskBackend
    plan = Plan.make("kingdom", ["random", "greedy"], options=SHORT, seed=7)
    arms = arms_of(plan, "castle_icon=0,4")
    run_sweep(arms, 8, tmp_path / "local", jobs=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.ERROR) as c, Client(c) as client:
        run_sweep(arms, 8, tmp_path / "dask", backend_factory=lambda: DaskBackend(client=client))
    assert (tmp_path / "local" / "summary.json").read_text() == (tmp_path / "dask" / "summary.json").read_text()


def test_cli_a_bad_variant_loses_nothing_in_out(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    r = cli("balance", "kingdom", "--games", "2", "--agents", "random", "-o", "rounds=1", "--sweep",
            "castle_icon=2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "castle_icon=2 against baseline" in r.stdout
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    bad = tmp_path / "bad.yaml"
    for args in (["--sweep", "castle_icon=-2"], ["--sweep", str(bad)], ["--variant", str(bad), "--sweep",
                                                                         "castle_icon=2"]):
        for text in ("variants:\n  x: {points: {gold: -3}}\n", "points: {gold: -3}\n"):
            bad.write_text(text)
            r = cli("balance", "kingdom", "--games", "4", "--agents", "random", "-o", "rounds=1", *args,
                    "--out", str(out), "--resume")
            lines = r.stderr.strip().splitlines()
            assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), (args, r.stderr)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    r = cli("balance", "kingdom", "--games", "2", "--agents", "random", "-o", "rounds=1", "--sweep",
            "castle_icon=2", "--out", str(out))
    assert r.returncode == 2 and "add --resume" in r.stderr
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    r = cli("balance", "kingdom", "--games", "2", "--agents", "random", "-o", "rounds=1", "--sweep",
            "castle_icon=2", "--out", str(other))
    assert r.returncode == 2 and "other files in it" in r.stderr and (other / "notes.txt").read_text() == "mine"
