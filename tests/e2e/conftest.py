"""Browser tests: Debian's Chromium (never a downloaded browser) driven by Playwright, against a real server
on 127.0.0.1 and a free port that stops by itself."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)
try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover
    pytest.skip("browser tests need the playwright package (pip install playwright; no browser download)",
                allow_module_level=True)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    d = Path(os.environ.get("CONQUEST_SCREENSHOTS", Path(tempfile.gettempdir()) / "conquest-e2e-screenshots"))
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="session")
def browser() -> Iterator["Browser"]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: Any) -> Iterator[Any]:
    from tests.web.conftest import with_toys
    from tests.web.liveserver import LiveServer
    db = str(tmp_path_factory.mktemp("e2e") / "games.sqlite3")
    with LiveServer(db, rulesets=with_toys, agent_delay=0.0, think_limit=3.0) as srv:
        yield srv


@pytest.fixture
def page(browser: "Browser") -> Iterator["Page"]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
