# The two commands a new user needs: `make run` (solve the bundled example) and
# `make test` (every test). Both build what they need first.

CARGO ?= cargo
EXAMPLE ?= testcases/handout/s2017-example
TARGET_DIR ?= $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),$(CURDIR)/target)
BIN := $(TARGET_DIR)/release/reversi
QUICK_BIN := $(TARGET_DIR)/quick/reversi

.PHONY: run test lint bench build quick tree-screenshot validators static bullseye slurm

# The report tests validate with real validators: Python's xmlschema (JUnit against
# Jenkins' junit-10.xsd), jsonschema (Gradescope's and PrairieLearn's results.json,
# GitHub Classroom's result, CodeRunner's outcome), PyYAML (the GitHub Classroom
# workflow) and markdown-it-py (Gradescope's Markdown, rendered), from PyPI.
VALIDATORS := $(CURDIR)/target/validators
validators:
	test -x $(VALIDATORS)/bin/python && \
	  $(VALIDATORS)/bin/python -c 'import xmlschema, jsonschema, yaml, markdown_it' || \
	  { python3 -m venv $(VALIDATORS) && \
	    $(VALIDATORS)/bin/pip install --quiet xmlschema jsonschema pyyaml markdown-it-py; }

# tests/grade_slurm.rs starts a one-node Slurm cluster of its own (its configuration,
# key and ports): Debian's daemons and client, installed once (about 20 s).
slurm:
	command -v slurmctld >/dev/null && command -v slurmd >/dev/null && \
	  command -v sbatch >/dev/null && command -v munged >/dev/null || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
	      --no-install-recommends slurmctld slurmd slurm-client munge; }

build:
	$(CARGO) build --release --locked

# The quick-to-build optimised binary of `make run` (Cargo.toml's profile.quick).
quick:
	$(CARGO) build --profile quick --locked

# Solve the handout's example the way the grader runs a program: input.txt in a
# fresh folder, output.txt written there; then show it.
run: quick
	@dir=$$(mktemp -d) && cp $(EXAMPLE)/input.txt $$dir/input.txt && \
	  (cd $$dir && $(QUICK_BIN)) && \
	  cat $$dir/output.txt && echo && \
	  if cmp -s $$dir/output.txt $(EXAMPLE)/output.txt; then \
	    echo "(byte-identical to $(EXAMPLE)/output.txt)"; \
	  else echo "(DIFFERS from $(EXAMPLE)/output.txt)"; exit 1; fi; \
	  rm -rf $$dir

# The hostile-program tests need bubblewrap, the sandbox students' programs run in;
# the tree page's tests need headless Chromium and chromedriver; the bundles' test on
# an older glibc (tests/grade_bullseye.rs) a Debian 11 root and a static binary built
# cheaply: installed from Debian's packages when missing (as root), the root and the
# binary made side by side.
test: validators
	command -v bwrap >/dev/null || { apt-get update && apt-get install -y bubblewrap; }
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { apt-get update && apt-get install -y chromium chromium-driver; }
	command -v debootstrap >/dev/null || { apt-get update && apt-get install -y debootstrap; }
	$(MAKE) slurm
	$(MAKE) -j2 bullseye static STATIC_PROFILE=static-check
	$(CARGO) test --locked

# Draw the alpha-beta tree of an input as HTML, then screenshot it with headless
# Chromium (installed from Debian's packages if missing; needs root for that).
# Not part of `make test`: look at target/tree/tree.png.
TREE_INPUT ?= testcases/handout/s2017-example/input.txt
tree-screenshot:
	mkdir -p target/tree
	$(CARGO) run --quiet --locked -- tree $(TREE_INPUT) -o target/tree/tree.html
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	profile=$$(mktemp -d) && \
	  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run --user-data-dir=$$profile \
	    --window-size=1280,900 --screenshot=$(CURDIR)/target/tree/tree.png \
	    file://$(CURDIR)/target/tree/tree.html; \
	  status=$$?; rm -rf $$profile; exit $$status
	@echo "wrote target/tree/tree.html and target/tree/tree.png"

# A statically linked reversi for the platforms' bundles (runs on any Linux image,
# whatever its glibc): reversi package ... --binary $(STATIC). Links glibc's static
# libraries (libc6-dev, installed from Debian's packages when missing, as root);
# then checks that it has no dynamic loader and solves the example byte for byte.
# STATIC_PROFILE=static-check builds the quick-to-compile one the tests use.
STATIC_PROFILE ?= release
STATIC = $(TARGET_DIR)/x86_64-unknown-linux-gnu/$(STATIC_PROFILE)/reversi
static:
	test -f /usr/lib/x86_64-linux-gnu/libc.a || { apt-get update && apt-get install -y libc6-dev; }
	RUSTFLAGS="-C target-feature=+crt-static" $(CARGO) build --profile $(STATIC_PROFILE) \
	  --locked --target x86_64-unknown-linux-gnu
	ldd $(STATIC) 2>&1 | grep -qE 'statically linked|not a dynamic executable' || \
	  { echo "$(STATIC) is linked dynamically" >&2; exit 1; }
	@dir=$$(mktemp -d) && cp $(EXAMPLE)/input.txt $$dir/input.txt && \
	  (cd $$dir && $(STATIC)) && cmp $$dir/output.txt $(EXAMPLE)/output.txt; \
	  status=$$?; rm -rf $$dir; exit $$status
	@echo "wrote $(STATIC): linked statically, byte-identical on $(EXAMPLE)"

# An older platform image for tests/grade_bullseye.rs: a Debian 11 (bullseye, glibc
# 2.31) root made with debootstrap from Debian's packages, with python3 as
# Gradescope's images have it; made once (as root), kept in target/bullseye.
BULLSEYE := $(CURDIR)/target/bullseye
DEBIAN_MIRROR ?= http://deb.debian.org/debian
bullseye:
	test -f $(BULLSEYE)/etc/debian_version || { \
	  rm -rf --one-file-system $(BULLSEYE).part && \
	  { debootstrap --variant=minbase --include=python3 bullseye $(BULLSEYE).part \
	      $(DEBIAN_MIRROR) > $(BULLSEYE).log 2>&1 || { tail -n 20 $(BULLSEYE).log >&2; exit 1; }; } && \
	  mv $(BULLSEYE).part $(BULLSEYE); }

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	RUSTDOCFLAGS='-D warnings' $(CARGO) doc --locked --no-deps --document-private-items

bench: build
	$(CARGO) bench --locked --bench engine
	BIN=$(BIN) scripts/bench-e2e.sh
