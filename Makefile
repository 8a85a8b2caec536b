# treebook: the verbs. Every target first sets up what is missing (venv, requirements,
# the editable package, Graphviz's `dot`), so a fresh clone needs nothing but `make`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.treebook-installed
HTML_INDEX := $(CURDIR)/_build/html/index.html

.PHONY: help setup dot chromium book test test-install test-browser test-lab crosscheck lab bench clean

help:
	@echo "make book          build the HTML book (every chapter executed, warnings are errors)"
	@echo "make test          unit tests + every chapter under pytest --nbval, in one run"
	@echo "make test-install  build the wheel, install it in a fresh venv, run the README quick start"
	@echo "make test-browser  build the book, check every page in headless Chromium and count the page rules (tests/browser/test_page_rules.py)"
	@echo "make test-lab      run chapter 2 in a headless JupyterLab and move its live slider in Chromium"
	@echo "make crosscheck    C4.5 against Weka's J48, the cp table against R's rpart, ctree against R's partykit"
	@echo "make lab           JupyterLab on the book (chapters open as notebooks)"
	@echo "make bench         benchmarks against scikit-learn (prints ratios)"

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

setup: $(STAMP) dot

# $(call need,CHECK,PACKAGE,WHAT[,APT_OPTIONS]): when CHECK fails, install the Debian
# PACKAGE with apt-get (as root; APT_OPTIONS such as --no-install-recommends), else stop
# with a message naming the package.
define need
	@$(1) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "$(3) not found: installing Debian package $(2)"; \
	    apt-get install -y -qq $(4) $(2) >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq $(4) $(2) >/dev/null; }; \
	  else \
	    echo "error: $(3) is missing; install the system package '$(2)'" >&2; exit 1; \
	  fi; }
endef

dot:
	$(call need,command -v dot,graphviz,Graphviz 'dot')

book: setup
	rm -rf _build/html _build/jupyter_execute _build/.doctrees
	$(BIN)/jupyter-book build . --all -W -n --keep-going
	@echo "Book built: $(HTML_INDEX)"

# One pytest run, spread over up to four worker processes (pytest-xdist); `--dist loadfile`
# keeps each chapter's cells, and each test file, in one worker and in order.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n < 4 ? n : 4 )))
test: setup
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile \
	  --nbval --nbval-sanitize-with nbval_sanitize.cfg \
	  --ignore=tests/browser --ignore=tests/lab --ignore=tests/oracles tests book

# --- the package as a pip user gets it (tests/install) -----------------------------------
# A wheel built from the tree, installed into a new venv with nothing else: the core
# dependencies only, at the pinned versions (`-c requirements.txt`, so pip takes them from
# its cache), none of the extras and none of the book's tools. tests/install/check_install.py
# then runs the README's quick start, a Pipeline in GridSearchCV, and checks that each
# missing extra is named by its ImportError. Needs no `make setup`.
INSTALL_DIR := _build/install
test-install:
	rm -rf $(INSTALL_DIR) build  # build/: setuptools' staging copy, stale files would ship
	$(PYTHON) -m venv $(INSTALL_DIR)/venv
	$(INSTALL_DIR)/venv/bin/python -m pip wheel --quiet --no-deps --wheel-dir $(INSTALL_DIR)/dist .
	$(INSTALL_DIR)/venv/bin/python -m pip install --quiet -c requirements.txt $(INSTALL_DIR)/dist/treebook-*.whl
	rm -rf build
	cd $(INSTALL_DIR) && venv/bin/python $(CURDIR)/tests/install/check_install.py

# --- the rendered book in a real browser (tests/browser) ---------------------------------
# Debian's Chromium driven by Playwright for Python (no browser download), and a CJK font
# so the screenshots show 中文 terms rather than empty boxes.
CHROMIUM := /usr/bin/chromium
# The book is rebuilt for test-browser only when a source is newer than the last build,
# so `make book && make test-browser` (as in .ci/run) builds once.
BOOK_SOURCES := _config.yml _toc.yml $(shell find book src -type f \
  -not -path '*/__pycache__/*' -not -path '*/.ipynb_checkpoints/*' \
  -not -path '*.egg-info/*' 2>/dev/null)

chromium:
	$(call need,test -x $(CHROMIUM),chromium,Chromium)
	@fc-list :lang=zh 2>/dev/null | grep -q . || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get install -y -qq fonts-wqy-microhei >/dev/null 2>&1 || \
	     (apt-get update -qq && apt-get install -y -qq fonts-wqy-microhei >/dev/null)); \
	  else \
	    echo "note: no Chinese font (Debian package fonts-wqy-microhei): screenshots show boxes"; \
	  fi; }

$(HTML_INDEX): $(BOOK_SOURCES)
	$(MAKE) book

test-browser: setup chromium $(HTML_INDEX)
	$(BIN)/python -m pytest tests/browser
	@echo "Screenshots: $(CURDIR)/_build/screenshots/"

# --- the reference programs as oracles (tests/oracles) ----------------------------------
# Debian's Weka (Java is on the machine; javac compiles the one-JVM driver), R's rpart and
# partykit (with TH.data, only a Suggests of partykit, for GlaucomaM).
crosscheck: setup
	$(call need,test -f /usr/share/java/weka.jar,weka,Weka)
	$(call need,Rscript -e 'library(rpart)',r-cran-rpart,R package rpart)
	$(call need,Rscript -e 'library(partykit)',r-cran-partykit,R package partykit,--no-install-recommends)
	$(call need,Rscript -e 'library(TH.data)',r-cran-th.data,R package TH.data,--no-install-recommends)
	$(BIN)/python -m pytest tests/oracles -p no:cacheprovider --override-ini addopts=

# --- the live notebook (tests/lab) ---------------------------------------------------------
# JupyterLab started by the test itself on 127.0.0.1 (its own temporary settings, no news or
# update checks), chapter 2 opened through jupytext and run, its depth slider moved in the
# same headless Chromium as test-browser. Needs no built book.
test-lab: setup chromium
	$(BIN)/python -m pytest tests/lab
	@echo "Screenshots: $(CURDIR)/_build/screenshots/lab_*.png"

LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json

# Double-clicking a chapter opens it as a notebook (jupytext), not as a text file.
$(LAB_OVERRIDES): $(STAMP)
	@mkdir -p $(dir $@)
	@printf '%s\n' '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}}}' > $@

lab: setup $(LAB_OVERRIDES)
	$(BIN)/jupyter lab --allow-root --notebook-dir=book

bench: setup
	@for f in benchmarks/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf _build .pytest_cache .hypothesis
