# lossless: the user interface. Every target is a real flow; see README.md.
#
#   make deps      install the Debian 12 packages the flows need (idempotent)
#   make demo      the main job: the default fabric run, ECMP vs DRILL(2,1) x (PFC + go-back-N, lossy + IRN) (runs deps first)
#   make sim       build the fabric simulator (build/sim/lossless_sim)
#   make tools     the command-line tools without Verilator: pfc_buffer_calc, dcqcn_trace, simulator (build/tools)
#   make cosim     the simulator with blocks as Verilated RTL: build/cosim/sim/cosim/lossless_sim_cosim (docs/cosim.md)
#   make cosim-test  co-simulation proof: RTL-in-the-loop runs byte-identical to the model's; a mutant per block must differ
#   make cosim-slowdown  what the RTL in the loop costs on the demo fabric, per set of blocks (docs/cosim.md's tables)
#   make bench     simulator speed and memory: packet-hops per CPU-second, peak RSS, 48x48x48 fabric
#   make peers     every load balancer on the 128-host RDMA peer-comparison fabric, PFC + GBN and lossy + IRN
#   make experiments        the paper experiments (sim/experiments/), quick form with direction checks; FULL=1: paper scale into results/
#   make experiment NAME=x  one of them (FULL=1 as above; RESUME=1 reuses the finished runs of an interrupted sweep)
#   make experiments-seeds  the committed results/ read back: per claim, how many seeds agree; fails if a
#                  summary.md is not what its points.csv and the current claims give (NAME=x: one experiment)
#   make blocks    the block flows: lint, lockstep benches, synthesis smoke, summary
#   make test      everything CI checks (runs deps first)
#   make lint      verilator -Wall, iverilog, yosys -noautowire on every RTL module
#   make unit      build and run the models' GoogleTest suites
#   make tb        build and run the lockstep RTL-vs-model SystemC testbenches
#   make mutants   mutation check: every deliberate RTL bug must be caught by its bench
#   make synth     synthesise every configuration; writes synth/reports and the README table
#   make equiv     prove the generic and IHP SG13G2 netlists equivalent to the RTL (Yosys equiv_*), with a negative test;
#                  EQUIV_ARGS=--ci leaves out the configurations marked "equiv": "signoff" (make test does)
#   make gates     the lockstep benches on Yosys gate netlists (10^6 cycles each), with a negative test
#   make formal    prove the RTL assertions with yosys-smtbmc (BMC + k-induction), each refuted on its own mutant
#   make signoff   the README's sign-off table from the outputs of equiv, formal, gates, coverage and synth
#   make soak      the lockstep benches with 10^8 cycles per run (every set and seed)
#   make tb-profile  where each lockstep bench's time goes (stimulus, RTL, model, bench), per set
#   make soak RUNNER=slurm  soak, mutants, synth, experiment(s) as one Slurm job array and a gather job
#                  (RUNNER=local: the same jobs in a local pool; SLURM_PARTITION, SLURM_ACCOUNT, SLURM_TIME,
#                  SLURM_MEM pass through; a re-run skips the jobs done; README "Running on a cluster")
#   make slurm-test  scripts/jobs.py on a one-node Slurm started on 127.0.0.1 (root or sudo -n; else it skips)
#   make coverage  Verilator line/toggle coverage of every block under its bench (build/coverage/)
#   make regmap    regenerate register maps from rtl/<block>/<block>_regs.json
#   make params    regenerate parameter checks from rtl/<block>/<block>_params.json
#   make clean     remove build outputs

SHELL   := /bin/bash
# Every recipe line runs under `bash -e`: a multi-step line stops at its first failing
# command and the target fails (scripts/test_make.py proves it in make test).
.SHELLFLAGS := -ec
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON  ?= python3
CTEST   := ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE := 1
BLOCKS_WITH_REGS := $(patsubst rtl/%/,%,$(dir $(wildcard rtl/*/*_regs.json)))
STAMP = printf '\n== %s: %s s ==\n' "$(1)" "$$(( $$(date +%s) - $(2) ))"
# $(call STAGE,target,label): run one sub-make target and print its time; under -e a
# failing target stops the recipe before the time is printed.
STAGE = t=$$(date +%s); $(MAKE) --no-print-directory $(1); $(call STAMP,$(2),$$t)

.PHONY: deps configure build lint unit tb mutants synth synth-smoke equiv gates formal signoff soak tb-profile regmap regmap-check slurm-test \
        demo sim tools cosim cosim-test cosim-slowdown bench peers experiments experiment experiments-seeds blocks test clean help coverage make-selftest params

help:
	@sed -n 's/^#   make /make /p' Makefile

deps:
	@bash scripts/deps.sh

# The RTL folders are prerequisites too: a file added to or removed from one changes the
# benches' source lists, which CMake computes at configure time (scripts/ll_rtl.py).
$(BUILD)/build.ninja: CMakeLists.txt $(wildcard */*/CMakeLists.txt) $(wildcard tb/common/*.cmake) \
                      $(wildcard rtl/*/)
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
	@$(PYTHON) scripts/params.py --all --check

# Parameter checks (RTL $error lines, C++ params::check, illegal_params.json) from
# rtl/<block>/<block>_params.json.
params:
	@$(PYTHON) scripts/params.py --all

unit: build
	$(CTEST) -L unit

tb: build
	$(CTEST) -L tb

# RUNNER=local|slurm: the heavy flows as job lists (scripts/jobs.py; README "Running on a
# cluster"): a local pool of JOBS, or one Slurm array and a gather job after it. The run
# directory is $(BUILD)/jobs/<flow>; a re-run skips the jobs already done there.
RUNNER ?=
JOBS_RUN = $(PYTHON) scripts/jobs.py run --runner $(RUNNER) --jobs $(JOBS) \
           $(if $(SLURM_PARTITION),--partition '$(SLURM_PARTITION)') $(if $(SLURM_ACCOUNT),--account '$(SLURM_ACCOUNT)') \
           $(if $(SLURM_TIME),--time '$(SLURM_TIME)') $(if $(SLURM_MEM),--mem '$(SLURM_MEM)')

mutants: configure
	$(if $(RUNNER),$(JOBS_RUN) mutants --out $(BUILD)/jobs/mutants,$(PYTHON) scripts/mutants.py -j $(JOBS))

synth:
	$(if $(RUNNER),$(JOBS_RUN) synth --out $(BUILD)/jobs/synth,$(PYTHON) scripts/synth.py -j $(JOBS))

synth-smoke:
	$(PYTHON) scripts/test_synth_budget.py --quiet
	$(PYTHON) scripts/test_fanout_buf.py --quiet
	$(PYTHON) scripts/synth.py --smoke -j $(JOBS)
	$(PYTHON) scripts/test_sta_endpoints.py --quiet
	$(PYTHON) scripts/test_area_cones.py --quiet
	$(PYTHON) scripts/test_mul_timing.py --quiet

# Formal equivalence of the synthesised netlists with the RTL; build/equiv/report.md.
# test_equiv.py: the pairing rules (re-encoded FSMs) on a small design, pass and fail cases.
equiv:
	$(PYTHON) scripts/test_equiv.py
	$(PYTHON) scripts/equiv.py --selftest -j $(JOBS) $(EQUIV_ARGS)

# Gate-level lockstep: every bench on the generic-gate netlist of one parameter set;
# build/gates/report.md and summary.json (scripts/gates.py, docs/gates.md).
# test_gates.py: the bit-blasting and wrapper on a small design (Icarus against the RTL,
# a mis-wired wrapper caught, no false loop left for Verilator), the port check, the
# negative test's gate pick.
gates:
	$(PYTHON) scripts/test_gates.py --quiet
	$(PYTHON) scripts/gates.py --selftest -j $(JOBS) --out $(BUILD)/gates

# Formal property proofs of the RTL assertions (tb/<block>/formal.json), each with its
# negative mutant; build/formal/report.md and summary.json.
formal:
	$(PYTHON) scripts/formal.py -j $(JOBS)

# The README's sign-off table, collected from what the flows above wrote (runs none of them).
signoff:
	$(PYTHON) scripts/signoff.py --build $(BUILD)

soak: build
	$(if $(RUNNER),$(JOBS_RUN) soak --out $(BUILD)/jobs/soak --build $(BUILD) --cycles 100000000,LL_TB_CYCLES=100000000 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L tb --timeout 0)

# --profile on every bench and set (one run at a time: the figures are wall time)
tb-profile: build
	@$(PYTHON) scripts/tb_profile.py --build $(BUILD) -j 1

# A one-node Slurm on 127.0.0.1 runs a small job array; its results must equal a local run's.
slurm-test: build
	@$(PYTHON) scripts/test_slurm.py --build $(BUILD)

coverage:
	$(PYTHON) scripts/coverage.py -j $(JOBS) --build $(BUILD)/coverage/build --out $(BUILD)/coverage

demo: deps configure
	@cmake --build $(BUILD) --target lossless_sim
	@$(PYTHON) scripts/sim_demo.py --sim $(BUILD)/sim/lossless_sim --out $(BUILD)/demo

sim: configure
	@cmake --build $(BUILD) --target lossless_sim lossless_sim_check

# The command-line tools in their own tree, configured without the benches: proves the
# models, tools and simulator need no Verilator.
TOOLS_BUILD ?= $(BUILD)/tools
TOOLS := pfc_buffer_calc dcqcn_trace lossless_sim lossless_sim_check
tools:
	@cmake -S . -B $(TOOLS_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLL_BUILD_TB=OFF \
	       -DLL_BUILD_MODEL_TESTS=ON >/dev/null
	@cmake --build $(TOOLS_BUILD) -j $(JOBS) --target $(TOOLS)
	@printf 'tools: %s\n' $(TOOLS_BUILD)/cpp_model/pfc/pfc_buffer_calc \
	  $(TOOLS_BUILD)/cpp_model/dcqcn/dcqcn_trace $(TOOLS_BUILD)/sim/lossless_sim \
	  $(TOOLS_BUILD)/sim/lossless_sim_check

# Co-simulation (docs/cosim.md): its own tree, configured without the benches; the blocks
# are verilated as plain C++ into the library only lossless_sim_cosim links.
COSIM_BUILD ?= $(BUILD)/cosim
cosim:
	@cmake -S . -B $(COSIM_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLL_BUILD_TB=OFF \
	       -DLL_BUILD_MODEL_TESTS=OFF -DLL_BUILD_COSIM=ON -DLL_COSIM_MUTANT_RTL= >/dev/null
	@cmake --build $(COSIM_BUILD) -j $(JOBS) --target lossless_sim lossless_sim_cosim
	@printf 'cosim: %s\n' $(COSIM_BUILD)/sim/cosim/lossless_sim_cosim

# The proof: each co-simulation scenario's outputs equal the pure-model run's byte for byte
# (performance figures aside), and a deliberately broken RTL (a mutant) makes them differ.
cosim-test: cosim
	@$(PYTHON) scripts/cosim_check.py --build $(COSIM_BUILD) --jobs $(JOBS)

# The cost of the RTL in the loop: the demo fabric for 10 ms with each set of blocks as RTL
# (3 runs a row, interleaved; the least CPU time), failing unless the outputs are the model's.
cosim-slowdown: cosim
	@$(PYTHON) scripts/cosim_slowdown.py --build $(COSIM_BUILD)

bench: sim
	@$(PYTHON) scripts/sim_bench.py --sim $(BUILD)/sim/lossless_sim --out $(BUILD)/bench

# Quick form: build/experiments/<name>/, direction assertions and their swap check.
# FULL=1: the paper's scale, >= 3 seeds, into results/<name>/ (committed).
EXP_FLAGS = $(if $(FULL),--full,--swap-check)
experiments: configure
	@cmake --build $(BUILD) --target lossless_sim
	@$(if $(RUNNER),$(JOBS_RUN) experiments --out $(BUILD)/jobs/experiments$(if $(FULL),-full) --sim $(BUILD)/sim/lossless_sim,$(PYTHON) scripts/experiments.py --sim $(BUILD)/sim/lossless_sim $(if $(RESUME),--resume)) $(EXP_FLAGS)

experiment: configure
	@test -n "$(NAME)" || { echo "make experiment: give NAME=<one of sim/experiments/>" >&2; exit 2; }
	@cmake --build $(BUILD) --target lossless_sim
	@$(if $(RUNNER),$(JOBS_RUN) experiments --out $(BUILD)/jobs/experiment-$(NAME)$(if $(FULL),-full) --name $(NAME) --sim $(BUILD)/sim/lossless_sim,$(PYTHON) scripts/experiments.py --sim $(BUILD)/sim/lossless_sim --name $(NAME) $(if $(RESUME),--resume)) $(EXP_FLAGS)

# Runs nothing (no build): reads results/<name>/points.csv and summary.md back.
experiments-seeds:
	@$(PYTHON) scripts/experiments.py --seeds $(if $(NAME),--name $(NAME))

peers: deps configure
	@cmake --build $(BUILD) --target lossless_sim
	@$(PYTHON) scripts/peers.py --sim $(BUILD)/sim/lossless_sim --out $(BUILD)/peers

blocks: deps
	@$(call STAGE,lint,lint)
	@$(call STAGE,build,build)
	@$(call STAGE,tb,lockstep benches)
	@$(call STAGE,synth-smoke,synthesis)
	@$(PYTHON) scripts/summary.py $(BUILD)

test: deps
	@t0=$$(date +%s); \
	$(call STAGE,regmap-check,regmap); \
	$(call STAGE,lint,lint); \
	$(call STAGE,make-selftest,make self-test); \
	$(call STAGE,build,build); \
	$(call STAGE,tools,tools without Verilator); \
	$(call STAGE,cosim-test,co-simulation); \
	$(call STAGE,unit,unit tests); \
	$(call STAGE,tb,lockstep benches); \
	$(call STAGE,slurm-test,Slurm job array); \
	$(call STAGE,mutants,mutants); \
	$(call STAGE,synth-smoke,synthesis smoke); \
	$(call STAGE,equiv EQUIV_ARGS=--ci,netlist equivalence); \
	$(call STAGE,gates,gate-level lockstep); \
	$(call STAGE,formal,formal properties); \
	$(call STAGE,experiments,quick experiments); \
	$(call STAGE,experiments-seeds,committed results by seed); \
	$(call STAMP,make test total,$$t0)

# A multi-step target with a failing step must fail: run `make blocks` and `make test`
# with a failing interpreter and check both stop at their first step, non-zero. Also the
# experiments' resume rule, the sign-off table's equivalence cell (NOT RUN, FAILED, NOT PROVEN)
# and the scripts' refusal of bad input (up front, one error line, nothing written).
make-selftest:
	@$(PYTHON) scripts/test_make.py
	@$(PYTHON) scripts/test_experiments_resume.py
	@$(PYTHON) scripts/test_signoff.py --quiet
	@$(PYTHON) scripts/test_dcqcn_fluid.py --quiet
	@$(PYTHON) scripts/test_script_errors.py --quiet

clean:
	rm -rf $(BUILD) build-mutants
