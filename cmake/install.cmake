# `cmake --install BUILD [--prefix P]` (make install) and the Debian package
# (make deb: CPack). What is installed:
#   bin/flashmark
#   share/man/man1/flashmark.1.gz, flashmark-COMMAND.1.gz (cmake/generate_docs)
#   share/bash-completion/completions/flashmark
#   share/zsh/vendor-completions/_flashmark
#   share/flashmark/examples/*.toml      (the example campaigns)
#   share/doc/flashmark/README.md, copyright, changelog.Debian.gz
# The HTML report's assets are compiled into the program: nothing else is
# looked up at run time.
include(GNUInstallDirs)

# Who the package names as its maintainer: a placeholder (example.org is
# reserved for that) until the project has an address; packagers set it.
set(FLASHMARK_PACKAGE_CONTACT "the flashmark developers <flashmark@example.org>"
  CACHE STRING "the Debian package's Maintainer field")
if(FLASHMARK_GIT_COUNT AND NOT FLASHMARK_GIT_REVISION STREQUAL "unknown")
  set(FLASHMARK_PACKAGE_VERSION
    "${PROJECT_VERSION}+git${FLASHMARK_GIT_COUNT}.${FLASHMARK_GIT_REVISION}")
else()
  set(FLASHMARK_PACKAGE_VERSION "${PROJECT_VERSION}")
endif()

install(TARGETS flashmark RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_BINARY_DIR}/man/
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
  FILES_MATCHING PATTERN "*.1.gz")
install(FILES ${CMAKE_BINARY_DIR}/completion/flashmark
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${CMAKE_BINARY_DIR}/completion/_flashmark
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/flashmark/examples
  FILES_MATCHING PATTERN "*.toml")

# Debian's changelog of the package: one entry for this build.
string(TIMESTAMP FLASHMARK_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(FLASHMARK_CHANGELOG ${CMAKE_BINARY_DIR}/packaging/changelog.Debian)
file(WRITE ${FLASHMARK_CHANGELOG}
"flashmark (${FLASHMARK_PACKAGE_VERSION}-1) unstable; urgency=medium

  * Built from git revision ${FLASHMARK_GIT_REVISION}.

 -- ${FLASHMARK_PACKAGE_CONTACT}  ${FLASHMARK_CHANGELOG_DATE}
")
execute_process(COMMAND gzip -9nkf ${FLASHMARK_CHANGELOG})
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/packaging/copyright
  ${FLASHMARK_CHANGELOG}.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME flashmark)
set(CPACK_PACKAGE_VENDOR "the flashmark developers")
set(CPACK_PACKAGE_CONTACT ${FLASHMARK_PACKAGE_CONTACT})
set(CPACK_PACKAGE_VERSION ${FLASHMARK_PACKAGE_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "storage benchmark for flash devices, with the method built in")
# The extended description (CPack puts the summary above it).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"flashmark runs a workload against files, a file set or a block device
(psync, libaio, io_uring, mmap and other engines), records every interval,
finds the warm-up, the regimes and SNIA steady state, compares devices
with confidence intervals, sweeps parameters with a fresh device per cell
and writes self-contained HTML, Markdown and CSV reports. It imports fio
and sysbench results into the same SQLite store.")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The runtime libraries it links (liburing2, libaio1, libsqlite3-0,
# libblkid1, libxxhash0, libfmt9, libstdc++6...), found by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, sysbench")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "chromium")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
