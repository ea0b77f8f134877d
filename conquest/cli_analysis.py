"""The analysis commands of the ``conquest`` command line: balance reports, tournaments, exact odds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from typer.core import TyperCommand

from conquest.cli_common import VARIANT_HELP, _seats, err, fail, out, variant_options
from conquest.core.options import parse_option_pairs


def balance(ruleset: str = typer.Argument(..., help="ruleset id"),
            games: int = typer.Option(..., "--games", "-n", help="number of games (game i uses seed+i; at most "
                                                                   "100,000 in one run)"),
            agents: str = typer.Option("greedy", "--agents", help="agent specs, comma-separated: one for every "
                                                                  "seat, or one per seat (rotated over the seats)"),
            players: int | None = typer.Option(None, "--players", "-p"),
            option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
            variant: Path | None = typer.Option(None, "--variant", help=VARIANT_HELP),
            sweep: str | None = typer.Option(None, "--sweep", help="what if? NAME=V1,V2,... (an option or a "
                                             "variant field) or FILE.yaml (named variants): the same seeds under "
                                             "each, one comparison report"),
            seed: int = typer.Option(0, "--seed"),
            jobs: int = typer.Option(1, "--jobs", "-j", help="local processes, or LocalCluster workers"),
            backend: str = typer.Option("local", "--backend", help="local or dask"),
            scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler tcp://HOST:PORT "
                                                    "(default with --backend dask: a LocalCluster here)"),
            out_dir: Path = typer.Option(Path("balance-report"), "--out", help="folder for report.html, "
                                         "games.parquet and summary.json"),
            resume: bool = typer.Option(False, "--resume", help="continue the run stored in --out"),
            factor: list[str] = typer.Option([], "--factor", help="report only these factors (repeatable; "
                                             "default: all)"),
            as_json: bool = typer.Option(False, "--json", help="print the summary as one JSON object")) -> None:
    """Is it fair? Many games with seats rotated; win rates per seat and faction with intervals."""
    from conquest.analysis.balance import check_factors, make_out, prepare_out, run
    from conquest.analysis.dask_backend import make_backend
    from conquest.analysis.limits import MAX_JOBS, check_games, check_seed
    from conquest.analysis.plan import Plan
    check_games(games)
    check_seed(seed, games)
    if not 1 <= jobs <= MAX_JOBS:
        fail(f"--jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    plan = Plan.make(ruleset, _seats(agents), players, variant_options(ruleset, variant, option), seed)
    if sweep is not None:
        _sweep(plan, sweep, games, jobs, backend, scheduler, out_dir, resume, factor, as_json)
        return
    check_factors(plan, factor)
    engine = make_backend(backend, jobs, scheduler)   # the name checked; a Dask cluster is reached only later
    prepare_out(plan, out_dir, resume)  # the folder: refused now, before any game, when it cannot take the run
    make_out(out_dir)
    report = _BalanceProgress(ruleset)
    try:
        result = run(plan, games, out_dir, jobs=jobs, backend=engine, resume=resume, factors=factor or None,
                     progress=report.update)
    except KeyboardInterrupt:
        report.close()
        from conquest.analysis.plan import read_games
        err.print(f"interrupted: {len(read_games(out_dir)[1])} games are stored in {out_dir}; the same command "
                  f"with --resume continues", markup=False)
        raise typer.Exit(130) from None
    finally:
        report.close()
    data = result.summary
    if as_json:
        print(json.dumps(data))
        return
    out.print(f"{ruleset}: {data['games']} games ({result.played} played now, {result.seconds:.1f} s), "
              f"{data['finished']} finished, {data['errors']} errors; mean length "
              f"{data['length']['mean_actions']} actions, {data['length']['mean_rounds']} rounds", markup=False)
    corr = data["correction"]
    for name, fac in data["factors"].items():
        table = Table(title=f"by {name}: {fac['how']}; parity {fac['parity']:.3f}")
        table.add_column(name, overflow="fold")
        for head in ("games", "win rate", "95% interval", "mean score", "mean margin", "flag"):
            table.add_column(head, no_wrap=True)
        for x in fac["levels"]:
            table.add_row(x["level"], str(x["games"]), f"{x['win_rate']:.3f}",
                          f"{x['ci95'][0]:.3f}-{x['ci95'][1]:.3f}", f"{x['mean_score']:.2f}",
                          f"{x['mean_margin']:.2f}", x["flag"])
        out.print(table)
    out.print(f"flags: the {corr['method']}-corrected interval ({corr['comparisons']} comparisons, level "
              f"{corr['level']:.4%}) excludes parity", markup=False)
    out.print(f"report: {out_dir / 'report.html'}", markup=False)
    if data["errors"]:
        for e in data["error_samples"]:
            err.print(f"error in {e}", markup=False)
        raise typer.Exit(1)


def _sweep(plan: Any, sweep: str, games: int, jobs: int, backend: str, scheduler: str | None, out_dir: Path,
           resume: bool, factor: list[str], as_json: bool) -> None:
    """``conquest balance --sweep``: every arm checked (and the folder) before any game; one comparison."""
    from conquest.analysis.balance import check_factors
    from conquest.analysis.dask_backend import make_backend
    from conquest.analysis.sweep import arms_of, prepare_sweep, run_sweep
    arms = arms_of(plan, sweep)
    for arm in arms:
        check_factors(arm.plan, factor)
    make_backend(backend, jobs, scheduler)
    prepare_sweep(arms, out_dir, resume)
    bars: dict[str, _BalanceProgress] = {}

    def progress(label: str, done: int, total: int) -> None:
        if label not in bars:
            for b in bars.values():
                b.close()
            bars[label] = _BalanceProgress(f"{plan.ruleset} {label}")
        bars[label].update(done, total)
    try:
        data = run_sweep(arms, games, out_dir, jobs=jobs, backend_factory=lambda: make_backend(backend, jobs,
                         scheduler), resume=resume, factors=factor or None, progress=progress)
    except KeyboardInterrupt:
        err.print(f"interrupted: the games played are stored in {out_dir}; the same command with --resume "
                  f"continues", markup=False)
        raise typer.Exit(130) from None
    finally:
        for b in bars.values():
            b.close()
    if as_json:
        print(json.dumps(data))
        return
    out.print(f"{plan.ruleset}: {len(arms)} arms of {games} games on the same seeds", markup=False)
    for line in data["changed"]:
        out.print("- " + line, markup=False)
    out.print(f"report: {out_dir / 'report.html'}", markup=False)
    if any(a["errors"] for a in data["arms"]):
        err.print("some games ended in an error: see the arms' reports", markup=False)
        raise typer.Exit(1)


class _BalanceProgress:
    """A progress bar with an ETA on a terminal; otherwise one line per 10% of the games."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.task: Any = None
        self.next_tenth = 1
        self.start: float | None = None
        self.first = 0

    def update(self, done: int, total: int) -> None:
        if err.is_terminal:
            if self.bar is None:
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )
                self.bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                                    TimeElapsedColumn(), "ETA", TimeRemainingColumn(), console=err, transient=True)
                self.bar.start()
                self.task = self.bar.add_task(self.label, total=total, completed=done)
            self.bar.update(self.task, completed=done)
            return
        import time
        if self.start is None:
            self.start, self.first = time.monotonic(), done
            self.next_tenth = done * 10 // total + 1 if total else 11
            return
        tenth = done * 10 // total if total else 0
        if tenth >= self.next_tenth:
            self.next_tenth = tenth + 1
            elapsed = time.monotonic() - self.start
            eta = elapsed / (done - self.first) * (total - done) if done > self.first else 0.0
            err.print(f"{self.label}: {done}/{total} games ({done * 100 // total}%), {elapsed:.0f} s, "
                      f"ETA {eta:.0f} s", markup=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def tournament(ruleset: str = typer.Argument(..., help="ruleset id"),
               agents: str = typer.Option(..., "--agents", "-a", help="comma-separated agent specs, e.g. "
                                          "ismcts:time=1.0,greedy,random"),
               games: int = typer.Option(20, "--games", "-n", help="games per pairing (seats rotated evenly)"),
               players: int | None = typer.Option(None, "--players", "-p"),
               jobs: int = typer.Option(1, "--jobs", "-j", help="parallel processes"),
               seed: int = typer.Option(0, "--seed", help="game i uses seed+i"),
               option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
               variant: Path | None = typer.Option(None, "--variant", help=VARIANT_HELP),
               as_json: bool = typer.Option(False, "--json", help="print the results as one JSON object")) -> None:
    """Every pairing of agents (more than two seats: each against copies of the other), with scores, Wilson
    95% intervals, the seat advantage and openskill ratings (see conquest/analysis/tournament.py)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from conquest.analysis.tournament import tournament as run
    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    if jobs < 1:
        fail(f"--jobs must be at least 1, got {jobs}")
    from conquest.analysis.limits import check_seed
    check_seed(seed, games)
    specs = _seats(agents)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as prog:
        task = prog.add_task(f"{ruleset} tournament", total=None)
        data = run(ruleset, specs, games, players=players, options=variant_options(ruleset, variant, option),
                   seed=seed, jobs=jobs, progress=lambda: prog.advance(task))
    if as_json:
        print(json.dumps(data))
    else:
        n = data["players"]
        out.print(f"{data['ruleset']}, {n} players: {data['games']} games"
                  + ("" if n == 2 else f" (one A against {n - 1} copies of B; par score {1 / n:.2f})"),
                  markup=False)
        table = Table("A", "B", "games", "A wins", "B wins", "draws", "A score", "95% interval",
                      "seat 0 score")
        for p in data["pairs"]:
            table.add_row(p["a"], p["b"], str(p["games"]), str(p["a_wins"]), str(p["b_wins"]), str(p["draws"]),
                          f"{p['a_score']:.3f}", f"{p['ci_low']:.3f}-{p['ci_high']:.3f}", f"{p['seat0_score']:.3f}")
        out.print(table)
        out.print("ratings (openskill ordinal): " + ", ".join(
            f"{a} {r:g}" for a, r in sorted(data["ratings"].items(), key=lambda x: -x[1])), markup=False)
        for e in data["error_samples"]:
            err.print(f"error in {e}", markup=False)
    if data["errors"]:
        raise typer.Exit(1)


MAX_MONTE_CARLO = 20_000
"""The most games ``--monte-carlo`` plays (a battle takes 0.3-2 ms through the rules: well under a minute)."""


ODDS_CPU_SECONDS = 30
"""The CPU time ``conquest odds`` may spend on one answer: a backstop behind the size limits above, for what they
cannot foresee (a ``--state`` position's battle of hundreds of pieces, a long enumeration of dice)."""


class _OverBudget(Exception):
    pass


class _CpuBudget:
    """Stop the computation inside after ``seconds`` of this process's CPU time (a profiling timer, where the
    platform has one): ``_OverBudget`` is raised in it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.old: Any = None

    def __enter__(self) -> _CpuBudget:
        import signal
        if hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF"):
            def over(_sig: int, _frame: Any) -> None:
                raise _OverBudget()
            self.old = signal.signal(signal.SIGPROF, over)
            signal.setitimer(signal.ITIMER_PROF, self.seconds)
        return self

    def __exit__(self, *exc: Any) -> None:
        import signal
        if self.old is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self.old)


class OddsCommand(TyperCommand):
    """``conquest odds``: its help also lists each game's calculator options (``Ruleset.calculator``)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        from conquest.core.registry import rulesets
        for rs in rulesets().values():
            calc = rs.calculator()
            if calc is None:
                continue
            rows = [(f"--{f.name}" + (" VALUE" if f.kind != "flag" else ""), f.help) for f in calc.fields]
            if calc.monte_carlo:
                rows.append(("--monte-carlo N", f"play N games by the rules instead (a cross-check; at most "
                                                f"{MAX_MONTE_CARLO:,})"))
            with formatter.section(f"{rs.id}: {calc.title} (conquest odds {rs.id} ...)"):
                formatter.write_dl(rows)


def odds(ctx: typer.Context,
         ruleset: str = typer.Argument(..., help="ruleset id"),
         monte_carlo: int | None = typer.Option(None, "--monte-carlo", min=1,
                                                   help="with a game's calculator: play N games by the rules "
                                                        "instead (a cross-check; at most 20,000)"),
         option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
         state_file: Path | None = typer.Option(None, "--state", help="a conquest-state/1 JSON position"),
         action: str | None = typer.Option(None, "--action", help="the action to weigh, in notation"),
         seed: int = typer.Option(0, "--seed", help="seed of --monte-carlo"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Exact odds: the outcomes of an action that leads into dice (--state FILE --action "..."), or a game's
    calculator, given its own options (listed below, e.g. conquest odds RULESET --attacker ... --defender ...)."""
    from conquest.core.registry import get_ruleset
    rs = get_ruleset(ruleset)
    try:
        with _CpuBudget(ODDS_CPU_SECONDS):
            _odds(rs, list(ctx.args), monte_carlo, option, state_file, action, seed, as_json)
    except _OverBudget:
        fail(f"the answer would take more than {ODDS_CPU_SECONDS} CPU seconds: a smaller battle or position")


def calculator_values(calc: Any, args: list[str]) -> dict[str, Any]:
    """The calculator's inputs from the command line's remaining arguments: ``--NAME VALUE`` (or
    ``--NAME=VALUE``) for a text field, ``--NAME`` for a flag; a field not given holds its default. An unknown
    option, a missing value or a field given twice is a one-line error naming the options."""
    by_name = {f.name: f for f in calc.fields}
    values = {f.key: f.default for f in calc.fields}
    given: set[str] = set()
    known = ", ".join(f"--{f.name}" for f in calc.fields)
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=")
        field = by_name.get(name[2:]) if name.startswith("--") else None
        if field is None:
            fail(f"{arg.split('=')[0][:40]}: not an option of this command or of the {calc.title} (it takes "
                 f"{known})" if arg.startswith("-") else f"unexpected argument '{arg[:40]}'")
            return values
        if field.name in given:
            fail(f"--{field.name} is given twice")
        given.add(field.name)
        if field.kind == "flag":
            if eq:
                fail(f"--{field.name} takes no value")
            values[field.key] = True
        elif eq:
            values[field.key] = inline
        else:
            if i + 1 >= len(args):
                fail(f"--{field.name} needs a value")
            i += 1
            values[field.key] = args[i]
        i += 1
    return values


def _odds(rs: Any, extra: list[str], monte_carlo: int | None, option: list[str], state_file: Path | None,
          action: str | None, seed: int, as_json: bool) -> None:
    from conquest.core.odds import OddsError
    try:
        if state_file is not None or action is not None:
            if state_file is None or action is None:
                fail("--state and --action go together (the position and the action to weigh)")
            if extra:
                fail(f"{extra[0][:40]}: --state and --action weigh a position's action; a calculator's options "
                     f"do not go with them")
            assert state_file is not None and action is not None
            from conquest.core.jsondoc import read_json_file
            doc = read_json_file(state_file, "state")
            data = rs.action_odds(rs.state_from_json(doc), action)
            if as_json:
                print(json.dumps(data))
                return
            out.print(f"{rs.id}: odds of '{data['action']}' ({data['method']}, {data['seconds']} s)", markup=False)
            table = Table("outcome", "probability")
            for o in data["outcomes"]:
                table.add_row(o["outcome"] if isinstance(o["outcome"], str) else json.dumps(o["outcome"]),
                              f"{o['probability']:.6f}")
            out.print(table)
            return
        calc = rs.calculator()
        if calc is None:
            fail(f"{rs.id} has no calculator: give --state FILE --action \"...\" (the odds of a position's action)")
        values = calculator_values(calc, extra)
        if monte_carlo is not None:
            if not calc.monte_carlo:
                fail(f"--monte-carlo: the {calc.title} has no Monte Carlo cross-check")
            if monte_carlo > MAX_MONTE_CARLO:
                fail(f"--monte-carlo {monte_carlo}: at most {MAX_MONTE_CARLO:,} games")
        from conquest.analysis.limits import check_seed
        check_seed(seed)
        opts = rs.options().resolve(parse_option_pairs(option))
        data, report = calc.cli(values, opts, monte_carlo, seed)
    except OddsError as e:
        fail(str(e))
    if as_json:
        print(json.dumps(data))
        return
    for block in report:
        if isinstance(block, str):
            out.print(block, markup=False)
        else:
            head, rows = block
            table = Table(*head)
            for row in rows:
                table.add_row(*row)
            out.print(table)

