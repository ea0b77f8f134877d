"""Rulesets by id. Every package under ``conquest.rulesets`` that exposes ``RULESET`` is found by itself,
so adding a game is adding a package."""

from __future__ import annotations

import importlib
import pkgutil

from conquest.core.errors import UnknownRuleset
from conquest.core.game import Ruleset

_cache: dict[str, Ruleset] | None = None
broken: dict[str, str] = {}
"""Ruleset packages that failed to import: package name -> the error (one broken game must not stop the
others; the test suite checks this stays empty)."""


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
        _cache = found
    return _cache


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
