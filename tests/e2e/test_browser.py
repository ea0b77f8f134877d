"""A person in Chromium: create a game against the computer in the lobby, play by clicking (the board and
the list), reload and continue, finish, replay — for every ruleset. Screenshots go to CONQUEST_SCREENSHOTS
(default: <tmp>/conquest-e2e-screenshots)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

PlaywrightError = pytest.importorskip("playwright.sync_api").Error

from conquest.web.server import available_rulesets as rulesets  # noqa: E402


class _Short(dict):  # type: ignore[type-arg]
    """Options that keep a browser game short (a few dozen clicks): a ruleset's ``test_settings.short_options``
    (the test toy's are here); a ruleset that declares none plays with its defaults."""

    def get(self, rid: str, default: Any = None) -> Any:  # type: ignore[override]
        if rid in self:
            return self[rid]
        rs = rulesets().get(rid)
        return dict(rs.test_settings.short_options) if rs is not None else default


SHORT = _Short(toy={"rounds": 2})
MAX_CLICKS = 250


def wait_my_turn_or_end(page: Any) -> bool:
    """True when it is this seat's turn, False when the game is over."""
    page.wait_for_function(
        "() => { const a = document.getElementById('app');"
        " return a.dataset.over === 'true' || a.dataset.mine === 'true'; }", timeout=20_000)
    return page.eval_on_selector("#app", "a => a.dataset.mine === 'true' && a.dataset.over !== 'true'")


FIND_SPOT = """g => {
  const r = g.getBoundingClientRect();
  for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
    const x = r.left + r.width * i / 12, y = r.top + r.height * j / 12;
    const el = document.elementFromPoint(x, y);
    if (el && el.closest("g.region") === g) return [x, y];
  }
  return null;
}"""


def click_once(page: Any, rng: random.Random, prefer_board: bool) -> None:
    for attempt in range(5):
        try:
            return _click_once(page, rng, prefer_board)
        except PlaywrightError as e:  # the page re-drew itself under the pointer (a live update): try again
            if "not attached" not in str(e) or attempt == 4:
                raise
            page.wait_for_timeout(100)


def _click_once(page: Any, rng: random.Random, prefer_board: bool) -> None:
    before = page.eval_on_selector("#app", "a => a.dataset.revision")
    regions = page.query_selector_all("svg.board .region.can")
    spot = None
    if prefer_board and regions:
        # a point of the region that is really under the pointer (regions made of several cells are not
        # convex: their middle may be another region)
        spot = rng.choice(regions).evaluate(FIND_SPOT)
    if spot:
        # either the click plays the only action there, or it narrows the list to the actions there; a click
        # whose press and release straddle a redraw of the board (the page's own refresh after the last move)
        # reaches no region, as a person's would not: it is clicked again, at most twice more
        for attempt in range(3):
            page.mouse.click(spot[0], spot[1])
            try:
                page.wait_for_function(
                    f"() => document.getElementById('app').dataset.revision !== '{before}'"
                    " || document.querySelector('.region.sel') !== null"
                    " || !document.getElementById('toast').hidden", timeout=5_000 if attempt < 2 else 15_000)
                break
            except PlaywrightError as e:
                if attempt < 2:
                    continue
                info = page.evaluate(
                    "([x, y]) => { const e = document.elementFromPoint(x, y); const g = e && e.closest('g');"
                    " return [e && e.tagName, g && g.getAttribute('class'), g && g.dataset.region,"
                    " document.getElementById('turn').textContent]; }", spot)
                net = page.evaluate("() => (window.__fetches || []).slice(-4)")
                raise AssertionError(f"a click on the board at {spot} did nothing three times: {info}; last "
                                     f"requests {net}") from e
        toast = page.query_selector("#toast:not([hidden])")
        assert toast is None, f"a click on the board was refused: {toast.inner_text() if toast else ''}"
        if page.eval_on_selector("#app", "a => a.dataset.revision") == before:
            matches = page.query_selector_all("#actions li.match button[data-action]:visible")
            (matches[0] if matches else page.query_selector_all("#actions button[data-action]:visible")[0]).click()
    else:
        buttons = page.query_selector_all("#actions button[data-action]:visible")
        assert buttons, "the seat to move has a list of legal actions"
        choice = [b for b in buttons if b.get_attribute("data-action") != "peek"] or buttons
        rng.choice(choice).click()
    page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{before}'"
                           " || (document.getElementById('confirm-box') || {}).open", timeout=20_000)
    if page.evaluate("() => !!(document.getElementById('confirm-box') || {}).open"):  # an irreversible action
        page.click("#confirm-yes")
        page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{before}'",
                               timeout=20_000)


TRACE_FETCH = """
window.__fetches = [];
const realFetch = window.fetch;
window.fetch = async (url, opts) => {
  const rec = [String(url), (opts && opts.method) || 'GET', (opts && opts.body) || null, 'pending'];
  window.__fetches.push(rec);
  try { const r = await realFetch(url, opts); rec[3] = r.status; return r; }
  catch (e) { rec[3] = 'error ' + e; throw e; }
};
"""


def create_in_lobby(page: Any, base: str, rid: str, opponents: str = "random") -> None:
    page.add_init_script(TRACE_FETCH)
    page.goto(base + "/")
    page.select_option("#ruleset", rid)
    for name, value in SHORT.get(rid, {}).items():
        page.fill(f"#opt-{name}", str(value))
    page.select_option("#players", index=0)  # the fewest players: the shortest game
    n = int(page.eval_on_selector("#players", "s => s.value"))
    page.fill("#seat-0-name", "Tester")
    for i in range(1, n):
        page.select_option(f"#seat-{i}-kind", opponents)
    page.click("#create-btn")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#turn")


def ruleset_ids() -> list[str]:
    return ["toy", *sorted(rulesets())]


@pytest.mark.parametrize("rid", ruleset_ids())
def test_play_a_whole_game_against_the_computer(page: Any, server: Any, screenshots: Path, rid: str) -> None:
    rng = random.Random(7)
    create_in_lobby(page, server.url, rid)
    page.screenshot(path=str(screenshots / f"{rid}-start.png"), full_page=True)
    assert "Tester" in page.inner_text("#players") and "Tester" in page.inner_text("#status")
    clicks = 0
    reloaded = False
    while wait_my_turn_or_end(page):
        if clicks == 3 and not reloaded:  # reload (while the game waits for us) and continue where we were
            log_before = page.inner_text(".log")
            page.reload()
            page.wait_for_selector("#turn")
            assert wait_my_turn_or_end(page)
            assert page.inner_text(".log") == log_before
            reloaded = True
        click_once(page, rng, prefer_board=clicks % 3 == 0)
        clicks += 1
        if clicks == 6:
            page.screenshot(path=str(screenshots / f"{rid}-playing.png"), full_page=True)
        if clicks >= MAX_CLICKS:
            pytest.skip(f"{rid} did not end within {MAX_CLICKS} clicks with options {SHORT.get(rid)}")
    assert page.inner_text("#turn") == "The game is over."
    assert page.query_selector("table.result") is not None
    page.wait_for_selector("#result-screen[open]")  # the result screen, closed to see the board
    page.screenshot(path=str(screenshots / f"{rid}-over.png"), full_page=True)
    page.click("#result-screen button.primary")

    # replay from the start, step by step
    page.click("text=Replay")
    page.wait_for_selector("#replay-pos")
    assert page.inner_text("#replay-pos").startswith("step 0 /")
    page.click("#next")
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('step 1 /')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('step 2 /')")
    page.screenshot(path=str(screenshots / f"{rid}-replay.png"), full_page=True)

    # download the record, and watch it again from the file in the lobby
    with page.expect_download() as dl:
        page.click("text=Download record")
    saved = screenshots / f"{rid}-record.json"
    dl.value.save_as(str(saved))
    record = json.loads(saved.read_text())
    assert record["format"] == "conquest-record/1" and record["ruleset"] == rid and record["result"]
    page.goto(server.url + "/")
    page.set_input_files("#record-file", str(saved))
    page.wait_for_url("**/replay**")
    page.wait_for_selector("#replay-pos")
    assert page.inner_text("#replay-pos") == f"step 0 / {len(record['actions'])}"


def test_toy_typed_notation_refusal_undo_record_and_keyboard(page: Any, server: Any, screenshots: Path) -> None:
    create_in_lobby(page, server.url, "toy")
    assert wait_my_turn_or_end(page)
    # a typed action the rules refuse: the reason is shown and nothing changes
    rev = page.eval_on_selector("#app", "a => a.dataset.revision")
    page.fill("#notation", "place nowhere")
    page.press("#notation", "Enter")
    page.wait_for_selector("#toast:not([hidden])")
    assert "not toy notation" in page.inner_text("#toast")
    assert page.eval_on_selector("#app", "a => a.dataset.revision") == rev
    # typed notation that is legal
    page.fill("#notation", "place west")
    page.press("#notation", "Enter")
    page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{rev}'")
    assert "place west" in page.inner_text(".log")
    # keyboard only: Tab to the first listed action and press Enter
    rev = page.eval_on_selector("#app", "a => a.dataset.revision")
    page.focus("#notation")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{rev}'")
    # undo the last placement
    page.click("#undo")
    page.wait_for_function("() => !document.querySelector('.log').textContent.includes('place north')")
    assert page.inner_text("#undo") == "Undo (1)"
    # the record is withheld while secret cards are in play, and the page says why
    page.click("text=Download record")
    page.wait_for_function("() => document.getElementById('toast').textContent.includes('hidden information')")
    page.screenshot(path=str(screenshots / "toy-refusal.png"), full_page=True)


def test_hot_seat_passes_the_device(page: Any, server: Any) -> None:
    page.goto(server.url + "/")
    page.select_option("#ruleset", "toy")
    page.select_option("#seat-1-kind", "human")
    page.click("#create-btn")
    page.wait_for_selector("#created li a")
    page.click("#created li:first-child a")
    page.wait_for_selector("#turn")
    assert page.inner_text("#turn") == "Your turn."
    page.click("#actions button[data-action='end']")
    page.wait_for_selector("#overlay:not([hidden])")
    assert "Player 2's turn" in page.inner_text("#overlay")
    page.click("#overlay button")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('you are Player 2')")
    assert page.inner_text("#turn") == "Your turn."


def test_lobby_lists_your_games_and_shows_option_help(page: Any, server: Any) -> None:
    page.goto(server.url + "/")
    page.select_option("#ruleset", "toy")
    assert "how many rounds are played (default: 2)" in page.inner_text("#options")
    assert "Rounds" in page.inner_text("label[for=opt-rounds]")  # a readable label, not the option's name
    assert page.eval_on_selector("#create-btn", "b => b.getBoundingClientRect().bottom") < 900  # no scrolling
    page.click("#create-btn")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#share")  # against the computer: a link for spectators to watch
    page.goto(server.url + "/")
    page.wait_for_selector("#mylist a")
    assert "Toy (a test game)" in page.inner_text("#mylist")


def test_lobby_game_of_computers_only_gives_the_watch_link(page: Any, server: Any, screenshots: Path) -> None:
    # no seat for a person: the lobby shows the spectators' link and nothing else (the hot-seat line it leaves
    # out was once written as the text "null", replaceChildren's reading of a null child)
    page.goto(server.url + "/")
    page.select_option("#ruleset", "toy")
    page.select_option("#seat-0-kind", page.eval_on_selector("#seat-1-kind", "s => s.value"))
    page.click("#create-btn")
    page.wait_for_selector("#created a[href*='/game/']")
    shown = page.inner_text("#created")
    assert "Spectators: watch" in shown and "null" not in shown, shown
    assert page.eval_on_selector("#created", "c => [...c.childNodes].filter(n => n.nodeType === 3).length") == 0
    for width, height in ((1400, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#created").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"lobby-computers-only-{width}.png"))


def test_a_stepper_whose_notation_is_its_description_has_no_null_tooltip(page: Any, server: Any) -> None:
    # the Play button's tooltip gives the notation when the description differs from it, and is left out
    # otherwise (it once read "null": a null assigned to an element's title)
    page.goto(server.url + "/")
    tips = page.evaluate("""async () => {
      const { actionCard } = await import("/static/actions.js");
      const legal = ["recruit 1", "recruit 2", "move a b 1", "move a b 2"].map((text, i) =>
        ({ text, description: i < 2 ? text : `${text} (A to B)`, places: [] }));
      const me = { selected: [], filter: "", steps: {}, open: new Set(), note: "", gid: "g", token: "t", data: null };
      const card = actionCard({ legal, game: {}, you: { seat: 0 }, log: [] }, me,
        { names: x => x, send: () => {}, rerender: () => {}, matching: [], compose: null, why: null });
      return [...card.querySelectorAll("li.stepper")]
        .map(li => [li.dataset.key, li.querySelector("button.go").getAttribute("title")]);
    }""")
    assert tips == [["recruit #", None], ["move a b #", "notation: move a b 2"]]
