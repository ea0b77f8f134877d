"""The boards in Chromium, for every game at a desktop size (1400x900) and a phone size (390x844): no page
scrolls sideways, no two board labels overlap, the Narby board has 400 clickable squares and a move is played
by clicking one, a Nerath move of several pieces is entered with the count stepper, every race, power and
card has its rules help, and the hot-seat hand-over holds nothing of either player's secrets. Screenshots go
to CONQUEST_SCREENSHOTS (default <tmp>/conquest-e2e-screenshots) for review."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright.sync_api")

from conquest.core.registry import get_ruleset, rulesets

GAMES = sorted(rulesets())


def players(rid: str) -> int:
    """The seats of a game's board checks: its ``test_settings.players``, else its default."""
    rs = get_ruleset(rid)
    return rs.test_settings.players or rs.default_players()

SIZES = {"desktop": (1400, 900), "phone": (390, 844)}


def log_notations(pg: Any) -> str:
    """The notation of every log line (the narrated log shows it on hover, as the line's title)."""
    return "\n".join(pg.eval_on_selector_all(".log [title]", "els => els.map(e => e.title)"))


def new_game(server: Any, rid: str, players: int, humans: int = 1, options: dict | None = None,
             seed: int = 5) -> dict:
    """A game with a fixed seed: its dice and its computer seats' moves are the same on every run."""
    seats = [{"kind": "human", "name": f"Tester {i + 1}"} for i in range(humans)]
    seats += [{"kind": "random"}] * (players - humans)
    made = httpx.post(server.url + "/api/games", json={"ruleset": rid, "players": players, "seats": seats,
                                                      "options": options or {}, "seed": seed}, timeout=30).json()
    assert "game" in made, made
    return made


def state(server: Any, gid: str, token: str) -> dict:
    return httpx.get(f"{server.url}/api/games/{gid}", headers={"X-Conquest-Token": token}, timeout=30).json()


def play(server: Any, gid: str, token: str, d: dict, text: str) -> dict:
    r = httpx.post(f"{server.url}/api/games/{gid}/actions", json={"action": text, "step": d["game"]["step"]},
                   headers={"X-Conquest-Token": token}, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


def wait_turn(server: Any, gid: str, token: str, seat: int = 0) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        d = state(server, gid, token)
        if d["game"]["over"] or d["game"]["to_move"] == seat:
            return d
        time.sleep(0.1)
    raise AssertionError("the computer seats did not finish their turns")


def open_page(browser: Any, url: str, size: tuple[int, int], init: str | None = None) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors  # type: ignore[attr-defined]
    if init:
        pg.add_init_script(init)
    pg.goto(url)
    return pg


LABEL_BOXES = """() => [...document.querySelectorAll('svg.board text.label')]
  .filter(t => t.getAttribute('visibility') !== 'hidden')
  .map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; })"""


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("rid", GAMES)
def test_board_fits_the_page_and_its_labels_do_not_overlap(browser: Any, server: Any, screenshots: Path,
                                                           rid: str, size: str) -> None:
    made = new_game(server, rid, players(rid))
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    wait_turn(server, gid, token)
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES[size])
    pg.wait_for_selector("svg.board")
    pg.wait_for_timeout(300)
    pg.screenshot(path=str(screenshots / f"board-{rid}-{size}.png"), full_page=True)
    width, inner = pg.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{rid} at {size}: the page scrolls sideways ({width} > {inner})"
    board = pg.eval_on_selector("svg.board", "s => s.getBoundingClientRect().width")
    assert board >= SIZES[size][0] * (0.85 if size == "phone" else 0.45), f"the board is only {board}px wide"
    boxes = pg.evaluate(LABEL_BOXES)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            overlap = a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5 and a[2] < b[4] - 0.5 and b[2] < a[4] - 0.5
            assert not overlap, f"{rid} at {size}: labels {a[0]!r} and {b[0]!r} overlap"
    # zoom: the + button, the wheel, and back to the whole board
    width_of = "s => Number(s.getAttribute('viewBox').split(' ')[2])"
    whole = pg.eval_on_selector("svg.board", width_of)
    pg.click("button[aria-label='Zoom in']")
    zoomed = pg.eval_on_selector("svg.board", width_of)
    assert zoomed < whole
    box = pg.eval_on_selector("svg.board", "s => { const r = s.getBoundingClientRect(); "
                                           "return [r.x + r.width / 2, r.y + r.height / 2]; }")
    pg.mouse.move(*box)
    pg.mouse.wheel(0, -200)
    pg.wait_for_function("() => Number(document.querySelector('svg.board').getAttribute('viewBox').split(' ')[2])"
                         f" < {zoomed}")
    pg.click("button[aria-label='Whole board']")
    # the whole board (a Nerath board on a phone opens zoomed on the seat's realm: its start is not the whole)
    home = pg.eval_on_selector("svg.board", "s => Number(s.dataset.home.split(' ')[2])")
    assert pg.eval_on_selector("svg.board", width_of) == home >= whole
    assert not pg.errors, pg.errors  # type: ignore[attr-defined]
    pg.context.close()


def test_narby_has_400_squares_and_a_move_is_played_by_clicking(browser: Any, server: Any,
                                                                screenshots: Path) -> None:
    made = new_game(server, "narby", 2)
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    for _ in range(60):
        d = wait_turn(server, gid, token)
        # a move to a square that no other legal action names: one click plays it (a shared square narrows
        # the list instead, as when a shrine to claim stands on it)
        moves = [a for a in d["legal"] if a["text"].startswith("move ")
                 and sum(a["places"][0] in b["places"] for b in d["legal"]) == 1]
        if moves:
            break
        play(server, gid, token, d, next((a["text"] for a in d["legal"] if a["text"] != "end"), d["legal"][0]["text"]))
    else:
        pytest.fail("no move came to the human seat")
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"])
    pg.wait_for_selector("svg.board")
    assert pg.eval_on_selector_all("svg.board g.region[data-region]", "gs => gs.length") == 400
    target = moves[0]
    assert target["places"] == [target["text"].split()[1]]  # the square the dragon's footprint starts on
    rev = pg.eval_on_selector("#app", "a => a.dataset.revision")
    pg.click(f"svg.board g.region.can[data-region='{target['places'][0]}']")
    pg.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{rev}'")
    assert target["text"] in log_notations(pg)  # the narrated log keeps the notation on hover
    pg.screenshot(path=str(screenshots / "board-narby-after-click.png"), full_page=True)
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()


def _counted_moves(d: dict) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = {}
    for a in d["legal"]:
        w = a["text"].split()
        if w[0] == "move":
            counts.setdefault(" ".join(w[:-1]), []).append(int(w[-1]))
    return counts


def test_nerath_move_of_several_pieces_with_the_stepper(browser: Any, server: Any, screenshots: Path) -> None:
    made = new_game(server, "nerath", 4)
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    d = wait_turn(server, gid, token)
    key, ns = max(_counted_moves(d).items(), key=lambda kv: max(kv[1]))
    assert max(ns) >= 2, "a space with several pieces of one kind"
    frm, to, kind = key.split()[1:4]
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"])
    pg.wait_for_selector("svg.board")
    # as a player thinks: the space on the board, how many of each kind (steppers), the destination
    pg.click(f"svg.board g.region.can[data-region='{frm}']")
    pg.wait_for_selector("#composer")
    for row in pg.query_selector_all("#composer li.stepper"):
        k = row.get_attribute("data-kind")
        presses = 1 if k == kind else int(row.eval_on_selector("output", "o => o.textContent.split(' ')[0]"))
        for _ in range(presses):
            row.eval_on_selector(".minus", "b => b.click()")
    assert pg.eval_on_selector(f"#composer li[data-kind='{kind}'] output", "o => o.textContent") == \
        f"{max(ns) - 1} of {max(ns)}"
    pg.screenshot(path=str(screenshots / "board-nerath-composer.png"), full_page=False)
    rev = pg.eval_on_selector("#app", "a => a.dataset.revision")
    pg.click(f"svg.board g.region.can[data-region='{to}']")
    pg.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{rev}'")
    want = f"{key} {max(ns) - 1}"
    pg.wait_for_function("() => Array.from(document.querySelectorAll('.log [title]'))"
                         f".some(e => e.title.includes({json.dumps(want)}))")  # the notation, on hover
    assert pg.evaluate("() => document.activeElement.id") == "turn"  # focus returns to the turn line

    # the same from the list: the actions of one space and kind are one entry with a count stepper
    d = wait_turn(server, gid, token)
    if not d["game"]["over"] and d["game"]["to_move"] == 0 and _counted_moves(d):
        pg.wait_for_function(f"() => document.getElementById('app').dataset.revision === '{d['game']['revision']}'")
        key, ns = max(_counted_moves(d).items(), key=lambda kv: max(kv[1]))
        pg.fill("#notation", key)
        row = pg.wait_for_selector(f"#actions li.stepper[data-key='{key} #']")
        assert row.eval_on_selector("output", "o => o.textContent") == str(max(ns))
        if len(ns) > 1:
            row.eval_on_selector(".minus", "b => b.click()")
        want = f"{key} {sorted(ns)[-2] if len(ns) > 1 else ns[0]}"
        assert row.eval_on_selector(".go", "b => b.dataset.action") == want
        pg.screenshot(path=str(screenshots / "board-nerath-stepper.png"), full_page=False)
        rev = pg.eval_on_selector("#app", "a => a.dataset.revision")
        row.eval_on_selector(".go", "b => b.click()")
        pg.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{rev}'")
        assert want in log_notations(pg)
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()


@pytest.mark.parametrize("rid,kinds", [("smallworld", ("race", "power")), ("nerath", ("event", "treasure",
                                                                                     "guardian", "piece")),
                                       ("narby", ("card",))])
def test_every_race_power_and_card_has_rules_help(browser: Any, server: Any, rid: str, kinds: tuple) -> None:
    terms = get_ruleset(rid).help_terms()  # type: ignore[attr-defined]
    wanted = {k for k in terms if k.split(":")[0] in kinds}
    assert wanted
    made = new_game(server, rid, players(rid))
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES["desktop"])
    pg.wait_for_selector("#rules-help")
    shown = dict(pg.eval_on_selector_all(
        "#rules-help dt[data-term]", "ds => ds.map(d => [d.dataset.term, d.nextElementSibling.textContent])"))
    for k in wanted:
        assert k in shown and shown[k] == terms[k]["text"] and shown[k], k
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()


def test_hot_seat_hands_over_without_secrets(browser: Any, server: Any, screenshots: Path) -> None:
    made = new_game(server, "narby", 2, humans=2)
    gid = made["game"]["id"]
    tok = [made["seats"][0]["token"], made["seats"][1]["token"]]
    for _ in range(80):  # play until seat 1 is to move while both hold a (secret) card
        d0 = state(server, gid, tok[0])
        to = d0["game"]["to_move"]
        if to == 1 and all(isinstance(h, str) and h != "hidden" for h in [d0["view"]["hands"][0]]):
            d1 = state(server, gid, tok[1])
            if isinstance(d1["view"]["hands"][1], str):
                break
        if to in (0, 1):
            d = state(server, gid, tok[to])
            texts = [a["text"] for a in d["legal"]]
            play(server, gid, tok[to], d, "end" if "end" in texts else texts[0])
        else:
            time.sleep(0.1)
    else:
        pytest.fail("seat 1 never came to move holding a card")
    cards = {c.id: c.name for c in __import__("conquest.rulesets.narby.tables", fromlist=["TABLES"]).TABLES.cards}
    mine, theirs = cards[d0["view"]["hands"][0]], cards[d1["view"]["hands"][1]]
    known = [{"id": gid, "token": tok[i], "seat": i, "name": f"Tester {i + 1}", "title": "Narby"} for i in (0, 1)]
    init = f"localStorage.setItem('conquest.games', {json.dumps(json.dumps(known))});"
    pg = open_page(browser, f"{server.url}/game/{gid}#t={tok[0]}", SIZES["phone"], init)
    pg.wait_for_selector("#overlay:not([hidden])")
    pg.screenshot(path=str(screenshots / "hotseat-handover.png"))
    html = pg.content()
    assert "Tester 2's turn" in pg.inner_text("#overlay")
    assert mine not in html and theirs not in html, "a hand is in the page behind the hand-over screen"
    assert pg.eval_on_selector("#overlay", "o => getComputedStyle(o).backgroundColor") == "rgb(42, 30, 12)"  # opaque
    requested: list[str] = []
    pg.on("request", lambda r: requested.append(r.headers.get("x-conquest-token", "")))
    pg.wait_for_timeout(300)
    assert tok[1] not in requested  # the next seat's view is not fetched before they confirm
    pg.click("#handover")
    pg.wait_for_function("() => document.getElementById('status').textContent.includes('you are Tester 2')")
    assert theirs in pg.inner_text("#players")
    assert not pg.errors  # type: ignore[attr-defined]
    pg.context.close()
