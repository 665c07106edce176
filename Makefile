# Everything runs in .venv, made from the exact pins in requirements.txt on first use.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt constraints.txt pyproject.toml | sha256sum | cut -c1-12)
SUDO   := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: install serve site publish test check refresh browser clean new-lesson

AXE    := node_modules/axe-core/axe.min.js

# torch 2.13.0 comes from PyPI by default, where Linux x86_64 gets the CUDA build (several GB) unless pip is
# set up to find a local CPU wheel first. TORCH=cpu (e.g. `make test TORCH=cpu` on a new machine) takes the
# CPU-only build (+cpu, a few hundred MB) from PyTorch's own index, alone; its dependencies then come from PyPI
# with the other pins.
TORCH_CPU_INDEX := https://download.pytorch.org/whl/cpu
PIP     := $(PY) -m pip install --quiet --disable-pip-version-check

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV) || { rm -rf $(VENV); echo "python3 -m venv failed: installing Debian's python3-venv"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(VENV); }
	$(if $(filter cpu,$(TORCH)),$(PIP) --no-deps --index-url $(TORCH_CPU_INDEX) "$$(grep -E '^torch==' requirements.txt)")
	$(PIP) -r requirements.txt
	$(PIP) --no-deps --no-build-isolation -e .
	@rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)               ## .venv with the pinned packages and the project itself (editable)

serve: $(STAMP) browser         ## serve at 127.0.0.1:8000; numbers and figures follow every saved edit
	$(PY) build.py --no-site --no-train    # executes the notebooks too; plain `mkdocs serve` shows them as they are
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

site: $(STAMP) browser          ## build everything into site/
	$(PY) build.py

# What .github/workflows/pages.yml runs (and tests/test_publish.py, on fresh copies): never trains, and
# fails naming each result that is stale or missing.
publish: $(STAMP) browser       ## build site/ from the committed results only
	$(PY) build.py --frozen

refresh: $(STAMP) browser       ## rerun every measurement (training runs, benchmarks), then build
	$(PY) build.py --rerun measurements

# Debian's chromium: the figures' static renderings and the browser tests (Playwright drives it); and Node.js
# where there is none (a bare Debian container): the build renders the formulas with KaTeX in it
browser:                        ## chromium, its CJK fonts, and Node.js where missing
	@command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk \
	  $$(command -v node >/dev/null 2>&1 || echo nodejs) >/dev/null; }

$(AXE): package.json package-lock.json   ## axe-core, for the accessibility tests
	npm ci --silent --no-audit --no-fund
	@touch $@

test: $(STAMP) browser $(AXE)   ## the whole test suite; lists its 25 slowest tests, where time goes
	$(PY) -m pytest -q --durations=25 -n 2 --dist loadfile --no-loadscope-reorder   # two workers, a test file each at a time (module fixtures are built once), in the order tests/conftest.py sets

check: $(STAMP)                 ## the fast tier: no site build, no browser, no training
	$(PY) -m pytest -q -m "not build and not browser and not slow"

# e.g. make new-lesson ID=c9-1 SLUG=probe [NS=probe] [TITLE_ZH=… TITLE_EN=…] (scripts/new_lesson.py says what it writes)
new-lesson: $(STAMP)            ## a new lesson in both languages, and its chapter when the chapter is new
	$(PY) scripts/new_lesson.py "$(ID)" "$(SLUG)" $(if $(NS),--namespace "$(NS)") \
	  $(if $(TITLE_ZH),--title-zh "$(TITLE_ZH)") $(if $(TITLE_EN),--title-en "$(TITLE_EN)")

clean:
	rm -rf .build site site.tmp site.old figures/*.json figures/*.html figures/*.js figures/static figures/static-inline
