"""What-if sweeps: the same balance run under several values of an option or variant field, or under several
named variants, with one comparison report (``sweep_report``).

Each value is an *arm*: a balance ``Plan`` that differs from the baseline only in its options (and so its
variant), with the same agents, players and seed, so game ``i`` of every arm starts from the same seed, the
same seats and the same dealt factions. Each arm is an ordinary balance run in ``OUT/arms/<label>/``
(``games.parquet``, ``summary.json``, ``report.html``: same ``--jobs``, backend and ``--resume``); the
comparison is ``OUT/report.html`` and ``OUT/summary.json`` (format ``conquest-sweep/1``).

``--sweep NAME=V1,V2,...``: NAME is an option of the ruleset, or a field of its variant (dotted for a nested
one: ``races.ratmen.banner``); each value is read as YAML (``3``, ``true``, ``text``). The baseline is the game
as given without the sweep; a value that gives the baseline's options is the baseline (played once).
``--sweep FILE.yaml``: ``variants: {NAME: VARIANT, ...}``, each a variant document (fields and ``options``)
laid over the baseline's variant.

Every arm is checked before anything is written: a bad value or variant file changes nothing in ``--out``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conquest.analysis.balance import RunResult, make_out, prepare_out, run
from conquest.analysis.plan import GAMES_FILE, SUMMARY_FILE, Plan, _write_text
from conquest.analysis.sweep_report import SWEEP_FORMAT, compare, write_sweep_report
from conquest.core.errors import ConquestError
from conquest.core.registry import get_ruleset
from conquest.core.variants import VARIANT_OPTION, merged, set_path, split_variant, variant_of

ARMS_DIR = "arms"
BASELINE = "baseline"
MAX_ARMS = 12
"""The most arms of one sweep (baseline included): each is a whole balance run."""


@dataclass(frozen=True)
class Arm:
    label: str
    plan: Plan
    baseline: bool = False

    @property
    def folder(self) -> str:
        return re.sub(r"[^A-Za-z0-9_.=-]+", "_", self.label.replace(" (baseline)", ""))[:60] or "arm"


def _value(text: str) -> Any:
    import yaml
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def arms_of(plan: Plan, sweep: str) -> list[Arm]:
    """The arms of ``sweep`` around ``plan`` (the baseline first), every one validated: ``ConquestError`` in
    one line for an unknown name, a bad value or a bad variant file."""
    text = sweep.strip()
    if not text:
        raise ConquestError("--sweep: give NAME=V1,V2,... or a FILE.yaml of named variants")
    if "=" not in text.split(",")[0] and (text.endswith((".yaml", ".yml", ".json")) or Path(text).is_file()):
        changes = _file_arms(plan, Path(text))
    else:
        changes = _value_arms(plan, text)
    base = Arm(BASELINE, plan, True)
    arms = [base]
    for label, options in changes:
        try:
            arm_plan = Plan.make(plan.ruleset, plan.agents, plan.players, options, plan.seed)
        except ConquestError as e:
            raise ConquestError(f"--sweep {label}: {e}") from None
        if arm_plan.options == plan.options:
            arms[0] = Arm(f"{label} (baseline)", plan, True)
            continue
        if any(a.plan.options == arm_plan.options for a in arms):
            raise ConquestError(f"--sweep {label}: the same game as another value")
        arms.append(Arm(label, arm_plan))
    if len(arms) < 2:
        raise ConquestError("--sweep: every value gives the baseline's game: nothing to compare")
    if len(arms) > MAX_ARMS:
        raise ConquestError(f"--sweep: {len(arms)} games to compare, at most {MAX_ARMS}")
    folders = [a.folder for a in arms]
    if len(set(folders)) != len(folders):
        raise ConquestError("--sweep: two values have the same name once made a folder name")
    return arms


def _value_arms(plan: Plan, text: str) -> list[tuple[str, dict[str, Any]]]:
    name, _, values = text.partition("=")
    name = name.strip()
    vals = [v.strip() for v in values.split(",") if v.strip()]
    if not name or not vals:
        raise ConquestError(f"--sweep {text[:60]!r}: write NAME=V1,V2,... (an option or a variant field)")
    rs = get_ruleset(plan.ruleset)
    option_names = {o.name for o in rs.options().options}
    out: list[tuple[str, dict[str, Any]]] = []
    for v in vals:
        if name == VARIANT_OPTION:
            raise ConquestError("--sweep variant=...: give the named variants as --sweep FILE.yaml")
        if name in option_names:
            out.append((f"{name}={v}", {**plan.options, name: v}))
            continue
        if rs.variant_schema() is None:
            raise ConquestError(f"--sweep {name}: not an option of {rs.id} (options: "
                                f"{', '.join(sorted(option_names))}), and {rs.id} declares no variant fields")
        doc = set_path(variant_of(plan.options), name, _value(v))
        out.append((f"{name}={v}", {**plan.options, VARIANT_OPTION: doc}))
    return out


def _file_arms(plan: Plan, path: Path) -> list[tuple[str, dict[str, Any]]]:
    from conquest.core.yamlfile import load_yaml
    doc = load_yaml(path, "sweep file")
    variants = doc.get("variants") if isinstance(doc, Mapping) else None
    if not isinstance(variants, Mapping) or not variants:
        raise ConquestError(f"sweep file {path}: expected 'variants:' mapping names to variant documents")
    if isinstance(doc, Mapping) and set(doc) - {"variants", "description"}:
        raise ConquestError(f"sweep file {path}: unknown field '{sorted(set(doc) - {'variants', 'description'})[0]}'"
                            f" (a sweep file has 'variants' and an optional 'description')")
    rs = get_ruleset(plan.ruleset)
    out: list[tuple[str, dict[str, Any]]] = []
    for name, body in variants.items():
        if not isinstance(body, Mapping):
            raise ConquestError(f"sweep file {path}: variant '{name}' must be a mapping of fields")
        layered = merged(dict(variant_of(plan.options)), {k: v for k, v in body.items() if k != "options"})
        layered.setdefault("name", str(name))
        if body.get("options") is not None:
            layered["options"] = body["options"]
        text, opts = split_variant(rs, layered, f"sweep file {path}: variant '{name}': ")
        out.append((str(name), {**plan.options, **opts, VARIANT_OPTION: text}))
    return out


# ------------------------------------------------------------------------------------------- the folder
def _is_sweep_output(out: Path) -> bool:
    try:
        doc = json.loads((out / SUMMARY_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecursionError, ValueError):
        return (out / ARMS_DIR).is_dir() and not (out / GAMES_FILE).exists()
    return isinstance(doc, dict) and doc.get("format") == SWEEP_FORMAT


def prepare_sweep(arms: Sequence[Arm], out: Path, resume: bool) -> None:
    """Check that ``out`` may take the sweep (a new or empty folder, or this sweep's own output; with
    ``--resume`` each arm's stored run must be the same run). Changes nothing."""
    if out.is_dir() and any(out.iterdir()) and not _is_sweep_output(out):
        raise ConquestError(f"--out {out} is a folder with other files in it (not a sweep's output): give a new or "
                            f"empty folder")
    base = out / ARMS_DIR
    if base.is_dir() and not resume:
        raise ConquestError(f"--out {out} already holds a sweep: add --resume to continue it, or choose another "
                            f"folder")
    for arm in arms:
        try:
            prepare_out(arm.plan, base / arm.folder, resume)
        except ConquestError as e:
            raise ConquestError(f"{arm.label}: {e}") from None


def run_sweep(arms: Sequence[Arm], games: int, out: Path, jobs: int = 1,
              backend_factory: Callable[[], Any] | None = None, resume: bool = False,
              factors: Sequence[str] | None = None,
              progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """Play every arm (a balance run each, into ``out/arms/``), then write the comparison; its summary."""
    prepare_sweep(arms, out, resume)
    make_out(out)
    results: list[tuple[Arm, RunResult]] = []
    for arm in arms:
        folder = out / ARMS_DIR / arm.folder
        had = (folder / GAMES_FILE).exists()
        engine = backend_factory() if backend_factory is not None else None
        res = run(arm.plan, games, folder, jobs=jobs, backend=engine, resume=resume and had,
                  factors=factors, progress=_tell(progress, arm.label))
        results.append((arm, res))
    summary = compare(results, games)
    _write_text(out / SUMMARY_FILE, json.dumps(summary, indent=1, sort_keys=True) + "\n")
    write_sweep_report(out / "report.html", summary)
    return summary



def _tell(progress: Callable[[str, int, int], None] | None, label: str) -> Callable[[int, int], None] | None:
    if progress is None:
        return None
    report = progress

    def tell(done: int, total: int) -> None:
        report(label, done, total)
    return tell
