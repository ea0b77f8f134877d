"""`make run` runs `conquest start`: the web app in the background and a terminal game in the foreground."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_start_serves_the_web_app_and_plays_to_the_end_from_piped_input(tmp_path):
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "start", "--seed", "2", "--port", "18731",
                        "--db", str(tmp_path / "games.db")], input="1\n" * 500, capture_output=True, text=True,
                       cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "The web app is at http://127.0.0.1:" in r.stdout
    assert "Game over" in r.stdout


def test_start_without_the_web_app(tmp_path):
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "start", "--no-web", "--seed", "2"],
                       input="1\n" * 500, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "web app" not in r.stdout and "Game over" in r.stdout
