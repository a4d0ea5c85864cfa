# lossless: the user interface. Every target is a real flow; see README.md.
#
#   make deps      install the Debian 12 packages the flows need (idempotent)
#   make demo      the main job: the default fabric run, ECMP vs DRILL(2,1) x GBN/SR (runs deps first)
#   make sim       build the fabric simulator (build/sim/lossless_sim)
#   make bench     simulator speed and memory: packet-hops per CPU-second, peak RSS, 48x48x48 fabric
#   make blocks    the block flows: lint, lockstep benches, synthesis smoke, summary
#   make test      everything CI checks (runs deps first)
#   make lint      verilator -Wall, iverilog, yosys -noautowire on every RTL module
#   make unit      build and run the models' GoogleTest suites
#   make tb        build and run the lockstep RTL-vs-model SystemC testbenches
#   make mutants   mutation check: every deliberate RTL bug must be caught by its bench
#   make synth     synthesise every configuration; writes synth/reports and the README table
#   make soak      the lockstep benches with 10^8 cycles per run (every set and seed)
#   make coverage  Verilator line/toggle coverage of every block under its bench (build/coverage/)
#   make regmap    regenerate register maps from rtl/<block>/<block>_regs.json
#   make clean     remove build outputs

SHELL   := /bin/bash
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON  ?= python3
CTEST   := ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1
BLOCKS_WITH_REGS := $(patsubst rtl/%/,%,$(dir $(wildcard rtl/*/*_regs.json)))
STAMP = printf '\n== %s: %s s ==\n' "$(1)" "$$(( $$(date +%s) - $(2) ))"

.PHONY: deps configure build lint unit tb mutants synth synth-smoke soak regmap regmap-check \
        demo sim bench blocks test clean help coverage

help:
	@sed -n 's/^#   make /make /p' Makefile

deps:
	@bash scripts/deps.sh

$(BUILD)/build.ninja: CMakeLists.txt $(wildcard */*/CMakeLists.txt) $(wildcard tb/common/*.cmake)
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

lint:
	@$(PYTHON) scripts/lint.py

regmap:
	@for b in $(BLOCKS_WITH_REGS); do $(PYTHON) scripts/regmap.py $$b || exit 1; done

regmap-check:
	@for b in $(BLOCKS_WITH_REGS); do $(PYTHON) scripts/regmap.py $$b --check || exit 1; done
	@echo "regmap: generated register maps are current ($(BLOCKS_WITH_REGS))"

unit: build
	$(CTEST) -L unit

tb: build
	$(CTEST) -L tb

mutants: configure
	$(PYTHON) scripts/mutants.py -j $(JOBS)

synth:
	$(PYTHON) scripts/synth.py -j $(JOBS)

synth-smoke:
	$(PYTHON) scripts/synth.py --smoke -j $(JOBS)

soak: build
	LL_TB_CYCLES=100000000 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L tb --timeout 0

coverage:
	$(PYTHON) scripts/coverage.py -j $(JOBS) --build $(BUILD)/coverage/build --out $(BUILD)/coverage

demo: deps configure
	@cmake --build $(BUILD) --target lossless_sim
	@$(PYTHON) scripts/sim_demo.py --sim $(BUILD)/sim/lossless_sim --out $(BUILD)/demo

sim: configure
	@cmake --build $(BUILD) --target lossless_sim lossless_sim_check

bench: sim
	@$(PYTHON) scripts/sim_bench.py --sim $(BUILD)/sim/lossless_sim --out $(BUILD)/bench

blocks: deps
	@t=$$(date +%s); $(MAKE) --no-print-directory lint; $(call STAMP,lint,$$t)
	@t=$$(date +%s); $(MAKE) --no-print-directory build; $(call STAMP,build,$$t)
	@t=$$(date +%s); $(MAKE) --no-print-directory tb; $(call STAMP,lockstep benches,$$t)
	@t=$$(date +%s); $(MAKE) --no-print-directory synth-smoke; $(call STAMP,synthesis,$$t)
	@$(PYTHON) scripts/summary.py $(BUILD)

test: deps
	@t0=$$(date +%s); \
	t=$$(date +%s); $(MAKE) --no-print-directory regmap-check || exit 1; $(call STAMP,regmap,$$t); \
	t=$$(date +%s); $(MAKE) --no-print-directory lint || exit 1; $(call STAMP,lint,$$t); \
	t=$$(date +%s); $(MAKE) --no-print-directory build || exit 1; $(call STAMP,build,$$t); \
	t=$$(date +%s); $(MAKE) --no-print-directory unit || exit 1; $(call STAMP,unit tests,$$t); \
	t=$$(date +%s); $(MAKE) --no-print-directory tb || exit 1; $(call STAMP,lockstep benches,$$t); \
	t=$$(date +%s); $(MAKE) --no-print-directory mutants || exit 1; $(call STAMP,mutants,$$t); \
	t=$$(date +%s); $(MAKE) --no-print-directory synth-smoke || exit 1; $(call STAMP,synthesis smoke,$$t); \
	$(call STAMP,make test total,$$t0)

clean:
	rm -rf $(BUILD) build-mutants
