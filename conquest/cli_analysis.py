"""The analysis commands of the ``conquest`` command line: balance reports, tournaments, exact odds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.table import Table

from conquest.cli_common import PLAYERS_HELP, _seats, err, fail, out
from conquest.core.errors import ConquestError
from conquest.core.options import parse_option_pairs


def balance(ruleset: str = typer.Argument(..., help="ruleset id"),
            games: int = typer.Option(..., "--games", "-n", help="number of games (game i uses seed+i; at most "
                                                                   "100,000 in one run)"),
            agents: str = typer.Option("greedy", "--agents", help="agent specs, comma-separated: one for every "
                                                                  "seat, or one per seat (rotated over the seats)"),
            players: Optional[int] = typer.Option(None, "--players", "-p"),
            option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
            seed: int = typer.Option(0, "--seed"),
            jobs: int = typer.Option(1, "--jobs", "-j", help="local processes, or LocalCluster workers"),
            backend: str = typer.Option("local", "--backend", help="local or dask"),
            scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler tcp://HOST:PORT "
                                                    "(default with --backend dask: a LocalCluster here)"),
            out_dir: Path = typer.Option(Path("balance-report"), "--out", help="folder for report.html, "
                                         "games.parquet and summary.json"),
            resume: bool = typer.Option(False, "--resume", help="continue the run stored in --out"),
            factor: list[str] = typer.Option([], "--factor", help="report only these factors (repeatable; "
                                             "default: all)"),
            as_json: bool = typer.Option(False, "--json", help="print the summary as one JSON object")) -> None:
    """Is it fair? Many games with seats rotated; win rates per seat and faction with intervals."""
    from conquest.analysis.balance import Plan, check_factors, make_out, prepare_out, run
    from conquest.analysis.dask_backend import make_backend
    from conquest.analysis.limits import MAX_JOBS, check_games, check_seed
    check_games(games)
    check_seed(seed, games)
    if not 1 <= jobs <= MAX_JOBS:
        fail(f"--jobs must be from 1 to {MAX_JOBS}, not {jobs}")
    plan = Plan.make(ruleset, _seats(agents), players, parse_option_pairs(option), seed)
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
        from conquest.analysis.balance import read_games
        err.print(f"interrupted: {len(read_games(out_dir)[1])} games are stored in {out_dir}; the same command "
                  f"with --resume continues", markup=False)
        raise typer.Exit(130)
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
                from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn,
                                           TimeRemainingColumn)
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
               players: Optional[int] = typer.Option(None, "--players", "-p"),
               jobs: int = typer.Option(1, "--jobs", "-j", help="parallel processes"),
               seed: int = typer.Option(0, "--seed", help="game i uses seed+i"),
               option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
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
        data = run(ruleset, specs, games, players=players, options=parse_option_pairs(option), seed=seed,
                   jobs=jobs, progress=lambda: prog.advance(task))
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


MAX_BATTLE_PIECES = 100
"""The most pieces one side of a battle may list (attacker, defender, ally) for ``conquest odds``."""
MAX_BATTLE_STATES = 100_000
"""The most cells of a battle's chain (attacker states x defender states, an ally's multiplying them) that
``conquest odds`` solves: about 2-3 CPU seconds at the limit (docs/odds.md)."""
MAX_MONTE_CARLO = 20_000
"""The most battles ``--monte-carlo`` plays (0.3-2 ms each through the rules: well under a minute)."""


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

    def __enter__(self) -> "_CpuBudget":
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


def _check_battle_size(sides: dict[str, list[str]], sea: bool, order: str) -> None:
    """Refuse, before any work, a battle larger than the calculator answers in seconds: more than
    ``MAX_BATTLE_PIECES`` on a side, or a chain of more than ``MAX_BATTLE_STATES`` cells (with facedown
    Guardians, summed over the deals weighed)."""
    import math

    from conquest.analysis.odds import NerathBattle
    from conquest.rulesets.nerath.data import guardian_tiles
    from conquest.rulesets.nerath.odds_sides import FACEDOWN, _Side
    for who, pieces in sides.items():
        if len(pieces) > MAX_BATTLE_PIECES:
            fail(f"--{who}: {len(pieces)} pieces; a side may list at most {MAX_BATTLE_PIECES} pieces")
    if "guardians" in sides:
        tiles = sides["guardians"]
        pool = sorted(set(guardian_tiles()) - set(tiles))
        m = tiles.count(FACEDOWN)
        if m > len(pool):
            return   # the calculator refuses it in its own words
        deals = (math.perm if order == "listed" else math.comb)(len(pool), m)
        concrete = [t if t != FACEDOWN else pool.pop() for t in tiles]
        if len(set(concrete)) < len(concrete):
            return   # a tile twice: refused by the calculator
        one = NerathBattle(sides["attacker"], concrete, dungeon=True)
        hits = [one.a.K, one.d.K]
    else:
        hits = [_Side(pieces, who == "attacker", sea, "cheapest", {}, True, who=who).K
                for who, pieces in sides.items()]
        deals = 1
    states = deals
    for k in hits:
        states *= k + 1
    if states > MAX_BATTLE_STATES:
        fail(f"this battle's chain has {'about ' if deals > 1 else ''}{states:,} states (hits each side can take: "
             f"{', '.join(f'{w} {k}' for w, k in zip(sides, hits))}"
             + (f"; {deals:,} deals of the facedown Guardians" if deals > 1 else "")
             + f"): the calculator solves at most {MAX_BATTLE_STATES:,} (fewer pieces)")


def odds(ruleset: str = typer.Argument(..., help="ruleset id"),
         attacker: Optional[str] = typer.Option(None, "--attacker", help="nerath: attacking pieces in order, "
                                                "e.g. \"footsoldier,2 siege,dragon\""),
         defender: Optional[str] = typer.Option(None, "--defender", help="nerath: defending pieces (a castle too); "
                                                "with --dungeon the Guardians, e.g. \"guardian:troll,facedown\""),
         ally: Optional[str] = typer.Option(None, "--ally", help="nerath: the pieces of the defender's ally in the "
                                            "space (allied defenders split the damage)"),
         sea: bool = typer.Option(False, "--sea", help="nerath: a sea battle"),
         dungeon: bool = typer.Option(False, "--dungeon", help="nerath: Heroes exploring a dungeon entrance "
                                      "against its Guardians (--defender)"),
         order: str = typer.Option("cheapest", "--order", help="nerath casualties: cheapest or listed"),
         press: str = typer.Option("always", "--press", help="nerath: always, or until-below=K pieces"),
         monte_carlo: Optional[int] = typer.Option(None, "--monte-carlo", min=1,
                                                   help="play N battles by the rules instead (a cross-check; at "
                                                        "most 20,000)"),
         attacker_cards: str = typer.Option("", "--attacker-cards", help="attack-bonus cards, comma-separated"),
         defender_cards: str = typer.Option("", "--defender-cards", help="attack-bonus cards, comma-separated"),
         ally_cards: str = typer.Option("", "--ally-cards", help="the ally's attack-bonus cards"),
         option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
         state_file: Optional[Path] = typer.Option(None, "--state", help="a conquest-state/1 JSON position"),
         action: Optional[str] = typer.Option(None, "--action", help="the action to weigh, in notation"),
         seed: int = typer.Option(0, "--seed", help="seed of --monte-carlo"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Exact odds: the Nerath battle calculator, or the outcomes of an action that leads into dice."""
    from conquest.core.registry import get_ruleset
    rs = get_ruleset(ruleset)
    try:
        with _CpuBudget(ODDS_CPU_SECONDS):
            _odds(rs, attacker, defender, ally, sea, dungeon, order, press, monte_carlo, attacker_cards,
                  defender_cards, ally_cards, option, state_file, action, seed, as_json)
    except _OverBudget:
        fail(f"the answer would take more than {ODDS_CPU_SECONDS} CPU seconds: a smaller battle or position")


def _odds(rs: Any, attacker: Optional[str], defender: Optional[str], ally: Optional[str], sea: bool, dungeon: bool,
          order: str, press: str, monte_carlo: Optional[int], attacker_cards: str, defender_cards: str,
          ally_cards: str, option: list[str], state_file: Optional[Path], action: Optional[str], seed: int,
          as_json: bool) -> None:
    from conquest.core.odds import OddsError
    try:
        if state_file is not None or action is not None:
            if state_file is None or action is None:
                fail("--state and --action go together (the position and the action to weigh)")
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
        if rs.id != "nerath":
            fail(f"the battle calculator is for nerath; for {rs.id} give --state FILE --action \"...\"")
        if attacker is None or defender is None:
            fail("give both --attacker and --defender (pieces, comma-separated)")
        from conquest.analysis.odds import Battle, NerathBattle, dungeon_battle, parse_guardians, parse_pieces
        assert attacker is not None and defender is not None
        if monte_carlo is not None and monte_carlo > MAX_MONTE_CARLO:
            fail(f"--monte-carlo {monte_carlo}: at most {MAX_MONTE_CARLO:,} battles")
        from conquest.analysis.limits import check_seed
        check_seed(seed)
        opts = rs.options().resolve(parse_option_pairs(option))
        sides = {"attacker": parse_pieces(attacker, "attacker")}
        if dungeon:
            sides["guardians"] = parse_guardians(defender, "defender")
        else:
            sides["defender"] = parse_pieces(defender, "defender")
            if ally is not None:
                sides["ally"] = parse_pieces(ally, "ally")
        _check_battle_size(sides, sea, order)
        battle: Battle
        if dungeon:
            if sea or ally is not None or defender_cards or ally_cards:
                fail("--dungeon: Heroes fight the Guardians of a dungeon entrance (no --sea, --ally or "
                     "--defender-cards)")
            battle = dungeon_battle(parse_pieces(attacker, "attacker"), parse_guardians(defender, "defender"),
                                    order=order, press=press, attacker_cards=_seats(attacker_cards),
                                    heroes_need_lasts=str(opts["heroes_need_lasts"]))
        else:
            battle = NerathBattle(parse_pieces(attacker, "attacker"), parse_pieces(defender, "defender"), sea=sea,
                                  order=order, press=press, attacker_cards=_seats(attacker_cards),
                                  defender_cards=_seats(defender_cards),
                                  hurt_dragon_fights=bool(opts["hurt_dragon_fights"]),
                                  ally=parse_pieces(ally, "ally") if ally is not None else None,
                                  ally_cards=_seats(ally_cards))
        if monte_carlo is not None:
            from conquest.analysis.odds import monte_carlo as run_mc
            result = run_mc(battle, monte_carlo, seed)
        else:
            result = battle.solve()
    except OddsError as e:
        fail(str(e))
    data = result.to_json()
    if as_json:
        print(json.dumps(data))
        return
    if dungeon:
        head = (f"dungeon battle: {len(battle.attacker_pieces)} Heroes against the Guardians "
                f"{', '.join(battle.defender_pieces)}")
    else:
        allies = f" and {len(ally_list)} of an ally" if (ally_list := getattr(battle, "ally_pieces", [])) else ""
        head = (f"{'sea' if sea else 'land'} battle: {len(battle.attacker_pieces)} attacking against "
                f"{len(battle.defender_pieces)} defending{allies}")
    out.print(f"{head}; casualties {order}, press {battle.press}", markup=False)
    table = Table("result", "probability")
    table.add_row("attacker wins (plunders the dungeon)" if dungeon else "attacker wins (conquers)",
                  f"{data['attacker_wins']:.6f}")
    table.add_row("the Guardians hold" if dungeon else "defender holds", f"{data['defender_holds']:.6f}"
                  + (f"  (retreats {data['attacker_retreats']:.6f})" if data["attacker_retreats"] else ""))
    table.add_row("both destroyed", f"{data['both_destroyed']:.6f}")
    out.print(table)
    for who in ("attacker", "defender"):
        st = Table(f"{who} survivors", "probability")
        rows = data[f"{who}_survivors"]
        for row in rows[:8]:
            text = ("; ".join(f"{r}: {', '.join(p) or '(none)'}" for r, p in row["by_realm"].items())
                    if "by_realm" in row else ", ".join(row["pieces"]) or "(none)")
            st.add_row(text, f"{row['probability']:.6f}")
        if len(rows) > 8:
            st.add_row(f"... {len(rows) - 8} more", f"{sum(r['probability'] for r in rows[8:]):.6f}")
        out.print(st)
    gold = data["expected_gold_lost"]
    out.print(f"expected gold lost: attacker {gold['attacker']:.4f}, defender {gold['defender']:.4f}; "
              f"expected rounds {data['expected_rounds']:.4f}", markup=False)
    if dungeon:
        out.print(f"a won dungeon: a Treasure card and the Guardians' Rewards, {data['reward_gold']:.4g} gold "
                  f"(expected {data['expected_reward_gold']:.4f})", markup=False)
    out.print(f"method: {data['method']}; {data['seconds']} s", markup=False)
