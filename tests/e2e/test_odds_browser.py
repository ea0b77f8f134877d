"""Odds in the browser: the battle calculator page (steppers, the result read from the page and checked
against the API) and a Nerath game showing the odds of a battle beside its declaration."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from tests.web.test_odds_api import drive_to, is_battle, is_dungeon_battle

SIZES = {"wide": (1400, 900), "phone": (390, 844)}


def is_plain_dungeon_battle(a: Any, st: Any) -> bool:
    """A dungeon battle that the calculator page can state whole (no attack bonus in force, no wounded Dragon):
    its link opens the same battle."""
    if not is_dungeon_battle(a, st):
        return False
    from conquest.rulesets.nerath.odds import battle_from_state, beyond_calculator
    from conquest.rulesets.nerath.state import IX
    return not beyond_calculator(battle_from_state(st, IX[a[1]]))


def panel_of(text: str) -> str:
    """The selector of the odds panel under one listed action (each action with odds has its own panel)."""
    return f"li:has(> .odds-row [data-odds='{text}']) > .odds-drop"


def test_calculator_steppers_and_result(page: Any, server: Any, screenshots: Path) -> None:
    page.goto(server.url + "/")
    page.click("#calc-link")            # the lobby links the calculator
    page.wait_for_url(re.compile(r"/calc(#.*)?$"))   # the page writes its state into the hash
    page.wait_for_selector("[data-step='attacker-footsoldier-plus']")
    # /calc shows the first game with a calculator; its title comes from GET /api/odds/{ruleset}
    title = httpx.get(f"{server.url}/api/odds/nerath").json()["title"]
    assert page.inner_text(".top-title") == title and page.title() == title
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
    assert page.get_attribute(f"{panel} a", "href").startswith("/calc/nerath#")
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
                       lambda a, st: a == ("press",) and st.ruleset.has_odds(st, a), seed=3)
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
    live, action = drive_to(server.app.state.games, gid, tokens, is_plain_dungeon_battle, seed=2)
    text = live.ruleset.format_action(action)
    page.goto(f"{server.url}/game/{gid}#t={tokens[live.state.to_move]}")
    page.wait_for_selector(f"[data-odds='{text}']")
    page.fill("#notation", "battle")
    page.click(f"[data-odds='{text}']")
    page.wait_for_selector(f"{panel_of(text)} .odds-stack")
    panel = page.inner_text(panel_of(text))
    assert "the Guardians" in panel and "facedown" in panel and "Treasure card" in panel
    page.screenshot(path=str(screenshots / "odds-dungeon-wide.png"), full_page=True)
    # the panel links the battle to the calculator page, which opens it with the same numbers
    want = httpx.get(f"{server.url}/api/games/{gid}/odds", params={"action": text},
                     headers={"X-Conquest-Token": tokens[live.state.to_move]}).json()
    assert want["battle"]["beyond_calculator"] == []     # nothing the calculator cannot state: the same battle
    href = page.get_attribute(f"{panel_of(text)} a[href^='/calc/nerath#']", "href")
    assert "dungeon=1" in href
    page.goto(server.url + href)
    page.wait_for_selector("#result[data-ready]")
    assert page.is_checked("#mode-dungeon")
    assert abs(float(page.get_attribute("#p-win", "data-p")) - want["attacker_wins"]) < 1e-12
    assert abs(float(page.get_attribute("#p-both", "data-p")) - want["both_destroyed"]) < 1e-12
    assert page.inner_text("#expected-rounds") == f"{want['expected_rounds']:.2f}"
    assert "the Guardians (" in page.inner_text("#result") and "Treasure card" in page.inner_text("#result")


def ready_with(page: Any, needle: str) -> None:
    """Wait for the calculator's result (or its error) after a change that puts `needle` in the address."""
    page.wait_for_function("(n) => document.querySelector('#result[data-ready], #result .odds-error') && "
                           "location.hash.includes(n)", arg=needle)


def shown_matches(page: Any, want: dict[str, Any]) -> None:
    for key, cls in (("attacker_wins", "win"), ("defender_holds", "hold"), ("both_destroyed", "both")):
        assert abs(float(page.get_attribute(f"#p-{cls}", "data-p")) - want[key]) < 1e-12, key
    assert page.inner_text("#expected-rounds") == f"{want['expected_rounds']:.2f}"


def click(page: Any, step: str, times: int = 1) -> None:
    for _ in range(times):
        page.click(f"[data-step='{step}']")


def shoot(page: Any, screenshots: Path, name: str) -> None:
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(screenshots / f"calc-{name}-{size}.png"), full_page=True)
        # on a phone nothing sticks out sideways
        assert page.evaluate("() => document.documentElement.scrollWidth") <= w
    page.set_viewport_size({"width": 1280, "height": 900})


def test_calculator_allied_defenders(page: Any, server: Any, screenshots: Path) -> None:
    page.goto(server.url + "/calc")
    page.wait_for_selector("[data-step='attacker-footsoldier-plus']")
    assert not page.is_visible("#side-ally")              # the ally is off by default
    click(page, "attacker-footsoldier-plus", 3)
    click(page, "attacker-dragon-plus")
    click(page, "defender-footsoldier-plus")
    click(page, "defender-wizard-plus")
    page.check("#ally-on")
    click(page, "ally-footsoldier-plus", 2)
    click(page, "ally-monster-plus")
    page.check("#ally-castle")                           # the ally controls the space: its Castle
    page.click("details.cards summary")
    page.check("#card-ally-k-dark-rites")
    ready_with(page, "lc=k-dark-rites")
    body = {"attacker": ["footsoldier"] * 3 + ["dragon"], "defender": ["footsoldier", "wizard"],
            "ally": ["footsoldier", "footsoldier", "monster", "castle"], "ally_cards": ["k-dark-rites"]}
    want = httpx.post(server.url + "/api/odds/nerath", json=body).json()
    shown_matches(page, want)
    assert "half each" in page.inner_text(".ally-split")    # how the allies share the damage
    assert "ally: " in page.inner_text("#surv-defender")     # the defenders' survivors realm by realm
    shoot(page, screenshots, "ally")
    page.reload()                                        # the address holds the whole battle
    page.wait_for_selector("#result[data-ready]")
    assert page.is_checked("#ally-on") and page.is_checked("#ally-castle") and not page.is_checked("#castle")
    assert page.input_value("#n-ally-footsoldier") == "2" and page.is_checked("#card-ally-k-dark-rites")
    shown_matches(page, want)
    # one Castle in the space: the defender's Castle takes it from the ally
    page.check("#castle")
    assert not page.is_checked("#ally-castle")


def test_calculator_dungeon_battle(page: Any, server: Any, screenshots: Path) -> None:
    page.goto(server.url + "/calc#a=footsoldier&d=footsoldier")   # a plain battle first
    page.wait_for_selector("#result[data-ready]")
    page.check("#mode-dungeon", force=True)
    assert not page.is_visible("[data-step='attacker-footsoldier-plus']")    # only the Heroes explore
    assert page.is_visible("#heroes-note") and page.is_visible("[data-step='attacker-fighter-plus']")
    assert not page.is_visible("#where") and not page.is_visible("#castle") and not page.is_visible("#ally-box")
    page.wait_for_function("() => document.getElementById('result').textContent.startsWith('Add Heroes')")
    click(page, "attacker-fighter-plus", 2)
    click(page, "attacker-wizard-plus")
    click(page, "guardians-troll-plus", 2)               # each tile once: the stepper stops at 1
    assert page.input_value("#n-guardians-troll") == "1"
    click(page, "guardians-facedown-plus")
    ready_with(page, "d=troll%2Cfacedown")
    body = {"attacker": ["fighter", "fighter", "wizard"], "defender": ["troll", "facedown"], "dungeon": True}
    want = httpx.post(server.url + "/api/odds/nerath", json=body).json()
    shown_matches(page, want)
    result = page.inner_text("#result")
    assert "against the Guardians (troll, facedown)" in result and "Treasure card" in result
    assert f"{round(want['reward_gold'], 2):g} gold on average" in result
    assert "Guardians: what is left" in result
    shoot(page, screenshots, "dungeon")
    page.reload()
    page.wait_for_selector("#result[data-ready]")
    assert page.is_checked("#mode-dungeon") and page.input_value("#n-guardians-facedown") == "1"
    shown_matches(page, want)
    # too many face-down tiles to weigh: the server's one-line reason on the page
    click(page, "guardians-facedown-plus", 4)
    ready_with(page, "facedown%2Cfacedown%2Cfacedown%2Cfacedown%2Cfacedown")
    err = httpx.post(server.url + "/api/odds/nerath", json={**body, "defender": ["troll"] + ["facedown"] * 5})
    assert err.status_code == 422
    assert page.inner_text("#result .odds-error") == err.json()["error"]
    shoot(page, screenshots, "error")
    # back to a realms' battle: the Heroes stay, the defender's side is asked for, nothing of the dungeon is left
    page.check("#mode-battle", force=True)
    page.wait_for_function("() => document.getElementById('result').textContent === 'Add defending pieces.'")
    assert "dungeon" not in page.evaluate("() => location.hash") and page.is_visible("#castle")
