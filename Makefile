# Everything runs in .venv, made from the exact pins in requirements.txt on first use.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt constraints.txt pyproject.toml | sha256sum | cut -c1-12)
SUDO   := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: serve site test refresh browser clean

AXE    := node_modules/axe-core/axe.min.js

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@rm -f $(VENV)/.installed-* && touch $@

serve: $(STAMP)                 ## build the numbers and figures, then serve at 127.0.0.1:8000
	$(PY) build.py --no-site
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

site: $(STAMP)                  ## build everything into site/
	$(PY) build.py

refresh: $(STAMP)               ## rerun every measurement (training runs, benchmarks), then build
	$(PY) build.py --rerun measurements

browser:                        ## Debian's chromium for the browser tests (Playwright drives it)
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; }

$(AXE): package.json package-lock.json   ## axe-core, for the accessibility tests
	npm ci --silent --no-audit --no-fund
	@touch $@

test: $(STAMP) browser $(AXE)   ## the whole test suite
	$(PY) -m pytest -q

clean:
	rm -rf .build site site.tmp site.old figures/*.json
