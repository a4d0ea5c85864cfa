# lossless_sim with --out OUT, where OUT is a directory an earlier run wrote (it holds the
# marker .lossless_sim, so a run may replace it) and also holds one of the run's inputs:
# replacing OUT would delete it. Two cases: the scenario file itself in OUT, and a size CDF
# in OUT named by a scenario outside it. Each must exit 2 naming the input and leave it.
function(expect_refused what input)
  execute_process(COMMAND ${CMD} ${ARGN} --out ${OUT} --set duration=10us --quiet RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${what}: expected exit status 2, got ${rc}: ${err}")
  endif()
  string(FIND "${err}" "holds the ${what}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "exit 2, but the error does not name the ${what}: ${err}")
  endif()
  if(NOT EXISTS ${input})
    message(FATAL_ERROR "the run deleted its own ${what} ${input}")
  endif()
  message(STATUS "refused, ${what} kept: ${err}")
endfunction()

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(WRITE ${OUT}/.lossless_sim "written by lossless_sim\n")
file(COPY ${SCENARIO} DESTINATION ${OUT})
get_filename_component(name ${SCENARIO} NAME)
expect_refused("scenario file" ${OUT}/${name} ${OUT}/${name})
file(COPY ${CDF} DESTINATION ${OUT})
get_filename_component(cdf ${CDF} NAME)
expect_refused("size CDF" ${OUT}/${cdf} ${SCENARIO} --set "workload.traffic[0].size_cdf=\"${OUT}/${cdf}\"")
file(REMOVE_RECURSE ${OUT})
