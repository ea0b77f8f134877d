PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
RLSTAMP := $(VENV)/.rl-stamp
OSSTAMP := $(VENV)/.openspiel-stamp

.PHONY: run test play bench check browser js clean

$(STAMP): pyproject.toml
	@echo "== making the virtualenv $(VENV) and installing conquest with its test extras (a few minutes the first time)"
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,e2e,pg,dask]'
	touch $(STAMP)

# The rl extra (PettingZoo, Gymnasium, sb3-contrib) for the reinforcement-learning tests; torch first, pinned to the
# CPU build 2.13.0 (an unpinned torch would pull a multi-GB CUDA build). Without it those tests are skipped.
$(RLSTAMP): $(STAMP)
	@echo "== installing the rl extra (torch 2.13.0, CPU build) for the reinforcement-learning tests"
	@if $(BIN)/python -m pip install -q torch==2.13.0; then $(BIN)/python -m pip install -q -e '.[rl]'; \
	  else echo "torch 2.13.0 could not be installed: the policy tests will be skipped"; fi
	touch $(RLSTAMP)

# The openspiel extra (OpenSpiel's wheel) for the conformance tests in tests/openspiel; where no wheel fits the
# machine they are skipped with a message.
$(OSSTAMP): $(STAMP)
	@echo "== installing the openspiel extra (open-spiel) for the OpenSpiel conformance tests"
	@$(BIN)/python -m pip install -q --only-binary=open-spiel -e '.[openspiel]' || \
	  echo "open-spiel could not be installed: the OpenSpiel tests (tests/openspiel) will be skipped"
	touch $(OSSTAMP)

run: $(STAMP)
	$(BIN)/conquest start kingdom --seats human,greedy

play: run

# The browser tests drive Debian's chromium; install it when we can (root with apt), skip them otherwise.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  echo "== installing Debian's chromium for the browser tests (once; a few minutes)" && \
	  (apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1) \
	  && echo "installed chromium for the browser tests" || echo "chromium not installed: browser tests will be skipped"; }

# The web page's JavaScript (conquest/web/static): its type check (TypeScript's tsc over the JSDoc types, strict:
# tsconfig.json) and its unit tests under Node (tests/js), when node and npm are installed; skipped otherwise.
# TypeScript is pinned in package.json and package-lock.json; `npm ci` installs it into node_modules once.
js:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  if [ ! -f node_modules/.ci-stamp ] || [ package-lock.json -nt node_modules/.ci-stamp ]; then \
	    echo "== installing the JavaScript checks' tools (npm ci: TypeScript, as package-lock.json pins it)"; \
	    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null && touch node_modules/.ci-stamp || exit 1; \
	  fi; \
	  echo "== JavaScript: type check (tsc)"; npm run --silent typecheck || exit 1; \
	  echo "== JavaScript: unit tests (node --test tests/js)"; npm run --silent test || exit 1; \
	else echo "== JavaScript checks skipped: node and npm are not installed"; fi

# The web app's tests also run on PostgreSQL: CONQUEST_TEST_PG if set, else a private throwaway cluster that
# scripts/pg-for-tests.sh starts on its own port of 127.0.0.1 and deletes afterwards (installing Debian's
# postgresql first as root when it is missing); without PostgreSQL, on SQLite only.
test: $(STAMP) $(RLSTAMP) $(OSSTAMP) browser
	@echo "== lint (ruff)"
	$(BIN)/ruff check conquest tests benchmarks examples
	@echo "== type check (mypy)"
	$(BIN)/mypy
	@$(MAKE) --no-print-directory js
	@echo "== tests (pytest: several minutes; the browser tests drive chromium)"
	sh scripts/pg-for-tests.sh $(BIN)/python -m pytest
	@echo "== rule scenarios"
	$(BIN)/conquest check tests/scenarios

# The quick checks: lint, types (Python and JavaScript), the JavaScript unit tests and the rule scenarios (no pytest).
check: $(STAMP)
	@echo "== lint (ruff)"
	$(BIN)/ruff check conquest tests benchmarks examples
	@echo "== type check (mypy)"
	$(BIN)/mypy
	@$(MAKE) --no-print-directory js
	@echo "== rule scenarios"
	$(BIN)/conquest check -v tests/scenarios

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py
	$(BIN)/python benchmarks/web_latency.py
	$(BIN)/python benchmarks/agent_latency.py

clean:
	rm -rf $(VENV) build *.egg-info node_modules
