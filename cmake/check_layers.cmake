# The layer check (cmake -P): every #include "dir/file.h" in src/ must go to
# the file's own layer or to one its layer may use, as listed in
# src/layers.txt, the one table that CMakeLists.txt builds the libraries
# from. It also checks that docs/ARCHITECTURE.md shows that table as it is.
#   cmake -DSOURCE_DIR=<repo> -P cmake/check_layers.cmake
# Prints every offending include with the rule it breaks; fails if any.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/layers.cmake)
flashmark_read_layers(${SOURCE_DIR}/src/layers.txt layers)

set(errors 0)
foreach(layer IN LISTS layers)
  set(allowed ${layer} ${FLASHMARK_LAYER_${layer}_USES})
  file(GLOB_RECURSE files ${SOURCE_DIR}/src/${layer}/*.h ${SOURCE_DIR}/src/${layer}/*.cpp)
  foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^#include \"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX MATCH "\"([a-z_]+)/" _ "${line}")
      set(target ${CMAKE_MATCH_1})
      if(NOT target IN_LIST allowed)
        file(RELATIVE_PATH rel ${SOURCE_DIR} ${file})
        message("${rel}: ${line}: layer '${layer}' may use only: ${allowed}")
        math(EXPR errors "${errors} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

# Every folder under src/ is a layer.
file(GLOB entries LIST_DIRECTORIES true ${SOURCE_DIR}/src/*)
foreach(entry IN LISTS entries)
  if(IS_DIRECTORY ${entry})
    get_filename_component(name ${entry} NAME)
    if(NOT name IN_LIST layers)
      message("src/${name}/ is not a layer in src/layers.txt")
      math(EXPR errors "${errors} + 1")
    endif()
  endif()
endforeach()

# docs/ARCHITECTURE.md quotes src/layers.txt line for line.
file(STRINGS ${SOURCE_DIR}/src/layers.txt table REGEX "^[a-z_]+:")
file(READ ${SOURCE_DIR}/docs/ARCHITECTURE.md architecture)
foreach(line IN LISTS table)
  string(FIND "${architecture}" "${line}\n" at)
  if(at EQUAL -1)
    message("docs/ARCHITECTURE.md does not show the rule '${line}' of src/layers.txt")
    math(EXPR errors "${errors} + 1")
  endif()
endforeach()

if(errors GREATER 0)
  message(FATAL_ERROR "layer check: ${errors} problem(s); the allowed arrows are in src/layers.txt")
endif()
message("layer check: every include in src/ follows src/layers.txt")
