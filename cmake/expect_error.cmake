# The bad-input contract of a command-line tool, as a CTest:
#   cmake -DCMD=<tool> "-DARGS=<arg;arg;...>" -DRC=<status> [-DEXPECT=<substring>]
#         [-DONE_LINE=<prefix>] -P expect_error.cmake
# Passes when the tool exits with status RC (default 1), prints nothing on stdout when
# ONE_LINE is given, and its stderr contains EXPECT (the key path or option the error
# names), so an input rejected for the wrong reason still fails the test. With ONE_LINE,
# stderr must be exactly one line starting with that prefix.
if(NOT DEFINED RC)
  set(RC 1)
endif()
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "expected exit status ${RC} for '${ARGS}', got ${rc}; stderr:\n${err}")
endif()
if(DEFINED EXPECT)
  string(FIND "${err}" "${EXPECT}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "exit ${rc}, but stderr lacks \"${EXPECT}\":\n${err}")
  endif()
endif()
if(DEFINED ONE_LINE)
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "expected nothing on stdout, got:\n${out}")
  endif()
  string(REGEX MATCHALL "\n" lines "${err}")
  list(LENGTH lines n)
  string(FIND "${err}" "${ONE_LINE}" start)
  if(NOT n EQUAL 1 OR NOT start EQUAL 0)
    message(FATAL_ERROR "expected one '${ONE_LINE}...' line on stderr, got:\n${err}")
  endif()
endif()
message(STATUS "rejected as expected (exit ${rc}): ${err}")
