"""The borders of a map given by centres only, drawn in Chromium: one line per pair of bordering regions, none
between regions that do not border each other (the Toy game's map, north and east touch in a Voronoi drawing
but are not neighbours), the cells set apart, the legend naming the line. Screenshots at 1400x900 and 390x844
go to CONQUEST_SCREENSHOTS (default <tmp>/conquest-e2e-screenshots)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from tests.e2e.test_boards import SIZES, new_game, open_page, wait_turn
from tests.web.test_board_borders import distance, tiny_board
from tests.web.toy import CENTERS

DRAWN = """() => [...document.querySelectorAll('svg.board g.link')].map(g => [g.dataset.a, g.dataset.b,
  g.querySelectorAll('line.border').length, g.parentNode.classList.contains('over')])"""


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_map_of_centres_draws_one_line_per_border(browser: Any, server: Any, screenshots: Path,
                                                    size: str) -> None:
    made = new_game(server, "toy", 2)
    gid, token = made["game"]["id"], made["seats"][0]["token"]
    d = wait_turn(server, gid, token)
    borders = {tuple(sorted(b)) for b in d["board"]["map"]["borders"]}
    assert len(borders) == 4
    pg = open_page(browser, server.url + made["seats"][0]["link"], SIZES[size])
    pg.wait_for_selector("svg.board g.link", state="attached")
    pg.screenshot(path=str(screenshots / f"borders-toy-{size}.png"), full_page=True)
    drawn = pg.evaluate(DRAWN)
    assert sorted(tuple(sorted(x[:2])) for x in drawn) == sorted(borders)  # one each, none between others
    assert all(x[2] == 1 and not x[3] for x in drawn)  # one line, under the cells (none crosses a third)
    assert ("east", "north") not in {tuple(sorted(x[:2])) for x in drawn}
    # the lines run between the centres, under the regions
    lines = pg.eval_on_selector_all("svg.board g.link line.border",
                                    "ls => ls.map(l => ['x1', 'y1', 'x2', 'y2'].map(k => Number(l.getAttribute(k))))")
    centres = {tuple(float(v) for v in c) for c in CENTERS.values()}
    assert all((x1, y1) in centres and (x2, y2) in centres for x1, y1, x2, y2 in lines)
    order = pg.evaluate("() => [...document.querySelector('svg.board').children].map(e => e.getAttribute('class'))")
    assert order.index("links") < order.index("regions")
    # no two cells touch (north and east did, drawn as Voronoi cells): the outlines drawn on the page
    paths = pg.eval_on_selector_all("svg.board g.region > path:first-of-type",
                                    "ps => ps.map(p => [p.parentNode.dataset.region, p.getAttribute('d')])")
    polys = {rid: [tuple(float(v) for v in pt.split(",")) for pt in d.strip("MZ").split("L")] for rid, d in paths}
    assert len(polys) == 5
    for a, b in itertools.combinations(polys, 2):
        assert distance(polys[a], polys[b]) > 1.0, f"the cells of {a} and {b} touch"
    assert pg.locator(".legend li", has_text="border").count() == 1
    assert not pg.errors, pg.errors  # type: ignore[attr-defined]
    pg.context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_tiny_map_of_centres_with_a_long_border(browser: Any, server: Any, screenshots: Path, size: str) -> None:
    """The 3 x 3 map of tests/web/test_board_borders.py drawn by the page's module: a border between two
    corners passes the middle cell, so its line is drawn over the cells; the others under them."""
    board = tiny_board()
    ctx = browser.new_context(viewport={"width": SIZES[size][0], "height": SIZES[size][1]})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a page of the server's origin with its style sheet and nothing else (the lobby does not start)
    pg.route(server.url + "/borders-test", lambda route: route.fulfill(
        content_type="text/html", body='<!doctype html><link rel="stylesheet" href="/static/app.css"><body></body>'))
    pg.goto(server.url + "/borders-test")
    pg.evaluate("""async board => {
      const { drawBoard, legend } = await import('/static/board.js');
      const svg = drawBoard(board, { places: new Set(), selected: [], seatName: s => `seat ${s}`, onRegion: () => {} });
      document.body.append(svg, legend(board));
    }""", board)
    pg.wait_for_selector("svg.board g.link", state="attached")
    pg.screenshot(path=str(screenshots / f"borders-tiny-{size}.png"), full_page=True)
    drawn = pg.evaluate(DRAWN)
    want = {tuple(sorted((lk["a"], lk["b"]))): lk["over"] for lk in board["map"]["links"]}
    assert {tuple(sorted(x[:2])): x[3] for x in drawn} == want and len(drawn) == len(want) == 9
    assert want[("r00", "r22")] is True
    assert not errors, errors
    ctx.close()
