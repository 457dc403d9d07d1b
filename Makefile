# Developer entry points. `make` alone lists the targets; `make test` on a fresh clone sets up everything.
#
# Set-up steps leave stamp files behind, so repeated runs skip work that is already done and redo it
# only when its inputs (requirements.lock, the .proto files, package-lock.json) change.

.DEFAULT_GOAL := help
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
ROOT := $(CURDIR)
GEN := gen
BUF := $(ROOT)/node_modules/.bin/buf
PROTO_FILES := $(shell find protos -name '*.proto' | LC_ALL=C sort)
PYTEST_ARGS ?=
# `make test` runs the suite in this many processes (pytest-xdist), a test file to each at a time. The
# tests mostly wait on servers: two processes kept two cores a third busy over tests/gateway, four 61 %;
# the whole suite took 17 min 22 s in two, 11 min 56 s in four.
TEST_WORKERS ?= 4
ARGS ?=

VENV_STAMP := $(VENV)/.deps.stamp
PTH_STAMP := $(VENV)/.pth.stamp
GEN_STAMP := $(GEN)/.stamp
BUF_STAMP := node_modules/.buf.stamp
TS_CLIENT := clients/typescript
TS_STAMP := $(TS_CLIENT)/node_modules/.stamp
WEB_CLIENT := clients/web
WEB_STAMP := $(WEB_CLIENT)/node_modules/.stamp
WEB_BUNDLE := $(WEB_CLIENT)/dist/app.js
WEB_SOURCES := $(shell find $(WEB_CLIENT)/src -name '*.ts' -not -path '*/gen/*' | LC_ALL=C sort) \
	$(WEB_CLIENT)/build.mjs $(WEB_CLIENT)/files.mjs $(WEB_CLIENT)/buf.gen.yaml $(WEB_CLIENT)/tsconfig.json \
	$(WEB_CLIENT)/index.html $(WEB_CLIENT)/style.css $(wildcard $(WEB_CLIENT)/locale/*.po)
BG := $(VENV)/bin/bg
# The engines and the search bot compiled with mypyc (deploy/compile.py picks the modules and skips the
# work while the sources it compiled are unchanged, so any Python source of theirs may trigger it).
COMPILED_STAMP := build/mypyc/.stamp
COMPILED_INPUTS := $(shell find services workers -name '*.py' -not -path '*/__pycache__/*' | LC_ALL=C sort) \
	deploy/compile.py pyproject.toml
SETUP_STAMPS := $(VENV_STAMP) $(PTH_STAMP) $(GEN_STAMP) $(BUF_STAMP) $(TS_STAMP) $(WEB_BUNDLE) $(BG) $(COMPILED_STAMP)

.PHONY: help setup protos run test lint bench chaos golden deploy-files clean

help: ## List the targets with what they do
	@echo "Usage: make TARGET"
	@echo
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "} {printf "  %-8s %s\n", $$1, $$2}'

setup: $(SETUP_STAMPS) ## Create .venv with the locked dependencies and `bg`, install buf and the TS client's packages, generate the protos, build the web client, compile the engines and the search bot with mypyc (pure Python where there is no C compiler), find or install redis-server, openssl, chromium (with the CJK fonts the web client's Chinese needs) and the Go client's toolchain (Debian's packages, as root)
	$(PY) -m deploy.programs
	$(PY) -m deploy.go_client

protos: $(VENV_STAMP) ## Regenerate the Python code of every .proto into gen/ from scratch
	$(call generate_protos)

run: $(SETUP_STAMPS) ## Start the whole suite in the foreground: Redis, rules services, worker, gateway
	$(PY) -m deploy.local

test: setup ## Run the test suite (sets up first if needed)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: $(SETUP_STAMPS) ## Run ruff (lint and format check), mypy (services, live, gateway, workers, cli, chaos, research, i18n), buf lint on the protos and tsc on the web client
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy services/ live/ gateway/ workers/ cli/ chaos/ research/ i18n/
	cd protos && $(BUF) lint
	cd $(WEB_CLIENT) && npm run --silent check

bench: $(SETUP_STAMPS) ## Run the benchmarks
	$(PY) -m bench

chaos: $(SETUP_STAMPS) ## Fault and bad-input runs at volume: the fuzz's 10,000+ bad requests, then kill -9 under load with nothing lost (ARGS=--soak: only the 30-minute soak)
	$(if $(findstring --soak,$(ARGS)),,TEST_PROFILE=volume $(PY) -m pytest tests/fuzz tests/conformance -p no:cacheprovider -q)
	$(PY) -m chaos $(ARGS)

golden: $(SETUP_STAMPS) ## Regenerate the golden playthroughs on purpose
	$(PY) -m tests.golden --regenerate

deploy-files: $(SETUP_STAMPS) ## Regenerate the compose, Prometheus and Kubernetes files of the rules services from the registry
	$(PY) -m deploy.generate

clean: ## Remove generated code, the compiled modules and caches (keeps .venv and node_modules)
	rm -rf $(GEN) build/mypyc .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -not -path './.venv/*' -not -path './node_modules/*' -prune -exec rm -rf {} +

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV_STAMP): requirements.lock | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	touch $@

# A .pth file puts the repository root and gen/ on the venv's path, so `python -m services.<game>`
# works from any directory.
$(PTH_STAMP): | $(VENV)/bin/python
	site="$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"; \
		printf '%s\n%s\n' "$(ROOT)" "$(ROOT)/$(GEN)" > "$$site/boardgame-backend.pth"
	touch $@

$(GEN_STAMP): $(PROTO_FILES) $(VENV_STAMP)
	$(call generate_protos)

# The compiled modules, beside the sources' digests they were compiled from (services/common/compiled.py
# uses them only while those hold); a machine without a C compiler is told so and runs the sources.
$(COMPILED_STAMP): $(COMPILED_INPUTS) $(VENV_STAMP) $(PTH_STAMP) $(GEN_STAMP)
	$(PY) -m deploy.compile
	mkdir -p $(@D)
	touch $@

# The `bg` command-line client, a wrapper around `python -m cli` with the venv's Python.
$(BG): | $(VENV)/bin/python
	printf '#!/bin/sh\nexec "%s" -m cli "$$@"\n' "$(ROOT)/$(PY)" > $@
	chmod +x $@

# The TypeScript client's pinned packages (its test builds it from the protos).
$(TS_STAMP): $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	cd $(TS_CLIENT) && npm ci --no-audit --no-fund
	touch $@

# The web client: its pinned packages, its message types generated from the protos, its bundle
# (served by the gateway's browser listener).
$(WEB_STAMP): $(WEB_CLIENT)/package.json $(WEB_CLIENT)/package-lock.json
	cd $(WEB_CLIENT) && npm ci --no-audit --no-fund
	touch $@

$(WEB_BUNDLE): $(WEB_STAMP) $(GEN_STAMP) $(PTH_STAMP) $(PROTO_FILES) $(WEB_SOURCES)
	cd $(WEB_CLIENT) && rm -rf src/gen && npm run --silent generate && npm run --silent build

$(BUF_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

define generate_protos
	rm -rf $(GEN)
	mkdir -p $(GEN)
	$(PY) -m grpc_tools.protoc -I protos \
		--python_out=$(GEN) --pyi_out=$(GEN) --grpc_python_out=$(GEN) $(PROTO_FILES)
	touch $(GEN_STAMP)
endef
