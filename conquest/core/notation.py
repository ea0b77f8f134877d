"""A small toolkit for word-based action notations: ``word ARG ARG ...``, lower case, single spaces.

A ruleset declares each action word with its argument shapes; ``parse`` and ``format`` then round-trip by
construction (an action is the tuple ``(word, *args)``)::

    NOTATION = WordNotation("kingdom", {
        "recruit": ["int"], "move": ["id"], "from": ["id", "int"], "go": [],
    })
    NOTATION.parse("from  Westwood 2") == ("from", "westwood", 2)

A word may have several alternative shapes (a list of lists); an argument kind is ``int`` (a non-negative
number), ``id`` (a lower-case identifier), ``=literal`` (that exact token, kept in the tuple) or a name given
in ``kinds`` with its own checker (a function from text to value that raises ``ValueError``), or a pair
(checker, writer) when the value is not written as ``str`` writes it (a square index written ``x,y``); a writer
raises ``ValueError`` (or ``TypeError``, ``KeyError``) for a value that is not of its kind (without a writer,
a value is of the kind when its text reads back as itself), so that ``format`` takes the first shape of the
word whose arguments all fit.

The rest is optional, for notations that need it (narby, smallworld, nerath):

- ``spell``: the word written for an action whose tuple starts with another name (narby's ``claim2`` is
  written ``claim A B``); the text word then tries the shapes of every name spelled so.
- ``check``: per action name, a function from the parsed tuple to the action (a cross-argument check that
  raises ``ValueError``, or a normal form: narby's two claimed squares in order).
- ``labels`` and ``usage``: per word, the names of its arguments and the form to write, for the messages of a
  missing or an unexpected argument (smallworld's "the region is missing (write conquer rN)").
- ``help``: the list of actions that an empty or unknown action's message shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

from conquest.core.errors import NotationError
from conquest.core.kinds import Action

_ID = re.compile(r"^[a-z][a-z0-9_\-]*(\.[0-9]+)?\Z")
_DIGITS = re.compile(r"[0-9]{1,9}\Z")
MAX_ACTION_ITEMS = 16
MAX_ACTION_WORD = 64


def is_digits(text: str) -> bool:
    """Plain ASCII digits, at most 9 (``str.isdigit`` also takes ``²`` and other scripts' digits, which
    ``int`` then refuses or reads; a notation number is written 0-9 only)."""
    return isinstance(text, str) and _DIGITS.match(text) is not None


def _int(arg: str) -> int:
    if not is_digits(arg):
        raise ValueError(f"'{arg}' is not a number")
    return int(arg)


def is_action(value: Any) -> TypeGuard[Action]:
    """The shape every ruleset's actions share: a non-empty tuple, a word (text) first, then text and whole
    numbers (not ``bool``: ``True == 1`` would pass a membership test), each of a sane size. A value of another
    shape is not an action of any ruleset, so the contract refuses it before the rules look at it."""
    if type(value) is not tuple or not value or len(value) > MAX_ACTION_ITEMS:
        return False
    if type(value[0]) is not str:
        return False
    for x in value:
        t = type(x)
        if t is str:
            if len(x) > MAX_ACTION_WORD:
                return False
        elif t is not int or not -10 ** 9 < x < 10 ** 9:
            return False
    return True


def action_label(value: Any) -> str:
    """A short printable name for a value that may not be an action (for error messages)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def guarded_format(game: str) -> Callable[[Callable[[Any, Any], str]], Callable[[Any, Any], str]]:
    """Decorate a ruleset's ``format_action``: a value that is not an action, or whose arguments the notation
    cannot write, raises ``NotationError`` (the only error the notation may raise), never ``IndexError``."""
    def wrap(fn: Callable[[Any, Any], str]) -> Callable[[Any, Any], str]:
        def format_action(self: Any, action: Any) -> str:
            if not is_action(action):
                raise NotationError(f"not a {game} action: {action_label(action)}")
            try:
                return fn(self, action)
            except NotationError:
                raise
            except (IndexError, KeyError, TypeError, ValueError, AttributeError):
                raise NotationError(f"not a {game} action: {action_label(action)}") from None
        format_action.__doc__ = fn.__doc__
        format_action.__name__ = fn.__name__
        return format_action
    return wrap


def _id(arg: str) -> str:
    if not _ID.match(arg):
        raise ValueError(f"'{arg}' is not an id")
    return arg


Kind = Callable[[str], Any] | tuple[Callable[[str], Any], Callable[[Any], str]]


class WordNotation:
    def __init__(self, game: str, words: Mapping[str, Sequence[Any]],
                 kinds: Mapping[str, Kind] | None = None, *,
                 spell: Mapping[str, str] | None = None,
                 check: Mapping[str, Callable[[tuple[Any, ...]], tuple[Any, ...]]] | None = None,
                 labels: Mapping[str, Sequence[str]] | None = None,
                 usage: Mapping[str, str] | None = None,
                 help: str | None = None) -> None:
        self.game = game
        self.forms: dict[str, list[tuple[str, ...]]] = {}
        for word, shape in words.items():
            if shape and all(isinstance(s, (list, tuple)) for s in shape):
                self.forms[word] = [tuple(s) for s in shape]
            else:
                self.forms[word] = [tuple(shape)]
        self.kinds: dict[str, Callable[[str], Any]] = {"int": _int, "id": _id}
        self.writers: dict[str, Callable[[Any], str]] = {}
        for name, kind in (kinds or {}).items():
            if isinstance(kind, tuple):
                self.kinds[name], self.writers[name] = kind
            else:
                self.kinds[name] = kind
        self.spell: dict[str, str] = dict(spell or {})
        self.check = dict(check or {})
        self.labels = {w: tuple(names) for w, names in (labels or {}).items()}
        self.usages = dict(usage or {})
        self.help = help
        self._written: dict[tuple[Any, ...], str] = {}
        # text word -> the action names it may stand for, in the order of ``words``
        self.names: dict[str, list[str]] = {}
        for name in self.forms:
            self.names.setdefault(self.spell.get(name, name), []).append(name)

    def usage(self, word: str) -> str:
        if word in self.usages:
            return f"'{self.usages[word]}'"
        return " or ".join("'" + " ".join([word] + [k[1:] if k.startswith("=") else k.upper() for k in form])
                           + "'" for name in self.names[word] for form in self.forms[name])

    def _arity(self, word: str, args: list[str]) -> str:
        """The message for a word given too few or too many arguments."""
        names = self.labels.get(word)
        if names is None:
            return f"expected {self.usage(word)}"
        form = self.usages.get(word, word)
        if len(args) < len(names):
            missing = names[len(args):]
            return f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing (write {form})"
        return f"unexpected '{' '.join(args[len(names):])}' (write {form})"

    def parse(self, text: str) -> Action:
        if not isinstance(text, str):
            raise NotationError(f"an action must be text, got {type(text).__name__}")
        parts = text.strip().lower().split()
        if not parts:
            raise NotationError("empty action" + (f" (actions: {self.help})" if self.help else ""))
        word, args = parts[0], parts[1:]
        if word not in self.names:
            raise NotationError(f"unknown action '{parts[0]}' (expected one of: {self.help or ', '.join(self.names)})")
        problem, depth = "", -1  # the refusal of the shape that read the most arguments (the first of equals)
        for name in self.names[word]:
            for form in self.forms[name]:
                if len(form) != len(args):
                    continue
                out: list[Any] = [name]
                try:
                    for kind, arg in zip(form, args):
                        if kind.startswith("="):
                            if arg != kind[1:]:
                                raise ValueError(f"expected '{kind[1:]}', got '{arg}'")
                            out.append(arg)
                        else:
                            out.append(self.kinds[kind](arg))
                    action = tuple(out)
                    if name in self.check:
                        action = self.check[name](action)
                except ValueError as e:
                    if len(out) > depth:
                        problem, depth = str(e), len(out)
                    continue
                return action
        raise NotationError(f"'{' '.join(parts)}': {problem or self._arity(word, args)}")

    def _write(self, kind: str, value: Any) -> str:
        if kind.startswith("="):
            if value != kind[1:]:
                raise ValueError(kind)
            return kind[1:]
        writer = self.writers.get(kind)
        if writer is not None:
            return writer(value)
        text = str(value)
        if self.kinds[kind](text) != value:  # not a value of this kind: another shape may fit
            raise ValueError(text)
        return text

    def format(self, action: Any) -> str:
        if not is_action(action):  # before the cache: ("give", True) equals ("give", 1) as a key
            raise NotationError(f"not a {self.game} action: {action!r}")
        text = self._written.get(action)
        if text is None:
            text = self._format(action)
            if len(self._written) >= 1 << 16:  # the texts of the actions seen lately, for the listings
                self._written.clear()
            self._written[action] = text
        return text

    def _format(self, action: tuple[Any, ...]) -> str:
        if action[0] not in self.forms:
            raise NotationError(f"not a {self.game} action: {action!r}")
        name, args = action[0], action[1:]
        word = self.spell.get(name, name)
        for form in self.forms[name]:
            if len(form) != len(args):
                continue
            try:
                return " ".join([word, *(self._write(k, v) for k, v in zip(form, args))])
            except (ValueError, TypeError, KeyError, IndexError):
                continue
        # no shape fits (an action no rule offers): written as it stands
        return " ".join(str(x) for x in (word, *args))
