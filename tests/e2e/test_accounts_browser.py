"""Two people in two Chromium windows register, one sets up a public table, the other finds it in the open lobby and
joins, a third (not logged in) watches; they play the game to its end by clicking, and both see their new ratings
on their player pages. Screenshots of the pages added (account, open tables, player, "Your games") at 1400x900 and
390x844 go to CONQUEST_SCREENSHOTS (default: <tmp>/conquest-e2e-screenshots)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

SIZES = {"wide": (1400, 900), "phone": (390, 844)}


@pytest.fixture
def people(browser: Any) -> Iterator[list[Any]]:
    contexts = [browser.new_context(viewport={"width": 1400, "height": 900}) for _ in range(3)]
    pages = []
    errors: list[str] = []
    for ctx in contexts:
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(pg)
    yield pages
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"


def shoot(page: Any, shots: Path, name: str) -> None:
    """The page at both sizes (full page), then back to the wide one."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        page.screenshot(path=str(shots / f"accounts-{name}-{size}.png"), full_page=True)
    page.set_viewport_size({"width": 1400, "height": 900})


def register(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#register-name", name)
    page.fill("#register-password", "correct horse battery")
    page.click("#register-btn")
    page.wait_for_url("**/tables")
    page.wait_for_selector("#me-link")
    assert page.inner_text("#me-link") == name


def play_turn(page: Any, moves: list[str]) -> None:
    """This seat's turn: the first of ``moves`` offered (each move once), then ``end``."""
    for move in [*moves, "end"]:
        page.wait_for_selector("#actions button[data-action]")
        before = page.eval_on_selector("#app", "a => a.dataset.revision")
        button = page.query_selector(f"#actions button[data-action='{move}']")
        if button is None:
            continue
        button.click()
        page.wait_for_function(f"() => document.getElementById('app').dataset.revision !== '{before}'",
                               timeout=20_000)


def test_two_players_meet_in_the_lobby_and_are_rated(server: Any, people: list[Any], screenshots: Path) -> None:
    ann, bob, watcher = people
    base = server.url
    register(ann, base, "Ann")
    ann.wait_for_selector("#newtable-form")
    shoot(ann, screenshots, "tables-empty")
    ann.goto(base + "/account")
    ann.wait_for_selector("#email-form")
    shoot(ann, screenshots, "account-logged-in")
    ann.goto(base + "/tables")
    ann.wait_for_selector("#t-ruleset option[value='toy']", state="attached")
    ann.select_option("#t-ruleset", "toy")
    ann.click("#newtable-form details summary")
    ann.fill("#t-opt-rounds", "1")
    ann.click("#t-create")
    ann.wait_for_selector("li.table [data-start]")
    shoot(ann, screenshots, "tables-open")

    bob.goto(base + "/account")
    bob.wait_for_selector("#login-link")
    assert bob.inner_text("#account").split() == ["Open", "tables", "Log", "in"]
    shoot(bob, screenshots, "account")
    # a wrong login is answered on the page and logs nobody in
    bob.fill("#login-name", "Ann")
    bob.fill("#login-password", "not her password")
    bob.click("#login-btn")
    bob.wait_for_function("() => document.getElementById('login-error').textContent !== ''")
    assert bob.inner_text("#login-error") == "wrong name or password"
    register(bob, base, "Bob")
    bob.wait_for_selector("li.table [data-join]")
    assert "Ann" in bob.inner_text("li.table")
    bob.click("li.table [data-join]")
    bob.wait_for_selector("li.table a[data-play]")
    shoot(bob, screenshots, "tables-started")
    bob.click("li.table a[data-play]")
    bob.wait_for_selector("#turn")

    ann.goto(base + "/tables")
    ann.click("li.table a[data-play]")
    ann.wait_for_selector("#turn")
    watcher.goto(base + "/tables")
    assert watcher.query_selector("#login-link") is not None
    watcher.click("li.table a[data-watch]")
    watcher.wait_for_selector("#turn")
    shoot(watcher, screenshots, "game-watched")  # the header's account links beside a game

    # play by clicking: Ann places two armies a turn, Bob only ends his turns
    for _ in range(12):
        over = False
        for page, moves in ((ann, ["place north", "place east"]), (bob, [])):
            page.wait_for_function("() => { const a = document.getElementById('app');"
                                   " return a.dataset.over === 'true' || a.dataset.mine === 'true'; }",
                                   timeout=20_000)
            if page.eval_on_selector("#app", "a => a.dataset.over === 'true'"):
                over = True
                break
            if page.eval_on_selector("#app", "a => a.dataset.mine === 'true'"):
                play_turn(page, moves)
        if over:
            break
    ann.wait_for_function("() => document.getElementById('app').dataset.over === 'true'", timeout=20_000)
    watcher.wait_for_function("() => document.getElementById('app').dataset.over === 'true'", timeout=20_000)

    # the ratings follow the result (Ann most often wins: the secret cards and the die may make it a tie or
    # Bob's win)
    result = watcher.eval_on_selector("#app", "a => a.dataset.result || ''")
    ann.goto(base + "/player/Ann")
    ann.wait_for_selector("#ratings")
    rating_ann = float(ann.inner_text("#ratings tr:nth-child(2) td:nth-child(2)"))
    place_ann = ann.inner_text("#history tr:nth-child(2) td:nth-child(3)")
    shoot(ann, screenshots, "player")
    bob.goto(base + "/player/Bob")
    bob.wait_for_selector("#ratings")
    rating_bob = float(bob.inner_text("#ratings tr:nth-child(2) td:nth-child(2)"))
    place_bob = bob.inner_text("#history tr:nth-child(2) td:nth-child(3)")
    if (place_ann, place_bob) == ("1 of 2", "2 of 2"):
        assert rating_ann > rating_bob, result
    elif (place_ann, place_bob) == ("2 of 2", "1 of 2"):
        assert rating_ann < rating_bob, result
    else:
        assert (place_ann, place_bob) == ("1 of 2", "1 of 2") and rating_ann == rating_bob, result
    # Ann's games, from the server, on the lobby page
    ann.goto(base + "/")
    ann.wait_for_selector("#account-games li")
    assert "Toy" in ann.inner_text("#account-games")
    assert "null" not in ann.inner_text("#account-box")
    shoot(ann, screenshots, "your-games")

    # a game made from a link (not the lobby) can be added to the account from its page
    bob.goto(base + "/")
    bob.wait_for_selector("#ruleset option[value='toy']", state="attached")
    bob.select_option("#ruleset", "toy")
    bob.select_option("#seat-1-kind", "easy")
    bob.click("#create-btn")
    bob.wait_for_url("**/game/**")
    bob.wait_for_selector("#claim-seat")
    shoot(bob, screenshots, "game-claim")
    bob.click("#claim-seat")
    bob.wait_for_selector("#claim-seat", state="detached")
    bob.goto(base + "/")
    bob.wait_for_function("() => document.querySelectorAll('#account-games li').length === 2")
