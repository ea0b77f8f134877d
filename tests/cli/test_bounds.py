"""Issue 33, section 5: every bad argument or file of the command line is one line on stderr and exit 2, before
any work - a balance run's folder, the games and seed bounds, the odds calculator's size caps, and the JSON files
of `odds --state`, `play --state`, `play --resume` and `replay` (binary, nested 990 deep, a 5,000-digit number)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conquest.analysis.limits import MAX_GAMES, SEED_MAX
from conquest.cli_analysis import MAX_MONTE_CARLO
from conquest.core.jsondoc import MAX_FILE_DEPTH
from conquest.rulesets.nerath.calculator import MAX_BATTLE_PIECES, MAX_BATTLE_STATES
from tests.cli.test_cli import cli, one_line_error

BIG_SEED = str(10 ** 40)


# ---- balance --out ------------------------------------------------------------------------------------

def test_balance_refuses_a_folder_holding_other_files_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    r = cli("balance", "kingdom", "--games", "2", "--agents", "random", "--out", str(tmp_path))
    one_line_error(r, str(tmp_path), "other files")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    one_line_error(cli("balance", "kingdom", "--games", "2", "--agents", "random", "--out", "/"), "--out /")
    other = tmp_path / "other"
    other.mkdir()
    (other / "summary.json").write_text('{"format": "someone-else/1"}')   # a summary.json, not ours
    one_line_error(cli("balance", "kingdom", "--games", "2", "--agents", "random", "--out", str(other)),
                   "other files")
    assert (other / "summary.json").read_text() == '{"format": "someone-else/1"}'


def test_balance_reruns_and_resumes_into_its_own_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = cli("balance", "kingdom", "--games", "2", "--agents", "random", "--out", str(out), "--json")
    assert first.returncode == 0, first.stderr
    again = cli("balance", "kingdom", "--games", "3", "--agents", "random", "--out", str(out), "--resume", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["games"] == 3
    # a folder with only the summary and report of a run (its games file removed) is still ours
    (out / "games.parquet").unlink()
    third = cli("balance", "kingdom", "--games", "2", "--agents", "random", "--out", str(out), "--json")
    assert third.returncode == 0, third.stderr


@pytest.mark.parametrize("where", ["file", "proc"])
def test_balance_out_under_a_file_or_proc_is_one_line(tmp_path: Path, where: str) -> None:
    f = tmp_path / "a-file"
    f.write_text("x")
    out = f / "report" if where == "file" else Path("/proc/conquest-report")
    r = cli("balance", "kingdom", "--games", "2", "--agents", "random", "--out", str(out))
    one_line_error(r, "--out")
    assert f.read_text() == "x" and not Path("/proc/conquest-report").exists()


def test_balance_games_and_seed_bounds_come_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "run"
    one_line_error(cli("balance", "kingdom", "--games", str(MAX_GAMES + 1), "--out", str(out)),
                   f"{MAX_GAMES:,}")
    one_line_error(cli("balance", "kingdom", "--games", "2", "--seed", BIG_SEED, "--out", str(out)),
                   "--seed", "64-bit")
    one_line_error(cli("balance", "kingdom", "--games", "2", "--seed", str(SEED_MAX), "--out", str(out)),
                   "2^63-1")
    one_line_error(cli("balance", "kingdom", "--games", "2", "--seed", "1e40", "--out", str(out)), "--seed")
    one_line_error(cli("balance", "kingdom", "--games", "2", "--jobs", "100000", "--out", str(out)), "--jobs")
    assert not out.exists()


@pytest.mark.parametrize("args", [
    ["simulate", "kingdom", "--seed", BIG_SEED],
    ["simulate", "kingdom", "--games", str(MAX_GAMES + 1)],
    ["tournament", "kingdom", "--agents", "random,greedy", "--seed", BIG_SEED],
    ["tournament", "kingdom", "--agents", "random,greedy,mcts", "--games", str(MAX_GAMES // 3 + 1)],
    ["play", "kingdom", "--seed", BIG_SEED],
    ["start", "--no-web", "--seed", str(-(2 ** 63) - 1)],
    ["odds", "nerath", "--attacker", "footsoldier", "--defender", "footsoldier", "--monte-carlo", "10",
     "--seed", BIG_SEED],
])
def test_every_command_taking_a_seed_or_games_bounds_them(args: list[str]) -> None:
    one_line_error(cli(*args), "--")


# ---- odds: the size of a battle ------------------------------------------------------------------------

def test_odds_caps_a_side_the_chain_and_the_monte_carlo() -> None:
    many = ",".join(["500 footsoldier"] * 20)
    one_line_error(cli("odds", "nerath", "--attacker", many, "--defender", "footsoldier"),
                   f"at most {MAX_BATTLE_PIECES} pieces", "--attacker")
    one_line_error(cli("odds", "nerath", "--attacker", "100 dragon", "--defender", "100 dragon",
                       "--ally", "100 dragon"), f"{MAX_BATTLE_STATES:,}")
    one_line_error(cli("odds", "nerath", "--attacker", "100 fighter", "--dungeon", "--defender",
                       "facedown,facedown,facedown"), f"{MAX_BATTLE_STATES:,}", "deals")
    one_line_error(cli("odds", "nerath", "--attacker", "footsoldier", "--defender", "footsoldier",
                       "--monte-carlo", str(10 ** 30)), f"{MAX_MONTE_CARLO:,}")


def test_odds_within_the_caps_still_answers() -> None:
    r = cli("odds", "nerath", "--attacker", "100 dragon", "--defender", "100 dragon", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert abs(data["attacker_wins"] + data["defender_holds"] + data["both_destroyed"] - 1) < 1e-9


# ---- JSON files --------------------------------------------------------------------------------------

def _bad_files(tmp_path: Path) -> dict[str, Path]:
    files = {"binary": bytes(range(256)), "deep": ("[" * 990 + "]" * 990).encode(),
             "deep-object": ('{"a":' * 990 + "1" + "}" * 990).encode(), "number": b"9" * 5000,
             "nested-past-the-limit": ("[" * (MAX_FILE_DEPTH + 1) + "]" * (MAX_FILE_DEPTH + 1)).encode()}
    out = {}
    for name, data in files.items():
        p = tmp_path / f"{name}.json"
        p.write_bytes(data)
        out[name] = p
    return out


@pytest.mark.parametrize("command", ["odds", "play-state", "resume", "replay"])
def test_a_bad_json_file_is_one_line_for_every_command(tmp_path: Path, command: str) -> None:
    for name, path in _bad_files(tmp_path).items():
        args = {"odds": ["odds", "kingdom", "--state", str(path), "--action", "end"],
                "play-state": ["play", "kingdom", "--state", str(path)],
                "resume": ["play", "--resume", str(path)],
                "replay": ["replay", str(path)]}[command]
        line = one_line_error(cli(*args), str(path))
        assert ("UTF-8" in line) if name == "binary" else ("digits" in line if name == "number"
                                                            else f"{MAX_FILE_DEPTH} levels" in line), line


def test_the_odds_cpu_budget_stops_a_computation_that_runs_past_it() -> None:
    import time

    from conquest.cli_analysis import _CpuBudget, _OverBudget
    t0 = time.process_time()
    with pytest.raises(_OverBudget):
        with _CpuBudget(0.2):
            while True:
                sum(range(1000))
    assert 0.1 <= time.process_time() - t0 < 5   # the profiling timer counts in clock ticks
    with _CpuBudget(0.2):   # left in time: nothing is raised afterwards
        pass
    t1 = time.process_time()
    while time.process_time() - t1 < 0.4:
        sum(range(1000))


def test_bench_refuses_a_run_longer_than_an_hour() -> None:
    one_line_error(cli("bench", "kingdom", "--seconds", "1e9"), "--seconds")
