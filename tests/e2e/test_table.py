"""Every game speaks the player's language, in Chromium (issue 25): one colour per seat in the board, the
panels, the log and the result; no action, prompt or log line carries a region id, an internal name or a
0-based seat; the dice chips show their pips; every game has a How-to-play page linked from the lobby.
Screenshots at 1400×900 and 390×844 go to CONQUEST_SCREENSHOTS."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from conquest.core.registry import rulesets
from tests.e2e.test_browser import wait_my_turn_or_end
from tests.e2e.test_story import act, create_game

GAMES = sorted(set(rulesets()) - {"nerath"})  # Nerath's table has its own test: tests/e2e/test_nerath_table.py
# what a player must never read: Small World region ids, Kingdom's territory and location ids, Narby's bare
# coordinates and engine ids, 0-based seats; in any other game engine ids and 0-based seats (GENERIC)
GENERIC = re.compile(r"[a-z]+_[a-z_]+|\bseat \d")
FORBIDDEN = {
    "smallworld": re.compile(r"\(r\d+\)|\br\d+\b|\bseat \d"),
    "kingdom": re.compile(r"\b[a-z]+\.\d\b|\b(fernmarch|redhold|bluehold|millbrook|stonegate|southbay)\b|\bgo: \d"),
    "narby": re.compile(r"(?<![\w–-])\d{1,2},\d{1,2}(?![\w–-])|[a-z]+_[a-z_]+|\bseat \d"),
}
TEXTS = """() => ({
  actions: [...document.querySelectorAll('#actions button[data-action]')].map(b => b.textContent),
  prompt: [...document.querySelectorAll('#action-card .question, #action-card .why, #action-card .help')]
    .map(p => p.textContent),
  log: [...document.querySelectorAll('.log.story .line .say')].map(s => s.textContent),
  chips: [...document.querySelectorAll('.chip')].map(c => c.textContent) })"""
COLOURS = """() => {
  const rgb = el => el ? getComputedStyle(el).backgroundColor : null;
  const border = el => el ? getComputedStyle(el).borderLeftColor : null;
  const out = {panel: {}, log: {}, result: {}, board: {}};
  for (const p of document.querySelectorAll('#players .player'))
    out.panel[p.dataset.seat] = [border(p), rgb(p.querySelector('.swatch'))];
  return out; }"""


def _colour_checks(page: Any) -> dict[str, Any]:
    """Per seat: the panel's border and swatch, the swatches of its log lines (matched by the seat's name in the
    panel) and of its row in the result table."""
    return page.evaluate("""() => {
      const rgb = el => getComputedStyle(el).backgroundColor;
      const seats = {};
      for (const p of document.querySelectorAll('#players .player')) {
        const name = p.querySelector('.who b').textContent;
        seats[p.dataset.seat] = { name, border: getComputedStyle(p).borderLeftColor,
                                  swatch: rgb(p.querySelector('.swatch')) };
      }
      const result = {};
      for (const tr of document.querySelectorAll('table.result tr')) {
        const td = tr.querySelector('td'); const sw = td && td.querySelector('.swatch');
        if (sw) result[td.textContent.trim()] = rgb(sw);
      }
      const pieces = {};
      for (const c of document.querySelectorAll('svg.board .piece circle, svg.board .piece rect, '
                                                + 'svg.board .piece path, svg.board g.overlay rect')) {
        const f = c.getAttribute('fill'); if (f && f.startsWith('#')) pieces[f.toLowerCase()] = true;
      }
      const logSw = [...document.querySelectorAll('.log.story .line .swatch')].map(rgb);
      return { seats, result, pieces: Object.keys(pieces), logSw };
    }""")


def _hex(rgb: str) -> str:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


@pytest.mark.parametrize("rid", GAMES)
def test_a_game_reads_in_the_players_words_and_colours(browser: Any, server: Any, screenshots: Path,
                                                        rid: str) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rng = random.Random(7)
    create_game(page, server.url, rid, ["easy"])
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#turn")
    bad = FORBIDDEN.get(rid, GENERIC)
    seen_questions = 0
    for _ in range({"kingdom": 80, "narby": 40, "smallworld": 60}.get(rid, 60)):
        if not wait_my_turn_or_end(page):
            break
        t = page.evaluate(TEXTS)
        for kind in ("actions", "prompt", "log", "chips"):
            for line in t[kind]:
                assert not bad.search(line), f"{rid} {kind}: {line!r}"
        seen_questions += bool(page.query_selector("#question"))
        act(page, rng)
    assert seen_questions, "the game says what it asks"
    # dice chips show their pips (a d6) or their number (other dice): never an empty box
    faces = page.evaluate("""() => [...document.querySelectorAll('.die-face')].map(f => ({
      pips: f.classList.contains('pips'), on: f.querySelectorAll('i.on').length, text: f.textContent,
      border: getComputedStyle(f).borderTopWidth, pad: getComputedStyle(f.querySelector('i') || f).paddingLeft }))""")
    assert faces, "dice are drawn"
    for f in faces:
        assert (f["pips"] and f["on"] > 0 and f["pad"] == "0px") or (not f["pips"] and f["text"].strip()), f
    # one colour per seat: its panel, its swatch, its pieces on the board, its log lines and its result row
    c = _colour_checks(page)
    for seat, s in c["seats"].items():
        assert s["border"] == s["swatch"], (seat, s)
    chips = page.evaluate("""() => [...document.querySelectorAll('.chip[data-seat]')].map(
      ch => [ch.dataset.seat, getComputedStyle(ch).borderLeftColor])""")
    assert chips, "the dice a seat rolled are marked with its colour"
    for seat, colour in chips:
        assert colour == c["seats"][seat]["swatch"], (seat, colour)
    colours = {s["swatch"] for s in c["seats"].values()}
    assert len(colours) == len(c["seats"]), "each seat has its own colour"
    assert set(c["logSw"]) <= colours | {"rgb(136, 136, 136)"}, "log lines use the seats' colours"
    # the board draws the seats' pieces in their panels' colours: a seat colour is on the board, and no piece is
    # drawn in a palette colour that is not its seat's (a seat may have nothing on the board at this moment: a
    # Small World player with only a declined race, drawn in grey)
    panel_hex = {_hex(x) for x in colours}
    palette = set(page.evaluate("async () => (await import('/static/ui.js')).COLORS"))
    assert panel_hex & set(c["pieces"]), "the board draws the seats in their panels' colours"
    assert (set(c["pieces"]) & palette) <= panel_hex, ("a piece in another seat's colour", c["pieces"], panel_hex)
    if page.eval_on_selector("#app", "a => a.dataset.over") == "true":
        page.wait_for_selector("#result-screen[open]")
        c = _colour_checks(page)
        for s in c["seats"].values():
            assert c["result"].get(s["name"]) == s["swatch"], (s, c["result"])
    page.screenshot(path=str(screenshots / f"table-{rid}-1400x900.png"))
    ctx.close()
    assert not errors, errors


def test_every_game_has_a_how_to_play_page_linked_from_the_lobby(page: Any, server: Any, screenshots: Path) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#ruleset")
    for rid in sorted(rulesets()):
        page.select_option("#ruleset", rid)
        href = page.get_attribute("#rs-howto", "href")
        assert href == f"/howto/{rid}"
        sub = page.context.new_page()
        sub.goto(server.url + href)
        body = sub.inner_text("main")
        for part in ("Set-up", "turn", "End of the game" if rid != "nerath" else "Winning"):
            assert part.lower() in body.lower(), (rid, part)
        assert sub.get_attribute("#readings-link", "href") == f"/rules/{rid}", "the readings stay, linked"
        sub.goto(server.url + f"/rules/{rid}")
        assert sub.get_attribute("#howto-link", "href") == f"/howto/{rid}"
        if rid == "smallworld":
            sub.set_viewport_size({"width": 390, "height": 844})
            sub.goto(server.url + href)
            sub.screenshot(path=str(screenshots / "howto-smallworld-390x844.png"), full_page=False)
        sub.close()


def test_the_lobby_offers_levels_by_name_and_agents_under_advanced(page: Any, server: Any) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#seat-1-kind")
    groups = page.evaluate("""() => [...document.querySelectorAll('#seat-1-kind optgroup')].map(g => ({
      label: g.label, options: [...g.querySelectorAll('option')].map(o => [o.value, o.textContent]) }))""")
    computer = next(g for g in groups if g["label"] == "Computer")
    assert [v for v, _ in computer["options"]][:3] == ["easy", "normal", "hard"]
    assert all(t.startswith("computer: ") and t[10:11].isupper() for _, t in computer["options"])
    advanced = next(g for g in groups if g["label"].startswith("Advanced"))
    assert "greedy" in [v for v, _ in advanced["options"]]
    everything = [v for g in groups for v, _ in g["options"]]
    assert "policy" not in everything and not any(v.startswith("policy:path=") for v in everything)
    assert page.eval_on_selector("#seat-1-kind", "s => s.value") == "easy"
    assert page.inner_text("#seat-1-help").startswith("Easy: ")
