# The two commands a new user needs: `make run` (solve the bundled example) and
# `make test` (every test). Both build what they need first.

CARGO ?= cargo
EXAMPLE ?= testcases/handout/s2017-example
TARGET_DIR ?= $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),$(CURDIR)/target)
BIN := $(TARGET_DIR)/release/reversi

.PHONY: run test lint bench build

build:
	$(CARGO) build --release --locked

# Solve the handout's example the way the grader runs a program: input.txt in a
# fresh folder, output.txt written there; then show it.
run: build
	@dir=$$(mktemp -d) && cp $(EXAMPLE)/input.txt $$dir/input.txt && \
	  (cd $$dir && $(BIN)) && \
	  cat $$dir/output.txt && echo && \
	  if cmp -s $$dir/output.txt $(EXAMPLE)/output.txt; then \
	    echo "(byte-identical to $(EXAMPLE)/output.txt)"; \
	  else echo "(DIFFERS from $(EXAMPLE)/output.txt)"; exit 1; fi; \
	  rm -rf $$dir

test:
	$(CARGO) test --locked

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings

bench: build
	$(CARGO) bench --locked --bench engine
	BIN=$(BIN) scripts/bench-e2e.sh
