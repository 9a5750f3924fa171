# The `configure.minimal` test (cmake -P): configures the project in
# WORK_DIR as a machine without GoogleTest and without web/node_modules
# would, and checks that it succeeds and says what is left out and how to
# get it. Configure only: nothing is built.
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<empty dir> -P cmake/check_minimal_configure.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE ${WORK_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
    -DFLASHMARK_NODE_MODULES=${WORK_DIR}/no-node-modules
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
file(REMOVE_RECURSE ${WORK_DIR})
if(NOT result EQUAL 0)
  message(FATAL_ERROR "configure without GoogleTest and node_modules failed (${result}):\n${output}")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${output}")
foreach(expected
    "GoogleTest not found: building flashmark without its unit and integration tests"
    "Apache ECharts is missing from web/node_modules: flashmark builds, but without the HTML report")
  string(FIND "${flat}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "configure did not say: ${expected}\n${output}")
  endif()
endforeach()
message("configure without GoogleTest and web/node_modules: succeeds and says what is left out")
