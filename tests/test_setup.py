"""`make test` leaves the machine as it found it: PostgreSQL for the web tests is a private throwaway cluster
(scripts/pg-for-tests.sh) or the one CONQUEST_TEST_PG names; `make check` does something."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "pg-for-tests.sh"
PROBE = ("import os, sys; from conquest.web.storage import Store; url = os.environ['CONQUEST_TEST_PG']; "
         "Store(url).close(); print(url)")


def _clusters() -> str:
    if not shutil.which("pg_lsclusters"):
        return ""
    return subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout


def test_a_given_database_is_used_and_nothing_is_started():
    env = {**os.environ, "CONQUEST_TEST_PG": "postgresql://someone@db.example:5/x"}
    r = subprocess.run(["sh", str(SCRIPT), sys.executable, "-c", "import os; print(os.environ['CONQUEST_TEST_PG'])"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "postgresql://someone@db.example:5/x"
    assert "throwaway" not in r.stderr


def test_the_command_exit_code_is_kept():
    env = {**os.environ, "CONQUEST_TEST_PG": "postgresql://x@127.0.0.1:1/x"}
    r = subprocess.run(["sh", str(SCRIPT), "sh", "-c", "exit 7"], env=env, timeout=60)
    assert r.returncode == 7


@pytest.mark.skipif(not glob.glob("/usr/lib/postgresql/*/bin/initdb"), reason="no PostgreSQL binaries here")
def test_a_throwaway_cluster_is_started_used_and_removed():
    before = _clusters()
    env = {k: v for k, v in os.environ.items() if k != "CONQUEST_TEST_PG"}
    env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run(["sh", str(SCRIPT), sys.executable, "-c", PROBE], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    url = r.stdout.strip().splitlines()[-1]
    assert url.startswith("postgresql://postgres@127.0.0.1:") and url.endswith("/conquest_test")
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    tmp = r.stderr.split(" in ", 1)[1].split(" (removed", 1)[0]
    assert not Path(tmp).exists(), "the cluster's folder is removed"
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0, "the cluster is stopped"
    assert _clusters() == before, "the machine's own clusters are untouched"


def test_make_check_runs_the_type_check_and_the_scenarios():
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    r = subprocess.run(["make", "-n", "check"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "mypy" in r.stdout and "conquest check -v tests/scenarios" in r.stdout
    t = subprocess.run(["make", "-n", "test"], capture_output=True, text=True, cwd=ROOT, timeout=60).stdout
    assert "sh scripts/pg-for-tests.sh" in t and "ALTER USER" not in SCRIPT.read_text()
    assert t.count("echo \"==") >= 3  # a line before each long step
