"""The ``conquest`` command. Thin: parses arguments and calls the layers below."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE
from conquest.core.notation import is_digits
from conquest.core.options import parse_option_pairs

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Conquest: territory-conquest board games played exactly by their rules.")
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> None:
    err.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def _seats(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


@app.command()
def rulesets() -> None:
    """List the rulesets: id, title, players."""
    from conquest.core.registry import rulesets as all_rulesets
    for rs in all_rulesets().values():
        players = (f"{rs.min_players}" if rs.min_players == rs.max_players
                   else f"{rs.min_players}-{rs.max_players}")
        out.print(f"{rs.id:<11} {rs.title}  ({players} players)", markup=False)


@app.command()
def info(ruleset: str = typer.Argument(..., help="ruleset id")) -> None:
    """Show a ruleset's options with their defaults and help."""
    from conquest.core.registry import get_ruleset
    rs = get_ruleset(ruleset)
    out.print(f"{rs.id}: {rs.title} (rules {rs.rules_version}), {rs.min_players}-{rs.max_players} players",
              markup=False)
    if rs.summary:
        out.print(rs.summary, markup=False)
    table = Table("option", "default", "choices", "help")
    for o in rs.options().describe():
        choices = ", ".join(str(c) for c in o.get("choices", [])) or (
            f"{o.get('minimum', '')}..{o.get('maximum', '')}" if "minimum" in o else "")
        table.add_row(o["name"], str(o["default"]), choices, o["help"])
    out.print(table)


def _prompt(text: str) -> str | None:
    out.print(text, end="", markup=False)
    line = sys.stdin.readline()
    if line == "":
        return None
    return line.strip()


@app.command()
def play(ruleset: str = typer.Argument(..., help="ruleset id (see `conquest rulesets`)"),
         players: Optional[int] = typer.Option(None, "--players", "-p", help="number of players"),
         seats: Optional[str] = typer.Option(None, "--seats", help="comma-separated, one per seat: human, random, "
                                             "greedy, mcts (default: human, then greedy; one name: every seat)"),
         seed: Optional[int] = typer.Option(None, "--seed", help="seed for dice and agents (default: random)"),
         option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value (repeatable)"),
         save: Optional[Path] = typer.Option(None, "--save", help="write the game record (JSON) here"),
         start_state: Optional[Path] = typer.Option(None, "--state", help="start from this position "
                                                    "(conquest-state/1 JSON, e.g. saved by the web app or a "
                                                    "scenario's set-up)")) -> None:
    """Play in the terminal: the board as text, the legal actions numbered; type notation or a number."""
    from conquest.agents.base import get_agent
    from conquest.analysis.runner import sample_chance
    from conquest.core.records import Record
    from conquest.core.registry import get_ruleset

    rs = get_ruleset(ruleset)
    opts = parse_option_pairs(option)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    state = rs.new_game(players, opts, seed)
    start_doc = None
    if start_state is not None:
        try:
            start_doc = json.loads(start_state.read_text())
        except OSError as e:
            fail(f"cannot read {start_state}: {e.strerror}")
        except json.JSONDecodeError as e:
            fail(f"{start_state}: not JSON ({e.msg} at line {e.lineno})")
        state = rs.state_from_json(start_doc)
    seat_list = _seats(seats) if seats else ["human"] + ["greedy"] * (state.players - 1)
    if len(seat_list) == 1:
        seat_list = seat_list * state.players
    if len(seat_list) != state.players:
        fail(f"{len(seat_list)} seats given for {state.players} players (use --seats with {state.players} names)")
    agents = {i: get_agent(s) for i, s in enumerate(seat_list) if s != "human"}
    names = rs.seat_names(state.players, state.options)
    rng = random.Random(seed)
    record = Record(ruleset=rs.id, rules_version=rs.rules_version, players=state.players,
                    options=dict(state.options), seats=seat_list, seed=seed, start=start_doc)
    out.print(f"{rs.title} — seed {seed} — " + ", ".join(f"{names[i]}: {s}" for i, s in enumerate(seat_list)),
              markup=False)
    out.print("Type an action in notation or its number; 'board' shows the board, 'undo' takes back your "
              "last action, 'help' lists commands, 'quit' ends.", markup=False)
    history: list[tuple[Any, int | None]] = []  # (state before, seat) of each step, for undo

    def finish(note: str | None = None) -> None:
        if note:
            out.print(note, markup=False)
        res = state.result()
        record.result = list(res) if res is not None else None
        record.scores = list(state.scores())
        if save:
            try:
                record.save(save)
                out.print(f"record saved to {save}", markup=False)
            except OSError as e:
                fail(f"cannot write {save}: {e.strerror}")

    shown_for: int | None = None
    while state.to_move is not None:
        seat = state.to_move
        a: Any
        if seat == CHANCE:
            a = sample_chance(state, rng)
            out.print(f"  chance: {rs.format_action(a)}", markup=False)
        elif seat in agents:
            a = agents[seat].choose(state, rng)
            out.print(f"  {names[seat]} ({seat_list[seat]}): {rs.format_action(a)}", markup=False)
        else:
            if shown_for != id(state):
                out.print("", markup=False)
                out.print(rs.render_text(state, seat), markup=False)
                shown_for = id(state)
            legal = list(state.legal_actions())
            out.print(f"\n{names[seat]} to move. Legal actions:", markup=False)
            for i, la in enumerate(legal, start=1):
                out.print(f"  {i:>3}. {rs.format_action(la):<24} {rs.describe_action(state, la)}", markup=False)
            a = None
            while a is None:
                line = _prompt(f"{names[seat]}> ")
                if line is None:
                    finish("input ended before the game did")
                    raise typer.Exit(1)
                if not line:
                    continue
                if line in ("quit", "exit"):
                    finish("game abandoned")
                    raise typer.Exit(0)
                if line == "board":
                    out.print(rs.render_text(state, seat), markup=False)
                    continue
                if line == "help":
                    out.print("commands: an action in notation, the number of a listed action, board, undo, quit",
                              markup=False)
                    continue
                if line == "undo":
                    # only your own steps since the last die roll or other seat's action can be taken back
                    if history and history[-1][1] == seat:
                        state = history.pop()[0]
                        record.actions.pop()
                        out.print("  taken back", markup=False)
                        break
                    out.print("  nothing of yours to take back (a die roll or another seat acted since)",
                              markup=False)
                    continue
                try:
                    if is_digits(line):
                        k = int(line)
                        if not 1 <= k <= len(legal):
                            raise ConquestError(f"choose a number from 1 to {len(legal)}")
                        a = legal[k - 1]
                    else:
                        a = state.check(line)
                except ConquestError as e:
                    out.print(f"  refused: {e}", markup=False)
                    a = None
        if a is None:  # undo
            shown_for = None
            continue
        record.actions.append(rs.format_action(a))
        history.append((state, seat))
        state = state.apply(a)
    out.print("", markup=False)
    out.print(rs.render_text(state, None), markup=False)
    res = state.result() or ()
    scores = state.scores()
    best = max(res) if res else 0
    winners = [names[i] for i, r in enumerate(res) if r == best]
    out.print("Game over: " + ", ".join(f"{names[i]} {scores[i]:g}" for i in range(state.players))
              + (f" — {winners[0]} wins" if len(winners) == 1 else " — shared: " + ", ".join(winners)),
              markup=False)
    finish()


@app.command()
def simulate(ruleset: str = typer.Argument(..., help="ruleset id"),
             games: int = typer.Option(100, "--games", "-n", min=1, help="number of games"),
             seats: str = typer.Option("random", "--seats", help="comma-separated agents, one per seat "
                                                                 "(one name: every seat)"),
             players: Optional[int] = typer.Option(None, "--players", "-p"),
             seed: int = typer.Option(0, "--seed", help="game i uses seed+i"),
             jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="parallel processes"),
             option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
             records: Optional[Path] = typer.Option(None, "--records", help="save every game record here"),
             as_json: bool = typer.Option(False, "--json", help="print the summary as one JSON object")) -> None:
    """Play many games between agents (in parallel with --jobs) and summarise them."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from conquest.analysis.simulate import simulate as run
    from conquest.agents.base import get_agent
    from conquest.core.registry import get_ruleset
    opts = parse_option_pairs(option)
    get_ruleset(ruleset).new_game(players, opts, seed)  # bad ruleset, players or options: fail before the bar
    for s in _seats(seats):
        get_agent(s)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as prog:
        task = prog.add_task(f"{ruleset}", total=games)
        summary = run(ruleset, games, _seats(seats), players=players, options=opts, seed=seed, jobs=jobs,
                      records_dir=str(records) if records else None,
                      progress=lambda o: prog.advance(task))
    data = summary.to_json()
    if as_json:
        print(json.dumps(data))
        return
    out.print(f"{data['ruleset']}: {data['games']} games, {data['finished']} finished, {data['errors']} errors, "
              f"{data['mean_actions']} actions per game, {data['seconds']} s", markup=False)
    table = Table("seat", "agent", "wins", "win rate", "mean score")
    for i, s in enumerate(data["seats"]):
        table.add_row(str(i), s, str(data["wins"][i]), f"{data['win_rates'][i]:.1%}",
                      f"{data['mean_scores'][i]:.2f}")
    out.print(table)
    if data["stats"]:
        st = Table("figure", "mean per game", "total / counts")
        for k, v in data["stats"].items():
            if "counts" in v:
                st.add_row(k, "", ", ".join(f"{name} {n}" for name, n in v["counts"].items()))
            else:
                st.add_row(k, f"{v['mean']:g}", f"{v['total']:g}")
        out.print(st)
    if data["shared_wins"]:
        out.print(f"games won by several seats together (allies or ties): {data['shared_wins']}, "
                  f"of which draws (every seat equal): {data['draws']}", markup=False)
    for e in data["error_samples"]:
        err.print(f"error in {e}", markup=False)
    if summary.errors:
        raise typer.Exit(1)


@app.command()
def replay(file: Path = typer.Argument(..., help="a conquest-record/1 JSON file"),
           verify: bool = typer.Option(False, "--verify", help="check every step is legal and the result "
                                                               "matches"),
           show: bool = typer.Option(False, "--show", help="print every step")) -> None:
    """Replay a game record."""
    from conquest.core.records import Record, replay as run_replay
    from conquest.core.registry import get_ruleset
    record = Record.load(file)
    rs = get_ruleset(record.ruleset)
    if show:
        state = record.new_state()
        for i, a in enumerate(record.actions, start=1):
            state = state.apply(a)
            out.print(f"{i:>5}. {a}", markup=False)
    state = run_replay(record, verify=verify)
    res = state.result()
    scores = state.scores()
    status = "verified" if verify else "replayed"
    out.print(f"{status}: {rs.id}, {len(record.actions)} steps, "
              + (f"result {list(res)}, scores {list(scores)}" if res is not None else "game not finished"),
              markup=False)


@app.command()
def check(paths: list[str] = typer.Argument(..., help="scenario files or folders")) -> None:
    """Run scenario files (YAML); exit non-zero naming each failed expectation."""
    from conquest.core.scenarios import run_file, scenario_files
    files = scenario_files(paths)
    if not files:
        fail("no scenario files found")
    failed = 0
    for f in files:
        r = run_file(f)
        if r.ok:
            continue
        failed += 1
        for msg in r.failures:
            err.print(f"FAIL {f}: {msg}", markup=False)
    out.print(f"{len(files) - failed} passed, {failed} failed", markup=False)
    if failed:
        raise typer.Exit(1)


@app.command()
def bench(ruleset: str = typer.Argument(..., help="ruleset id"),
          seconds: float = typer.Option(5.0, "--seconds", "-t", min=0.1, help="how long to run"),
          players: Optional[int] = typer.Option(None, "--players", "-p"),
          option: list[str] = typer.Option([], "--option", "-o", help="ruleset option key=value"),
          as_json: bool = typer.Option(False, "--json", help="print the figures as one JSON object")) -> None:
    """Random-playout throughput on one core."""
    from conquest.analysis.simulate import bench as run
    data = run(ruleset, seconds, players=players, options=parse_option_pairs(option))
    if as_json:
        print(json.dumps(data))
        return
    out.print(f"{data['ruleset']}: {data['actions_per_second']:,.0f} actions/s, "
              f"{data['games_per_second']:,.2f} games/s ({data['games']} games, "
              f"{data['mean_actions_per_game']} actions each, {data['seconds']} s)", markup=False)


@app.command()
def serve(host: str = typer.Option("127.0.0.1", "--host"), port: int = typer.Option(8000, "--port"),
          db: Optional[str] = typer.Option(None, "--db", help="database URL (default: CONQUEST_DB or SQLite "
                                                              "in the user data directory)")) -> None:
    """Serve the web app: play in the browser."""
    try:
        from conquest.web.server import serve as run_server
    except ImportError as e:
        fail(f"the web app is not available: {e}")
    problem = _bind_problem(host, port)
    if problem:
        fail(f"cannot serve on {host}:{port}: {problem}")
    run_server(host, port, db)


def _bind_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be served on (None when it can)."""
    import socket
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
            sock.bind((host, port))
    except (OSError, OverflowError) as e:
        return getattr(e, "strerror", None) or str(e)
    return None


def _free_port(host: str, first: int, tries: int = 50) -> int:
    for port in range(first, first + tries):
        problem = _bind_problem(host, port)
        if problem is None:
            return port
        if "in use" not in problem:
            fail(f"cannot serve on {host}:{port}: {problem}")
    fail(f"no free port from {first} to {first + tries - 1} on {host}")
    return first


@app.command()
def start(ruleset: str = typer.Argument("kingdom", help="ruleset of the terminal game"),
          seats: str = typer.Option("human,greedy", "--seats", help="seats of the terminal game"),
          host: str = typer.Option("127.0.0.1", "--host"),
          port: int = typer.Option(8000, "--port", help="first port to try for the web app"),
          db: Optional[str] = typer.Option(None, "--db", help="database URL for the web app"),
          web: bool = typer.Option(True, "--web/--no-web", help="also serve the web app"),
          seed: Optional[int] = typer.Option(None, "--seed")) -> None:
    """What `make run` does: serve the web app in the background and play a game in this terminal.

    When the terminal game ends and this is an interactive terminal, the web app keeps running until Ctrl+C;
    with piped input the command ends with the game."""
    import threading
    server = None
    thread = None
    if web:
        try:
            import uvicorn

            from conquest.web.server import create_app
            from conquest.web.storage import normalise_url
        except ImportError as e:
            fail(f"the web app is not available: {e}")
        url = normalise_url(db)
        port = _free_port(host, port)
        server = uvicorn.Server(uvicorn.Config(create_app(url, agent_delay=0.4), host=host, port=port,
                                               log_level="warning"))
        thread = threading.Thread(target=server.run, name="web", daemon=True)
        thread.start()
        shown = host if ":" not in host else f"[{host}]"
        out.print(f"The web app is at http://{shown}:{port}/ — open it in a browser, or play here.", markup=False)
    code = 0
    try:
        play(ruleset=ruleset, players=None, seats=seats, seed=seed, option=[], save=None, start_state=None)
    except typer.Exit as e:
        code = e.exit_code or 0
    if server is not None and thread is not None:
        if sys.stdin.isatty():
            out.print(f"The web app is still running at http://{host}:{port}/ (Ctrl+C stops it).", markup=False)
            try:
                thread.join()
            except KeyboardInterrupt:
                pass
        server.should_exit = True
        thread.join(timeout=5)
    raise typer.Exit(code)


def main() -> None:
    try:
        code = app(standalone_mode=False)  # returns the exit code of typer.Exit instead of raising it
        sys.exit(code if isinstance(code, int) else 0)
    except ConquestError as e:
        err.print(f"error: {e}", markup=False)
        sys.exit(2)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        err.print("aborted", markup=False)
        sys.exit(1)
    except Exception as e:  # click usage errors and the like: one line, never a traceback
        if hasattr(e, "format_message") and hasattr(e, "exit_code"):  # click / typer usage errors
            err.print(f"error: {e.format_message()}", markup=False)
            sys.exit(e.exit_code)
        if isinstance(e, (KeyboardInterrupt, BrokenPipeError)):
            sys.exit(130)
        err.print(f"error: {type(e).__name__}: {e}", markup=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
