# Writes the manual pages and shell completions of FLASHMARK (the built
# program) under OUTPUT: man/NAME.1 and man/NAME.1.gz (gzip -9n: no name,
# no time, as Debian wants), completion/flashmark (bash) and
# completion/_flashmark (zsh), then the stamp man/.generated.
#   cmake -DFLASHMARK=... -DOUTPUT=... -P generate_docs.cmake
file(REMOVE_RECURSE ${OUTPUT}/man ${OUTPUT}/completion)
file(MAKE_DIRECTORY ${OUTPUT}/man ${OUTPUT}/completion)
execute_process(COMMAND ${FLASHMARK} manpages ${OUTPUT}/man
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "flashmark manpages failed: ${status}")
endif()
file(GLOB pages ${OUTPUT}/man/*.1)
foreach(page IN LISTS pages)
  execute_process(COMMAND gzip -9nkf ${page} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${page} failed: ${status}")
  endif()
endforeach()
foreach(shell_file IN ITEMS "bash;flashmark" "zsh;_flashmark")
  list(GET shell_file 0 shell)
  list(GET shell_file 1 name)
  execute_process(COMMAND ${FLASHMARK} completion ${shell}
    OUTPUT_FILE ${OUTPUT}/completion/${name} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "flashmark completion ${shell} failed: ${status}")
  endif()
endforeach()
file(TOUCH ${OUTPUT}/man/.generated)
