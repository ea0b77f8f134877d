"""Narration: one sentence for each entry of a game's log, told to one seat from what that seat can see.

A ruleset's ``narrate(before, action, after, seat, names)`` receives the seat's ``view`` before and after the
action (never the referee's state), the action (``None`` when the seat may not read it) and the names of the
seats, and returns a ``Line``-shaped dict:

* ``text``: the sentence ("Karkoth attacks Skarn with 3 Footsoldiers and a Dragon");
* ``kind``: ``move``, ``battle``, ``dice``, ``draw``, ``card``, ``turn``, ``end``, ``setup`` or ``hidden``;
* ``dice`` (optional): ``[{"who", "die", "count", "need", "rolls" | "value", "outcome"}]``, the dice as dice;
* ``group`` (optional): a key shared by the entries of one event (a battle, a two-dice location), which the
  page shows as one entry;
* ``changed``: the region ids whose state the seat sees changed;
* ``battle`` (optional): the sides of a battle and what each round did, for the battle window;
* ``facts`` (optional): what the sentence says of the board after the action, as checks on the seat's view
  after it (``{"at": POINTER, "equals": VALUE}`` or ``{"at": POINTER, "exists": BOOL}``, as in scenarios):
  "a town at 1,9" carries ``{"at": "/settlements/1,9", "equals": "town"}``. ``check_facts`` tests them; the
  narration check (tests/test_narration_consistency.py) replays random games of every ruleset and requires
  every fact to hold and every line of a seat's action to name that seat first (``Ruleset.log_names``).

Since a line is built from the seat's own views, it tells the seat nothing that its view hides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

KINDS = ("move", "battle", "dice", "draw", "card", "turn", "end", "setup", "hidden")


def line(text: str, kind: str = "move", *, changed: Iterable[str] = (), dice: Sequence[Mapping[str, Any]] = (),
         group: str | None = None, **extra: Any) -> dict[str, Any]:
    """A narrated line (the shape the web log and the tests read)."""
    assert kind in KINDS, kind
    out: dict[str, Any] = {"text": text, "kind": kind, "changed": sorted(set(changed))}
    if dice:
        out["dice"] = [dict(d) for d in dice]
    if group:
        out["group"] = group
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def fact(at: str, **expect: Any) -> dict[str, Any]:
    """One claim of a sentence about the view after the action: ``fact("/claims/7,5", equals=0)``,
    ``fact("/settlements/1,9", exists=False)``."""
    assert at.startswith("/") and len(expect) == 1 and set(expect) <= {"equals", "exists"}, (at, expect)
    return {"at": at, **expect}


def check_facts(line: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """The facts of ``line`` that ``view`` (the seat's view after the action) contradicts, as sentences."""
    from conquest.core.jsondoc import pointer_exists, resolve_pointer
    out = []
    for f in line.get("facts", ()):
        there = pointer_exists(view, f["at"])
        if "exists" in f:
            if there != bool(f["exists"]):
                out.append(f"{line['text']!r} says {f['at']} {'exists' if f['exists'] else 'does not exist'}")
        elif not there or resolve_pointer(view, f["at"]) != f["equals"]:
            got = resolve_pointer(view, f["at"]) if there else "nothing"
            out.append(f"{line['text']!r} says {f['at']} is {f['equals']!r}, the board has {got!r}")
    return out


def named_seat(text: str, names: Sequence[Sequence[str]], viewer: int | None = None) -> int | None:
    """The seat a sentence names first: ``names[s]`` are the names the log gives seat ``s`` (whole words, any
    case); "you" and "your" name ``viewer``. None when it names no seat."""
    import re
    best: tuple[int, int, int] | None = None  # (position, seat, length)
    cands = [(s, n) for s, ns in enumerate(names) for n in ns if n]
    if viewer is not None and viewer >= 0:
        cands += [(viewer, "you"), (viewer, "your")]
    for s, n in cands:
        m = re.search(r"(?<![\w])" + re.escape(n) + r"(?![\w])", text, re.IGNORECASE)
        if m and (best is None or m.start() < best[0] or (m.start() == best[0] and len(n) > best[2])):
            best = (m.start(), s, len(n))
    return None if best is None else best[1]


def die(who: str, die: str, outcome: str, *, rolls: Sequence[int] | None = None, value: int | None = None,
        count: int | None = None, need: str | None = None) -> dict[str, Any]:
    """One roll as the page shows it: who rolled which die (``d6``, ``2d20``), the faces when the game keeps
    them (``rolls`` or ``value``), what was needed, and what came of it."""
    d: dict[str, Any] = {"who": who, "die": die, "outcome": outcome}
    if rolls is not None:
        d["rolls"] = list(rolls)
    if value is not None:
        d["value"] = value
    if count is not None:
        d["count"] = count
    if need is not None:
        d["need"] = need
    return d


def actor(view: Mapping[str, Any]) -> int | str | None:
    """Who moves in a view: a seat, ``"chance"`` or ``None`` (the game is over)."""
    return view.get("to_move")


def changed_keys(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[str]:
    """The keys whose values differ between two mappings (a region table before and after)."""
    before, after = before or {}, after or {}
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 army``, ``3 armies``, ``a Dragon`` is left to the caller: this only counts."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {many or _plural(word)}"


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("f"):
        return word[:-1] + "ves"
    return word + "s"


def counted(n: int, word: str, many: str | None = None) -> str:
    """``a Dragon``, ``an Orc``, ``3 Footsoldiers``."""
    if n == 1:
        return ("an " if word[:1].lower() in "aeiou" else "a ") + word
    return f"{n} {many or _plural(word)}"


def listing(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    parts = [p for p in parts if p]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def score_row(who: str, parts: Sequence[tuple[str, Any]], total: Any = None) -> dict[str, Any]:
    """One row of the final score breakdown: who, the parts (label, value) and the total."""
    row: dict[str, Any] = {"who": who, "parts": [[label, value] for label, value in parts]}
    if total is not None:
        row["total"] = total
    return row


def ends(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether this action ended the game."""
    return before.get("to_move") is not None and after.get("to_move") is None


def generic(before: Mapping[str, Any], action_text: str | None, after: Mapping[str, Any], seat: int | None,
            names: Sequence[str]) -> dict[str, Any]:
    """The line of a ruleset without its own narration: who did it, and the notation."""
    who = actor(before)
    if who == "chance":
        return line(f"Chance: {action_text}" if action_text else "Chance decides something you cannot see",
                    "dice" if action_text else "hidden")
    name = names[who] if isinstance(who, int) and 0 <= who < len(names) else "Someone"
    if action_text is None:
        return line(f"{name} does something you cannot see", "hidden")
    return line(f"{name}: {action_text}", "move")
