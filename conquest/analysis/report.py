"""A balance run's summary (``summary.json``) from its game rows, and its report (``report.html``).

Per factor (seat, agent, and the ruleset's own: realm, dragon, race, power, combo, colour), per level: games,
wins, win rate with its Wilson 95% interval, mean score, mean margin (the seat's score minus the best other
seat's), and a flag where the interval at the Bonferroni-corrected level (95% for the family of every level
of every factor shown) excludes parity. Parity for a factor is its overall win rate per appearance (wins over
seat-games), i.e. 1/players in a game with one winner, 1/2 in Nerath's team games.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from typing import Any

from conquest.analysis.plan import ALPHA, FORMAT, Plan, wilson, z_for
from conquest.core.registry import get_ruleset


def ruleset_factors(ruleset: str, players: int, options: dict[str, Any]) -> dict[str, bool]:
    """The factors the ruleset names for each seat (from ``seat_factions`` on a game not yet played), each with
    whether the set-up already fixes it (a realm, a colour) rather than chance or the players' choices."""
    from conquest.core.records import Record
    rs = get_ruleset(ruleset)
    record = Record(ruleset=rs.id, rules_version=rs.rules_version, players=players, options=dict(options),
                    seats=[""] * players, seed=0)
    fixed: dict[str, bool] = {}
    for seat in rs.seat_factions(record, record.new_state()):
        for f, names in seat.items():
            fixed[f] = fixed.get(f, True) and bool(names)
    return fixed


def _r(x: float, nd: int = 4) -> float:
    return round(float(x), nd)


def _quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    k = (len(s) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summarise(plan: Plan, rows: Sequence[dict[str, Any]], factors: Sequence[str]) -> dict[str, Any]:
    from conquest.analysis.simulate import GameOutcome, Summary
    rs = get_ruleset(plan.ruleset)
    n = plan.players
    seat_names = rs.seat_names(n, plan.options)
    base = Summary(ruleset=rs.id, players=n, seats=seat_names, wins=[0] * n, score_sum=[0.0] * n)
    for r in rows:
        base.add(GameOutcome(r["seed"], r["result"], r["scores"], r["length"], r["error"], None,
                             json.loads(r["stats"]) if r["error"] is None else {}))
    done = [r for r in rows if r["error"] is None and r["result"] is not None]
    # appearances per factor and level: (seat, won, score, margin)
    seen: dict[str, dict[str, list[tuple[int, bool, float, float]]]] = {f: {} for f in factors}
    for r in done:
        scores = r["scores"] or [0.0] * n
        won = set(r["winners"] or [])
        facs = json.loads(r["factions"])
        for s in range(n):
            others = [scores[t] for t in range(n) if t != s]
            app = (s, s in won, float(scores[s]), float(scores[s]) - (max(others) if others else 0.0))
            for f in factors:
                if f == "seat":
                    levels = [f"{s}: {seat_names[s]}"]
                elif f == "agent":
                    levels = [r["agents"][s]]
                else:
                    levels = facs.get(f, [[]] * n)[s]
                for level in levels:
                    seen[f].setdefault(level, []).append(app)
    fixed = ruleset_factors(plan.ruleset, n, plan.options)
    comparisons = sum(len(v) for v in seen.values())
    z95 = z_for(ALPHA)
    z_adj = z_for(ALPHA / max(1, comparisons))
    out_factors: dict[str, Any] = {}
    for f in factors:
        by_level = seen[f]
        total = sum(len(a) for a in by_level.values())
        parity = sum(1 for a in by_level.values() for x in a if x[1]) / total if total else 0.0
        table = []
        for lv in sorted(by_level, key=lambda v: (int(v.split(":")[0]) if f == "seat" else 0, v)):
            a = by_level[lv]
            wins = sum(1 for x in a if x[1])
            lo, hi = wilson(wins, len(a), z95)
            alo, ahi = wilson(wins, len(a), z_adj)
            flag = "above" if alo > parity else "below" if ahi < parity else ""
            by_seat = [sum(1 for x in a if x[0] == s) for s in range(n)]
            table.append({"level": lv, "games": len(a), "wins": wins, "win_rate": _r(wins / len(a)),
                          "ci95": [_r(lo), _r(hi)], "ci_corrected": [_r(alo), _r(ahi)],
                          "mean_score": _r(sum(x[2] for x in a) / len(a), 3),
                          "mean_margin": _r(sum(x[3] for x in a) / len(a), 3), "flag": flag,
                          "by_seat": by_seat})
        out_factors[f] = {"how": _how(plan, f, fixed), "parity": _r(parity), "levels": table}
    lengths = [r["length"] for r in done]
    rounds = [r["rounds"] for r in done]
    return {
        "format": FORMAT, "plan": plan.to_json(), "seat_names": seat_names, "games": len(rows),
        "finished": len(done), "errors": base.errors, "error_samples": base.error_samples,
        "draws": base.draws, "shared_wins": base.shared,
        "design": {"period": plan.period, "balanced": len(rows) % plan.period == 0,
                   "dealt": plan.rotation[0] if plan.rotation else None,
                   "agents_rotated": len(set(plan.agents)) > 1},
        "correction": {"method": "Bonferroni", "comparisons": comparisons, "family_alpha": ALPHA,
                       "level": _r(1 - ALPHA / max(1, comparisons), 6)},
        "factors": out_factors,
        "length": _length(lengths, rounds),
        "scores_by_round": _scores_by_round(done, n),
        "stats": base.to_json()["stats"],
    }


def _how(plan: Plan, factor: str, fixed: dict[str, bool]) -> str:
    if factor == "seat":
        return ("seats: agents rotated over them" if len(set(plan.agents)) > 1 else "seats (every seat the same "
                "agent)") + (f"; {plan.rotation[0]} dealt evenly over them" if plan.rotation else "")
    if factor == "agent":
        return "agents, rotated so that each plays each seat equally often"
    if plan.rotation and plan.rotation[0] == factor:
        return "dealt by the run so that each plays from each seat equally often"
    if fixed.get(factor):
        return "tied to a seat by the rules (not rotated): the same effect as the seat's"
    return "observed: chosen or drawn during play (not rotated)"


def _length(lengths: list[int], rounds: list[int]) -> dict[str, Any]:
    if not lengths:
        return {"mean_actions": 0.0, "mean_rounds": 0.0, "histogram": {"edges": [], "counts": []}}
    lo, hi = min(lengths), max(lengths)
    bins = min(20, max(1, len(set(lengths))))
    width = max(1.0, (hi - lo) / bins)
    counts = [0] * bins
    for x in lengths:
        counts[min(bins - 1, int((x - lo) / width))] += 1
    return {"mean_actions": _r(sum(lengths) / len(lengths), 2), "min_actions": lo, "max_actions": hi,
            "quartiles_actions": [_r(_quantile(lengths, q), 2) for q in (0.25, 0.5, 0.75)],
            "mean_rounds": _r(sum(rounds) / len(rounds), 3), "min_rounds": min(rounds), "max_rounds": max(rounds),
            "rounds_counts": {str(k): rounds.count(k) for k in sorted(set(rounds))},
            "histogram": {"edges": [_r(lo + i * width, 2) for i in range(bins + 1)], "counts": counts}}


def _scores_by_round(rows: Sequence[dict[str, Any]], n: int) -> dict[str, Any]:
    per: dict[int, list[list[float]]] = {}
    for r in rows:
        for rnd, scores in json.loads(r["score_track"]):
            per.setdefault(int(rnd), []).append([float(x) for x in scores])
    rounds = sorted(per)
    seats = []
    for s in range(n):
        vals = [[sc[s] for sc in per[k]] for k in rounds]
        seats.append({"mean": [_r(sum(v) / len(v), 3) for v in vals],
                      "p10": [_r(_quantile(v, 0.1), 3) for v in vals],
                      "p90": [_r(_quantile(v, 0.9), 3) for v in vals]})
    return {"rounds": rounds, "games": [len(per[k]) for k in rounds], "seats": seats,
            "note": "each seat's score at the end of each round (the last entry of a game: its final scores), "
                    "over the games that reached that round"}


# -------------------------------------------------------------------------------------------- HTML
def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _plots(summary: dict[str, Any]) -> list[tuple[str, str]]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out = []
    for f, data in summary["factors"].items():
        levels = data["levels"]
        if not levels:
            continue
        shown = sorted(levels, key=lambda x: -x["games"])[:40]
        shown.sort(key=lambda x: x["win_rate"])
        fig, ax = plt.subplots(figsize=(7, 0.8 + 0.28 * len(shown)))
        y = list(range(len(shown)))
        rate = [x["win_rate"] for x in shown]
        err = [[x["win_rate"] - x["ci95"][0] for x in shown], [x["ci95"][1] - x["win_rate"] for x in shown]]
        colours = ["tab:red" if x["flag"] == "above" else "tab:blue" if x["flag"] == "below" else "tab:gray"
                   for x in shown]
        ax.errorbar(rate, y, xerr=err, fmt="none", ecolor="0.6", capsize=3)
        ax.scatter(rate, y, c=colours, zorder=3)
        ax.axvline(data["parity"], color="k", linestyle="--", linewidth=1, label=f"parity {data['parity']:.3f}")
        ax.set_yticks(y)
        ax.set_yticklabels([f"{x['level']} ({x['games']})" for x in shown], fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate, Wilson 95% interval (red/blue: above/below parity after correction)")
        more = f" — the {len(shown)} most played of {len(levels)}" if len(shown) < len(levels) else ""
        ax.set_title(f"win rate by {f}{more}")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
        out.append((f"Win rate by {f}", _png(fig)))
    hist = summary["length"]["histogram"]
    if hist["counts"]:
        fig, ax = plt.subplots(figsize=(7, 3))
        edges = hist["edges"]
        ax.bar(edges[:-1], hist["counts"], width=[b - a for a, b in zip(edges, edges[1:])], align="edge",
               color="tab:green", edgecolor="white")
        ax.set_xlabel("actions per game (chance outcomes included)")
        ax.set_ylabel("games")
        ax.set_title(f"game length (mean {summary['length']['mean_actions']} actions, "
                     f"{summary['length']['mean_rounds']} rounds)")
        out.append(("Game length", _png(fig)))
    sbr = summary["scores_by_round"]
    # rounds that at least a fifth of the games reached (later means are of the few longest games only)
    keep = [i for i, g in enumerate(sbr["games"]) if g * 5 >= summary["finished"]]
    if keep:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        rounds = [sbr["rounds"][i] for i in keep]
        for s, data in enumerate(sbr["seats"]):
            line, = ax.plot(rounds, [data["mean"][i] for i in keep], marker=".", label=summary["seat_names"][s])
            ax.fill_between(rounds, [data["p10"][i] for i in keep], [data["p90"][i] for i in keep], alpha=0.15,
                            color=line.get_color())
        ax.set_xlabel("round (those that at least 20% of the games reached)")
        ax.set_ylabel("score (mean, 10-90% band)")
        ax.set_title("scores at the end of each round, by seat")
        ax.legend(fontsize=8)
        out.append(("Scores over rounds", _png(fig)))
    return out


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    h = "".join(f"<th>{html.escape(str(x))}</th>" for x in head)
    b = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{h}</tr>{b}</table>"


def render_html(summary: dict[str, Any]) -> str:
    plan = summary["plan"]
    corr = summary["correction"]
    design = ("a whole number of periods: every agent and dealt faction played every seat equally often"
              if summary["design"]["balanced"] else "not a whole number of periods: counts per seat differ a little")
    parts = [f"<h1>Balance: {html.escape(plan['ruleset'])}</h1>",
             "<p>" + html.escape(
                 f"{summary['games']} games ({summary['finished']} finished, {summary['errors']} errors), "
                 f"{plan['players']} players, agents {', '.join(plan['agents'])}, seed {plan['seed']}, "
                 f"options {json.dumps(plan['options'], sort_keys=True)}.") + "</p>",
             "<p>" + html.escape(
                 f"Design: period {summary['design']['period']} games "
                 f"({design}). "
                 f"Flags: the interval at the {corr['method']}-corrected level {corr['level']:.4%} "
                 f"({corr['comparisons']} comparisons, family level {1 - corr['family_alpha']:.0%}) excludes "
                 f"parity. Draws: {summary['draws']}; games won by several seats together: "
                 f"{summary['shared_wins']}.") + "</p>"]
    plots = dict(_plots(summary))
    for f, data in summary["factors"].items():
        parts.append(f"<h2>By {html.escape(f)}</h2><p>{html.escape(data['how'])}; parity {data['parity']:.4f}</p>")
        img = plots.get(f"Win rate by {f}")
        if img:
            parts.append(f'<img alt="win rate by {html.escape(f)}" src="{img}">')
        parts.append(_table(
            ["level", "games", "wins", "win rate", "95% interval", "corrected interval", "mean score",
             "mean margin", "flag", "games per seat"],
            [[x["level"], x["games"], x["wins"], f"{x['win_rate']:.3f}",
              f"{x['ci95'][0]:.3f}–{x['ci95'][1]:.3f}", f"{x['ci_corrected'][0]:.3f}–{x['ci_corrected'][1]:.3f}",
              x["mean_score"], x["mean_margin"], x["flag"], " / ".join(map(str, x["by_seat"]))]
             for x in data["levels"]]))
    parts.append("<h2>Game length</h2>")
    if "Game length" in plots:
        parts.append(f'<img alt="game length" src="{plots["Game length"]}">')
    ln = summary["length"]
    parts.append(_table(["figure", "value"], [[k, json.dumps(v)] for k, v in ln.items() if k != "histogram"]))
    parts.append("<h2>Scores over rounds</h2>")
    if "Scores over rounds" in plots:
        parts.append(f'<img alt="scores over rounds" src="{plots["Scores over rounds"]}">')
    parts.append(f"<p>{html.escape(summary['scores_by_round']['note'])}</p>")
    if summary["stats"]:
        parts.append("<h2>Game figures</h2>")
        parts.append(_table(["figure", "mean per game", "total / counts"],
                            [[k, v.get("mean", ""), v.get("total", json.dumps(v.get("counts", {})))]
                             for k, v in summary["stats"].items()]))
    if summary["error_samples"]:
        parts.append("<h2>Errors</h2>" + _table(["game"], [[e] for e in summary["error_samples"]]))
    style = ("body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}table{border-collapse:"
             "collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%}img{max-width:100%}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Balance: {html.escape(plan['ruleset'])}"
            f"</title><style>{style}</style></head><body>" + "\n".join(parts) + "</body></html>\n")


def write_report(path: Any, summary: dict[str, Any]) -> None:
    from conquest.analysis.plan import _write_text
    _write_text(path, render_html(summary))
