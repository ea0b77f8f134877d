from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conquest.web.server import available_rulesets as registry, create_app
from tests.web.toy import PLAIN, TOY


def with_toys() -> dict[str, Any]:
    return {**registry(), "toy": TOY, "plaintoy": PLAIN}


PG = os.environ.get("CONQUEST_TEST_PG")  # e.g. postgresql://postgres@127.0.0.1:5432/conquest_test


@pytest.fixture(params=["sqlite"] + (["postgresql"] if PG else []))
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite in a fresh file; also PostgreSQL (emptied first) when CONQUEST_TEST_PG names a database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    from conquest.web.storage import Store, metadata
    store = Store(PG)
    metadata.drop_all(store.engine)
    store.close()
    return str(PG)


@pytest.fixture
def make_client(db: str) -> Iterator[Callable[..., TestClient]]:
    made: list[TestClient] = []

    def make(**kwargs: Any) -> TestClient:
        kwargs.setdefault("rulesets", with_toys)
        c = TestClient(create_app(kwargs.pop("db", db), **kwargs), raise_server_exceptions=False)
        c.__enter__()
        made.append(c)
        return c

    yield make
    for c in made:
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


def tok(token: str | None) -> dict[str, str]:
    return {"X-Conquest-Token": token} if token else {}


def create(client: TestClient, ruleset: str = "toy", seats: list[dict[str, Any]] | None = None,
           **extra: Any) -> dict[str, Any]:
    body = {"ruleset": ruleset, "seats": seats or [{"kind": "human"}, {"kind": "human"}], **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def wait_for(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.02)
