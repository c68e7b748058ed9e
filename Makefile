# Two commands set everything up on a fresh machine with Python 3.11 and make:
#   make demo   create .venv, install scopedb, run `scopedb demo` on the embedded PostgreSQL
#   make test   create .venv, install with the dev extras, run ruff, mypy and the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint generate typecheck pytest bench bench-smoke manifest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/scopedb demo

test: lint typecheck pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check scopedb tests bench alembic examples .ci
	$(BIN)/ruff format --check scopedb tests bench alembic examples .ci
	$(BIN)/python .ci/async_to_sync.py --check
	$(BIN)/lint-imports

# Regenerate the sync modules (scopedb/database.py, session.py, ...) from their *_async.py sources.
generate: $(VENV)/.installed-dev
	$(BIN)/python .ci/async_to_sync.py

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

# The suite runs in two or more processes (pytest-xdist, up to four), each with its own embedded server, a test
# file's tests in one of them: about 5 minutes on two cores instead of 8. Against an existing server or in Docker
# it runs in one process: the workers would share that server's roles (the test login's password, the roles every
# migration creates) and race for them.
XDIST = $(if $(SCOPEDB_DATABASE_URL)$(SCOPEDB_BACKEND),,-n auto --maxprocesses 4 --dist loadfile)

pytest: $(VENV)/.installed-dev
	$(BIN)/python -m pytest $(XDIST)

# Regenerate sql/08_manifest.sql (what the audit measures the catalog against) after changing anything in sql/.
manifest: $(VENV)/.installed-dev
	SCOPEDB_WRITE_MANIFEST=1 $(BIN)/python -m pytest -q tests/migration/test_manifest.py

bench: $(VENV)/.installed-dev
	$(BIN)/python -m bench --size medium

bench-smoke: $(VENV)/.installed-dev
	$(BIN)/python -m bench --size smoke

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
