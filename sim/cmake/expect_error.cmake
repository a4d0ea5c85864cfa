# cmake -DCMD=<tool> -DARG=<scenario> -DEXPECT=<substring> -P expect_error.cmake
# Passes when the tool exits with status 1 and its stderr contains EXPECT (the key path of the
# error), so a bad scenario that is rejected for the wrong reason still fails the test.
execute_process(COMMAND ${CMD} ${ARG} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit status 1 for ${ARG}, got ${rc}; output:\n${out}")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "exit ${rc}, but stderr lacks \"${EXPECT}\":\n${err}")
endif()
message(STATUS "rejected as expected (exit ${rc}): ${err}")
