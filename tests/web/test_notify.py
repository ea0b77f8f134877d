"""Turn notifications by e-mail (conquest.web.notify), through a local SMTP server on loopback (aiosmtpd). Issue
32: "When it becomes a player's turn they are told: by e-mail through a configured SMTP server (tests run a
local SMTP server on loopback, e.g. aiosmtpd)"."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conquest.web.notify import SmtpSettings, email_problem, turn_mail
from conquest.web.server import create_app
from tests.web.conftest import create, tok, wait_for, with_toys
from tests.web.liveserver import free_port
from tests.web.mailbox import Inbox, smtp_inbox

aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

PUBLIC = "https://conquest.example.org/play"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_inbox() as box:
        yield box, box.port


@pytest.fixture
def mailing(make_client: Callable[..., TestClient], inbox: tuple[Inbox, int]) -> TestClient:
    smtp = SmtpSettings(host="127.0.0.1", port=inbox[1], sender="conquest@example.org", starttls=False)
    return make_client(smtp=smtp, public_url=PUBLIC, deadline_check_seconds=3600)


def set_email(client: TestClient, gid: str, token: str, address: str | None) -> Any:
    return client.put(f"/api/games/{gid}/notify", json={"email": address}, headers=tok(token))


def play(client: TestClient, gid: str, token: str, *actions: str) -> None:
    for a in actions:
        r = client.post(f"/api/games/{gid}/actions", json={"action": a}, headers=tok(token))
        assert r.status_code == 200, r.text


def body(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


def test_each_turn_of_a_turn_based_game_is_mailed_with_the_seats_link(mailing: TestClient,
                                                                      inbox: tuple[Inbox, int]) -> None:
    box = inbox[0]
    made = create(mailing, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}],
                  pace={"mode": "turn", "deadline_seconds": 86400, "level": "easy"})
    gid, t0, t1 = made["game"]["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    assert set_email(mailing, gid, t0, "ann@example.org").json() == {"seat": 0, "email": "ann@example.org",
                                                                     "mail": True}
    assert set_email(mailing, gid, t1, "bo@example.net").status_code == 200
    play(mailing, gid, t0, "place north", "end")  # Bo's turn begins
    wait_for(lambda: len(box.to("bo@example.net")) == 1)
    msg = box.to("bo@example.net")[0]
    assert msg["From"] == "conquest@example.org" and msg["To"] == "bo@example.net"
    assert msg["Subject"] == f"Your turn in Toy (a test game) ({gid})"
    text = body(msg)
    assert f"Play: {PUBLIC}/game/{gid}#t={t1}\n" in text  # Bo's own seat link, at the public address
    assert t0 not in text
    assert "Bo, it is your turn" in text and "Move by " in text
    play(mailing, gid, t1, "place south")  # a second action of the same turn: no new mail
    play(mailing, gid, t1, "end")  # Ann's turn
    wait_for(lambda: len(box.to("ann@example.org")) == 1)
    assert f"{PUBLIC}/game/{gid}#t={t0}" in body(box.to("ann@example.org")[0])
    assert len(box.to("bo@example.net")) == 1
    mailer = mailing.app.state.pace.mailer  # type: ignore[attr-defined]
    wait_for(lambda: mailer.sent == 2)  # counted once the server has answered the end of the mail


def test_a_seat_without_an_address_and_a_live_game_get_no_mail(mailing: TestClient, inbox: tuple[Inbox, int]) -> None:
    box = inbox[0]
    made = create(mailing, pace={"mode": "turn", "level": "easy"})
    gid, t0 = made["game"]["id"], made["seats"][0]["token"]
    play(mailing, gid, t0, "end")  # seat 1 set no address
    liv = create(mailing)
    lgid, l0, l1 = liv["game"]["id"], liv["seats"][0]["token"], liv["seats"][1]["token"]
    assert set_email(mailing, lgid, l1, "live@example.org").status_code == 200
    play(mailing, lgid, l0, "end")  # a live game is played with its page open: the browser tells, not a mail
    # a mail that would come comes at once (one thread, loopback): a turn-based game's mail after them proves it
    assert set_email(mailing, gid, t0, "later@example.org").status_code == 200
    play(mailing, gid, made["seats"][1]["token"], "end")
    wait_for(lambda: len(box.to("later@example.org")) == 1)
    assert [m for _r, m in box.mails if m["To"] != "later@example.org"] == []


def test_the_address_can_be_changed_and_removed(mailing: TestClient, inbox: tuple[Inbox, int]) -> None:
    made = create(mailing, pace={"mode": "turn", "level": "easy"})
    gid, t0, t1 = made["game"]["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    assert set_email(mailing, gid, t1, "one@example.org").status_code == 200
    assert set_email(mailing, gid, t1, " two@example.org ").json()["email"] == "two@example.org"
    assert mailing.get(f"/api/games/{gid}/notify", headers=tok(t1)).json()["email"] == "two@example.org"
    assert mailing.get(f"/api/games/{gid}/notify", headers=tok(t0)).json()["email"] is None  # only one's own
    assert set_email(mailing, gid, t1, None).json()["email"] is None
    assert mailing.get(f"/api/games/{gid}/notify", headers=tok(t1)).json()["email"] is None


@pytest.mark.parametrize(("payload", "headers", "status", "reason"), [
    ({"email": "not an address"}, "seat", 422, "is not an e-mail address"),
    ({"email": "a@b@c.org"}, "seat", 422, "is not an e-mail address"),
    ({"email": "x" * 250 + "@example.org"}, "seat", 422, "email"),
    ({"email": 7}, "seat", 422, "email"),
    ({"mail": "a@example.org"}, "seat", 422, "mail"),
    ({"email": "a@example.org"}, "spectator", 403, "a spectator has no turn"),
    ({"email": "a@example.org"}, "other", 403, "does not belong to this game"),
    ({"email": "a@example.org"}, None, 401, "token is required"),
])
def test_bad_notify_requests_are_refused_and_change_nothing(mailing: TestClient, payload: dict[str, Any],
                                                            headers: str | None, status: int, reason: str) -> None:
    made = create(mailing, pace={"mode": "turn", "level": "easy"})
    other = create(mailing)
    gid, t1 = made["game"]["id"], made["seats"][1]["token"]
    assert set_email(mailing, gid, t1, "kept@example.org").status_code == 200
    token = {"seat": t1, "spectator": made["spectator"]["token"], "other": other["seats"][1]["token"],
             None: None}[headers]
    r = mailing.put(f"/api/games/{gid}/notify", json=payload, headers=tok(token))
    assert r.status_code == status, r.text
    assert reason in r.json()["error"]
    assert mailing.get(f"/api/games/{gid}/notify", headers=tok(t1)).json()["email"] == "kept@example.org"


def test_an_smtp_server_that_is_down_delays_no_move(make_client: Callable[..., TestClient]) -> None:
    smtp = SmtpSettings(host="127.0.0.1", port=free_port(), sender="conquest@example.org", starttls=False,
                        timeout=2.0)
    c = make_client(smtp=smtp, public_url=PUBLIC, deadline_check_seconds=3600)
    made = create(c, pace={"mode": "turn", "level": "easy"})
    gid, t0, t1 = made["game"]["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    assert set_email(c, gid, t1, "bo@example.org").status_code == 200
    play(c, gid, t0, "end")
    mailer = c.app.state.pace.mailer  # type: ignore[attr-defined]
    wait_for(lambda: mailer.failed == 1)
    assert mailer.sent == 0
    play(c, gid, t1, "end")  # the game goes on


def test_without_smtp_the_server_says_it_sends_no_mail(client: TestClient) -> None:
    made = create(client, pace={"mode": "turn", "level": "easy"})
    gid, t1 = made["game"]["id"], made["seats"][1]["token"]
    assert set_email(client, gid, t1, "bo@example.org").json()["mail"] is False


def test_smtp_settings_are_checked(db: str) -> None:
    with pytest.raises(ValueError, match="public address"):
        create_app(db, rulesets=with_toys, smtp=SmtpSettings(host="127.0.0.1", port=2525, starttls=False))
    with pytest.raises(ValueError, match="public URL"):
        create_app(db, rulesets=with_toys, public_url="conquest.example.org")
    with pytest.raises(ValueError, match="needs STARTTLS"):
        create_app(db, rulesets=with_toys, public_url=PUBLIC,
                   smtp=SmtpSettings(host="mail.example.org", starttls=False, user="u", password="p"))
    env = {"CONQUEST_SMTP_HOST": "mail.example.org", "CONQUEST_SMTP_PORT": "465x"}
    with pytest.raises(ValueError, match="CONQUEST_SMTP_PORT"):
        SmtpSettings.from_env(env)
    s = SmtpSettings.from_env({"CONQUEST_SMTP_HOST": "mail.example.org", "CONQUEST_SMTP_FROM": "game@example.org",
                               "CONQUEST_SMTP_USER": "u", "CONQUEST_SMTP_PASSWORD": "secret"})
    assert s is not None and (s.port, s.starttls, s.user) == (587, True, "u")
    assert "password" not in s.public()
    assert SmtpSettings.from_env({}) is None


def test_addresses() -> None:
    assert email_problem("ann@example.org") is None
    assert email_problem("ann@localhost") is None
    for bad in ("ann", "@example.org", "ann@", "ann @example.org", "ann@exa mple.org", "a<b>@example.org",
                "ann@example.org\nBcc: x@example.org"):
        assert email_problem(bad) is not None, bad


def test_the_mail_names_the_deadline() -> None:
    when = dt.datetime(2026, 11, 28, 12, 0).strftime("%Y-%m-%d %H:%M UTC")
    subject, text = turn_mail("Small World", "abc", "Ann", "https://x.org/game/abc#t=T", when)
    assert subject == "Your turn in Small World (abc)"
    assert "Move by 2026-11-28 12:00 UTC." in text and "Play: https://x.org/game/abc#t=T" in text


@pytest.mark.parametrize(("args", "env", "words"), [
    (["--smtp-host", "mail.example.org"], {}, "need the server's public address"),
    (["--smtp-host", "mail.example.org", "--no-smtp-starttls", "--smtp-user", "bob", "--public-url", PUBLIC],
     {"CONQUEST_SMTP_PASSWORD": "secret"}, "an SMTP login needs STARTTLS"),
    ([], {"CONQUEST_SMTP_HOST": "mail.example.org", "CONQUEST_SMTP_PORT": "abc"}, "CONQUEST_SMTP_PORT must be"),
    (["--public-url", "conquest.example.org"], {}, "the public URL must be"),
])
def test_serve_refuses_bad_mail_settings_before_serving(args: list[str], env: dict[str, str], words: str) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("CONQUEST_SMTP_", "CONQUEST_PUBLIC_URL"))}
    r = subprocess.run([sys.executable, "-m", "conquest.cli", "serve", "--port", str(free_port()), *args],
                       env={**clean, **env, "PYTHONPATH": str(root)}, cwd=root, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr
    assert "served at" not in r.stdout and "secret" not in r.stderr


def test_a_lobby_tables_turns_are_mailed_to_the_players_accounts(mailing: TestClient,
                                                                 inbox: tuple[Inbox, int]) -> None:
    """Issue 32: "email_of(game, seat)" answers with the e-mail of the account that holds the seat; a lobby table
    is set up turn-based, says so in the lobby, and its game is played at that pace."""
    from tests.web.test_accounts import register, second
    box = inbox[0]
    ann, bob = mailing, second(mailing)
    csrf_a = register(ann, "Ann", email="ann@example.org")
    csrf_b = register(bob, "Bob", email="bob@example.net")
    pace = {"mode": "turn", "deadline_seconds": 7200, "at_deadline": "computer", "level": "easy"}
    r = ann.post("/api/lobby", json={"ruleset": "toy", "options": {"rounds": 2}, "pace": pace}, headers=csrf_a)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    listed = second(mailing).get("/api/lobby").json()["tables"]
    assert listed[0]["pace"] == {"mode": "turn", "deadline_seconds": 7200, "at_deadline": "computer",
                                 "level": "easy"}
    assert box.mails == []  # no game yet
    r = bob.post(f"/api/lobby/{tid}/join", json={}, headers=csrf_b)
    assert r.status_code == 200 and r.json()["status"] == "started", r.text
    gid = r.json()["game"]
    links = {g["seat"]: g["link"] for g in ann.get("/api/account/games").json()["games"]}
    links |= {g["seat"]: g["link"] for g in bob.get("/api/account/games").json()["games"]}
    game = ann.get(f"/api/games/{gid}", headers=tok(links[0].split("#t=")[1])).json()["game"]
    assert game["pace"]["mode"] == "turn" and game["pace"]["deadline_seconds"] == 7200
    wait_for(lambda: len(box.to("ann@example.org")) == 1)  # Ann's first turn, at her account's address
    assert f"{PUBLIC}{links[0]}" in body(box.to("ann@example.org")[0])
    play(mailing, gid, links[0].split("#t=")[1], "end")  # Bob's turn begins: his account is told
    wait_for(lambda: len(box.to("bob@example.net")) == 1)
    assert f"{PUBLIC}{links[1]}" in body(box.to("bob@example.net")[0])
    # a seat's own address (set with its token) is used when its account gave none
    r = bob.post("/api/account/email", json={"email": None}, headers=csrf_b)
    assert r.status_code == 200, r.text
    assert set_email(mailing, gid, links[1].split("#t=")[1], "bob-seat@example.net").status_code == 200
    play(mailing, gid, links[1].split("#t=")[1], "end")
    play(mailing, gid, links[0].split("#t=")[1], "end")
    wait_for(lambda: len(box.to("bob-seat@example.net")) == 1)
    assert len(box.to("bob@example.net")) == 1


def test_a_lobby_table_with_a_bad_pace_is_refused(mailing: TestClient) -> None:
    from tests.web.test_accounts import register
    csrf = register(mailing, "Ann")
    for pace, words in [({"mode": "turn", "deadline_seconds": 10}, "greater than or equal"),
                        ({"mode": "turn", "level": "grandmaster"}, "pace.level"),
                        ({"mode": "live", "deadline_seconds": 3600}, "a live game has no deadline")]:
        r = mailing.post("/api/lobby", json={"ruleset": "toy", "pace": pace}, headers=csrf)
        assert r.status_code == 422 and words in r.json()["error"], (pace, r.text)
    assert mailing.get("/api/lobby").json()["tables"] == []
