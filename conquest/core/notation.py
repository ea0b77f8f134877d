"""A small toolkit for word-based action notations: ``word ARG ARG ...``, lower case, single spaces.

A ruleset declares each action word with its argument shapes; ``parse`` and ``format`` then round-trip by
construction (an action is the tuple ``(word, *args)``)::

    NOTATION = WordNotation("kingdom", {
        "recruit": ["int"], "move": ["id"], "from": ["id", "int"], "go": [],
    })
    NOTATION.parse("from  Westwood 2") == ("from", "westwood", 2)

A word may have several alternative shapes (a list of lists); an argument kind is ``int`` (a non-negative
number), ``id`` (a lower-case identifier), ``=literal`` (that exact token, kept in the tuple) or a name given
in ``kinds`` with its own checker (a function from text to value that raises ``ValueError``).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence

from conquest.core.errors import NotationError

_ID = re.compile(r"^[a-z][a-z0-9_\-]*(\.[0-9]+)?$")


def _int(arg: str) -> int:
    if not arg.isdigit() or len(arg) > 9:
        raise ValueError(f"'{arg}' is not a number")
    return int(arg)


def _id(arg: str) -> str:
    if not _ID.match(arg):
        raise ValueError(f"'{arg}' is not an id")
    return arg


class WordNotation:
    def __init__(self, game: str, words: Mapping[str, Sequence[Any]],
                 kinds: Mapping[str, Callable[[str], Any]] | None = None) -> None:
        self.game = game
        self.forms: dict[str, list[tuple[str, ...]]] = {}
        for word, shape in words.items():
            if shape and all(isinstance(s, (list, tuple)) for s in shape):
                self.forms[word] = [tuple(s) for s in shape]
            else:
                self.forms[word] = [tuple(shape)]
        self.kinds: dict[str, Callable[[str], Any]] = {"int": _int, "id": _id, **(kinds or {})}

    def usage(self, word: str) -> str:
        return " or ".join("'" + " ".join([word] + [k[1:] if k.startswith("=") else k.upper() for k in form])
                           + "'" for form in self.forms[word])

    def parse(self, text: str) -> tuple:
        if not isinstance(text, str):
            raise NotationError(f"an action must be text, got {type(text).__name__}")
        parts = text.strip().lower().split()
        if not parts:
            raise NotationError("empty action")
        word, args = parts[0], parts[1:]
        if word not in self.forms:
            raise NotationError(f"unknown action '{parts[0]}' (expected one of: {', '.join(self.forms)})")
        problem = f"expected {self.usage(word)}"
        for form in self.forms[word]:
            if len(form) != len(args):
                continue
            out: list[Any] = [word]
            try:
                for kind, arg in zip(form, args):
                    if kind.startswith("="):
                        if arg != kind[1:]:
                            raise ValueError(f"expected '{kind[1:]}', got '{arg}'")
                        out.append(arg)
                    else:
                        out.append(self.kinds[kind](arg))
            except ValueError as e:
                problem = str(e)
                continue
            return tuple(out)
        raise NotationError(f"'{' '.join(parts)}': {problem}")

    def format(self, action: Any) -> str:
        if not isinstance(action, tuple) or not action or action[0] not in self.forms:
            raise NotationError(f"not a {self.game} action: {action!r}")
        return " ".join(str(x) for x in action)
