# flashmark_read_layers(FILE OUT_LIST): reads src/layers.txt, where each
# line "layer: lower layers it may use" names one layer (bottom first).
# Sets OUT_LIST to the layers in order and FLASHMARK_LAYER_<name>_USES to
# each one's list, in the caller's scope. Used by CMakeLists.txt (one
# static library per layer, linked as the table says) and by
# cmake/check_layers.cmake (the include check).
function(flashmark_read_layers file out_list)
  file(STRINGS ${file} lines REGEX "^[a-z_]+:")
  set(names)
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^([a-z_]+):(.*)$" _ "${line}")
    set(name ${CMAKE_MATCH_1})
    string(STRIP "${CMAKE_MATCH_2}" uses)
    if(uses)
      string(REPLACE " " ";" uses "${uses}")
    endif()
    foreach(use IN LISTS uses)
      if(NOT use IN_LIST names)
        message(FATAL_ERROR "${file}: layer '${name}' uses '${use}', which is not listed above it")
      endif()
    endforeach()
    list(APPEND names ${name})
    set(FLASHMARK_LAYER_${name}_USES ${uses} PARENT_SCOPE)
  endforeach()
  set(${out_list} ${names} PARENT_SCOPE)
endfunction()
