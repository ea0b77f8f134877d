"""Rules help for the Kingdom board: the bonus locations (docs/rules/kingdom.md names their effects) and the
verbs of the notation (read from its docstring)."""

from __future__ import annotations

from conquest.core.helptext import verbs_from_docstring
from conquest.rulesets.kingdom import notation

LOCATIONS = {
    "trap": "a Trap token while your army holds it",
    "spy": "a Spy token while your army holds it",
    "destroy": "a card destruction while your army holds it",
    "double_move": "your moves may start two territories away (not through enemy territories)",
    "krystallium": "produces one Krystallium (worth 2 in production)",
    "material": "a Material production icon", "energy": "an Energy production icon",
    "science": "a Science production icon", "gold": "a Gold production icon",
    "exploration": "an Exploration production icon",
}


def help_terms(codes: dict[str, str]) -> dict[str, dict[str, str]]:
    out = {f"location:{k}": {"kind": "bonus location", "name": f"{codes[k]} {k.replace('_', ' ')}",
                             "text": text + " (the effect is lost when the army leaves)"}
           for k, text in LOCATIONS.items()}
    for v, text in verbs_from_docstring(notation.__doc__).items():
        out[f"verb:{v}"] = {"kind": "action", "name": v, "text": text}
    return out
