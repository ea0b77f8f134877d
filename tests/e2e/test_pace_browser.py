"""Turn-based games in the browser: the pace chosen on the new-game form and shown on the game page and in the lobby,
the seat's e-mail address set on the game page and the mail's link opening the seat's game, the browser's
notification when the turn comes while the page is in the background. Screenshots at 1400x900 and 390x844."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conquest.web.notify import SmtpSettings
from tests.web.conftest import wait_for, with_toys
from tests.web.liveserver import LiveServer
from tests.web.mailbox import Inbox, smtp_inbox

aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

SIZES = {"wide": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}

# a Notification that records what the page shows (headless Chromium shows none), with permission granted, and a
# page that is not being looked at (the notification is for a tab in the background)
FAKE_NOTIFICATIONS = """
window.__told = [];
class FakeNotification { constructor(title, opts) { window.__told.push({ title, body: (opts || {}).body }); }
  close() {} static requestPermission() { return Promise.resolve("granted"); } }
FakeNotification.permission = "granted";
window.Notification = FakeNotification;
document.hasFocus = () => false;
"""


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_inbox() as box:
        yield box, box.port


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: Any, inbox: tuple[Inbox, int]) -> Iterator[LiveServer]:
    db = str(tmp_path_factory.mktemp("pace") / "games.sqlite3")
    smtp = SmtpSettings(host="127.0.0.1", port=inbox[1], sender="conquest@example.org", starttls=False)
    with LiveServer(db, rulesets=with_toys, agent_delay=0.0, think_limit=3.0, smtp=smtp,
                    public_url="http://127.0.0.1") as srv:
        srv.app.state.pace.public_url = srv.url  # the port is known now
        yield srv


def shot(page: Any, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("size", ["wide", "phone"])
def test_a_turn_based_game_is_chosen_shown_and_mailed(browser: Any, mail_server: LiveServer,
                                                      inbox: tuple[Inbox, int], screenshots: Path, size: str) -> None:
    ctx = browser.new_context(viewport=SIZES[size])
    ctx.add_init_script(FAKE_NOTIFICATIONS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(mail_server.url + "/")
    page.select_option("#ruleset", "toy")
    page.select_option("#pace-mode", "turn")
    assert page.is_visible("#pace-turn")
    page.select_option("#pace-deadline", str(12 * 3600))
    # Toy has no rule for a player who leaves: the choice is shown, not offered
    assert page.is_disabled("#pace-at option[value=drop]")
    assert "cannot drop a seat" in page.inner_text("#pace-help")
    page.select_option("#pace-at", "easy")
    page.select_option("#seat-1-kind", "human")
    page.fill("#seat-0-name", "Ann")
    page.fill("#seat-1-name", "Bo")
    page.locator("#pace").scroll_into_view_if_needed()
    shot(page, screenshots, f"pace-new-game-{size}")
    page.click("#create-btn")
    page.wait_for_selector("#created a")
    links = [a.get_attribute("href") for a in page.locator("#created ul.links li a").all()]
    ann, bo = links[0], links[1]
    assert ann is not None and bo is not None
    gid = ann.split("/")[2].split("#")[0]
    t0, t1 = ann.split("#t=")[1], bo.split("#t=")[1]
    # the lobby lists the pace
    page.goto(mail_server.url + "/")
    page.wait_for_selector(".pace-short")
    assert "turn-based, 12 hours a turn" in page.inner_text("#mylist")
    page.locator("#mylist").scroll_into_view_if_needed()
    shot(page, screenshots, f"pace-lobby-{size}")

    # Bo opens his seat in his own browser: the pace and the deadline on the page; he sets his address
    ctx.close()
    ctx = browser.new_context(viewport=SIZES[size])
    ctx.add_init_script(FAKE_NOTIFICATIONS)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(mail_server.url + bo)
    page.wait_for_selector("#pace-line")
    line = page.inner_text("#pace-line")
    assert "Turn-based: 12 hours a turn; at the deadline the computer (easy) plays the turn." in line
    assert "Ann's turn: move by" in line
    page.click("#notify summary")
    page.wait_for_function("() => document.getElementById('notify-email-help').textContent.length > 0")
    assert "A mail with your link" in page.inner_text("#notify-email-help")
    address = f"bo-{size}@example.org"
    page.fill("#notify-email", address)
    page.click("#notify-save")
    page.wait_for_selector("#toast:not([hidden])")
    assert f"Saved: {address}" in page.inner_text("#toast")
    shot(page, screenshots, f"pace-game-{size}")

    # Ann ends her turn elsewhere: Bo's page, in the background, notifies; the mail comes with Bo's link
    r = httpx.post(f"{mail_server.url}/api/games/{gid}/actions", json={"action": "end"},
                   headers={"X-Conquest-Token": t0}, timeout=10)
    assert r.status_code == 200, r.text
    page.wait_for_function("() => window.__told.length > 0", timeout=10_000)
    told = page.evaluate("window.__told")
    assert told == [{"title": "Your turn in Toy (a test game)", "body": "Bo, it is your turn."}]
    wait_for(lambda: len(inbox[0].to(address)) > 0)
    msg = inbox[0].to(address)[0]
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    link = re.search(r"Play: (\S+)", str(part.get_content()))
    assert link is not None and link.group(1) == f"{mail_server.url}/game/{gid}#t={t1}"
    # the browser closed between turns: the mail's link opens Bo's seat, his turn
    page.close()
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(link.group(1))
    page.wait_for_selector("#turn")
    page.wait_for_function("() => document.getElementById('turn').textContent === 'Your turn.'")
    assert "Your turn: move by" in page.inner_text("#pace-line")
    shot(page, screenshots, f"pace-your-turn-{size}")
    ctx.close()
    assert not errors, errors
