# The two commands of the README.
PY ?= python3

.PHONY: run test install install-dev chromium nginx

run: install        ## install the runtime and start the app on http://127.0.0.1:7860
	$(PY) app.py

test: install-dev chromium nginx   ## install everything the tests need, then run them all
	ATTN_EXPLORER_REQUIRE_BROWSER=1 $(PY) -m pytest -q

install:
	$(PY) -m pip install -q -r requirements.txt

install-dev:
	$(PY) -m pip install -q -r requirements-dev.txt

# The browser test drives Debian's Chromium (a browser download by Playwright is not possible offline),
# with a Korean font where it can be installed, so that its screenshots of the Korean interface show
# Hangul, not empty boxes; the tests do not need the font, only the browser.
apt = apt-get install -y -q $(1) >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $(1) >/dev/null)

chromium:
	@command -v chromium >/dev/null 2>&1 || $(call apt,chromium fonts-nanum)
	@fc-list 2>/dev/null | grep -qi nanum || $(call apt,fonts-nanum) \
		|| echo "note: no Korean font (fonts-nanum): screenshots of the Korean interface will show boxes"

# The replicas' test (tests/deploy/) puts two copies of the app behind Debian's nginx (deploy/replicas.py).
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || $(call apt,nginx)
