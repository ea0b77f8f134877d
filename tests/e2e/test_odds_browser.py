"""Odds in the browser: the battle calculator page (steppers, the result read from the page and checked
against the API) and a Nerath game showing the odds of a battle beside its declaration."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import re

import httpx

from conquest.web.odds import has_odds
from tests.web.test_odds_api import drive_to, is_battle, is_dungeon_battle

SIZES = {"wide": (1400, 900), "phone": (390, 844)}


def panel_of(text: str) -> str:
    """The selector of the odds panel under one listed action (each action with odds has its own panel)."""
    return f"li:has(> .odds-row [data-odds='{text}']) > .odds-drop"


def test_calculator_steppers_and_result(page: Any, server: Any, screenshots: Path) -> None:
    page.goto(server.url + "/")
    page.click("#calc-link")            # the lobby links the calculator
    page.wait_for_url(re.compile(r"/calc(#.*)?$"))   # the page writes its state into the hash
    page.wait_for_selector("[data-step='attacker-footsoldier-plus']")
    for _ in range(3):
        page.click("[data-step='attacker-footsoldier-plus']")
    page.click("[data-step='attacker-dragon-plus']")
    for _ in range(2):
        page.click("[data-step='defender-footsoldier-plus']")
    page.click("[data-step='defender-wizard-plus']")
    page.click("[data-step='defender-footsoldier-minus']")   # back to one Footsoldier
    page.check("#castle")
    page.wait_for_function("() => document.querySelector('#result[data-ready]') && "
                           "location.hash.includes('castle')")
    assert page.input_value("#n-defender-footsoldier") == "1"
    want = httpx.post(server.url + "/api/odds/nerath", json={
        "attacker": ["footsoldier"] * 3 + ["dragon"], "defender": ["footsoldier", "wizard", "castle"]}).json()
    shown = float(page.get_attribute("#p-win", "data-p"))
    assert abs(shown - want["attacker_wins"]) < 1e-12
    assert page.inner_text("#p-win") == f"{100 * want['attacker_wins']:.0f}%"
    assert page.inner_text("#expected-rounds") == f"{want['expected_rounds']:.2f}"
    assert page.query_selector("#surv-attacker tr") is not None
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(screenshots / f"odds-calc-{name}.png"), full_page=True)
    # on a phone the steppers fill the screen: a summary of the result stays at its bottom
    assert page.is_visible("#mini .odds-stack")
    page.screenshot(path=str(screenshots / "odds-calc-phone-screen.png"))
    page.set_viewport_size({"width": 1400, "height": 900})
    assert not page.is_visible("#mini .odds-stack")
    # at sea the land pieces are off and the result follows
    page.check("#where-sea", force=True)
    page.wait_for_function("() => document.querySelector('.odds-error, #result[data-ready]') && "
                           "location.hash.includes('sea=1')")
    assert page.is_disabled("[data-step='attacker-footsoldier-plus']")
    # a battle linked from a game opens filled in
    page.goto(server.url + "/calc#a=wizard,fighter&d=monster,castle")
    page.wait_for_selector("#result[data-ready]")
    assert page.input_value("#n-attacker-wizard") == "1" and page.is_checked("#castle")


def test_a_nerath_game_shows_the_odds_of_a_battle(page: Any, server: Any, screenshots: Path) -> None:
    made = httpx.post(server.url + "/api/games", json={"ruleset": "nerath", "seed": 1,
                                                       "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    gid = made["game"]["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    live, action = drive_to(server.app.state.games, gid, tokens, is_battle)
    text = live.ruleset.format_action(action)
    seat = live.state.to_move
    page.goto(f"{server.url}/game/{gid}#t={tokens[seat]}")
    page.wait_for_selector(f"[data-odds='{text}']")
    page.fill("#notation", "battle")
    page.hover(f"[data-action='{text}']")                 # hovering fills the badge
    page.wait_for_function(f"() => /%/.test(document.querySelector(\"[data-odds='{text}'] .odds-badge\").textContent)")
    page.click(f"[data-odds='{text}']")
    panel = panel_of(text)
    page.wait_for_selector(f"{panel} .odds-stack")
    want = httpx.get(f"{server.url}/api/games/{gid}/odds", params={"action": text},
                     headers={"X-Conquest-Token": tokens[seat]}).json()
    legend = page.inner_text(f"{panel} .odds-legend")
    assert "Attacker wins" in legend and "Defender holds" in legend
    assert page.get_attribute(f"{panel} a", "href").startswith("/calc#")
    badge = page.inner_text(f"[data-odds='{text}'] .odds-badge")
    assert badge.rstrip("%").lstrip("<>") != "" and want["attacker_wins"] >= 0
    for name, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(screenshots / f"odds-game-{name}.png"), full_page=True)


def test_the_battle_window_opens_the_odds_of_pressing(page: Any, server: Any, screenshots: Path) -> None:
    made = httpx.post(server.url + "/api/games", json={"ruleset": "nerath", "seed": 3,
                                                       "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    gid = made["game"]["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    live, _ = drive_to(server.app.state.games, gid, tokens,
                       lambda a, st: a == ("press",) and has_odds("nerath", st, a), seed=3)
    page.goto(f"{server.url}/game/{gid}#t={tokens[live.state.to_move]}")
    page.wait_for_selector("[data-odds='press'][aria-expanded='true']")   # open without a click
    page.wait_for_selector(f"{panel_of('press')} .odds-stack")
    page.click("[data-odds='retreat']")
    cells = f"{panel_of('retreat')} .odds-table td.p"
    page.wait_for_function(f"() => [...document.querySelectorAll({cells!r})].some(td => td.textContent === '100%')")
    page.screenshot(path=str(screenshots / "odds-press-wide.png"), full_page=True)


def test_a_dungeon_battles_odds_name_the_guardians(page: Any, server: Any, screenshots: Path) -> None:
    made = httpx.post(server.url + "/api/games", json={"ruleset": "nerath", "seed": 2,
                                                       "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    gid = made["game"]["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    live, action = drive_to(server.app.state.games, gid, tokens, is_dungeon_battle, seed=2)
    text = live.ruleset.format_action(action)
    page.goto(f"{server.url}/game/{gid}#t={tokens[live.state.to_move]}")
    page.wait_for_selector(f"[data-odds='{text}']")
    page.fill("#notation", "battle")
    page.click(f"[data-odds='{text}']")
    page.wait_for_selector(f"{panel_of(text)} .odds-stack")
    panel = page.inner_text(panel_of(text))
    assert "the Guardians" in panel and "facedown" in panel and "Treasure card" in panel
    assert page.query_selector(f"{panel_of(text)} a[href^='/calc#']") is None   # the calculator page states no dungeon
    page.screenshot(path=str(screenshots / "odds-dungeon-wide.png"), full_page=True)
