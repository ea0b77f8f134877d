"""Action latency of the web app: 50 concurrent games on loopback (figures, not pass/fail).

    .venv/bin/python benchmarks/web_latency.py [--games 50] [--ruleset kingdom] [--think 0.5] [--workers 1]

The same as `python -m conquest.web.bench`; see its docstring for what is measured.
"""

from conquest.web.bench import cli

if __name__ == "__main__":
    cli()
