"""Accounts, the open lobby and ratings through the HTTP API (docs/web.md, "Accounts, lobby and ratings"), on SQLite
and, with CONQUEST_TEST_PG, on PostgreSQL. Every refusal is checked to change nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from conquest.web.accounts import CSRF_HEADER, SESSION_COOKIE, LoginLimit
from tests.web.conftest import create, tok


def register(client: TestClient, name: str, password: str = "correct horse", **extra: Any) -> dict[str, str]:
    """Register ``name`` (logged in afterwards in ``client``); the CSRF header of the session."""
    r = client.post("/api/account/register", json={"name": name, "password": password, **extra})
    assert r.status_code == 201, r.text
    return {CSRF_HEADER: r.json()["csrf"]}


def second(client: TestClient) -> TestClient:
    """Another browser on the same server (its own cookies)."""
    c = TestClient(client.app, raise_server_exceptions=False)
    return c


def test_register_login_logout_and_me(client: TestClient) -> None:
    assert client.get("/api/account").json() == {"account": None, "csrf": None}
    r = client.post("/api/account/register", json={"name": "Ann", "password": "correct horse",
                                                   "email": "ann@example.org"})
    assert r.status_code == 201
    cookie = r.headers["set-cookie"]
    assert SESSION_COOKIE in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Secure" not in cookie  # plain http (the test client): Secure only over https
    me = client.get("/api/account").json()
    assert me["account"] == {"name": "Ann", "email": "ann@example.org"} and me["csrf"]
    # logging out needs the CSRF token
    assert client.post("/api/account/logout").status_code == 403
    assert client.get("/api/account").json()["account"]["name"] == "Ann"
    assert client.post("/api/account/logout", headers={CSRF_HEADER: me["csrf"]}).status_code == 200
    assert client.get("/api/account").json()["account"] is None
    r = client.post("/api/account/login", json={"name": "ann", "password": "correct horse"})  # any case
    assert r.status_code == 200 and r.json()["account"]["name"] == "Ann"
    assert client.get("/api/account").json()["account"]["name"] == "Ann"


def test_password_is_stored_as_argon2id(client: TestClient) -> None:
    from sqlalchemy import select

    from conquest.web.accounts import accounts_table
    register(client, "Bea", "a long secret")
    with client.app.state.store.engine.connect() as conn:  # type: ignore[attr-defined]
        stored = conn.execute(select(accounts_table.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "a long secret" not in stored


def test_bad_registrations_are_refused_and_change_nothing(client: TestClient) -> None:
    register(client, "Cid")
    other = second(client)
    r = other.post("/api/account/register", json={"name": "cid", "password": "another pass"})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    assert other.get("/api/account").json()["account"] is None
    for body, field in [({"name": "x", "password": "long enough"}, "name"),
                        ({"name": "has space", "password": "long enough"}, "name"),
                        ({"name": "Dan", "password": "short"}, "password"),
                        ({"name": "Dan", "password": "long enough", "email": "not-an-address"}, "email"),
                        ({"name": "Dan", "password": "long enough", "email": "a@b"}, "email")]:
        r = other.post("/api/account/register", json=body)
        assert r.status_code == 422 and r.json()["error"].startswith(field), (body, r.text)
    # none of them made an account: Dan is still free
    register(other, "Dan")


def test_login_answers_do_not_tell_which_names_exist(client: TestClient) -> None:
    register(client, "Eve")
    other = second(client)
    wrong = other.post("/api/account/login", json={"name": "Eve", "password": "not her password"})
    nobody = other.post("/api/account/login", json={"name": "Nobody", "password": "not her password"})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json() == {"error": "wrong name or password"}
    assert "set-cookie" not in wrong.headers and other.get("/api/account").json()["account"] is None


def test_login_attempts_are_limited_per_name_and_per_client(client: TestClient) -> None:
    now = [0.0]
    client.app.state.accounts.login_limit = LoginLimit(per_name=3, per_client=5, window=600,  # type: ignore
                                                       clock=lambda: now[0])
    register(client, "Fay", "right password")
    other = second(client)
    for _ in range(3):
        assert other.post("/api/account/login", json={"name": "Fay", "password": "guess 1234"}).status_code == 401
    # the name is now locked, even for the right password (and the answer is the same for a name that does not
    # exist and is tried as often)
    r = other.post("/api/account/login", json={"name": "Fay", "password": "right password"})
    assert r.status_code == 429 and "too many failed logins" in r.json()["error"]
    for _ in range(2):
        other.post("/api/account/login", json={"name": "Ghost", "password": "guess 1234"})
    # 5 failures from this client: every name is locked for it
    r = other.post("/api/account/login", json={"name": "Someone", "password": "whatever 12"})
    assert r.status_code == 429
    now[0] = 601.0  # the window has passed
    assert other.post("/api/account/login", json={"name": "Fay", "password": "right password"}).status_code == 200


def test_forged_and_ended_cookies(client: TestClient) -> None:
    csrf = register(client, "Gus")
    good = client.cookies.get(SESSION_COOKIE)
    assert good is not None
    sid, sig = good.split(".")
    forged = second(client)
    forged.cookies.set(SESSION_COOKIE, f"{sid}x.{sig}")
    r = forged.get("/api/account")
    assert r.status_code == 401 and "not one this server made" in r.json()["error"]
    forged.cookies.set(SESSION_COOKIE, "made-up.value")
    assert forged.post("/api/lobby", json={"ruleset": "toy"}, headers=csrf).status_code == 401
    # a session that was logged out is no session: reading says nobody, writing says log in
    stolen = second(client)
    stolen.cookies.set(SESSION_COOKIE, good)
    client.post("/api/account/logout", headers=csrf)
    assert stolen.get("/api/account").json()["account"] is None
    r = stolen.post("/api/lobby", json={"ruleset": "toy"}, headers=csrf)
    assert r.status_code == 401 and "log in" in r.json()["error"]


def test_csrf_token_is_required_on_cookie_writes(client: TestClient) -> None:
    csrf = register(client, "Hal")
    r = client.post("/api/lobby", json={"ruleset": "toy"})
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    r = client.post("/api/lobby", json={"ruleset": "toy"}, headers={CSRF_HEADER: "wrong-token"})
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    assert client.get("/api/lobby").json()["tables"] == []  # nothing was made
    assert client.post("/api/lobby", json={"ruleset": "toy"}, headers=csrf).status_code == 201


def test_games_are_listed_from_the_server_and_seat_links_claimed(client: TestClient) -> None:
    made = create(client)  # a game made without an account: its links work as before
    seat0 = made["seats"][0]
    gid = made["game"]["id"]
    assert client.get(f"/api/games/{gid}", headers=tok(seat0["token"])).status_code == 200
    csrf = register(client, "Ida")
    assert client.get("/api/account/games").json() == {"games": []}
    r = client.post("/api/account/claim", json={"game": gid, "token": seat0["token"]}, headers=csrf)
    assert r.status_code == 200 and r.json()["seat"] == 0
    # a spectator link holds no seat; a token of no seat of the game is refused
    r = client.post("/api/account/claim", json={"game": gid, "token": made["spectator"]["token"]}, headers=csrf)
    assert r.status_code == 422
    r = client.post("/api/account/claim", json={"game": gid, "token": "not-a-token"}, headers=csrf)
    assert r.status_code == 403
    # another device: a new login lists the game with its seat link
    phone = second(client)
    phone.post("/api/account/login", json={"name": "Ida", "password": "correct horse"})
    games = phone.get("/api/account/games").json()["games"]
    assert [(g["id"], g["seat"], g["link"]) for g in games] == [(gid, 0, seat0["link"])]
    # a seat claimed by one account cannot be claimed by another; the link itself still works for its holder
    other = second(client)
    csrf2 = register(other, "Jon")
    r = other.post("/api/account/claim", json={"game": gid, "token": seat0["token"]}, headers=csrf2)
    assert r.status_code == 409 and "another account" in r.json()["error"]
    assert other.get(f"/api/games/{gid}", headers=tok(seat0["token"])).status_code == 200
    assert other.get("/api/account/games").json()["games"] == []


def _table(client: TestClient, csrf: dict[str, str], **body: Any) -> dict[str, Any]:
    r = client.post("/api/lobby", json={"ruleset": "toy", "options": {"rounds": 1}, **body}, headers=csrf)
    assert r.status_code == 201, r.text
    return r.json()


def _play_out(client: TestClient, gid: str, links: dict[int, str], choose: dict[int, list[str]]) -> dict[str, Any]:
    """Play the toy game with each seat's link: each seat plays the actions of ``choose`` it can, then ends."""
    for _ in range(60):
        g = client.get(f"/api/games/{gid}", headers=tok(links[0])).json()["game"]
        if g["over"]:
            return g
        seat = g["to_move"]
        token = links[seat]
        legal = client.get(f"/api/games/{gid}/legal", headers=tok(token)).json()
        texts = [a["text"] if isinstance(a, dict) else a for a in legal.get("actions", [])]
        move = next((t for t in choose.get(seat, []) if t in texts), "end")
        r = client.post(f"/api/games/{gid}/actions", json={"action": move}, headers=tok(token))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_lobby_table_fills_starts_and_is_rated(client: TestClient) -> None:
    ann = client
    csrf_a = register(ann, "Ann")
    bob = second(client)
    csrf_b = register(bob, "Bob")
    spectator = second(client)  # nobody logged in
    t = _table(ann, csrf_a)
    assert t["status"] == "open" and t["open_seats"] == 1 and t["you"] == {"seat": 0, "creator": True}
    listed = spectator.get("/api/lobby").json()["tables"]
    assert [x["id"] for x in listed] == [t["id"]] and listed[0]["seats"][0]["player"] == "Ann"
    # joining twice, joining a seat that is not open, leaving a table one does not sit at: refused
    r = ann.post(f"/api/lobby/{t['id']}/join", json={}, headers=csrf_a)
    assert r.status_code == 409 and "already sit" in r.json()["error"]
    r = bob.post(f"/api/lobby/{t['id']}/join", json={"seat": 0}, headers=csrf_b)
    assert r.status_code == 409 and "not open" in r.json()["error"]
    r = bob.post(f"/api/lobby/{t['id']}/join", json={"seat": 7}, headers=csrf_b)
    assert r.status_code == 422
    r = bob.post(f"/api/lobby/{t['id']}/start", json={}, headers=csrf_b)
    assert r.status_code == 403 and "creator" in r.json()["error"]
    # Bob takes the last seat: the game starts
    r = bob.post(f"/api/lobby/{t['id']}/join", json={}, headers=csrf_b)
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["status"] == "started" and started["play"] and started["watch"]
    # a third player finds the table full
    cid = second(client)
    csrf_c = register(cid, "Cid")
    r = cid.post(f"/api/lobby/{t['id']}/join", json={}, headers=csrf_c)
    assert r.status_code == 409 and r.json()["error"] == "this table is full: its game has already started"
    assert cid.get("/api/account/games").json()["games"] == []
    # each player's game is listed from the server with the seat link; the spectator can watch
    ga = ann.get("/api/account/games").json()["games"]
    gb = bob.get("/api/account/games").json()["games"]
    assert len(ga) == len(gb) == 1 and ga[0]["id"] == gb[0]["id"] == started["game"]
    gid = started["game"]
    watch_token = started["watch"].split("#t=")[1]
    seen = spectator.get(f"/api/games/{gid}", headers=tok(watch_token)).json()
    assert seen["you"]["seat"] is None
    links = {ga[0]["seat"]: ga[0]["token"], gb[0]["seat"]: gb[0]["token"]}
    # acting out of turn is refused and changes nothing
    g = spectator.get(f"/api/games/{gid}", headers=tok(watch_token)).json()["game"]
    idle = 1 - g["to_move"]
    r = ann.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=tok(links[idle]))
    assert r.status_code in (403, 409) and r.json()["error"]
    assert spectator.get(f"/api/games/{gid}", headers=tok(watch_token)).json()["game"]["step"] == g["step"]
    # Ann (seat 0) places twice each turn, Bob only ends: Ann most often wins (the secret cards and the die may
    # make it a tie or Bob's win: the ratings must follow whichever result the game has)
    over = _play_out(ann, gid, links, {0: ["place north", "place east"]})
    page_a = spectator.get("/api/players/Ann").json()
    page_b = spectator.get("/api/players/bob").json()
    assert page_a["ratings"][0]["ruleset"] == "toy" and page_a["ratings"][0]["games"] == 1
    ra, rb = page_a["ratings"][0]["rating"], page_b["ratings"][0]["rating"]
    ha, hb = page_a["history"][0], page_b["history"][0]
    assert ha["game"] == hb["game"] == gid and ha["of"] == hb["of"] == 2
    assert ha["before"] == hb["before"] == 0.0  # a new player's rating
    key = [(over["result"][s], over["scores"][s]) for s in (0, 1)]
    if key[0] > key[1]:
        assert (ha["rank"], hb["rank"]) == (1, 2) and ra > rb
    elif key[0] < key[1]:
        assert (ha["rank"], hb["rank"]) == (2, 1) and ra < rb
    else:
        assert (ha["rank"], hb["rank"]) == (1, 1) and ra == rb
    # rated once: reading again changes nothing
    assert spectator.get("/api/players/Ann").json()["ratings"] == page_a["ratings"]
    assert client.app.state.lobby.ratings.settle(gid) is False  # type: ignore[attr-defined]
    # the finished game leaves the lobby
    assert spectator.get("/api/lobby").json()["tables"] == []
    assert spectator.get("/api/players/Nobody").status_code == 404


def test_creator_starts_with_computers_and_the_lobby_sorts_by_rating(client: TestClient) -> None:
    csrf = register(client, "Dee")
    t = _table(client, csrf, players=3, seats=["human", "human", "easy"], rated=False)
    assert [s["kind"] for s in t["seats"]] == ["human", "human", "easy"]
    r = client.post(f"/api/lobby/{t['id']}/start", json={"level": "strongest"}, headers=csrf)
    assert r.status_code == 422 and "level" in r.json()["error"]
    assert client.get(f"/api/lobby/{t['id']}").json()["status"] == "open"
    r = client.post(f"/api/lobby/{t['id']}/start", json={"level": "easy"}, headers=csrf)
    assert r.status_code == 200 and r.json()["status"] == "started"
    gid = r.json()["game"]
    seats = client.get(f"/api/games/{gid}", headers=tok(r.json()["play"].split("#t=")[1])).json()["game"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "easy", "easy"] and seats[0]["name"] == "Dee"
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "easy", "easy"]  # the lobby shows the computers
    # sorting: a table whose player is rated higher comes first with sort=rating
    from sqlalchemy import insert

    from conquest.web.ratings import ratings_table
    hi = second(client)
    csrf_hi = register(hi, "Top")
    acc = client.app.state.accounts.by_name("Top")  # type: ignore[attr-defined]
    import datetime as dt
    with client.app.state.store.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(insert(ratings_table).values(account_id=acc.id, ruleset="toy", mu=40.0, sigma=2.0, games=9,
                                                  updated_at=dt.datetime.now(dt.UTC)))
    low = _table(client, csrf)
    high = _table(hi, csrf_hi)
    new = [x["id"] for x in client.get("/api/lobby").json()["tables"] if x["status"] == "open"]
    by_rating = [x["id"] for x in client.get("/api/lobby?sort=rating").json()["tables"] if x["status"] == "open"]
    assert new == [high["id"], low["id"]] or new == [low["id"], high["id"]]
    assert by_rating[0] == high["id"]
    assert client.get("/api/lobby?sort=whatever").status_code == 422
    # the creator leaving cancels the table
    r = client.post(f"/api/lobby/{low['id']}/leave", json={}, headers=csrf)
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert low["id"] not in [x["id"] for x in client.get("/api/lobby").json()["tables"]]


def test_bad_tables_are_refused(client: TestClient) -> None:
    csrf = register(client, "Eli")
    for body, words in [({"ruleset": "nope"}, "unknown ruleset"),
                        ({"ruleset": "toy", "players": 9}, "players"),
                        ({"ruleset": "toy", "seats": ["human", "greedy"]}, "computer level"),
                        ({"ruleset": "toy", "seats": ["easy", "easy"]}, "at least one person"),
                        ({"ruleset": "toy", "options": {"rounds": 99}}, "rounds")]:
        r = client.post("/api/lobby", json=body, headers=csrf)
        assert r.status_code == 422 and words in r.json()["error"], (body, r.text)
    assert client.get("/api/lobby").json()["tables"] == []
    assert client.post("/api/lobby", json={"ruleset": "toy"}).status_code == 403  # no CSRF token
    anon = second(client)
    r = anon.post("/api/lobby", json={"ruleset": "toy"})
    assert r.status_code == 401
    assert anon.get("/api/lobby/nosuchtable").status_code == 404


def test_login_and_registration_refuse_other_sites_forms(client: TestClient) -> None:
    register(client, "Kim")
    other = second(client)
    body = '{"name": "Kim", "password": "correct horse"}'
    r = other.post("/api/account/login", content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and "JSON" in r.json()["error"]
    r = other.post("/api/account/login", content=body,
                   headers={"Content-Type": "application/json", "Origin": "https://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = other.post("/api/account/register", content='{"name": "Lee", "password": "correct horse"}',
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    assert other.get("/api/account").json()["account"] is None
    assert other.app.state.accounts.by_name("Lee") is None  # type: ignore[attr-defined]
    # behind a proxy that rewrites Host, the forwarded host is the page's
    r = other.post("/api/account/login", content=body, headers={
        "Content-Type": "application/json", "Origin": "https://games.example", "Host": "127.0.0.1:8000",
        "X-Forwarded-Host": "games.example"})
    assert r.status_code == 200
    # the page's own origin is accepted
    r = other.post("/api/account/login", content=body,
                   headers={"Content-Type": "application/json", "Origin": "http://testserver"})
    assert r.status_code == 200


def test_secure_cookie_over_https(make_client: Any) -> None:
    c = make_client()
    https = TestClient(c.app, base_url="https://testserver", raise_server_exceptions=False)
    r = https.post("/api/account/register", json={"name": "Max", "password": "correct horse"})
    assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]


def test_two_players_racing_for_the_last_seat(client: TestClient) -> None:
    import threading
    csrf = register(client, "Ned")
    t = _table(client, csrf)
    racers = []
    for name in ("Oli", "Pam"):
        c = second(client)
        racers.append((c, register(c, name)))
    answers: list[int] = []
    go = threading.Barrier(2)

    def join(c: TestClient, h: dict[str, str]) -> None:
        go.wait()
        answers.append(c.post(f"/api/lobby/{t['id']}/join", json={}, headers=h).status_code)

    threads = [threading.Thread(target=join, args=r) for r in racers]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(answers) == [200, 409]
    table = client.get(f"/api/lobby/{t['id']}").json()
    assert table["status"] == "started" and table["open_seats"] == 0
    # one game, and only the winner of the race sits in it
    held = [len(c.get("/api/account/games").json()["games"]) for c, _h in racers]
    assert sorted(held) == [0, 1]
    assert client.get("/api/account/games").json()["games"][0]["id"] == table["game"]


def _race_join_and_start(client: TestClient, csrf: dict[str, str], tag: str) -> None:
    import threading
    t = _table(client, csrf, players=3, seats=["human", "human", "human"])
    racers = []
    for i in range(2):
        c = second(client)
        racers.append((c, register(c, f"{tag}x{i}"), f"{tag}x{i}"))
    go = threading.Barrier(3)
    answers: dict[str, int] = {}

    def join(c: TestClient, h: dict[str, str], who: str) -> None:
        go.wait()
        answers[who] = c.post(f"/api/lobby/{t['id']}/join", json={}, headers=h).status_code

    def start() -> None:
        go.wait()
        answers["start"] = client.post(f"/api/lobby/{t['id']}/start", json={"level": "easy"},
                                       headers=csrf).status_code

    threads = [threading.Thread(target=join, args=r) for r in racers]
    threads.append(threading.Thread(target=start))
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    table = client.get(f"/api/lobby/{t['id']}").json()
    assert table["status"] == "started", answers
    seated = {s["player"] for s in table["seats"] if s["taken"] and s["kind"] == "human"}
    for who, code in answers.items():
        if who != "start":
            assert code in (200, 409), answers
            assert (code == 200) == (who in seated), (answers, seated)
    play = table["play"].split("#t=")[1]
    game = client.get(f"/api/games/{table['game']}", headers=tok(play)).json()["game"]
    people = {s["name"] for s in game["seats"] if s["kind"] == "human"}
    assert people == seated | {"Quin"}, (people, seated)


def test_joins_racing_with_the_creators_start_lose_no_seat(client: TestClient) -> None:
    """Two players join a 3-seat table while its creator starts it with computers: every join that was
    answered 200 has its seat in the game (as a person, not a computer), and the others got 409."""
    from conquest.web.accounts import SlidingWindow
    client.app.state.accounts.registrations = SlidingWindow(1000, 3600)  # type: ignore[attr-defined]
    csrf = register(client, "Quin")
    for n in range(8):
        _race_join_and_start(client, csrf, f"R{n}")


def test_registrations_are_limited_per_client(client: TestClient) -> None:
    from conquest.web.accounts import SlidingWindow
    client.app.state.accounts.registrations = SlidingWindow(2, 3600)  # type: ignore[attr-defined]
    register(second(client), "Una")
    register(second(client), "Vic")
    r = second(client).post("/api/account/register", json={"name": "Wes", "password": "correct horse"})
    assert r.status_code == 429 and "too many new accounts" in r.json()["error"]
    assert client.app.state.accounts.by_name("Wes") is None  # type: ignore[attr-defined]
