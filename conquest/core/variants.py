"""Variant files: a designer's "what if?" as data, validated against what the ruleset declares may be varied.

A ruleset declares its variant schema (``Ruleset.variant_schema``: a pydantic model, a subclass of
``VariantModel``); ``None``, the default, means nothing may be varied. A variant is a YAML (or JSON) document::

    name: kinder tribute            # optional: shown in the lobby, the result screen and the reports
    description: one more coin ...  # optional
    options: {win: 100}             # optional: the ruleset's options (the command line's -o overrides them)
    tribute_chart: [...]            # the ruleset's own fields (its schema)

The variant travels as the game option ``variant`` (``variant_option``): its canonical JSON text (sorted keys,
no spaces; ``""`` for none). Options are recorded whole in every record and state, so a game made with a variant
replays without the file; and a state reaches its variant through ``state.options`` (``variant_of``), so the
rules read the varied data from the game itself, never from a global.

Errors are ``VariantError`` (an ``OptionError``): one line naming the field, e.g.
``variant field 'prices.footsoldier': Input should be greater than or equal to 0``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from conquest.core.errors import OptionError
from conquest.core.options import Option

if TYPE_CHECKING:
    from conquest.core.game import Ruleset

VARIANT_OPTION = "variant"
"""The option that carries a game's variant (canonical JSON text; ``""``: the rules as published)."""
OPTIONS_KEY = "options"
"""The part of a variant file that sets ruleset options (read by ``read_variant_file``, not stored)."""
MAX_VARIANT_CHARS = 200_000
"""The longest variant text accepted (a whole chart set is a few thousand characters)."""


class VariantError(OptionError):
    """A variant the ruleset cannot play: an unknown field, a wrong type, a value the rules cannot use."""


class VariantModel(BaseModel):
    """The base of every ruleset's variant schema: unknown fields are refused, types are strict (no "3" for 3),
    and ``name``/``description`` are allowed everywhere. Every other field is optional: what is left out keeps
    the published value."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str | None = None
    description: str | None = None


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(x) for x in loc) or "(document)"


def validation_message(e: ValidationError) -> str:
    """The first problem of a pydantic error in one line, naming the field by its dotted path."""
    first = e.errors()[0]
    msg = str(first.get("msg", "invalid")).replace("\n", " ")
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "extra_forbidden":
        msg = "unknown field (not something this ruleset lets a variant change)"
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    return f"variant field '{_where(loc)}': {msg}" if loc else f"variant: {msg}"


def check_variant(ruleset: Ruleset, doc: Any) -> dict[str, Any]:
    """``doc`` validated against the ruleset's schema: the fields it sets (the published values are not
    filled in), as plain JSON data. ``VariantError`` in one line otherwise."""
    schema = ruleset.variant_schema()
    if schema is None:
        raise VariantError(f"{ruleset.id} declares nothing that a variant may change")
    if not isinstance(doc, Mapping):
        raise VariantError(f"a variant must be a mapping of fields, got {type(doc).__name__}")
    try:
        model = schema.model_validate(dict(doc))
    except ValidationError as e:
        raise VariantError(validation_message(e)) from None
    out: dict[str, Any] = model.model_dump(mode="json", exclude_unset=True)
    return out


def canonical(doc: Mapping[str, Any]) -> str:
    """The variant's canonical text: its option value (``""`` for an empty variant)."""
    return json.dumps(dict(doc), sort_keys=True, separators=(",", ":")) if doc else ""


def normalize_variant(ruleset: Ruleset, value: Any) -> str:
    """The ``variant`` option's check: ``value`` (``""``/``None``, a mapping, or its JSON or YAML text, as a
    record stores it or ``-o variant=...`` gives it) validated, as canonical text."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    if isinstance(value, str):
        if len(value) > MAX_VARIANT_CHARS:
            raise VariantError(f"option variant: more than {MAX_VARIANT_CHARS:,} characters")
        doc = _parse_text(value)
    elif isinstance(value, Mapping):
        doc = value
    else:
        raise VariantError(f"option variant: expected a mapping or its JSON text, got {type(value).__name__}")
    if isinstance(doc, Mapping) and OPTIONS_KEY in doc:
        raise VariantError(f"variant field '{OPTIONS_KEY}': a game's options are given as options, not inside "
                           f"the stored variant")
    return canonical(check_variant(ruleset, doc))


def _parse_text(text: str) -> Any:
    import yaml

    from conquest.core.yamlfile import yaml_problem
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise VariantError(f"option variant: not JSON or YAML text ({yaml_problem(e)})") from None


def variant_option(ruleset: Ruleset) -> tuple[Option, ...]:
    """The ``variant`` option for a ruleset's ``options()`` (nothing when it declares no variant schema)."""
    schema = ruleset.variant_schema()
    if schema is None:
        return ()
    fields = ", ".join(f for f in schema.model_fields if f not in ("name", "description"))
    return (Option(VARIANT_OPTION, "", f"a variant of the game's data, as YAML or JSON (docs/balance.md, 'Variant "
                   f"files'; on the command line --variant FILE.yaml): name, description and {fields}; empty: "
                   f"the rules as published",
                   check=lambda v: normalize_variant(ruleset, v)),)


@lru_cache(maxsize=256)
def parse_variant(text: str) -> dict[str, Any]:
    """The variant of a canonical text (already validated when the options were resolved). Cached: the rules
    ask for it at play time. The dict is shared: never change it."""
    if not text:
        return {}
    doc = json.loads(text)
    return doc if isinstance(doc, dict) else {}


def variant_of(options: Mapping[str, Any]) -> dict[str, Any]:
    """The variant of a game's options (``{}``: none)."""
    return parse_variant(str(options.get(VARIANT_OPTION) or ""))


def variant_label(options: Mapping[str, Any]) -> str:
    """A short name of a game's variant for people: its ``name``, else the fields it changes; ``""`` for none."""
    v = variant_of(options)
    if not v:
        return ""
    if v.get("name"):
        return str(v["name"])
    return "changes " + ", ".join(k for k in sorted(v) if k != "description")


def read_variant_file(ruleset: Ruleset, path: str | Path) -> tuple[str, dict[str, Any]]:
    """A variant file: ``(canonical variant text, options it sets)``. ``VariantError`` (one line, naming the
    file and the field) for a file that cannot be read or a variant the ruleset cannot play."""
    from conquest.core.errors import ConquestError
    from conquest.core.yamlfile import load_yaml
    try:
        doc = load_yaml(path, "variant file")
    except ConquestError as e:
        raise VariantError(str(e)) from None
    return split_variant(ruleset, doc, f"{path}: ")


def split_variant(ruleset: Ruleset, doc: Any, where: str = "") -> tuple[str, dict[str, Any]]:
    """A variant document (with an optional ``options`` part): its canonical text and its options, both
    validated (``where`` prefixes the error)."""
    if doc is None:
        doc = {}
    if not isinstance(doc, Mapping):
        raise VariantError(f"{where}a variant must be a mapping of fields, got {type(doc).__name__}")
    body = {k: v for k, v in doc.items() if k != OPTIONS_KEY}
    opts = doc.get(OPTIONS_KEY) or {}
    if not isinstance(opts, Mapping):
        raise VariantError(f"{where}variant field '{OPTIONS_KEY}': expected a mapping of option names to values")
    if VARIANT_OPTION in opts:
        raise VariantError(f"{where}variant field '{OPTIONS_KEY}.{VARIANT_OPTION}': a variant cannot hold another")
    try:
        text = canonical(check_variant(ruleset, body)) if body else ""
        spec = ruleset.options()
        checked = spec.resolve({**{str(k): v for k, v in opts.items()}, VARIANT_OPTION: text})
    except OptionError as e:
        raise VariantError(f"{where}{e}") from None
    return text, {str(k): checked[str(k)] for k in opts}


def with_variant(ruleset: Ruleset, path: str | Path | None, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a game made with the variant file at ``path`` (None: ``options`` unchanged): the file's
    options, then ``options`` over them (the command line wins), and the variant itself."""
    if path is None:
        return dict(options)
    if VARIANT_OPTION in options:
        raise VariantError("give the variant either as --variant FILE or as -o variant=..., not both")
    text, file_opts = read_variant_file(ruleset, path)
    return {**file_opts, **options, VARIANT_OPTION: text}


def merged(base: Any, change: Any) -> Any:
    """``change`` laid over ``base``: mappings merged key by key (recursively), anything else replaced. For a
    ruleset that keeps its data as YAML-like documents."""
    if isinstance(base, Mapping) and isinstance(change, Mapping):
        out = dict(base)
        for k, v in change.items():
            out[k] = merged(base[k], v) if k in base else v
        return out
    return change


def set_path(doc: Mapping[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """A copy of ``doc`` with the field at ``dotted`` (``prices.footsoldier``) set to ``value``."""
    head, _, rest = dotted.partition(".")
    out = dict(doc)
    if rest:
        inner = out.get(head)
        out[head] = set_path(inner if isinstance(inner, Mapping) else {}, rest, value)
    else:
        out[head] = value
    return out
