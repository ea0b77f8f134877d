"""Set-up shared by the whole suite."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="module")
def _earlier_modules_frozen() -> Iterator[None]:
    """Each test module starts with what the earlier ones left (imported tables, caches, fixtures) moved out of the
    garbage collector's scans, as the web server does at its start. Otherwise the suite's process grows past a
    million tracked objects, and each full collection stops every thread for 1-5 s (165 s of a whole run,
    measured with gc callbacks), in the middle of whatever test triggers it, time limits included."""
    gc.collect()
    gc.freeze()
    yield
