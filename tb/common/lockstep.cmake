# ll_lockstep_tb(): one SystemC lockstep testbench binary per block, holding one
# Verilated model per parameter set, plus its CTest entries.
#
#   ll_lockstep_tb(BLOCK marker [NAME marker] TOP marker_top
#                  SOURCES tb_marker.cpp MODEL_LIBS model_marker
#                  SETS "s0:Queues=8,Profiles=2" "s1:..." SEEDS 1 2 CYCLES 1000000)
#
# NAME (default BLOCK) names the executable tb_<NAME> and the tests tb.<NAME>.*, so a
# block can have a second bench (e.g. pfc's frame codec). Every RTL file of rtl/common
# and rtl/<block> is compiled (packages first) with the
# block's .vlt waivers, --assert, and X-randomised initial state. LL_RTL_ROOT points
# at the RTL tree (the mutation flow points it at a mutated copy); LL_TB_SETS limits
# the sets built; LL_TRACE adds VCD tracing for the first-mismatch waveform; LL_COVERAGE
# adds Verilator line and toggle coverage (scripts/coverage.py). LL_GATES_DIR (make gates,
# scripts/gates.py) builds the bench on Yosys gate netlists instead of the RTL: only the
# sets with a netlist <LL_GATES_DIR>/<NAME>.<set>.v, parameters baked in, the RAMs
# (ll_ram_1r1w instances the netlist keeps) linked from the RTL; no netlist, no bench.
# The benches are the only part of the build that needs Verilator (and SystemC, which
# Verilator's CMake package finds); this file is included only when LL_BUILD_TB is ON.
find_package(verilator HINTS $ENV{VERILATOR_ROOT} ${VERILATOR_ROOT} /usr/share/verilator)
if(NOT verilator_FOUND)
  message(FATAL_ERROR "Verilator not found: run 'make deps' (or configure with -DLL_BUILD_TB=OFF "
                      "to build the models, tools and simulator only)")
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(LL_GATES_DIR "" CACHE PATH "Build the benches on the gate netlists in this directory (scripts/gates.py)")
set(LL_VERILATOR_EXTRA "" CACHE STRING "Extra Verilator arguments for every lockstep bench (e.g. -fno-dfg to rule out an optimisation)")

# The block's RTL files in compile order come from scripts/ll_rtl.py, the one rule every
# flow shares. The folders are configure dependencies: adding or removing a file re-runs
# CMake and so re-lists the sources.
function(ll_rtl_files block out)
  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${LL_SOURCE_DIR}/scripts/ll_rtl.py --cmake
            --rtl-root ${LL_RTL_ROOT} ${block}
    OUTPUT_VARIABLE files OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scripts/ll_rtl.py ${block} failed: ${err}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${LL_RTL_ROOT}/common ${LL_RTL_ROOT}/${block})
  set(${out} ${files} PARENT_SCOPE)
endfunction()

function(ll_lockstep_tb)
  cmake_parse_arguments(A "" "BLOCK;NAME;TOP;CYCLES" "SOURCES;SETS;SEEDS;MODEL_LIBS" ${ARGN})
  if(NOT A_NAME)
    set(A_NAME ${A_BLOCK})
  endif()
  if(LL_GATES_DIR)
    set(gate_sets "")
    foreach(spec ${A_SETS})
      string(REGEX REPLACE ":.*" "" name "${spec}")
      if(EXISTS ${LL_GATES_DIR}/${A_NAME}.${name}.v)
        list(APPEND gate_sets "${spec}")
      endif()
    endforeach()
    if(NOT gate_sets)
      return()
    endif()
    set(A_SETS ${gate_sets})
  endif()
  set(exe tb_${A_NAME})
  add_executable(${exe} ${A_SOURCES} ${LL_SOURCE_DIR}/tb/common/lockstep.cpp)
  set_property(TARGET ${exe} PROPERTY CXX_STANDARD 17)
  # Our bench sources are warning-clean; the Verilated and SystemC headers they include
  # are not, so those are marked as system headers below.
  set_source_files_properties(${A_SOURCES} ${LL_SOURCE_DIR}/tb/common/lockstep.cpp
    PROPERTIES COMPILE_OPTIONS "${LL_WARNINGS}")
  ll_rtl_files(${A_BLOCK} rtl)
  file(GLOB vlt CONFIGURE_DEPENDS ${LL_RTL_ROOT}/${A_BLOCK}/*.vlt)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/gen)
  file(MAKE_DIRECTORY ${gen})
  set(includes "")
  set(xmacro "#define LL_TB_SETS(X)")
  set(names "")
  set(trace_flag "")
  if(LL_TRACE)
    set(trace_flag TRACE)
  endif()
  # LL_COVERAGE (make coverage): Verilator line and toggle coverage; each run writes
  # vcov_<bench>_<set>_seed<N>.dat beside its coverage-bin report.
  set(cov_flag "")
  if(LL_COVERAGE)
    set(cov_flag COVERAGE)
  endif()
  foreach(spec ${A_SETS})
    string(REPLACE ":" ";" parts "${spec}")
    list(GET parts 0 name)
    list(GET parts 1 params)
    if(LL_TB_SETS AND NOT name IN_LIST LL_TB_SETS)
      continue()
    endif()
    set(gargs "")
    string(REPLACE "," ";" plist "${params}")
    foreach(kv ${plist})
      list(APPEND gargs "-G${kv}")
    endforeach()
    set(prefix V${A_NAME}_${name})
    if(LL_GATES_DIR)
      # a flat netlist: its warnings are Yosys's naming, not ours
      set(vsrc ${LL_RTL_ROOT}/common/ll_assert.svh ${LL_GATES_DIR}/${A_NAME}.${name}.v ${LL_RTL_ROOT}/common/ll_ram_1r1w.sv)
      # Two Verilator 5.006 faults the DCQCN netlist met (docs/gates.md, "DCQCN"): it
      # simulated false combinational loops wrongly, so scripts/gates.py bit-blasts the
      # netlist and a loop here is an error (UNOPTFLAT); and its const-bit-op-tree
      # rewrite computed the mapped netlist wrongly (upstream fixed several such cases
      # after 5.006), so it is off for netlists
      set(vargs -Wno-fatal -Wno-lint -Wno-style -Werror-UNOPTFLAT -fno-const-bit-op-tree)
      set(slow_opt -O0)  # the run-once code of a flat netlist is large: compile it fast
    else()
      set(vsrc ${vlt} ${rtl})
      set(vargs ${gargs} -Wall)
      set(slow_opt -O1)
    endif()
    verilate(${exe} SYSTEMC ${trace_flag} ${cov_flag}
      PREFIX ${prefix}
      TOP_MODULE ${A_TOP}
      SOURCES ${vsrc}
      VERILATOR_ARGS ${vargs} --assert --x-assign unique --x-initial unique
                     --output-split 20000 ${LL_VERILATOR_EXTRA}
      OPT_FAST -O1 OPT_SLOW ${slow_opt} OPT_GLOBAL -O1)
    string(APPEND includes "#include \"${prefix}.h\"\n")
    string(APPEND xmacro " X(${name}, ${prefix}, \"${params}\")")
    string(APPEND names "${name} ")
    foreach(seed ${A_SEEDS})
      add_test(NAME tb.${A_NAME}.${name}.seed${seed}
        COMMAND ${exe} --set ${name} --seed ${seed} --cycles ${A_CYCLES}
                --bins ${CMAKE_CURRENT_SOURCE_DIR}/coverage_bins.txt --out ${CMAKE_CURRENT_BINARY_DIR})
      set_tests_properties(tb.${A_NAME}.${name}.seed${seed} PROPERTIES LABELS "tb;tb.${A_NAME}"
        ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1")
    endforeach()
  endforeach()
  string(STRIP "${names}" names)
  file(WRITE ${gen}/tb_sets.h.tmp
    "// generated by ll_lockstep_tb() for bench ${A_NAME} of block ${A_BLOCK}\n#pragma once\n${includes}${xmacro}\n#define LL_TB_SET_NAMES \"${names}\"\n")
  configure_file(${gen}/tb_sets.h.tmp ${gen}/tb_sets.h COPYONLY)
  target_include_directories(${exe} PRIVATE ${gen} ${LL_SOURCE_DIR}/tb/common ${LL_SOURCE_DIR}/cpp_model)
  target_compile_definitions(${exe} PRIVATE LL_TRACE=$<BOOL:${LL_TRACE}>)
  target_link_libraries(${exe} PRIVATE ${A_MODEL_LIBS} CLI11::CLI11)
  verilator_link_systemc(${exe})
  target_include_directories(${exe} SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
endfunction()
