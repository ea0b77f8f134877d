"""Packaging facts that would otherwise show up as warnings on every install or test run."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_license_is_an_spdx_string():
    """A ``license = {text = ...}`` table is deprecated by setuptools (a warning on every install)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert isinstance(project["project"]["license"], str)
    assert project["project"]["license"] == "MIT"
    build = project["build-system"]["requires"]
    assert any(r.startswith("setuptools>=") and int(r.split(">=")[1].split(".")[0]) >= 77 for r in build)


def test_test_client_raises_no_deprecation_warning():
    """starlette's TestClient warns when it has to fall back on httpx; the test extra installs httpx2."""
    import importlib
    import sys
    for name in [m for m in sys.modules if m.startswith(("starlette.testclient", "fastapi.testclient"))]:
        del sys.modules[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        importlib.import_module("fastapi.testclient")
