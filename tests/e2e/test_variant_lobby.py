"""A person makes a game with a variant in the lobby's advanced options (a text area, or a file), plays it to the
end, and sees the variant on the game page, the result screen and the lobby's list; screenshots at 1400x900
and 390x844."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from tests.e2e.test_browser import click_once, wait_my_turn_or_end

VARIANT = "name: golden mines\npoints: {gold: 6, material: 3}\ncastle_icon: 2\n"
SIZES = {"wide": (1400, 900), "phone": (390, 844)}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_variant_from_the_lobby_is_played_recorded_and_shown(browser: Any, server: Any, screenshots: Path,
                                                                tmp_path: Path, size: str) -> None:
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, accept_downloads=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.select_option("#ruleset", "kingdom")
    assert page.is_visible("#advanced > summary")
    page.click("#advanced > summary")
    if size == "wide":
        page.fill("#opt-variant", VARIANT)
    else:  # the file chooser fills the text area
        f = tmp_path / "golden.yaml"
        f.write_text(VARIANT)
        page.set_input_files("#opt-variant-file", str(f))
        page.wait_for_function("() => document.getElementById('opt-variant').value.includes('golden mines')")
    page.fill("#opt-rounds", "1")
    page.locator("#advanced").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"variant-lobby-{size}.png"), full_page=True)
    # a bad variant: one line from the server, nothing made
    page.fill("#opt-variant", "points: {gold: -1}\n")
    page.click("#create-btn")
    page.wait_for_selector("text=variant field 'points.gold'")
    assert "/game/" not in page.url
    page.fill("#opt-variant", VARIANT)
    page.fill("#seat-0-name", "Tester")
    page.select_option("#seat-1-kind", "random")
    page.click("#create-btn")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#turn")
    assert page.inner_text("#variant") == "Variant: golden mines"
    rng = random.Random(3)
    clicks = 0
    while wait_my_turn_or_end(page) and clicks < 200:
        click_once(page, rng, prefer_board=False)
        clicks += 1
    page.wait_for_selector("#result-screen[open]")
    assert page.inner_text("#result-variant") == "Played with a variant of the rules' data: golden mines"
    page.screenshot(path=str(screenshots / f"variant-result-{size}.png"), full_page=False)
    page.click("#result-screen button.primary")
    assert "golden mines" in page.inner_text("table.result caption")
    page.goto(server.url + "/")
    page.wait_for_selector("#mylist .variant-tag")
    assert "(variant: golden mines)" in page.inner_text("#mylist")
    page.screenshot(path=str(screenshots / f"variant-mygames-{size}.png"), full_page=True)
    ctx.close()
    assert not errors, errors
