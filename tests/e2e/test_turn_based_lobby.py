"""Issue 32's done-when in the browser: two people register (with their e-mail addresses), one sets up a public,
rated, turn-based Small World table, the other finds it in the open lobby and joins, a third (not logged in)
watches. Their browsers are closed between turns: each player's first turn is played on the page opened from the
link of the mail their turn brought (a local SMTP server on loopback); the rest of the game is played through the
API with the seat links (a Small World game is long), each turn still mailed; the result moves both ratings.
Screenshots of the lobby with the table at 1400x900 and 390x844."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest

from conquest.web.notify import SmtpSettings
from tests.web.conftest import PG, wait_for, with_toys
from tests.web.liveserver import LiveServer, free_port
from tests.web.mailbox import Inbox, smtp_inbox
from tests.web.test_bus import Process

aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

SIZES = {"wide": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}
ADDRESS = {0: "ann@example.org", 1: "bob@example.net"}


def link_in(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    found = re.search(r"Play: (\S+)", str(part.get_content()))
    assert found, part.get_content()
    return found.group(1)


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    with smtp_inbox() as box:
        yield box


@pytest.fixture(scope="module", params=["sqlite", pytest.param("pg-two-processes", marks=pytest.mark.skipif(
    not PG, reason="CONQUEST_TEST_PG is not set (scripts/pg-for-tests.sh)"))])
def servers(request: Any, tmp_path_factory: Any, inbox: Inbox) -> Iterator[tuple[str, str]]:
    """The addresses the players use: one server on SQLite (twice the same), or two uvicorn processes on one
    PostgreSQL (the mails' links and Ann go to the first; Bob and the watcher to the second)."""
    if request.param == "sqlite":
        db = str(tmp_path_factory.mktemp("turns") / "games.sqlite3")
        smtp = SmtpSettings(host="127.0.0.1", port=inbox.port, sender="conquest@example.org",
                            starttls=False)
        with LiveServer(db, rulesets=with_toys, agent_delay=0.0, think_limit=3.0, smtp=smtp,
                        public_url="http://127.0.0.1") as srv:
            srv.app.state.pace.public_url = srv.url  # the port is known now
            yield srv.url, srv.url
        return
    from conquest.web.storage import Store, metadata
    store = Store(str(PG))
    metadata.drop_all(store.engine)
    store.close()
    Store(str(PG)).close()  # the tables made once, before the processes start
    port = free_port()
    mail = {"CONQUEST_SMTP_HOST": "127.0.0.1", "CONQUEST_SMTP_PORT": str(inbox.port),
            "CONQUEST_SMTP_FROM": "conquest@example.org", "CONQUEST_SMTP_STARTTLS": "0",
            "CONQUEST_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    saved = {k: os.environ.get(k) for k in mail}
    os.environ.update(mail)
    try:
        a = Process(str(PG), port=port)
        b = Process(str(PG))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        a.wait()
        b.wait()
        yield a.url, b.url
    finally:
        a.stop()
        b.stop()


def new_page(browser: Any, errors: list[str], size: str = "wide") -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=SIZES[size])
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page


def register(page: Any, base: str, name: str, address: str) -> None:
    page.goto(base + "/account")
    page.fill("#register-name", name)
    page.fill("#register-password", "correct horse battery")
    page.fill("#register-email", address)
    page.click("#register-btn")
    page.wait_for_url("**/tables")
    page.wait_for_selector("#me-link")


def play_turn_on_page(page: Any) -> None:
    """Click the first action offered (confirming when asked) until the turn is no longer this seat's."""
    for _ in range(80):
        page.wait_for_function("() => { const a = document.getElementById('app');"
                               " return a.dataset.over === 'true' || a.dataset.mine !== undefined; }", timeout=20_000)
        if page.eval_on_selector("#app", "a => a.dataset.mine !== 'true' || a.dataset.over === 'true'"):
            return
        page.wait_for_selector("#actions button[data-action]")
        before = page.eval_on_selector("#app", "a => a.dataset.revision")
        page.locator("#actions button[data-action]").first.click()
        if page.locator("#confirm-yes").is_visible():
            page.click("#confirm-yes")
        page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{before}'",
                               timeout=20_000)
    raise AssertionError("the turn did not end")


def test_two_players_play_a_turn_based_small_world_table_by_mail(browser: Any, servers: tuple[str, str],
                                                                 inbox: Inbox, screenshots: Path) -> None:
    base, other = servers
    errors: list[str] = []
    with inbox.lock:
        inbox.mails.clear()
    api = httpx.Client(base_url=base, timeout=20)
    ctx_a, ann = new_page(browser, errors)
    ctx_b, bob = new_page(browser, errors)
    ctx_w, watcher = new_page(browser, errors)
    register(ann, base, "Ann", ADDRESS[0])
    ann.wait_for_selector("#t-ruleset option[value='smallworld']", state="attached")
    ann.select_option("#t-ruleset", "smallworld")
    ann.select_option("#pace-mode", "turn")
    ann.select_option("#pace-deadline", str(86400))
    ann.click("#t-create")
    ann.wait_for_selector("li.table [data-start]")
    assert "turn-based, 24 hours a turn" in ann.inner_text("li.table")

    register(bob, other, "Bob", ADDRESS[1])
    bob.wait_for_selector("li.table [data-join]")
    assert "Ann" in bob.inner_text("li.table") and "turn-based" in bob.inner_text("li.table")
    for size, viewport in SIZES.items():
        bob.set_viewport_size(viewport)
        bob.wait_for_timeout(150)
        bob.screenshot(path=str(screenshots / f"turn-lobby-{size}.png"), full_page=True)
    bob.set_viewport_size(SIZES["wide"])
    bob.click("li.table [data-join]")
    bob.wait_for_selector("li.table a[data-play]")
    watcher.goto(other + "/tables")
    watcher.click("li.table a[data-watch]")
    watcher.wait_for_selector("#turn")
    # both close their browsers: the mails bring them back
    ctx_a.close()
    ctx_b.close()

    turns = {0: 0, 1: 0}
    wait_for(lambda: len(inbox.to(ADDRESS[0])) + len(inbox.to(ADDRESS[1])) >= 1)
    tokens: dict[int, str] = {}
    state = api.get("/api/lobby").json()["tables"][0]
    gid = state["game"]
    seen: int | None = None
    for _ in range(2):  # each player's first turn, on the page opened from their mail
        spectator = watcher.url.split("#t=")[1]
        g = api.get(f"/api/games/{gid}", headers={"X-Conquest-Token": spectator}).json()["game"]
        seat = g["to_move"]
        assert seat in (0, 1) and seat != seen
        turns[seat] += 1
        wait_for(lambda s=seat: len(inbox.to(ADDRESS[s])) == turns[s])
        link = link_in(inbox.to(ADDRESS[seat])[-1])
        assert link.startswith(f"{base}/game/{gid}#t=")
        tokens[seat] = link.split("#t=")[1]
        ctx, page = new_page(browser, errors)
        page.goto(link)
        page.wait_for_selector("#turn")
        play_turn_on_page(page)
        ctx.close()
        seen = seat

    # the rest through the API with the seat links: the first action offered each time
    for _ in range(3000):
        g = api.get(f"/api/games/{gid}", headers={"X-Conquest-Token": tokens[0]}).json()["game"]
        if g["over"]:
            break
        seat = g["to_move"]
        if seat not in (0, 1):  # the dice, rolled by the server
            continue
        if seat != seen:
            turns[seat] += 1
            seen = seat
        legal = api.get(f"/api/games/{gid}/legal", headers={"X-Conquest-Token": tokens[seat]}).json()["legal"]
        move = legal[0]["text"]
        r = api.post(f"/api/games/{gid}/actions", json={"action": move}, headers={"X-Conquest-Token": tokens[seat]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("the game did not end")
    # every turn that began brought its player a mail with their own seat's link
    for seat in (0, 1):
        wait_for(lambda s=seat: len(inbox.to(ADDRESS[s])) == turns[s])
        assert all(link_in(m) == f"{base}/game/{gid}#t={tokens[seat]}" for m in inbox.to(ADDRESS[seat]))
    assert turns[0] >= 2 and turns[1] >= 2
    watcher.wait_for_function("() => document.getElementById('app').dataset.over === 'true'", timeout=20_000)
    # the result moved both ratings
    for name in ("Ann", "Bob"):
        p = api.get(f"/api/players/{name}").json()
        assert [r["title"] for r in p["ratings"]] == ["Small World"] and p["ratings"][0]["games"] == 1, p
        assert p["history"][0]["before"] != p["history"][0]["after"], p
    ctx_w.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
