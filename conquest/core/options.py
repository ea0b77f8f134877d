"""Ruleset options: declared up front with defaults, choices and help, validated in one place."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from conquest.core.errors import OptionError


def _short(v: Any) -> str:
    text = str(v)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} digits)"


NO_LEGACY: Any = object()
"""``Option.legacy`` when the option changes nothing for games saved before it existed."""


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str
    choices: Sequence[Any] | None = None
    type: type = str
    minimum: int | None = None
    maximum: int | None = None
    legacy: Any = NO_LEGACY
    """The value a game saved before this option existed was played with (a record or a saved state that does
    not name the option), when that is not ``default``: a new option whose default changes the rules keeps the
    finished games as they were played."""
    check: Callable[[Any], Any] | None = field(default=None, compare=False)
    """An option whose values are documents (a game's variant, ``core.variants``): the whole check of a given
    value, returning the value stored (raising ``OptionError`` in one line); ``type`` is then the stored type."""

    def coerce(self, value: Any) -> Any:
        """Turn a value (possibly a command-line string) into this option's type, or raise OptionError."""
        if self.check is not None:
            return self.check(value)
        v = value
        if self.type is bool:
            if isinstance(v, str):
                low = v.strip().lower()
                if low in ("1", "true", "yes", "on"):
                    v = True
                elif low in ("0", "false", "no", "off"):
                    v = False
                else:
                    raise OptionError(f"option {self.name}: expected true or false, got '{value}'")
            elif not isinstance(v, bool):
                raise OptionError(f"option {self.name}: expected true or false, got {value!r}")
        elif self.type is int:
            if isinstance(v, bool) or isinstance(v, float) and not (math.isfinite(v) and v.is_integer()):
                raise OptionError(f"option {self.name}: expected an integer, got {value!r}")
            try:
                v = int(v)
            except (TypeError, ValueError, OverflowError):  # also text of thousands of digits
                raise OptionError(f"option {self.name}: expected an integer, got '{str(value)[:40]}'") from None
            if self.minimum is not None and v < self.minimum:
                raise OptionError(f"option {self.name}: must be at least {self.minimum}, got {_short(v)}")
            if self.maximum is not None and v > self.maximum:
                raise OptionError(f"option {self.name}: must be at most {self.maximum}, got {_short(v)}")
        else:
            if not isinstance(v, (str, int, float)):
                raise OptionError(f"option {self.name}: expected text, got {value!r}")
            v = str(v)
        if self.choices is not None and v not in self.choices:
            raise OptionError(
                f"option {self.name}: '{value}' is not one of {', '.join(str(c) for c in self.choices)}"
            )
        return v

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "default": self.default, "help": self.help,
                             "type": self.type.__name__}
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.minimum is not None:
            d["minimum"] = self.minimum
        if self.maximum is not None:
            d["maximum"] = self.maximum
        if self.check is not None:
            d["document"] = True  # a document (a variant): the lobby offers a text area and a file
        return d


@dataclass(frozen=True)
class OptionsSpec:
    options: tuple[Option, ...] = field(default_factory=tuple)

    def resolve(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``given``; unknown names and bad values raise OptionError."""
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                names = ", ".join(known) or "none"
                raise OptionError(f"unknown option '{name}' (known options: {names})")
        return {o.name: o.coerce(given[o.name]) if o.name in given else o.default for o in self.options}

    def saved(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The options of a saved game (a record, a stored game, a state document): ``given`` plus, for each
        option it does not name, the ``legacy`` value the game was played with before that option existed.
        Options the game names are kept as they are (records store every option's resolved value, so a later
        change of a default changes no saved game)."""
        out = dict(given or {})
        for o in self.options:
            if o.name not in out and o.legacy is not NO_LEGACY:
                out[o.name] = o.legacy
        return out

    def describe(self) -> list[dict[str, Any]]:
        return [o.describe() for o in self.options]


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["board=a", "rounds=4"]`` -> dict; a pair without '=' raises OptionError."""
    out: dict[str, str] = {}
    for p in pairs:
        if "=" not in p:
            raise OptionError(f"option '{p}' must be written key=value")
        k, v = p.split("=", 1)
        k = k.strip()
        if not k:
            raise OptionError(f"option '{p}' has no name")
        out[k] = v.strip()
    return out
