"""The app for the tests that run several server processes (``uvicorn --factory tests.web.bus_app:app``): the
registry's rulesets and the test toys, on the database ``CONQUEST_DB``."""

from __future__ import annotations

import os

from fastapi import FastAPI

from conquest.web.limits import Limits
from conquest.web.server import create_app
from tests.web.conftest import with_toys


def app() -> FastAPI:
    return create_app(os.environ["CONQUEST_DB"], rulesets=with_toys, limits=Limits(games_per_client=0))
