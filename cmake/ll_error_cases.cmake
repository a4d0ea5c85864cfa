# ll_error_cases(<test prefix> <target> LABELS <labels> [ONE_LINE <text>] [ENVIRONMENT <env>]
#                CASES "<name>|<expected text>|<arg>;<arg>..." ...)
# One CTest per case, <prefix><name>: the tool run with the case's arguments must exit 2 and
# print the expected text (with ONE_LINE, as the single line starting with it); the check is
# cmake/expect_error.cmake.
function(ll_error_cases prefix target)
  cmake_parse_arguments(PARSE_ARGV 2 A "" "ONE_LINE;ENVIRONMENT" "LABELS;CASES")
  set(one_line "")
  if(A_ONE_LINE)
    set(one_line "-DONE_LINE=${A_ONE_LINE}")
  endif()
  foreach(case IN LISTS A_CASES)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 expect)
    list(SUBLIST parts 2 -1 args)
    add_test(NAME ${prefix}${name}
      COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:${target}> "-DARGS=${args}" -DRC=2
              "-DEXPECT=${expect}" ${one_line} -P ${LL_SOURCE_DIR}/cmake/expect_error.cmake)
    set_tests_properties(${prefix}${name} PROPERTIES LABELS "${A_LABELS}")
    if(A_ENVIRONMENT)
      set_tests_properties(${prefix}${name} PROPERTIES ENVIRONMENT "${A_ENVIRONMENT}")
    endif()
  endforeach()
endfunction()
