PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test play bench check browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,e2e,pg]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/conquest start kingdom --seats human,greedy

play: run

# The browser tests drive Debian's chromium; install it when we can (root with apt), skip them otherwise.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1) \
	  && echo "installed chromium for the browser tests" || echo "chromium not installed: browser tests will be skipped"; }

# The web app's tests also run on PostgreSQL when one can be had (CONQUEST_TEST_PG, or a local one that
# scripts/pg-for-tests.sh starts, installing Debian's postgresql as root); otherwise on SQLite only.
test: $(STAMP) browser
	$(BIN)/mypy
	CONQUEST_TEST_PG="$${CONQUEST_TEST_PG:-$$(sh scripts/pg-for-tests.sh)}" $(BIN)/python -m pytest
	$(BIN)/conquest check tests/scenarios

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py
	$(BIN)/python benchmarks/web_latency.py
	$(BIN)/python benchmarks/agent_latency.py

clean:
	rm -rf $(VENV) build *.egg-info
