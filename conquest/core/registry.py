"""Rulesets by id. Every package under ``conquest.rulesets`` that exposes ``RULESET`` is found by itself,
so adding a game is adding a package. An installed distribution adds a game without editing this repository
through the ``conquest.rulesets`` entry point group (a plugin): the entry point's name is the ruleset id, its
value a module (or package) exposing ``RULESET``, or the ``Ruleset`` instance itself::

    [project.entry-points."conquest.rulesets"]
    islands = "conquest_islands"
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from conquest.core.errors import UnknownRuleset
from conquest.core.game import Ruleset

PLUGIN_GROUP = "conquest.rulesets"
"""The entry point group of installed ruleset plugins."""

_cache: dict[str, Ruleset] | None = None
broken: dict[str, str] = {}
"""Ruleset packages and plugins that failed to load: package (or entry point) name -> the error (one broken
game must not stop the others; the test suite checks this stays empty)."""
origins: dict[str, str] = {}
"""Where each ruleset came from: ``conquest.rulesets.<id>`` for a package of this repository, ``plugin NAME =
VALUE`` for an installed plugin."""


def plugin_entry_points() -> list[EntryPoint]:
    """The installed ``conquest.rulesets`` entry points (tests replace this to register a plugin)."""
    return sorted(entry_points(group=PLUGIN_GROUP), key=lambda ep: ep.name)


def _ruleset_of(loaded: Any) -> Ruleset | None:
    if isinstance(loaded, Ruleset):
        return loaded
    rs = getattr(loaded, "RULESET", None)
    return rs if isinstance(rs, Ruleset) else None


def _load_plugins(found: dict[str, Ruleset]) -> None:
    try:
        eps = plugin_entry_points()
    except Exception as e:  # noqa: BLE001 - broken installed metadata must not stop the built-in games
        broken[PLUGIN_GROUP] = f"{type(e).__name__}: {e}"
        return
    for ep in eps:
        where = f"plugin {ep.name} = {ep.value}"
        try:
            loaded = ep.load()
        except Exception as e:  # noqa: BLE001 - reported like a broken package
            broken[ep.name] = f"{where}: {type(e).__name__}: {e}"
            continue
        rs = _ruleset_of(loaded)
        if rs is None:
            broken[ep.name] = f"{where}: exposes no RULESET (an instance of conquest.core.game.Ruleset)"
        elif rs.id != ep.name:
            broken[ep.name] = f"{where}: its ruleset's id is '{rs.id}', not the entry point's name '{ep.name}'"
        elif rs.id in found:
            broken[ep.name] = f"{where}: the id '{rs.id}' is taken by {origins[rs.id]}"
        else:
            found[rs.id] = rs
            origins[rs.id] = where


def rulesets() -> dict[str, Ruleset]:
    global _cache
    if _cache is None:
        import conquest.rulesets as pkg
        found: dict[str, Ruleset] = {}
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if not info.ispkg:
                continue
            try:
                module = importlib.import_module(f"conquest.rulesets.{info.name}")
            except Exception as e:  # noqa: BLE001 - reported by get_ruleset and the tests
                broken[info.name] = f"{type(e).__name__}: {e}"
                continue
            rs = getattr(module, "RULESET", None)
            if isinstance(rs, Ruleset):
                found[rs.id] = rs
                origins[rs.id] = f"conquest.rulesets.{info.name}"
        _load_plugins(found)
        _cache = dict(sorted(found.items()))
    return _cache


def clear() -> None:
    """Forget what was found (the next ``rulesets()`` looks again): for tests that add a game."""
    global _cache
    _cache = None
    broken.clear()
    origins.clear()


def package_dir(rs: Ruleset) -> Path:
    """The folder of a ruleset's package (its data, scenarios and pages: ``rules.md``, ``howto.md``)."""
    module = sys.modules[type(rs).__module__]
    return Path(module.__file__ or ".").resolve().parent


def get_ruleset(ruleset_id: str) -> Ruleset:
    all_ = rulesets()
    if ruleset_id not in all_:
        if ruleset_id in broken:
            raise UnknownRuleset(f"ruleset '{ruleset_id}' failed to load: {broken[ruleset_id]}")
        raise UnknownRuleset(f"unknown ruleset '{ruleset_id}' (known: {', '.join(sorted(all_))})")
    return all_[ruleset_id]


def default_ruleset_id() -> str:
    """The game a command plays when none is named (``conquest start``, ``conquest policy convert``, the web
    benchmark): the first registered ruleset, ids in alphabetical order (the registry's order). No layer
    names a game of its own."""
    all_ = rulesets()
    if not all_:
        raise UnknownRuleset("no ruleset is registered")
    return next(iter(all_))
