# SPDX-License-Identifier: GPL-3.0-or-later
# Linux install layout and the Debian package (packaging/README.md). Paths are relative to
# the install prefix (/usr for the .deb), except the server's systemd unit and its
# /etc/default file, which packaging/install-system.cmake installs only when the prefix is
# /usr (the .deb, or `cmake --install build --prefix /usr`): ExecStart names /usr/bin.
include(GNUInstallDirs)

# The one place that names the project's web home and AppStream id. The project has no
# domain yet: .invalid (RFC 2606) says so; set the real one before publishing the metainfo.
set(NICBENCH_HOMEPAGE "https://nicbench.invalid" CACHE STRING "Project home page (AppStream metainfo)")
set(NICBENCH_APPSTREAM_ID "invalid.nicbench.NicBench")
# The release date in the metainfo: the last commit's date, so a rebuild gives the same file.
execute_process(COMMAND git -C "${CMAKE_SOURCE_DIR}" log -1 --format=%cs
                OUTPUT_VARIABLE NICBENCH_RELEASE_DATE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT NICBENCH_RELEASE_DATE)
  string(TIMESTAMP NICBENCH_RELEASE_DATE "%Y-%m-%d" UTC)
endif()

set(docdir "${CMAKE_INSTALL_DATADIR}/doc/nicbench")
set(generated "${CMAKE_CURRENT_BINARY_DIR}/generated")
file(MAKE_DIRECTORY "${generated}")

# Desktop integration: launcher, MIME type for .nicbench snapshots, icons, AppStream.
install(FILES "${CMAKE_SOURCE_DIR}/resources/nicbench.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES nicbench-mime.xml DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages" RENAME nicbench.xml)
install(FILES "${CMAKE_SOURCE_DIR}/resources/icons/nicbench.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
foreach(size 16 22 24 32 48 64 128 256)
  install(FILES "icons/${size}x${size}/nicbench.png"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps")
endforeach()
configure_file(nicbench.metainfo.xml.in "${generated}/${NICBENCH_APPSTREAM_ID}.metainfo.xml" @ONLY)
install(FILES "${generated}/${NICBENCH_APPSTREAM_ID}.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")

# Documentation: what Help > Documentation opens, the formats, the licence, Debian's
# copyright and changelog (gzip -n: no time stamp, so the package is reproducible).
install(FILES "${CMAKE_SOURCE_DIR}/README.md" "${CMAKE_SOURCE_DIR}/docs/protocol.md"
              "${CMAKE_SOURCE_DIR}/docs/json-output.md" "${CMAKE_SOURCE_DIR}/docs/snapshot-format.md"
              "${CMAKE_SOURCE_DIR}/docs/compare-spec.md" copyright
        DESTINATION "${docdir}")
install(FILES nicbench-server.env DESTINATION "${docdir}/examples")

# Man pages: each program prints its own (hidden --man) from the table --help comes from.
set(man_targets nicbench-cli)
if(TARGET nicbench)
  list(APPEND man_targets nicbench)
endif()
set(man_outputs)
foreach(program ${man_targets})
  set(page "${generated}/${program}.1")
  add_custom_command(OUTPUT "${page}" "${page}.gz"
    COMMAND $<TARGET_FILE:${program}> --man > "${page}"
    COMMAND gzip -9n -c "${page}" > "${page}.gz"
    DEPENDS ${program}
    COMMENT "Man page ${program}.1 from ${program} --man" VERBATIM)
  list(APPEND man_outputs "${page}" "${page}.gz")
  install(FILES "${page}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endforeach()
add_custom_command(OUTPUT "${generated}/changelog.gz"
  COMMAND gzip -9n -c "${CMAKE_CURRENT_SOURCE_DIR}/changelog" > "${generated}/changelog.gz"
  DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/changelog" VERBATIM)
add_custom_target(nicbench_docs ALL DEPENDS ${man_outputs} "${generated}/changelog.gz")
install(FILES "${generated}/changelog.gz" DESTINATION "${docdir}")

# The server as a systemd service, and its options file (a conffile in the .deb).
install(CODE "set(NICBENCH_PACKAGING_DIR \"${CMAKE_CURRENT_SOURCE_DIR}\")")
install(SCRIPT install-system.cmake)

# The Debian package. dpkg-shlibdeps finds the libraries' packages; iperf3 is only for
# interoperability checks against the stock tool.
set(CPACK_GENERATOR "DEB;TGZ")
# The extended description: lines under 80 columns (lintian), CPack indents each one.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "NicBench measures and compares network adapters: TCP throughput,\n"
  "request/response latency and the CPU cost of both sides, with the adapter\n"
  "that carried each test. nicbench-cli is an iperf3-compatible client and\n"
  "server; nicbench is the Qt window with live charts and comparisons of\n"
  "configurations with confidence intervals.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# qemu-system-x86 and busybox-static: the adapter lab (nicbench-cli lab, docs/lab.md).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "iperf3, qemu-system-x86, busybox-static")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${NICBENCH_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${CMAKE_CURRENT_SOURCE_DIR}/debian/conffiles"
                                       "${CMAKE_CURRENT_SOURCE_DIR}/debian/prerm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
# The .tar.gz unpacks beside the user's files into one folder; it holds what is relative to
# the prefix (bin/, share/), not the systemd unit (install-system.cmake skips a non-/usr prefix).
set(CPACK_PACKAGE_FILE_NAME "nicbench-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")
