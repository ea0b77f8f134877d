"""Browser tests: Debian's Chromium (never a downloaded browser) driven by Playwright, against a real server
on 127.0.0.1 and a free port that stops by itself."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CONQUEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests need the playwright package (pip install playwright; no browser download)"
    return None


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    reason = _missing()
    if reason:
        here = Path(__file__).parent
        for item in items:
            if here in Path(str(item.fspath)).parents:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def screenshots() -> Path:
    d = Path(os.environ.get("CONQUEST_SCREENSHOTS", Path(tempfile.gettempdir()) / "conquest-e2e-screenshots"))
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # per module, not per session: Playwright's sync API keeps an asyncio loop running in this thread while it
    # is open, and the web tests that come after the browser tests start their own (anyio refuses a second)
    from playwright.sync_api import sync_playwright
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
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
