# Pecking Order: `make run` starts everything on the embedded defaults, `make test` runs the tests.
# Needs only Python 3.11+ and make; the virtualenv and dependencies are created on first use.
# `make run VERBOSE=1` shows the access log and the worker's and beat's info logs (quiet by default).

PYTHON ?= $(shell for candidate in python3.13 python3.12 python3.11 python3; do \
	if command -v $$candidate >/dev/null 2>&1 && $$candidate -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; \
	then echo $$candidate; break; fi; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install migrate demo lint clean

$(STAMP): requirements/base.txt requirements/production.txt requirements/dev.txt
	@if [ -z "$(PYTHON)" ]; then echo "Pecking Order needs Python 3.11 or newer on PATH (python3.11, python3.12 ...)"; exit 2; fi
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	@touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo_data
	$(BIN)/python manage.py tournament_demo
	$(BIN)/python manage.py bot_demo

run: demo
	$(BIN)/python manage.py serve $(if $(filter-out 0,$(VERBOSE)),--verbose)

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/pre-commit run --all-files

clean:
	rm -rf var/ staticfiles/
