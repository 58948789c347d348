# Two commands set everything up on a fresh machine: `make book` and `make test` (see README.md).
# Both create .venv if it is missing and install the pinned versions from constraints.txt.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
export MPLBACKEND := agg
export PYTHONHASHSEED := 0

.PHONY: pdf help install test test-pdf test-html test-class test-browser test-browser-late test-a11y test-binder test-unit test-lab test-check unit nbval book book-strict browser binder lab-test execute lab notebooks exercises assignments grade answer-key bench clean

help:
	@echo "make book      build the website into _build/html (executes every notebook), with the PDF if TeX Live is there"
	@echo "make test      unit tests, nbval (strict) on every chapter, book build with warnings as errors,"
	@echo "               browser tests of the site, the chapters in a real JupyterLab, the Binder"
	@echo "               environment rebuilt and tested"
	@echo "make lab       JupyterLab (with jupyterlab-myst) on the chapters"
	@echo "make execute   re-execute the chapter notebooks in place (after editing them)"
	@echo "make notebooks write _build/notebooks/instructor and _build/notebooks/student"
	@echo "make exercises rebuild the exercises' records (lincourse/exercises/data) after editing a declaration"
	@echo "make assignments  write _build/assignments/<chapter>: student notebook and otter-grader autograder"
	@echo "make grade SUBMISSIONS=dir CHAPTER=NN  grade submitted notebooks offline -> _build/grades/<chapter>.csv"
	@echo "make answer-key   build _build/answer-key/html: every exercise's solution, answer, points and minutes"
	@echo "make book EDITION=class  the site for a class that grades: no solutions, no teaching notes"
	@echo "make pdf       the book as a PDF, _build/pdf/book.pdf (needs TeX Live with XeLaTeX: see README.md)"
	@echo "make bench     benchmarks (slider latency, learners vs peers, build, page weight) -> tools/bench_results.md"
	@echo "make clean     remove _build"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[test,book]"
	@touch $(STAMP)

install: $(STAMP)

CHECK_EXERCISES := $(BIN)/python tools/build_exercises.py --check
UNIT_TESTS := $(BIN)/python -m pytest tests -q --ignore=tests/site --durations=15
unit: install
	$(CHECK_EXERCISES)
	$(UNIT_TESTS)

nbval: install
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-cell-timeout=300 chapters -q

# The website shows the kernel-free players; a notebook that raises fails the build
# (nb_execution_raise_on_error in _config.yml). Every chapter runs once: the website's build empties
# the execution cache (RUNS) and runs them into it; the PDF's build, after it, takes them from there.
# EDITION=class: the site for a class that grades its homework (no solutions, no teaching notes,
# no buttons to the full notebooks), in _build/class/html; see tools/class_edition.py.
EDITION ?= public
RUNS := _build/.jupyter_cache
SITE_PDF := _build/html/_static/downloads/linear-classification.pdf
book: install
	$(BIN)/python tools/make_notebooks.py --out _build/notebooks --zip _static/downloads/lincourse-student-notebooks.zip
ifeq ($(EDITION),class)
	$(BIN)/python tools/class_edition.py --out _build/class/src
	LINCOURSE_EXPLORER_MODE=player $(BIN)/jupyter-book build _build/class/src --all --keep-going
	rm -rf _build/class/html && mv _build/class/src/_build/html _build/class/html
	@echo
	@echo "The class edition is in _build/class/html; open _build/class/html/index.html in a browser."
else
	rm -rf $(RUNS)
	LINCOURSE_EXPLORER_MODE=player $(BIN)/jupyter-book build . --all --keep-going
	@if command -v xelatex >/dev/null && command -v latexmk >/dev/null; then $(MAKE) --no-print-directory pdf REUSE_RUNS=1 \
	&& mkdir -p $(dir $(SITE_PDF)) && cp _build/pdf/book.pdf $(SITE_PDF); \
	else echo "No XeLaTeX here: the site is built without the book as a PDF (its download link will be missing; see README.md)"; fi
	@echo
	@echo "The book is in _build/html; open _build/html/index.html in a browser."
endif

book-strict: install
	$(BIN)/python tools/make_notebooks.py --out _build/notebooks --zip _static/downloads/lincourse-student-notebooks.zip
	rm -rf $(RUNS)
	LINCOURSE_EXPLORER_MODE=player $(BIN)/jupyter-book build . --all -W --keep-going
	$(MAKE) --no-print-directory pdf REUSE_RUNS=1
	mkdir -p $(dir $(SITE_PDF)) && cp _build/pdf/book.pdf $(SITE_PDF)

# Browser tests of the built site (skip with a message if Chromium is missing); `make test` runs the
# accessibility part (axe-core on every page in four views, the longest) beside the others.
SITE_TESTS := $(BIN)/python -m pytest -q -rs --durations=10 --ignore=tests/site/test_binder.py --ignore=tests/site/test_lab.py
browser: install
	$(SITE_TESTS) tests/site

# The Binder environment rebuilt the way repo2docker builds it (a fresh virtualenv), nbval in it.
binder: install
	$(BIN)/python -m pytest tests/site/test_binder.py -q -rs --durations=5

# The chapters in a real JupyterLab with a real kernel, driven in Chromium: every chapter's student edition as
# students run it (Run All in a fresh kernel, every answer cell's feedback, every slider; chapters 2, 5 and 7
# a second time, over live explorers), and every instructor chapter opened (unmodified, MyST rendered).
lab-test: install
	$(BIN)/python -m pytest tests/site/test_lab.py -q -rs --durations=5

# make test uses both cores: the steps below are one graph, run two at a time (make -j2), each printing
# its output when it ends, in two lines of about the same length (make would otherwise start whichever
# step it reaches first when a core frees, and one line could wait behind the other's long steps):
# - the site: the website with warnings as errors (every chapter run once), the PDF and the class
#   edition (both from the website build's runs, not executed again), the browser tests, then the
#   accessibility tests;
# - beside it: the exercises' declarations re-run without solutions (build_exercises --check), the
#   JupyterLab test, the unit tests, the rest of the browser tests (SITE_LATE), then the
#   Binder environment (nbval on every chapter, strict, in a fresh virtualenv with the pinned versions:
#   the one nbval run of make test).
# The `|` prerequisites only order the steps; each step still runs on its own with `make test-<step>`
# (it then runs the steps it is ordered after too).
test: install
	$(MAKE) --no-print-directory -j2 --output-sync=target test-binder test-a11y
	@echo "make test: all passed"

test-html:
	$(BIN)/python tools/make_notebooks.py --out _build/notebooks --zip _static/downloads/lincourse-student-notebooks.zip
	rm -rf $(RUNS)
	LINCOURSE_EXPLORER_MODE=player $(BIN)/jupyter-book build . --all -W --keep-going

test-pdf: test-html
	$(MAKE) --no-print-directory pdf REUSE_RUNS=1
	mkdir -p $(dir $(SITE_PDF)) && cp _build/pdf/book.pdf $(SITE_PDF)

test-class: test-pdf
	$(MAKE) --no-print-directory book EDITION=class

# The browser tests in two parts, one in each line: the pages, players and answer boxes in the site's
# line; the reader's way through the site (the chapter list, saved work) after the unit tests.
SITE_LATE := tests/site/test_navigation.py tests/site/test_memory.py

test-browser: test-class
	$(SITE_TESTS) tests/site --ignore=tests/site/test_accessibility.py $(addprefix --ignore=,$(SITE_LATE))

test-browser-late: test-class | test-unit
	$(SITE_TESTS) $(SITE_LATE)

test-a11y: test-html | test-browser
	$(SITE_TESTS) tests/site/test_accessibility.py

test-binder: | test-browser-late
	$(MAKE) --no-print-directory binder

test-unit: | test-lab
	$(UNIT_TESTS)

test-lab: | test-check
	$(MAKE) --no-print-directory lab-test

# First in its line: it also writes the reference answers' cache (_build/exercises), which the class
# edition's test reads in the site's line; without it that test would run each chapter's declarations again.
test-check:
	$(CHECK_EXERCISES)

execute: install
	$(BIN)/python tools/execute_notebooks.py

notebooks: install
	$(BIN)/python tools/make_notebooks.py

exercises: install
	$(BIN)/python tools/build_exercises.py

assignments: install
	$(BIN)/python tools/assignments.py

SUBMISSIONS ?=
CHAPTER ?=
grade: install
	@test -n "$(SUBMISSIONS)" -a -n "$(CHAPTER)" || { echo "usage: make grade SUBMISSIONS=folder-of-notebooks CHAPTER=NN"; exit 2; }
	@test -d _build/assignments || $(MAKE) --no-print-directory assignments
	$(BIN)/python tools/grade.py --chapter "$(CHAPTER)" --submissions "$(SUBMISSIONS)"

answer-key: install
	$(BIN)/python tools/answer_key.py

# Debian's packages for make pdf (README.md, .ci/run and the publishing workflow install these)
TEX_PACKAGES := texlive-xetex texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended latexmk fonts-freefont-otf tex-gyre poppler-utils

# The book as a PDF: Jupyter Book's LaTeX builder, then XeLaTeX (latexmk). Each explorer is printed
# as a figure at its default values (lincourse/_book.py). The site offers it for download.
# Alone, `make pdf` runs every chapter afresh; `make book` and `make test` build it after the website,
# from the website build's runs (REUSE_RUNS=1: not executed again).
REUSE_RUNS ?=
pdf: install
	@command -v xelatex >/dev/null && command -v latexmk >/dev/null || { echo "make pdf needs XeLaTeX and latexmk (TeX Live): see README.md, 'The book as a PDF'"; exit 1; }
	$(if $(REUSE_RUNS),,rm -rf $(RUNS))
	$(BIN)/jupyter-book build . --builder pdflatex --all -W --keep-going
	mkdir -p _build/pdf _static/downloads
	cp _build/latex/book.pdf _build/pdf/book.pdf
	cp _build/latex/book.pdf _static/downloads/linear-classification.pdf
	@echo
	@echo "The book is in _build/pdf/book.pdf."

bench: install
	$(BIN)/python tools/bench.py

lab: install
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[lab]"
	$(BIN)/jupyter lab chapters

clean:
	rm -rf _build
