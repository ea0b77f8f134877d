"""Nerath at the table, in Chromium: a board that can be read at 1400x900 (every space name drawn at 11 px or
more, every piece count at 12 px or more, no piece chip over a name, measured on the SVG text boxes), a phone
that opens on the seat's own realm with the turn line and the actions before the board, card actions that
carry the card's text, no space id in any action or log line, and a computer turn shown as thinking.
Screenshots go to CONQUEST_SCREENSHOTS (default <tmp>/conquest-e2e-screenshots)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright.sync_api")

from conquest.rulesets.nerath.state import IDS
from conquest.rulesets.nerath.webboard import card_effect
from tests.e2e.test_boards import open_page, play, wait_turn

SIZES = {"desktop": (1400, 900), "phone": (390, 844)}
SPACE_ID = re.compile(r"\b(" + "|".join(map(re.escape, IDS)) + r")\b")
# dice are written "1 d6 needing 6+", "its d6", "a d6": the dungeon ids d1..d6 are not dice
DICE = re.compile(r"\b(?:\d+ |its |a )d(?:4|6|8|10|12|20)\b")

SIZES_JS = """() => {
  const svg = document.querySelector('svg.board');
  const px = t => Number(t.getAttribute('font-size')) * t.getScreenCTM().a;
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const names = [...svg.querySelectorAll('text.label:not(.small)')].map(t => ({ id: t.dataset.region,
    text: t.textContent, px: px(t), hidden: t.getAttribute('visibility') === 'hidden', box: box(t) }));
  const chips = [...svg.querySelectorAll('g.piece')].map(g => ({ id: g.dataset.region, px: px(g.querySelector('text')),
    text: g.textContent, box: box(g.querySelector('rect')) }));
  const v = svg.getAttribute('viewBox').split(' ').map(Number), home = svg.dataset.home.split(' ').map(Number);
  return { names, chips, zoom: home[2] / v[2] };
}"""


def overlap(a: list[float], b: list[float], slack: float = 0.5) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def nerath_game(server: Any, seed: int, kinds: str = "random") -> dict:
    seats = [{"kind": "human", "name": "Tester"}] + [{"kind": kinds}] * 3
    made = httpx.post(server.url + "/api/games", json={"ruleset": "nerath", "players": 4, "seats": seats,
                                                      "options": {}, "seed": seed}, timeout=30).json()
    assert "game" in made, made
    return made


def advance(server: Any, made: dict, actions: int, seed: int = 1) -> dict:
    """The human seat plays ``actions`` random legal actions (never a retreat) and the computers play theirs:
    a board in mid-game, pieces spread and battles fought."""
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    rng = random.Random(seed)
    d = wait_turn(server, gid, token)
    for _ in range(actions):
        if d["game"]["over"]:
            break
        texts = [a["text"] for a in d["legal"] if a["text"] != "retreat"] or [d["legal"][0]["text"]]
        moves = [t for t in texts if t.startswith(("move", "battle", "buy", "press", "hit"))]
        d = play(server, gid, token, d, rng.choice(moves if moves and rng.random() < 0.8 else texts))
        d = wait_turn(server, gid, token)
    return d


def test_the_board_is_legible_at_1400x900(browser: Any, server: Any, screenshots: Path) -> None:
    made = nerath_game(server, seed=21)
    advance(server, made, 40)
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"])
    pg.wait_for_selector("svg.board g.piece")
    pg.wait_for_timeout(300)
    pg.screenshot(path=str(screenshots / "nerath-table-board-1400x900.png"))
    m = pg.evaluate(SIZES_JS)
    assert m["zoom"] == 1  # the whole board
    assert len(m["names"]) == len(IDS) and not [n for n in m["names"] if n["hidden"]], "every space is named"
    small = [(n["text"], round(n["px"], 1)) for n in m["names"] if n["px"] < 11]
    assert not small, f"names under 11 px: {small}"
    assert m["chips"], "the board shows pieces"
    tiny = [(c["id"], c["text"], round(c["px"], 1)) for c in m["chips"] if c["px"] < 12]
    assert not tiny, f"piece counts under 12 px: {tiny}"
    covered = [(c["id"], c["text"], n["text"]) for c in m["chips"] for n in m["names"] if overlap(c["box"], n["box"])]
    assert not covered, f"chips over names: {covered}"
    names = m["names"]
    clash = [(a["text"], b["text"]) for i, a in enumerate(names) for b in names[i + 1:] if overlap(a["box"], b["box"])]
    assert not clash, f"names over names: {clash}"
    # one chip per kind and realm: a chip's title lists what it stands for
    title = pg.eval_on_selector("svg.board g.piece title", "t => t.textContent")
    assert re.match(r"\d+ \w", title), title
    assert pg.eval_on_selector_all("svg.board .rings path", "ps => ps.length") == 4  # the four capitals
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()


def test_a_phone_opens_on_the_seats_realm_with_the_actions_first(browser: Any, server: Any,
                                                                  screenshots: Path) -> None:
    made = nerath_game(server, seed=22)
    wait_turn(server, made["game"]["id"], made["seats"][0]["token"])
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["phone"])
    pg.wait_for_selector("svg.board g.piece")
    pg.wait_for_timeout(300)
    pg.screenshot(path=str(screenshots / "nerath-table-phone.png"), full_page=True)
    m = pg.evaluate(SIZES_JS)
    assert m["zoom"] > 1.5, "the board opens zoomed"
    seen = [n for n in m["names"] if n["box"][0] >= 0 and n["box"][2] <= 390 and not n["hidden"]]
    assert seen and all(n["px"] >= 11 for n in seen), [(n["text"], n["px"]) for n in seen if n["px"] < 11]
    # the seat's capital (Karkothi Throneholds: seat 0 plays Karkoth) is in view
    assert any(n["text"].replace(" ", "") == "KarkothiThroneholds" for n in seen)
    tops = pg.evaluate("() => ['#turn', '#action-card', 'svg.board']"
                       ".map(s => document.querySelector(s).getBoundingClientRect().top)")
    assert tops[0] < tops[2] and tops[1] < tops[2], f"turn line, actions, board at {tops}"
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()


def _texts(pg: Any) -> list[str]:
    return pg.eval_on_selector_all("#actions button[data-action], #actions li.stepper .desc, .log .say, #why, #news li",
                                   "es => es.map(e => e.textContent)")


def test_card_actions_carry_their_text_and_no_line_names_a_space_id(browser: Any, server: Any,
                                                                   screenshots: Path) -> None:
    made = nerath_game(server, seed=23)
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    rng = random.Random(5)
    d = wait_turn(server, gid, token)
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"])
    cards_seen = checked = 0
    for _ in range(60):
        if d["game"]["over"]:
            break
        pg.wait_for_function(f"() => document.getElementById('app').dataset.revision == '{d['game']['revision']}'")
        for text in _texts(pg):
            assert not SPACE_ID.search(DICE.sub("", text)), f"a space id in {text!r}"
            checked += 1
        plays = [a["text"] for a in d["legal"] if a["text"].startswith("play ")]
        for a in plays:
            shown = pg.eval_on_selector(f"#actions button[data-action='{a}']", "b => b.textContent")
            assert card_effect(a.split()[1]) in shown, (a, shown)
            cards_seen += 1
        if plays and cards_seen <= len(plays):
            pg.screenshot(path=str(screenshots / "nerath-table-card.png"))
        texts = [a["text"] for a in d["legal"] if a["text"] != "retreat"] or [d["legal"][0]["text"]]
        pick = next((t for t in texts if t.startswith("play ")), None) or rng.choice(texts)
        d = play(server, gid, token, d, pick)
        d = wait_turn(server, gid, token)
    assert checked > 100
    assert cards_seen, "no card could be played in 60 actions"
    # the played cards are told in the log with their text
    logs = pg.eval_on_selector_all(".log .say", "es => es.map(e => e.textContent)")
    assert any(" plays " in t and "; " in t for t in logs)
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()


def test_a_computer_turn_is_shown_as_thinking(browser: Any, server: Any, screenshots: Path) -> None:
    """The turn line says "X (computer, easy) is thinking…" while a computer seat plays its turn (every text the
    line had is recorded as the page redraws)."""
    made = nerath_game(server, seed=24, kinds="easy")
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    record = """window.turns = []; setInterval(() => { const t = document.getElementById('turn');
      if (t && window.turns[window.turns.length - 1] !== t.textContent) window.turns.push(t.textContent); }, 10);"""
    d = wait_turn(server, gid, token)
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"], init=record)
    pg.wait_for_selector("#turn")
    while not d["game"]["over"] and d["view"]["round"] == 1 and d["view"]["realm"] == "karkoth":
        if not d["legal"]:  # the seat's part is over (the computers or a roll are next): its turn has passed on
            break
        d = play(server, gid, token, d,
                 "done" if any(a["text"] == "done" for a in d["legal"]) else d["legal"][0]["text"])
    try:
        pg.wait_for_function("() => window.turns.some(t => / is thinking…$/.test(t))", timeout=60000)
    except Exception as e:
        raise AssertionError(pg.evaluate("window.turns")) from e
    turns = pg.evaluate("window.turns")
    assert any(re.match(r"^.+ \(computer, easy\) is thinking…$", t) for t in turns), turns
    pg.screenshot(path=str(screenshots / "nerath-table-thinking.png"))
    pg.context.close()


def test_action_sections_are_titled_as_the_game_speaks(browser: Any, server: Any, screenshots: Path) -> None:
    """A long list of actions folds into sections titled by the words of the actions, never by the notation:
    "Move from Blackmere", not "move · Blackmere" (the notation's verb and a space id or a lower-case word)."""
    made = nerath_game(server, seed=25)
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    d = wait_turn(server, gid, token)
    for _ in range(30):  # to the first phase with a long list of moves
        if sum(a["text"].startswith("move ") for a in d["legal"]) > 14:
            break
        d = play(server, gid, token, d, next((a["text"] for a in d["legal"] if a["text"] == "pass"),
                                             d["legal"][0]["text"]))
        d = wait_turn(server, gid, token)
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"])
    pg.wait_for_selector("#actions details.group summary")
    titles = pg.eval_on_selector_all("#actions details.group summary", "es => es.map(e => e.firstChild.textContent)")
    pg.screenshot(path=str(screenshots / "nerath-table-sections.png"))
    assert titles
    for t in titles:
        assert t[:1].isupper(), f"a section titled by the notation: {t!r}"
        assert not SPACE_ID.search(DICE.sub("", t)), f"a space id in the section title {t!r}"
    assert any(re.fullmatch(r"Move from \S.*", t) for t in titles), titles
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()
