"""The comparison of a sweep's arms (``summary.json`` and ``report.html`` of ``conquest balance --sweep``).

Per arm: game length, the first seat's win rate, each faction's win rate with its Wilson 95% interval (from the
arm's balance summary). Against the baseline, on the games both arms finished (the same seeds):

- a seat's wins, and a faction's where the run fixes who holds it (dealt by the run, or tied to a seat): exact
  **McNemar** test on the pairs (game, seat) that disagree (two-sided binomial on the discordant pairs);
- a faction chosen in play (Small World races, powers and combos: a race may be picked in one arm's game and not
  in the other's): unpaired, two-sided **Fisher exact** test on wins per appearance;
- game length: exact two-sided **sign test** on the per-game differences (ties dropped).

"Beyond noise" means p below 0.05 divided by the number of tests in the whole sweep (Bonferroni: the chance of
any false "beyond noise" in the report is at most 5%). The tests are exact and written here (no statistics
package is a dependency)."""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from conquest.analysis.plan import ALPHA, wilson, z_for
from conquest.analysis.report import _png, _r, _table, ruleset_factors
from conquest.core.variants import variant_of

SWEEP_FORMAT = "conquest-sweep/1"
MIN_APPEARANCES = 20
"""A faction chosen in play is tested only when it appeared at least this often in both arms (fewer say little,
and would only make the correction stricter for the rest)."""

if TYPE_CHECKING:
    from conquest.analysis.balance import RunResult
    from conquest.analysis.sweep import Arm


# ----------------------------------------------------------------------------------------- exact tests
def binomial_two_sided(k: int, n: int) -> float:
    """The two-sided p-value of ``k`` successes in ``n`` fair coin tosses: twice the smaller tail, at most 1
    (the exact McNemar and sign tests)."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    log_half = n * math.log(0.5)
    tail = sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half)
               for i in range(low + 1))
    return min(1.0, 2.0 * tail)


def fisher_two_sided(a: int, b: int, c: int, d: int) -> float:
    """The two-sided p-value of Fisher's exact test of the table [[a, b], [c, d]]: the probability, under the
    hypergeometric law of fixed margins, of every table no more likely than this one."""
    r1, c1, n = a + b, a + c, a + b + c + d
    if n == 0 or r1 in (0, n) or c1 in (0, n):
        return 1.0

    def logp(x: int) -> float:
        return (math.lgamma(r1 + 1) - math.lgamma(x + 1) - math.lgamma(r1 - x + 1) + math.lgamma(n - r1 + 1)
                - math.lgamma(c1 - x + 1) - math.lgamma(n - r1 - c1 + x + 1) - math.lgamma(n + 1)
                + math.lgamma(c1 + 1) + math.lgamma(n - c1 + 1))
    observed = logp(a)
    total = sum(math.exp(lp) for x in range(max(0, c1 - (n - r1)), min(r1, c1) + 1)
                if (lp := logp(x)) <= observed + 1e-9)
    return min(1.0, total)


# ------------------------------------------------------------------------------------------ comparison
def _finished(rows: Sequence[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {r["game"]: r for r in rows if r["error"] is None and r["result"] is not None}


def _mcnemar(pairs: Sequence[tuple[bool, bool]]) -> dict[str, Any]:
    only_base = sum(1 for b, a in pairs if b and not a)
    only_arm = sum(1 for b, a in pairs if a and not b)
    return {"test": "McNemar (exact)", "pairs": len(pairs), "discordant": [only_base, only_arm],
            "p": binomial_two_sided(only_arm, only_base + only_arm)}


def _level_rates(summary: dict[str, Any], factor: str) -> dict[str, dict[str, Any]]:
    return {x["level"]: x for x in summary["factors"].get(factor, {}).get("levels", [])}


def _paired_factor(base: dict[int, dict[str, Any]], arm: dict[int, dict[str, Any]], factor: str,
                   players: int) -> dict[str, list[tuple[bool, bool]]]:
    """Pairs (won in the baseline, won in the arm) per level of a factor the run fixes per (game, seat)."""
    out: dict[str, list[tuple[bool, bool]]] = {}
    for g in sorted(set(base) & set(arm)):
        b, a = base[g], arm[g]
        fb, fa = json.loads(b["factions"]), json.loads(a["factions"])
        for s in range(players):
            lb = fb.get(factor, [[]] * players)[s] if factor != "seat" else [str(s)]
            la = fa.get(factor, [[]] * players)[s] if factor != "seat" else [str(s)]
            for level in set(lb) & set(la):
                out.setdefault(level, []).append((s in (b["winners"] or []), s in (a["winners"] or [])))
    return out


def _arm_figures(arm: Arm, res: RunResult) -> dict[str, Any]:
    s = res.summary
    seat0 = s["factors"]["seat"]["levels"][0] if s["factors"].get("seat") else None
    return {"label": arm.label, "baseline": arm.baseline, "options": arm.plan.options,
            "variant": variant_of(arm.plan.options), "games": s["games"], "finished": s["finished"],
            "errors": s["errors"], "length": {k: s["length"].get(k) for k in ("mean_actions", "mean_rounds",
                                                                              "quartiles_actions")},
            "first_seat": ({"win_rate": seat0["win_rate"], "ci95": seat0["ci95"], "games": seat0["games"]}
                           if seat0 else None),
            "factors": {f: {"parity": d["parity"], "how": d["how"],
                            "levels": [{k: x[k] for k in ("level", "games", "wins", "win_rate", "ci95", "flag")}
                                       for x in d["levels"]]}
                        for f, d in s["factors"].items()},
            "stats": {k: v.get("mean") for k, v in s["stats"].items() if "mean" in v},
            "report": f"arms/{arm.folder}/report.html"}


def compare(results: Sequence[tuple[Arm, RunResult]], games: int) -> dict[str, Any]:
    base_arm, base_res = next((a, r) for a, r in results if a.baseline)
    plan = base_arm.plan
    n = plan.players
    fixed = ruleset_factors(plan.ruleset, n, plan.options)
    base_rows = _finished(base_res.rows)
    tests: list[dict[str, Any]] = []
    for arm, res in results:
        if arm.baseline:
            continue
        rows = _finished(res.rows)
        shared = sorted(set(base_rows) & set(rows))
        diffs = [rows[g]["length"] - base_rows[g]["length"] for g in shared]
        up, down = sum(1 for d in diffs if d > 0), sum(1 for d in diffs if d < 0)
        mean_b = sum(base_rows[g]["length"] for g in shared) / len(shared) if shared else 0.0
        mean_a = sum(rows[g]["length"] for g in shared) / len(shared) if shared else 0.0
        tests.append({"arm": arm.label, "measure": "length", "level": "actions per game", "base": _r(mean_b, 2),
                      "value": _r(mean_a, 2), "diff": _r(mean_a - mean_b, 2), "test": "sign (exact)",
                      "pairs": len(shared), "discordant": [down, up], "p": binomial_two_sided(up, up + down)})
        for factor in res.summary["factors"]:
            if factor == "agent":
                continue
            paired = factor == "seat" or bool(plan.rotation and plan.rotation[0] == factor) or fixed.get(factor)
            rates_b, rates_a = _level_rates(base_res.summary, factor), _level_rates(res.summary, factor)
            if paired:
                by_level = _paired_factor(base_rows, rows, factor, n)
                for level in sorted(by_level, key=lambda v: (len(v), v)):
                    pairs = by_level[level]
                    shown = next((lv for lv in rates_b if lv == level or lv.split(":")[0] == level), level)
                    t = _mcnemar(pairs)
                    rb = sum(1 for b, _ in pairs if b) / len(pairs)
                    ra = sum(1 for _, a in pairs if a) / len(pairs)
                    tests.append({"arm": arm.label, "measure": factor, "level": shown, "base": _r(rb),
                                  "value": _r(ra), "diff": _r(ra - rb), **t})
            else:
                for level in sorted(set(rates_b) | set(rates_a)):
                    xb, xa = rates_b.get(level), rates_a.get(level)
                    wb, gb = (xb["wins"], xb["games"]) if xb else (0, 0)
                    wa, ga = (xa["wins"], xa["games"]) if xa else (0, 0)
                    if min(gb, ga) < MIN_APPEARANCES:
                        tests.append({"arm": arm.label, "measure": factor, "level": level,
                                      "base": _r(wb / gb) if gb else None, "value": _r(wa / ga) if ga else None,
                                      "diff": _r(wa / ga - wb / gb) if gb and ga else None,
                                      "test": "none: played in one of the two only" if not (gb and ga) else
                                              f"none: fewer than {MIN_APPEARANCES} appearances",
                                      "pairs": 0, "appearances": [gb, ga], "p": None})
                        continue
                    tests.append({"arm": arm.label, "measure": factor, "level": level, "base": _r(wb / gb),
                                  "value": _r(wa / ga), "diff": _r(wa / ga - wb / gb),
                                  "test": "Fisher exact (unpaired: chosen in play)", "pairs": 0,
                                  "appearances": [gb, ga], "p": fisher_two_sided(wb, gb - wb, wa, ga - wa)})
    m = sum(1 for t in tests if t["p"] is not None)
    threshold = ALPHA / max(1, m)
    for t in tests:
        t["beyond_noise"] = t["p"] is not None and t["p"] < threshold
        if t["p"] is not None:
            t["p"] = float(f"{t['p']:.3g}")
    arms = [_arm_figures(a, r) for a, r in results]
    return {"format": SWEEP_FORMAT, "ruleset": plan.ruleset, "players": n, "agents": plan.agents,
            "seed": plan.seed, "games": games, "baseline": base_arm.label, "arms": arms,
            "correction": {"method": "Bonferroni", "tests": m, "family_alpha": ALPHA,
                           "threshold": float(f"{threshold:.3g}")},
            "tests": tests, "changed": changed_words(arms, tests, base_arm.label)}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def changed_words(arms: Sequence[dict[str, Any]], tests: Sequence[dict[str, Any]], baseline: str) -> list[str]:
    """The report's opening: per arm, in a few sentences, what moved beyond noise and what did not."""
    out = []
    for arm in arms:
        if arm["baseline"]:
            continue
        mine = [t for t in tests if t["arm"] == arm["label"]]
        parts = []
        ln = next((t for t in mine if t["measure"] == "length"), None)
        if ln is not None and ln["base"]:
            change = (ln["value"] - ln["base"]) / ln["base"]
            word = "longer" if change > 0 else "shorter"
            parts.append(f"games {abs(change):.0%} {word} ({ln['base']:g} → {ln['value']:g} actions; "
                         + ("beyond noise" if ln["beyond_noise"] else "within noise") + f", p={ln['p']:g})")
        seat0 = next((t for t in mine if t["measure"] == "seat" and str(t["level"]).startswith("0")), None)
        if seat0 is not None:
            parts.append(f"the first seat wins {_pct(seat0['base'])} → {_pct(seat0['value'])} ("
                         + ("beyond noise" if seat0["beyond_noise"] else "within noise") + f", p={seat0['p']:g})")
        moved = [t for t in mine if t["beyond_noise"] and t["measure"] not in ("length", "seat")]
        for t in sorted(moved, key=lambda t: -abs(t["diff"] or 0))[:6]:
            parts.append(f"{t['measure']} {t['level']} {_pct(t['base'])} → {_pct(t['value'])} (p={t['p']:g})")
        factions = [t for t in mine if t["measure"] not in ("length", "seat") and t["p"] is not None]
        if factions and not moved:
            big = min(factions, key=lambda t: t["p"])
            parts.append(f"no faction moved beyond noise (the strongest sign: {big['measure']} {big['level']} "
                         f"{_pct(big['base'])} → {_pct(big['value'])}, p={big['p']:g})")
        gone = [t for t in mine if t["p"] is None and "one of the two" in t["test"]
                and max(t.get("appearances") or [0]) >= MIN_APPEARANCES]
        if gone:
            parts.append("played in only one of the two: " + ", ".join(f"{t['measure']} {t['level']}"
                                                                        for t in gone[:6]))
        out.append(f"{arm['label']} against {baseline}: " + "; ".join(parts) + ".")
    flagged = [{(f, x["level"], x["flag"]) for f, d in a["factors"].items() if f != "agent" for x in d["levels"]
                if x.get("flag")} for a in arms]
    everywhere = sorted(set.intersection(*flagged)) if flagged else []
    if everywhere:
        out.append("Away from parity in every arm (each arm's balance report, Bonferroni-corrected): "
                   + ", ".join(f"{f} {lv} ({fl})" for f, lv, fl in everywhere) + ".")
    return out


# ------------------------------------------------------------------------------------------------ HTML
def _plots(summary: dict[str, Any]) -> list[tuple[str, str]]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    arms = summary["arms"]
    labels = [a["label"] for a in arms]
    out = []
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 0.9 + 0.45 * len(arms) + 1.2))
    y = list(range(len(arms)))
    rates = [a["first_seat"]["win_rate"] if a["first_seat"] else 0.0 for a in arms]
    lo = [r - (a["first_seat"]["ci95"][0] if a["first_seat"] else 0.0) for r, a in zip(rates, arms)]
    hi = [(a["first_seat"]["ci95"][1] if a["first_seat"] else 0.0) - r for r, a in zip(rates, arms)]
    ax1.errorbar(rates, y, xerr=[lo, hi], fmt="o", color="tab:purple", capsize=3)
    parity = arms[0]["factors"].get("seat", {}).get("parity")
    if parity:
        ax1.axvline(parity, color="k", linestyle="--", linewidth=1, label=f"parity {parity:.3f}")
        ax1.legend(fontsize=8)
    ax1.set_yticks(y)
    ax1.set_yticklabels(labels, fontsize=8)
    ax1.invert_yaxis()
    ax1.set_xlim(0, 1)
    ax1.set_xlabel("first seat's win rate (Wilson 95%)")
    ax1.set_title("first-seat advantage")
    q = [a["length"]["quartiles_actions"] or [0, 0, 0] for a in arms]
    means = [a["length"]["mean_actions"] or 0 for a in arms]
    ax2.errorbar([x[1] for x in q], y, xerr=[[x[1] - x[0] for x in q], [x[2] - x[1] for x in q]], fmt="s",
                 color="tab:green", capsize=3, label="median, quartiles")
    ax2.scatter(means, y, marker="x", color="k", label="mean", zorder=3)
    ax2.set_yticks(y)
    ax2.set_yticklabels([])
    ax2.invert_yaxis()
    ax2.set_xlabel("actions per game")
    ax2.set_title("game length")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    out.append(("overview", _png(fig)))
    moved = {(t["arm"], t["measure"], str(t["level"]).split(":")[0]) for t in summary["tests"] if t["beyond_noise"]}
    for factor, data in arms[0]["factors"].items():
        if factor in ("seat", "agent") or not data["levels"]:
            continue
        shown = sorted(data["levels"], key=lambda x: -x["games"])[:24]
        shown.sort(key=lambda x: x["win_rate"])
        names = [x["level"] for x in shown]
        fig, axes = plt.subplots(1, len(arms), figsize=(min(16, 3.2 * len(arms) + 1.5), 1 + 0.26 * len(names)),
                                 sharey=True, squeeze=False)
        for ax, arm in zip(axes[0], arms):
            by = {x["level"]: x for x in arm["factors"].get(factor, {}).get("levels", [])}
            yy, rr, el, eh, cc = [], [], [], [], []
            for i, nm in enumerate(names):
                x = by.get(nm)
                if x is None:
                    continue
                yy.append(i)
                rr.append(x["win_rate"])
                el.append(x["win_rate"] - x["ci95"][0])
                eh.append(x["ci95"][1] - x["win_rate"])
                cc.append("tab:red" if (arm["label"], factor, nm.split(":")[0]) in moved else "tab:gray")
            ax.errorbar(rr, yy, xerr=[el, eh], fmt="none", ecolor="0.7", capsize=2)
            ax.scatter(rr, yy, c=cc, zorder=3, s=18)
            ax.axvline(arm["factors"].get(factor, {}).get("parity", 0), color="k", linestyle="--", linewidth=1)
            ax.set_xlim(0, 1)
            ax.set_title(arm["label"] + (" (baseline)" if arm["baseline"] and "baseline" not in arm["label"]
                                         else ""), fontsize=9)
            ax.set_xlabel("win rate", fontsize=8)
        axes[0][0].set_yticks(list(range(len(names))))
        axes[0][0].set_yticklabels(names, fontsize=8)
        more = f" (the {len(names)} most played of {len(data['levels'])})" if len(names) < len(data["levels"]) else ""
        fig.suptitle(f"win rate by {factor}{more}; red: moved beyond noise against the baseline", fontsize=10)
        fig.tight_layout()
        out.append((factor, _png(fig)))
    return out


def render_sweep_html(summary: dict[str, Any]) -> str:
    arms = summary["arms"]
    corr = summary["correction"]
    title = f"What if: {summary['ruleset']}"
    parts = [f"<h1>{html.escape(title)}</h1>",
             "<h2>What changed</h2><ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in summary["changed"])
             + "</ul>",
             "<p>" + html.escape(
                 f"{summary['games']} games per arm on the same seeds ({summary['seed']}…), {summary['players']} "
                 f"players, agents {', '.join(summary['agents'])}. 'Beyond noise': p below {corr['threshold']:g} "
                 f"(0.05 over {corr['tests']} tests, {corr['method']}). Paired tests (McNemar, sign) on the games "
                 f"both arms finished; factions chosen in play are compared unpaired (Fisher).") + "</p>"]
    plots = dict(_plots(summary))
    parts.append(f'<img alt="first seat and game length" src="{plots["overview"]}">')
    parts.append("<h2>The arms</h2>")
    parts.append(_table(["arm", "what it changes", "games", "finished", "errors", "mean actions", "mean rounds",
                         "first seat wins (95%)", "report"],
                        [[a["label"] + (" (baseline)" if a["baseline"] and "baseline" not in a["label"] else ""),
                          _changes(a, arms[0]), a["games"], a["finished"], a["errors"], a["length"]["mean_actions"],
                          a["length"]["mean_rounds"],
                          (f"{a['first_seat']['win_rate']:.3f} ({a['first_seat']['ci95'][0]:.3f}–"
                           f"{a['first_seat']['ci95'][1]:.3f})") if a["first_seat"] else "-",
                          a["report"]] for a in arms]))
    for factor in arms[0]["factors"]:
        if factor in ("seat", "agent"):
            continue
        parts.append(f"<h2>By {html.escape(factor)}</h2><p>{html.escape(arms[0]['factors'][factor]['how'])}</p>")
        if factor in plots:
            parts.append(f'<img alt="win rate by {html.escape(factor)}" src="{plots[factor]}">')
    notable = [t for t in summary["tests"] if t["p"] is not None and t["p"] < ALPHA]
    parts.append("<h2>Changes with p below 0.05</h2><p>" + html.escape(
        f"{len(notable)} of {corr['tests']} tests; those marked 'beyond noise' pass the corrected threshold "
        f"{corr['threshold']:g}, the others are what 1 in 20 tests shows by chance.") + "</p>")
    parts.append(_table(["arm", "measure", "level", "baseline", "arm", "difference", "test", "p", "beyond noise"],
                        [[t["arm"], t["measure"], t["level"], _fmt(t["base"], t["measure"]),
                          _fmt(t["value"], t["measure"]), _fmt(t["diff"], t["measure"]), t["test"], f"{t['p']:g}",
                          "yes" if t["beyond_noise"] else ""] for t in notable]))
    parts.append(f"<details><summary>Every comparison with the baseline ({len(summary['tests'])})</summary>")
    parts.append(_table(["arm", "measure", "level", "baseline", "arm", "difference", "test", "pairs / discordant",
                         "p", "beyond noise"],
                        [[t["arm"], t["measure"], t["level"], _fmt(t["base"], t["measure"]),
                          _fmt(t["value"], t["measure"]), _fmt(t["diff"], t["measure"]), t["test"],
                          (f"{t['pairs']} / {t['discordant'][0]}+{t['discordant'][1]}" if t.get("discordant")
                           else f"appearances {t['appearances'][0]} / {t['appearances'][1]}"
                           if t.get("appearances") else ""),
                          "-" if t["p"] is None else f"{t['p']:g}", "yes" if t["beyond_noise"] else ""]
                         for t in summary["tests"]]) + "</details>")
    keys = sorted({k for a in arms for k in a["stats"]})
    if keys:
        parts.append("<h2>Game figures (mean per game)</h2>")
        parts.append(_table(["figure"] + [a["label"] for a in arms],
                            [[k] + [a["stats"].get(k, "") for a in arms] for k in keys]))
    style = ("body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em}table{border-collapse:"
             "collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%}img{max-width:100%}"
             "li{margin:.3em 0}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title><style>{style}"
            f"</style></head><body>" + "\n".join(parts) + "</body></html>\n")


def _fmt(x: Any, measure: str) -> str:
    if x is None:
        return "-"
    return f"{x:g}" if measure == "length" else f"{x:.3f}"


def _changes(arm: dict[str, Any], base: dict[str, Any]) -> str:
    if arm["baseline"]:
        return "the game as given"
    diff = {k: v for k, v in arm["options"].items() if base["options"].get(k) != v and k != "variant"}
    text = ", ".join(f"{k}={v}" for k, v in sorted(diff.items()))
    v = {k: x for k, x in arm["variant"].items() if k not in ("name", "description")}
    if v != {k: x for k, x in base["variant"].items() if k not in ("name", "description")}:
        text = (text + "; " if text else "") + "variant " + json.dumps(v, sort_keys=True)[:300]
    return text


def write_sweep_report(path: Any, summary: dict[str, Any]) -> None:
    from conquest.analysis.plan import _write_text
    _write_text(path, render_sweep_html(summary))


__all__ = ["binomial_two_sided", "compare", "fisher_two_sided", "render_sweep_html", "wilson", "z_for"]
