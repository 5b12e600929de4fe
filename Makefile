# Everything a fresh machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint fuzz bench bench-full lock clean study screenshots

$(STAMP): pyproject.toml requirements/lock.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/lock.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# The web app on http://127.0.0.1:8000/ (games kept in ./chaosgames.sqlite); it prints the URL.
run: $(STAMP)
	$(BIN)/chaosgames serve --host 127.0.0.1 --port 8000

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/mypy

# Browser tests drive Debian's Chromium (Playwright's own browser download cannot work offline).
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

test: lint $(CHROMIUM)
	$(BIN)/python -m pytest -n 2

# Every game mid-play at 1280 and 390 px, from seeded games, into docs/screenshots/.
screenshots: $(STAMP) $(CHROMIUM)
	$(BIN)/python tools/screenshots.py

# The fuzz suite of make test, with 2000 times the inputs and a fresh seed each run (hours;
# CHAOSGAMES_FUZZ_SCALE and CHAOSGAMES_FUZZ_SEED choose; see tests/fuzz/README.md).
fuzz: $(STAMP)
	CHAOSGAMES_FUZZ=1 $(BIN)/python -m pytest tests/fuzz -n 2 -p no:cacheprovider --timeout=0

BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP) requirements/bench.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/bench.txt
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/run.py

# The balance book: every rulebook variant of the four games at the medium level, into
# docs/results/ (balance.db is the lab's database: run again to resume and grow it).
# STUDY_MINUTES bounds the run (no new pass starts after it); STUDY_ARGS sizes it.
STUDY_MINUTES ?= 30
STUDY_ARGS ?= --games 12 --skill-games 4 --reroll-games 6 --cross-games 12 --batch 2
study: $(STAMP)
	$(BIN)/chaosgames study cardboard-machines chaos-checkers chaos-cruisers royal-racers \
		--db docs/results/balance.db --out docs/results/balance.md --html docs/results/balance.html \
		--workers 2 --minutes $(STUDY_MINUTES) $(STUDY_ARGS)

lock: $(STAMP)
	$(BIN)/python -m pip freeze --exclude-editable | sed '1i # Exact versions of everything make installs (runtime + dev + the rl extra + the ray backend), so a fresh machine gets the same.\n# Regenerate with: make lock' > requirements/lock.txt

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
