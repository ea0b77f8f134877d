"""The command line as a newcomer meets it: one clear line and exit 2 for every bad input, help that shows
flags as flags, menus that fit a screen, games that are saved and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conquest.core.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, input_text: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], input=input_text, capture_output=True,
                          text=True, cwd=cwd, timeout=300, env=env)


def _interruptible() -> None:
    """A child's Ctrl-C as a person's terminal gives it: runners started in the background (``cmd &``, CI
    agents) hand their children SIGINT ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_line_error(r: subprocess.CompletedProcess[str], *words: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Error:" not in r.stderr.replace("error:", "")
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def test_help_version_and_completion():
    h = cli("-h")
    assert h.returncode == 0 and "Commands:" in h.stdout and "--install-completion" in h.stdout
    assert "numbered from 1" in h.stdout
    v = cli("--version")
    assert v.returncode == 0 and v.stdout.startswith("conquest ")
    r = cli("replay", "-h")
    assert r.returncode == 0
    assert "<bool>" not in r.stdout
    flag = next(line for line in r.stdout.splitlines() if "--verify" in line)
    assert flag.split()[0] == "--verify" and flag.split()[1] == "check"  # a flag: no value after it
    for cmd in ("play", "simulate", "bench"):
        text = cli(cmd, "-h").stdout
        assert "number of players" in text, cmd
    assert "seed" in cli("start", "-h").stdout.split("--seed", 1)[1].split("\n")[0]


def test_play_state_help_speaks_of_records_not_saved_states():
    text = cli("play", "-h").stdout
    state_help = text.split("--state", 1)[1].split("--resume", 1)[0]
    assert "web app" not in state_help
    assert "--resume" in text and "web app" in text.split("--resume", 1)[1]


def test_info_lists_whole_names_and_booleans_as_typed():
    r = cli("info", "smallworld")
    assert r.returncode == 0
    rs = get_ruleset("smallworld")
    for o in rs.options().describe():
        assert f"  {o['name']} = " in r.stdout
        for c in o.get("choices", []):
            assert str(c) in r.stdout  # never cut at 80 columns
        if o["type"] == "bool":
            line = next(x for x in r.stdout.splitlines() if x.startswith(f"  {o['name']} = "))
            assert "True" not in line and "False" not in line and "(choices: true, false)" in line
    k = cli("info", "kingdom")
    assert "2 players" in k.stdout.splitlines()[0] and "2-2" not in k.stdout


def test_seat_count_errors_suggest_the_fix():
    one_line_error(cli("play", "nerath", "--seats", "human,greedy"), "2 seats given for 4 players",
                   "--players 2")
    msg = one_line_error(cli("simulate", "kingdom", "--seats", "human", "-n", "1"), "conquest play")
    assert "(known:" not in msg and "greedy" in msg
    one_line_error(cli("play", "kingdom", "--seats", "human,wizard"), "unknown agent 'wizard'", "human")


def test_binary_files_are_refused_in_one_line(tmp_path: Path):
    b = tmp_path / "b.bin"
    b.write_bytes(bytes(range(256)))
    one_line_error(cli("replay", str(b)), "not UTF-8")
    one_line_error(cli("play", "kingdom", "--state", str(b)), "not UTF-8")
    one_line_error(cli("play", "--resume", str(b)), "not UTF-8")


def test_simulate_records_must_be_a_folder(tmp_path: Path):
    f = tmp_path / "file"
    f.write_text("x")
    one_line_error(cli("simulate", "kingdom", "-n", "1", "--records", str(f)), "is a file")
    one_line_error(cli("simulate", "kingdom", "-n", "1", "--records", str(f / "sub")), "cannot make the folder")
    deep = tmp_path / "a" / "b"
    r = cli("simulate", "kingdom", "-n", "2", "--records", str(deep), "--json")
    assert r.returncode == 0 and len(list(deep.glob("*.json"))) == 2


def test_simulate_piped_prints_progress_and_seats_from_1():
    r = cli("simulate", "kingdom", "-n", "10", "--seats", "random,greedy")
    assert r.returncode == 0
    progress = [x for x in r.stderr.splitlines() if "games (" in x]
    assert progress[0] == "kingdom: 1/10 games (10%)" and progress[-1] == "kingdom: 10/10 games (100%)"
    assert len(progress) == 10
    rows = [x for x in r.stdout.splitlines() if "random" in x or "greedy" in x]
    assert rows[0].split()[1] == "1" and rows[1].split()[1] == "2"
    assert "seats numbered from 1" in r.stdout


def test_simulate_keeps_the_partial_summary_on_ctrl_c():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "conquest.cli", "simulate", "kingdom", "-n", "100000", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                         preexec_fn=_interruptible)
    deadline = time.time() + 120
    assert p.stderr is not None
    while time.time() < deadline:  # the first progress line: games are being played
        if "games (" in p.stderr.readline():
            break
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    data = json.loads(stdout)
    assert data["interrupted"] is True and 0 < data["games"] < 100000
    assert "interrupted" in stderr and "Traceback" not in stderr


def test_serve_refuses_a_bad_database_before_serving(tmp_path: Path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    cases = [(str(junk), "not an SQLite database"), ("foo://bar", "unknown database scheme 'foo'"),
             (str(tmp_path / "missing" / "dir" / "g.db"), "cannot open or create"),
             ("postgresql://u:secret@127.0.0.1:1/db", "cannot use the database")]
    for db, words in cases:
        r = cli("serve", "--db", db, "--port", "18799")
        msg = one_line_error(r, words)
        assert "served at" not in r.stdout and "secret" not in msg


def test_save_is_checked_before_the_game(tmp_path: Path):
    r = cli("play", "kingdom", "--save", str(tmp_path / "no" / "game.json"), input_text="1\n" * 400)
    one_line_error(r, "does not exist")
    assert "Game over" not in r.stdout


def test_ctrl_c_saves_and_the_game_resumes(tmp_path: Path):
    rec = tmp_path / "game.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "conquest.cli", "play", "kingdom", "--seed", "4", "--save",
                          str(rec)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT, env=env, preexec_fn=_interruptible)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("recruit 1\n")
    p.stdin.flush()
    deadline = time.time() + 120
    while time.time() < deadline:  # the record is kept up to date at each of your turns
        if rec.exists() and "recruit 1" in rec.read_text():
            break
        time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    data = json.loads(rec.read_text())
    assert "recruit 1" in data["actions"] and data["result"] is None
    steps = len(data["actions"])
    r = cli("play", "--resume", str(rec), input_text="1\n" * 400)
    assert r.returncode == 0, r.stderr
    assert f"resumed after step {steps}" in r.stdout and "Game over" in r.stdout
    done = json.loads(rec.read_text())
    assert done["actions"][:steps] == data["actions"] and done["result"] is not None
    assert cli("replay", str(rec), "--verify").returncode == 0


def test_a_web_app_record_resumes_with_its_people_at_the_terminal(tmp_path: Path):
    from conquest.analysis.runner import play_game
    from conquest.core.records import Record
    rs = get_ruleset("kingdom")
    record, _ = play_game(rs, ["random", "greedy"], seed=9)
    doc = record.to_json()
    doc.update(actions=doc["actions"][:12], result=None, scores=None, seats=["Alice", "greedy"])
    web = tmp_path / "web-record.json"
    web.write_text(json.dumps(doc))
    out = tmp_path / "continued.json"
    r = cli("play", "--resume", str(web), "--save", str(out), input_text="1\n" * 400)
    assert r.returncode == 0, r.stderr
    assert "Player 1: human" in r.stdout.splitlines()[0] or ": human" in r.stdout.splitlines()[0]
    assert Record.load(out).actions[:12] == doc["actions"][:12]


def test_replay_show_n_prints_the_board_at_that_step(tmp_path: Path):
    from conquest.analysis.runner import play_game
    rs = get_ruleset("kingdom")
    record, _ = play_game(rs, ["random", "random"], seed=2)
    f = tmp_path / "r.json"
    record.save(f)
    state = record.new_state()
    for a in record.actions[:5]:
        state = state.apply(a)
    r = cli("replay", str(f), "--show", "5")
    assert r.returncode == 0, r.stderr
    assert f"after step 5 ({record.actions[4]}):" in r.stdout
    assert rs.render_text(state, None).splitlines()[0] in r.stdout
    one_line_error(cli("replay", str(f), "--show", str(len(record.actions) + 1)), "steps")


def test_replay_verify_refuses_a_wrong_seat_list(tmp_path: Path):
    from conquest.analysis.runner import play_game
    record, _ = play_game(get_ruleset("kingdom"), ["random", "random"], seed=3)
    doc = record.to_json()
    doc["seats"] = ["random", "random", "random"]
    f = tmp_path / "r.json"
    f.write_text(json.dumps(doc))
    one_line_error(cli("replay", str(f), "--verify"), "seats", "3 seats for 2 players")


def test_nerath_board_has_no_raw_markup_when_piped_and_the_menu_is_grouped():
    r = cli("play", "nerath", "--seed", "3", input_text="move\nmore\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "[bold]" not in r.stdout and "[/]" not in r.stdout and "[cyan]" not in r.stdout
    assert "Conquest of Nerath — round 1" in r.stdout
    assert "legal actions: move (" in r.stdout
    numbered = [x for x in r.stdout.splitlines() if x.strip()[:1].isdigit() and ". move " in x]
    assert 20 < len(numbered) <= 40  # two pages of the move group, not the whole list
    assert "type 'more'" in r.stdout
    for line in numbered:
        assert line.count("move k") == 1  # the notation once per line


def test_kingdom_menu_short_enough_is_listed_whole():
    r = cli("play", "kingdom", "--seed", "1", input_text="quit\n")
    assert "legal actions:" not in r.stdout.split("to move.")[1].split("\n")[1]
    assert "    1. " in r.stdout


def test_shell_completion_completes_commands():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "_CONQUEST_COMPLETE": "complete_bash", "COMP_WORDS": "conquest si",
           "COMP_CWORD": "1"}
    r = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['conquest']; from conquest.cli import main; "
                        "main()"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["simulate"]


def test_play_tells_the_person_no_card_of_another_realm():
    """The terminal shows the dice and the computer's moves as the web log does: a card drawn into a hand the
    person does not hold, or a face-down Guardian, is "(hidden)"; the person's own realms' draws are shown."""
    r = cli("play", "nerath", "--players", "2", "--seats", "human,greedy", "--seed", "3", input_text="quit\n")
    assert r.returncode == 0, r.stderr
    shown = [line.strip() for line in r.stdout.splitlines() if line.strip().startswith("chance:")]
    # seat 1 holds Karkoth and the Iron Circle; Vailin's and Nerath's draws and the Guardian tiles stay hidden
    assert any(line.startswith("chance: draw k-") for line in shown)
    assert any(line == "chance: (hidden)" for line in shown)
    assert not any(line.startswith(("chance: draw v-", "chance: draw n-", "chance: guardian")) for line in shown)
