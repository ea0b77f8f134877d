"""The web game tells its story, in Chromium: a scripted game against the computer in every ruleset shows a
narrated line for every entry of the log (the notation on hover), dice as dice, a battle window in Nerath,
confirmations of irreversible actions, the result screen; the hot-seat screen leaks nothing. Screenshots at
1400×900 and 390×844 go to CONQUEST_SCREENSHOTS (default: <tmp>/conquest-e2e-screenshots)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

PlaywrightError = pytest.importorskip("playwright.sync_api").Error

from conquest.core.registry import get_ruleset, rulesets  # noqa: E402
from tests.e2e.test_browser import SHORT, wait_my_turn_or_end  # noqa: E402

RULESETS = sorted(rulesets())

LOG_LINES = """() => [...document.querySelectorAll('.log.story .line')].map(l => ({
  say: l.querySelector('.say').textContent, title: l.getAttribute('title'),
  chips: l.querySelectorAll('.chip').length }))"""


def create_game(page: Any, base: str, rid: str, kinds: list[str]) -> None:
    page.goto(base + "/")
    page.select_option("#ruleset", rid)
    for name, value in SHORT.get(rid, {}).items():
        page.fill(f"#opt-{name}", str(value))
    page.select_option("#players", index=0)
    n = int(page.eval_on_selector("#players", "s => s.value"))
    page.fill("#seat-0-name", "Tester")
    for i in range(1, n):
        page.select_option(f"#seat-{i}-kind", kinds[min(i - 1, len(kinds) - 1)])
    page.click("#create-btn")


def act(page: Any, rng: random.Random, prefer: tuple[str, ...] = ()) -> str:
    """Play one listed action (preferring some verbs), answering a confirmation with yes; returns it."""
    before = page.eval_on_selector("#app", "a => a.dataset.revision")
    for attempt in range(5):
        try:
            text = _press_one(page, rng, prefer)
            break
        except PlaywrightError as e:  # the list re-drew itself under the pointer (a live update): again
            if "not attached" not in str(e) or attempt == 4:
                raise
            page.wait_for_timeout(100)
    # the move lands (a new revision), asks to confirm, or hands the device over (hot-seat: the page empties)
    page.wait_for_function(
        f"() => document.getElementById('app').dataset.revision !== '{before}'"
        " || (document.getElementById('confirm-box') || {}).open"
        " || !document.getElementById('overlay').hidden", timeout=20_000)
    if page.evaluate("() => !!(document.getElementById('confirm-box') || {}).open"):
        page.click("#confirm-yes")
        page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{before}'"
                               " || !document.getElementById('overlay').hidden", timeout=20_000)
    return text


def _press_one(page: Any, rng: random.Random, prefer: tuple[str, ...]) -> str:
    # the actions a player can press: visible (groups may be folded) and enabled, a stepper's "Play" included
    buttons = [b for b in page.query_selector_all("#actions button[data-action]:visible") if b.is_enabled()]
    assert buttons, "the seat to move has a list of legal actions"
    texts = [b.get_attribute("data-action") for b in buttons]
    liked = [i for i, t in enumerate(texts) if t and t.split()[0] in prefer]
    i = rng.choice(liked) if liked and rng.random() < 0.7 else rng.randrange(len(buttons))
    buttons[i].click()
    return str(texts[i])


def check_narrated(page: Any) -> list[dict[str, Any]]:
    """Every line of the log is a sentence, not the notation, and the notation is on hover."""
    lines = page.evaluate(LOG_LINES)
    assert lines, "the log has lines"
    for ln in lines:
        assert ln["say"].strip(), ln
        title = ln["title"] or ""
        if ": " in title:
            by, notation = title.split(": ", 1)
            assert ln["say"] != f"{by}: {notation}", f"a line that only repeats the notation: {ln}"
            assert ln["say"].strip() != notation.strip(), ln
    return lines


@pytest.mark.parametrize("rid", RULESETS)
def test_a_game_against_the_computer_tells_its_story(browser: Any, server: Any, screenshots: Path,
                                                      rid: str) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rng = random.Random(11)
    create_game(page, server.url, rid, ["greedy"])
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#turn")
    settings = get_ruleset(rid).test_settings
    prefer = settings.preferred_actions
    actions = 0
    shot = False
    while wait_my_turn_or_end(page):
        if page.query_selector("#why") is not None:
            assert page.inner_text("#why").strip()
            if not shot:  # the others have just played: their changes are marked on the board
                page.screenshot(path=str(screenshots / f"story-{rid}-1400x900.png"))
                shot = True
        act(page, rng, prefer)
        actions += 1
        if actions >= settings.browser_actions:
            break
    lines = check_narrated(page)
    assert any(ln["chips"] for ln in lines), "some dice are shown as dice"
    # the board marks what the others changed since this seat acted (the games with a drawn board)
    if page.query_selector("svg.board") is not None and page.eval_on_selector("#app", "a => a.dataset.over") != "true":
        page.wait_for_timeout(300)
    if page.eval_on_selector("#app", "a => a.dataset.over") == "true":
        page.wait_for_selector("#result-screen[open]")
        assert page.query_selector("#result-replay") is not None
        page.screenshot(path=str(screenshots / f"story-{rid}-result-1400x900.png"))
        page.click("#result-screen button.primary")
    if rid == "nerath":
        # a battle window, opened from the log: both sides, the rounds' dice and the result
        btn = page.query_selector(".battle-open")
        assert btn is not None, "a battle was fought and its entry offers the battle window"
        btn.click()
        page.wait_for_selector("#battle-window[open]")
        box = page.inner_text("#battle-window")
        assert "Forces" in box and "Round 1" in box
        assert page.query_selector("#battle-window .chip") is not None
        page.screenshot(path=str(screenshots / "story-nerath-battle-1400x900.png"))
        page.click("#battle-window button.close")
        assert page.query_selector("#battle-window[open]") is None
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.screenshot(path=str(screenshots / f"story-{rid}-390x844.png"), full_page=True)
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_irreversible_actions_ask_first(browser: Any, server: Any, screenshots: Path) -> None:
    """Small World: going into decline asks to confirm, with the question the ruleset's confirm_text sent with
    the action; Cancel changes nothing."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    create_game(page, server.url, "smallworld", ["random"])
    page.wait_for_url("**/game/**")
    rng = random.Random(3)
    for _ in range(60):
        assert wait_my_turn_or_end(page)
        if page.query_selector("#actions button[data-action='decline']") is not None:
            break
        act(page, rng, ("pick", "end", "redeploy"))
    else:
        pytest.fail("no turn offered decline")
    rev = page.eval_on_selector("#app", "a => a.dataset.revision")
    page.fill("#notation", "decline")  # long lists fold into groups: the filter brings the action into view
    page.click("#actions button[data-action='decline']:visible")
    page.wait_for_selector("#confirm-box[open]")
    assert "decline" in page.inner_text("#confirm-box").lower()
    from conquest.core.registry import get_ruleset
    rs = get_ruleset("smallworld")
    assert page.inner_text("#confirm-box p") == rs.confirm_text({}, ("decline",))   # the decline asks in any view
    for size, (w, h) in {"wide": (1400, 900), "phone": (390, 844)}.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(screenshots / f"confirm-decline-{size}.png"))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.click("#confirm-no")
    assert page.query_selector("#confirm-box[open]") is None
    assert page.eval_on_selector("#app", "a => a.dataset.revision") == rev
    ctx.close()


def test_hot_seat_screen_leaks_nothing(browser: Any, server: Any, screenshots: Path) -> None:
    """Nerath hot-seat: when the device passes, the next seat's page and log name none of the previous seat's
    Event cards, and no window of the previous seat stays open."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.select_option("#ruleset", "nerath")
    page.fill("#opt-max_rounds", "1")
    page.select_option("#players", index=0)
    n = int(page.eval_on_selector("#players", "s => s.value"))
    for i in range(1, n):
        page.select_option(f"#seat-{i}-kind", "human")
    page.click("#create-btn")
    page.wait_for_selector("#created li a")
    links = [a.get_attribute("href") for a in page.query_selector_all("#created li a")]
    page.click("#created li:first-child a")
    page.wait_for_selector("#turn")
    token0 = links[0].split("#t=")[1]
    gid = links[0].split("/game/")[1].split("#")[0]
    rng = random.Random(5)
    for _ in range(200):
        if page.query_selector("#overlay:not([hidden])") is not None:
            break
        if page.eval_on_selector("#app", "a => a.dataset.mine") == "true":
            act(page, rng, ("move", "done", "battle", "pass"))
        else:
            page.wait_for_timeout(100)
    else:
        pytest.fail("the turn never passed to the other seat")
    overlay = page.inner_text("#overlay")
    assert "Pass the device" in overlay
    mine = httpx.get(f"{server.url}/api/games/{gid}", headers={"X-Conquest-Token": token0}).json()
    from conquest.rulesets.nerath.cards import event_cards
    realms0 = [r for r, hand in mine["view"]["event_hands"].items() if isinstance(hand, list)]
    secret = [event_cards()[c]["name"] for r in realms0 for c in mine["view"]["event_hands"][r]]
    page.screenshot(path=str(screenshots / "story-hotseat-overlay-1400x900.png"))
    page.click("#overlay button")
    page.wait_for_function(f"() => !location.hash.includes('{token0}')"
                           " && document.getElementById('app').dataset.mine === 'true'")
    page.wait_for_selector(".log.story")
    text = page.inner_text("body")
    leaked = [name for name in secret if name in text]
    assert not leaked, f"the next seat's page names the previous seat's cards: {leaked}"
    assert page.query_selector("#battle-window[open]") is None
    ctx.close()
