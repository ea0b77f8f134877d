"""The odds endpoints: ``POST /api/odds/nerath`` (the battle calculator: the CLI's answer, 422s naming the
problem) and ``GET /api/games/{id}/odds`` (a seat's odds of its dice-driven actions, from what it sees)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conquest.core.game import CHANCE
from conquest.rulesets.nerath.data import guardian_tiles
from conquest.web.odds import seat_odds
from tests.web.conftest import create, tok


def test_calculator_answers_as_the_cli_does(client: TestClient) -> None:
    body = {"attacker": "footsoldier,footsoldier,siege,dragon", "defender": ["footsoldier", "wizard", "castle"]}
    r = client.post("/api/odds/nerath", json=body)
    assert r.status_code == 200, r.text
    cli = subprocess.run([sys.executable, "-m", "conquest.cli", "odds", "nerath", "--attacker", body["attacker"],
                          "--defender", "footsoldier,wizard,castle", "--json"], capture_output=True, text=True)
    ref = json.loads(cli.stdout)
    got = r.json()
    for k in ("attacker_wins", "defender_holds", "both_destroyed", "attacker_survivors", "defender_survivors",
              "expected_gold_lost", "expected_rounds"):
        assert got[k] == ref[k], k
    assert abs(got["attacker_wins"] + got["defender_holds"] + got["both_destroyed"] - 1) < 1e-12


def test_calculator_policies_and_cards_change_the_answer(client: TestClient) -> None:
    base = {"attacker": "3 footsoldier", "defender": "3 footsoldier"}
    plain = client.post("/api/odds/nerath", json=base).json()
    careful = client.post("/api/odds/nerath", json={**base, "press": "until-below=3"}).json()
    # retreating as soon as a piece is lost gives up some wins: the defender holds more often, by retreats
    assert careful["attacker_retreats"] > 0 and careful["attacker_wins"] < plain["attacker_wins"]
    # Dark Rites: +1 to every Karkoth attack ("a hit needs 6 - N or higher")
    bonus = client.post("/api/odds/nerath", json={**base, "attacker_cards": ["k-dark-rites"]}).json()
    assert bonus["attacker_wins"] > plain["attacker_wins"]
    sea = client.post("/api/odds/nerath", json={"attacker": "warship, fighter", "defender": "warship",
                                                "sea": True}).json()
    assert sea["attacker_survivors"][0]["pieces"]


@pytest.mark.parametrize("body, needle", [
    ({"attacker": "goblin", "defender": "footsoldier"}, "attacker: unknown piece 'goblin'"),
    ({"attacker": "castle, footsoldier", "defender": "footsoldier"}, "a Castle cannot attack"),
    ({"attacker": "footsoldier", "defender": []}, "defender: no pieces given"),
    ({"attacker": " , ", "defender": "footsoldier"}, "attacker: no pieces given"),
    ({"attacker": "footsoldier", "defender": "castle", "sea": True}, "a Castle stands in a land space"),
    ({"attacker": "footsoldier", "defender": "footsoldier", "press": "often"}, "press 'often'"),
    ({"attacker": "footsoldier", "defender": "footsoldier", "order": "random"}, "order:"),
    ({"attacker": "footsoldier", "defender": "footsoldier", "defender_cards": ["k-nope"]}, "unknown card 'k-nope'"),
    ({"attacker": "41 footsoldier", "defender": "footsoldier"}, "at most 40 a side"),
    ({"attacker": "footsoldier", "defender": "footsoldier", "sea": "yes"}, "sea:"),
    ({"attacker": "footsoldier", "defender": "footsoldier", "dice": 3}, "dice:"),
    ({"attacker": 3, "defender": "footsoldier"}, "attacker"),
])
def test_calculator_bad_input_is_a_422_naming_it(client: TestClient, body: dict[str, Any], needle: str) -> None:
    r = client.post("/api/odds/nerath", json=body)
    assert r.status_code == 422, r.text
    assert needle in r.json()["error"]


def test_calculator_page_and_its_data(client: TestClient) -> None:
    page = client.get("/calc")
    assert page.status_code == 200 and 'src="/static/calc.js"' in page.text
    for f in ("calc.js", "odds.js", "odds.css"):
        assert client.get(f"/static/{f}").status_code == 200
    info = client.get("/api/odds/nerath").json()
    assert [p["id"] for p in info["pieces"]][:2] == ["footsoldier", "siege"]
    ids = {c["id"] for c in info["cards"]}
    assert "k-dark-rites" in ids
    # every card offered is one the calculator accepts
    for c in info["cards"]:
        r = client.post("/api/odds/nerath", json={"attacker": "footsoldier", "defender": "footsoldier",
                                                  "attacker_cards": [c["id"]]})
        assert r.status_code == 200, (c["id"], r.text)
    # the Guardian tiles and the Heroes offered for a dungeon battle are the ones the calculator takes
    assert info["heroes"] == ["fighter", "wizard"]
    assert {g["id"] for g in info["guardians"]} == set(guardian_tiles())
    for g in info["guardians"]:
        r = client.post("/api/odds/nerath", json={"attacker": info["heroes"], "defender": [g["id"]], "dungeon": True})
        assert r.status_code == 200 and r.json()["reward_gold"] == g["reward"], (g["id"], r.text)
    r = client.post("/api/odds/nerath", json={"attacker": ["footsoldier"], "defender": ["troll"], "dungeon": True})
    assert r.status_code == 422 and "cannot explore a dungeon" in r.json()["error"]


def test_calculator_takes_how_long_heroes_need_lasts(client: TestClient) -> None:
    # option heroes_need_lasts (reading 22): the Wraith's 8+ for the whole battle is a harder fight
    body = {"attacker": ["fighter", "fighter"], "defender": ["wraith", "goblin-pack"], "dungeon": True,
            "order": "listed"}
    standing = client.post("/api/odds/nerath", json={**body, "heroes_need_lasts": "while_standing"}).json()
    whole = client.post("/api/odds/nerath", json=body).json()["attacker_wins"]      # the default: whole_battle
    assert whole < standing["attacker_wins"]
    r = client.post("/api/odds/nerath", json={**body, "heroes_need_lasts": "forever"})
    assert r.status_code == 422 and "heroes_need_lasts" in r.json()["error"]


# ---------------------------------------------------------------- a seat's odds in a game
def drive_to(games: Any, gid: str, tokens: dict[int, str], want: Any, seed: int = 0,
             limit: int = 3000) -> tuple[Any, Any]:
    """Play random legal actions through the web app's games (``app.state.games``) until ``want(action,
    state)`` holds for a legal action of the seat to move; returns (live game, action)."""
    rng = random.Random(seed)
    for _ in range(limit):
        live = games.load(gid)
        st = live.state
        assert st.to_move is not None, "the game ended before the position was found"
        assert st.to_move != CHANCE
        acts = list(st.legal_actions())
        hits = [a for a in acts if want(a, st)]
        if hits:
            return live, hits[0]
        games.play(gid, tokens[st.to_move], live.ruleset.format_action(rng.choice(acts)))
    raise AssertionError("no such position reached")


def nerath_game(client: TestClient, seed: int = 1) -> tuple[str, dict[int, str]]:
    made = create(client, "nerath", seats=[{"kind": "human"}, {"kind": "human"}], seed=seed)
    return made["game"]["id"], {s["seat"]: s["token"] for s in made["seats"]}


def is_battle(a: Any, st: Any) -> bool:
    """A land or sea battle against one defending realm (the calculator page states it: the odds link there)."""
    if not (a[0] == "battle" and st.ruleset.has_odds(st, a)):
        return False
    from conquest.rulesets.nerath.odds import NerathBattle, battle_from_state
    from conquest.rulesets.nerath.state import IX
    b = battle_from_state(st, IX[a[1]])
    return isinstance(b, NerathBattle) and not b.dungeon and not b.ally_pieces


def test_a_seat_gets_the_odds_of_a_battle_it_may_declare(client: TestClient) -> None:
    gid, tokens = nerath_game(client)
    first = client.get(f"/api/games/{gid}", headers=tok(tokens[0])).json()
    quiet = next(x["text"] for x in first["legal"] if not x["odds"])   # the first turn: no battle yet
    r = client.get(f"/api/games/{gid}/odds", params={"action": quiet}, headers=tok(tokens[0]))
    assert r.status_code == 422 and "leads into no dice" in r.json()["error"]
    live, action = drive_to(client.app.state.games, gid, tokens, is_battle)
    rs = live.ruleset
    text = rs.format_action(action)
    seat = live.state.to_move
    # the payload marks the action as one with odds
    legal = client.get(f"/api/games/{gid}", headers=tok(tokens[seat])).json()["legal"]
    assert [x["odds"] for x in legal if x["text"] == text] == [True]
    r = client.get(f"/api/games/{gid}/odds", params={"action": text}, headers=tok(tokens[seat]))
    assert r.status_code == 200, r.text
    got = r.json()
    ref = rs.action_odds(live.state, action)
    assert got["attacker_wins"] == ref["attacker_wins"] and got["battle"] == ref["battle"]
    assert got["step"] == live.next_step
    cache = client.app.state.services.odds_cache  # type: ignore[attr-defined]
    hits = cache.hits
    again = client.get(f"/api/games/{gid}/odds", params={"action": text}, headers=tok(tokens[seat]))
    assert again.json() == got and cache.hits == hits + 1
    # the other seat, a spectator, nobody: refused
    other = tokens[1 - seat]
    assert client.get(f"/api/games/{gid}/odds", params={"action": text}, headers=tok(other)).status_code == 409
    assert client.get(f"/api/games/{gid}/odds", params={"action": text}).status_code == 401
    # an action with no dice, an illegal one, nonsense: 422 naming it
    r = client.get(f"/api/games/{gid}/odds", params={"action": "fly to the moon"}, headers=tok(tokens[seat]))
    assert r.status_code == 422 and r.json()["error"]
    r = client.get(f"/api/games/{gid}/odds", params={"action": "retreat"}, headers=tok(tokens[seat]))
    assert r.status_code == 422 and "illegal" in r.json()["error"]


def test_odds_never_depend_on_another_seats_hidden_cards(client: TestClient) -> None:
    gid, tokens = nerath_game(client, seed=2)
    live, action = drive_to(client.app.state.games, gid, tokens, is_battle, seed=2)
    rs, st, seat = live.ruleset, live.state, live.state.to_move
    doc = st.to_json()
    hidden_hands = [r for r, hand in doc["event_hands"].items() if st.view(seat)["event_hands"][r] != hand]
    assert hidden_hands, "the other realm's Event hand is hidden from this seat"
    twin_doc = json.loads(json.dumps(doc))
    for r in hidden_hands:   # a different hand: the first cards of that realm's deck instead
        twin_doc["event_hands"][r] = list(reversed(doc["event_decks"][r]))[:len(doc["event_hands"][r]) or 2]
    twin = rs.state_from_json(twin_doc)
    assert twin.to_json()["event_hands"] != doc["event_hands"]
    assert {k: v for k, v in twin.view(seat).items() if k != "event_hands"} == \
        {k: v for k, v in st.view(seat).items() if k != "event_hands"}
    a, b = seat_odds(rs, st, seat, action), seat_odds(rs, twin, seat, action)
    for r in (a, b):
        r.pop("seconds")
    assert a == b


def test_narby_odds_never_depend_on_another_dragons_hidden_card(client: TestClient) -> None:
    # Narby: the other dragons' cards are hidden; their reaction windows are read as "everybody passes"
    from conquest.rulesets.narby.tables import TABLES as NT
    made = create(client, "narby", seats=[{"kind": "human"}] * 3, seed=4)
    gid, tokens = made["game"]["id"], {s["seat"]: s["token"] for s in made["seats"]}

    def wanted(a: Any, st: Any) -> bool:
        return a[0] in ("attack", "steal") and st.ruleset.has_odds(st, a) and any(
            h is not None and st.view(st.to_move)["hands"][i] != h for i, h in enumerate(st.to_json()["hands"]))
    live, action = drive_to(client.app.state.games, gid, tokens, wanted, seed=4)
    rs, st, seat = live.ruleset, live.state, live.state.to_move
    doc = st.to_json()
    twins = []
    for i, card in enumerate(doc["hands"]):
        if card is None or st.view(seat)["hands"][i] == card:
            continue
        for other in NT.card_ids:    # another card in that dragon's hand, the rest as it is
            d2 = json.loads(json.dumps(doc))
            d2["hands"][i] = other
            try:
                twin = rs.state_from_json(d2)
            except Exception:  # noqa: BLE001 - a card that is elsewhere already
                continue
            if twin.to_json()["hands"] != doc["hands"] and twin.is_legal(action):
                twins.append(twin)
    assert len(twins) >= 3, "other hidden cards fit this position"
    want = seat_odds(rs, st, seat, action)
    want.pop("seconds")
    for twin in twins:
        got = seat_odds(rs, twin, seat, action)
        got.pop("seconds")
        assert got == want


def test_the_battle_window_weighs_press_and_retreat(client: TestClient) -> None:
    gid, tokens = nerath_game(client, seed=3)
    live, action = drive_to(client.app.state.games, gid, tokens,
                            lambda a, st: a == ("press",) and st.ruleset.has_odds(st, a), seed=3)
    seat = live.state.to_move
    legal = client.get(f"/api/games/{gid}", headers=tok(tokens[seat])).json()["legal"]
    assert {x["text"] for x in legal if x["odds"]} == {"press", "retreat"}
    press = client.get(f"/api/games/{gid}/odds", params={"action": "press"}, headers=tok(tokens[seat])).json()
    # from the round the battle is in: the calculator on the pieces still standing (wounded Dragons stay so)
    assert press["battle"] == live.ruleset.action_odds(live.state, "press")["battle"]
    assert abs(press["attacker_wins"] + press["defender_holds"] + press["both_destroyed"] - 1) < 1e-9
    retreat = client.get(f"/api/games/{gid}/odds", params={"action": "retreat"}, headers=tok(tokens[seat])).json()
    assert [o["probability"] for o in retreat["outcomes"]] == [1.0]


def test_odds_that_take_too_long_are_a_503_and_land_in_the_cache(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from conquest.web.routes import odds as odds_routes
    gid, tokens = nerath_game(client, seed=1)
    live, action = drive_to(client.app.state.games, gid, tokens, is_battle)
    text, seat = live.ruleset.format_action(action), live.state.to_move
    slow = odds_routes.seat_odds

    def slower(*args: Any) -> Any:
        time.sleep(0.3)
        return slow(*args)
    monkeypatch.setattr(odds_routes, "seat_odds", slower)
    monkeypatch.setattr(odds_routes, "ODDS_SECONDS", 0.05)
    r = client.get(f"/api/games/{gid}/odds", params={"action": text}, headers=tok(tokens[seat]))
    assert r.status_code == 503 and "take more than 0.05 s" in r.json()["error"]
    time.sleep(0.6)   # the computation went on and was kept
    r = client.get(f"/api/games/{gid}/odds", params={"action": text}, headers=tok(tokens[seat]))
    assert r.status_code == 200 and r.json()["battle"]["space"] == action[1]
    slow_calc = odds_routes._calculate
    monkeypatch.setattr(odds_routes, "_calculate", lambda calc, body: (time.sleep(0.3), slow_calc(calc, body))[1])
    r = client.post("/api/odds/nerath", json={"attacker": "footsoldier", "defender": "footsoldier"})
    assert r.status_code == 503


# ---------------------------------------------------------------- allied defenders and dungeons
def test_calculator_takes_allies_and_dungeons(client: TestClient) -> None:
    from conquest.rulesets.nerath.odds import NerathBattle, dungeon_battle
    r = client.post("/api/odds/nerath", json={"attacker": "3 footsoldier", "defender": "footsoldier, castle",
                                              "ally": ["wizard"]})
    assert r.status_code == 200, r.text
    ref = NerathBattle(["footsoldier"] * 3, ["footsoldier", "castle"], ally=["wizard"]).solve()
    assert r.json()["attacker_wins"] == ref.attacker_wins
    assert set(r.json()["defender_survivors"][0]["by_realm"]) == {"defender", "ally"}
    r = client.post("/api/odds/nerath", json={"attacker": "fighter, wizard", "defender": "troll, facedown",
                                              "dungeon": True})
    assert r.status_code == 200, r.text
    exact = dungeon_battle(["fighter", "wizard"], ["troll", "facedown"]).solve()
    assert r.json()["attacker_wins"] == exact.attacker_wins
    for body, needle in (({"attacker": "fighter", "defender": "troll", "dungeon": True, "sea": True}, "dungeon:"),
                         ({"attacker": "fighter", "defender": "dragonlord", "dungeon": True}, "unknown Dungeon"),
                         ({"attacker": "footsoldier", "defender": "troll", "dungeon": True}, "cannot explore"),
                         ({"attacker": "fighter", "defender": "footsoldier", "ally": "41 footsoldier"}, "at most 40"),
                         ({"attacker": "fighter", "defender": "21 footsoldier", "ally": "20 footsoldier"},
                          "defender and ally: 41 pieces")):
        r = client.post("/api/odds/nerath", json=body)
        assert r.status_code == 422 and needle in r.json()["error"], (body, r.text)


def is_dungeon_battle(a: Any, st: Any) -> bool:
    from conquest.rulesets.nerath.data import DUNGEON
    from conquest.rulesets.nerath.state import IX, KIND
    return a[0] == "battle" and KIND[IX[a[1]]] == DUNGEON and st.ruleset.has_odds(st, a)


def test_a_dungeon_battles_odds_never_depend_on_the_facedown_guardians(client: TestClient) -> None:
    # the facedown tiles (on every entrance) and the facedown pile are hidden from every seat: the odds of
    # exploring an entrance are the average over the tiles out of sight, whichever lies there
    gid, tokens = nerath_game(client, seed=2)
    live, action = drive_to(client.app.state.games, gid, tokens, is_dungeon_battle, seed=2)
    rs, st, seat = live.ruleset, live.state, live.state.to_move
    text = rs.format_action(action)
    legal = client.get(f"/api/games/{gid}", headers=tok(tokens[seat])).json()["legal"]
    assert [x["odds"] for x in legal if x["text"] == text] == [True]
    got = client.get(f"/api/games/{gid}/odds", params={"action": text}, headers=tok(tokens[seat])).json()
    assert got["battle"]["kind"] == "dungeon" and "facedown" in got["battle"]["guardians"]
    doc = st.to_json()
    facedown = [(x, i) for x, gs in doc["guardians"].items() for i, g in enumerate(gs) if not g["face_up"]]
    from conquest.rulesets.nerath.data import full_strength
    twin_doc = json.loads(json.dumps(doc))
    # swap every facedown tile with one from the pile (a different deal of the same unseen tiles)
    pile = list(doc["guardian_pile"])
    for x, i in facedown:
        old = twin_doc["guardians"][x][i]["tile"]
        new = pile.pop(0)
        twin_doc["guardians"][x][i].update(tile=new, dice=full_strength(new))
        pile.append(old)
    twin_doc["guardian_pile"] = sorted(pile)
    twin = rs.state_from_json(twin_doc)
    assert twin.to_json()["guardians"] != doc["guardians"] and twin.view(seat) == st.view(seat)
    a, b = seat_odds(rs, st, seat, action), seat_odds(rs, twin, seat, action)
    for r in (a, b):
        r.pop("seconds")
    assert a == b
    assert a["attacker_wins"] == got["attacker_wins"]


# ---------------------------------------------------------------- the hooks: a game's own odds and calculator
def test_a_new_games_odds_come_from_the_default_hooks(client: TestClient) -> None:
    """A ruleset that declares nothing about odds (tests/web/toy.py) still gets them beside an action that
    leads into dice: its end of turn rolls a die, weighed by the default action_odds."""
    made = create(client)
    token = made["seats"][0]["token"]
    gid = made["game"]["id"]
    r = client.get(f"/api/games/{gid}/odds", params={"action": "end"}, headers=tok(token))
    assert r.status_code == 200, r.text
    probs = sorted(o["probability"] for o in r.json()["outcomes"])
    assert len(probs) == 6 and all(abs(p - 1 / 6) < 1e-12 for p in probs)
    r = client.get(f"/api/games/{gid}/odds", params={"action": "place north"}, headers=tok(token))
    assert r.status_code == 422 and "no dice" in r.json()["error"]


def test_the_calculator_route_serves_any_game_that_has_one(client: TestClient) -> None:
    from conquest.core.registry import rulesets
    listed = client.get("/api/odds").json()["calculators"]
    want = [rid for rid, rs in rulesets().items() if rs.calculator() is not None]
    assert [c["ruleset"] for c in listed] == want and want
    for rid, rs in rulesets().items():
        info = client.get(f"/api/odds/{rid}")
        if rs.calculator() is None:
            assert info.status_code == 404 and "no odds calculator" in info.json()["error"]
            assert client.post(f"/api/odds/{rid}", json={}).status_code == 404
            assert client.get(f"/calc/{rid}").status_code == 404
        else:
            assert info.status_code == 200 and info.json()["title"] == rs.calculator().title
            assert client.get(f"/calc/{rid}").status_code == 200
    assert client.get("/api/odds/nope").status_code == 404
    r = client.post("/api/odds/nerath", content=b'{"attacker": "footsoldier", "attacker": "x"}')
    assert r.status_code == 422 and "twice" in r.json()["error"]


def test_the_cli_takes_a_calculators_declared_fields() -> None:
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "conquest.cli", "odds", *args], capture_output=True, text=True)
    p = run("nerath", "--attacker=footsoldier", "--defender", "footsoldier", "--json")
    assert p.returncode == 0, p.stderr
    assert abs(json.loads(p.stdout)["attacker_wins"] - 5 / 11) < 1e-12
    for args, words in [(["nerath", "--attacker", "footsoldier", "--defender", "footsoldier", "--wings", "2"],
                         "--wings: not an option"),
                        (["nerath", "--attacker", "footsoldier", "--attacker", "x"], "--attacker is given twice"),
                        (["nerath", "--attacker"], "--attacker needs a value"),
                        (["nerath", "--sea=1", "--attacker", "x"], "--sea takes no value"),
                        (["kingdom", "--attacker", "x"], "kingdom has no calculator")]:
        p = run(*args)
        assert p.returncode == 2 and words in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    helped = run("--help").stdout
    assert "nerath: Nerath battle calculator" in helped and "--attacker-cards" in helped
