# SPDX-License-Identifier: GPL-3.0-or-later
# Runs at install time (cmake --install, CPack). The systemd unit and /etc/default file
# belong to a system install only: a prefix of /usr, possibly under a staging folder (CPack
# installs the .deb's files into <staging>/usr). Other prefixes (/usr/local, the .tar.gz)
# get neither: the unit's ExecStart names /usr/bin/nicbench-cli.
if(CMAKE_INSTALL_PREFIX MATCHES "(^|/)usr/?$")
  string(REGEX REPLACE "/?usr/?$" "" root "${CMAKE_INSTALL_PREFIX}")
  file(INSTALL "${NICBENCH_PACKAGING_DIR}/nicbench-server.service"
       DESTINATION "${root}/usr/lib/systemd/system" FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  file(INSTALL "${NICBENCH_PACKAGING_DIR}/nicbench-server.env" DESTINATION "${root}/etc/default"
       RENAME nicbench-server FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
else()
  message(STATUS "Not installing the systemd unit and /etc/default/nicbench-server: the prefix is not /usr")
endif()
