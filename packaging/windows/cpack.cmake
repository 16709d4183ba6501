# SPDX-License-Identifier: GPL-3.0-or-later
# CPack on Windows: a .zip of the install folder and an NSIS installer
# (nicbench-VERSION-windows-x86_64.zip / .exe). The installer puts NicBench in
# Program Files\NicBench, adds a Start menu entry and an Add/Remove Programs entry with the
# icon, and opens .nicbench snapshots with nicbench.exe; its uninstaller removes all of it.
# Included by packaging/CMakeLists.txt before include(CPack).

set(CPACK_GENERATOR "ZIP;NSIS")
set(CPACK_PACKAGE_FILE_NAME "nicbench-${PROJECT_VERSION}-windows-x86_64")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "NicBench")
set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY "NicBench")

set(nb_ico "${CMAKE_CURRENT_LIST_DIR}/nicbench.ico")
# A 64-bit installer for a 64-bit program: it sees the real Program Files and registry (no
# WOW64 redirection), and it runs where only 64-bit wine is installed (Debian's wine64).
set(CPACK_NSIS_DEFINES "Target amd64-unicode")
set(CPACK_NSIS_DISPLAY_NAME "NicBench ${PROJECT_VERSION}")
# The installer's title and the Start menu folder.
set(CPACK_NSIS_PACKAGE_NAME "NicBench")
set(CPACK_NSIS_MUI_ICON "${nb_ico}")
set(CPACK_NSIS_MUI_UNIICON "${nb_ico}")
# Add/Remove Programs shows the icon of this file (relative to the install folder).
set(CPACK_NSIS_INSTALLED_ICON_NAME "nicbench.exe")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MUI_FINISHPAGE_RUN "nicbench.exe")
# The exes sit at the top of the install folder (packaging/windows/CMakeLists.txt), not in bin\.
set(CPACK_NSIS_EXECUTABLES_DIRECTORY ".")
# Start menu: NicBench -> nicbench.exe (the CLI is for a console; it needs no shortcut).
set(CPACK_PACKAGE_EXECUTABLES "nicbench" "NicBench")

# .nicbench snapshots open in nicbench.exe. Windows associates by the last suffix only, so
# gzip-compressed snapshots (.nicbench.gz) are not associated: that would take over every .gz.
# SHChangeNotify(SHCNE_ASSOCCHANGED) makes Explorer pick the change up at once.
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS [=[
  WriteRegStr HKCR ".nicbench" "" "NicBench.Snapshot"
  WriteRegStr HKCR "NicBench.Snapshot" "" "NicBench snapshot"
  WriteRegStr HKCR "NicBench.Snapshot\DefaultIcon" "" "$INSTDIR\nicbench.exe,0"
  WriteRegStr HKCR "NicBench.Snapshot\shell\open\command" "" '"$INSTDIR\nicbench.exe" "%1"'
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
]=])
# The uninstaller removes the class and the suffix, the suffix only while it still points at
# NicBench (another program may have taken it since). CPack's uninstaller removes
# Software\<vendor>\NicBench but leaves the empty vendor key: that goes here too (the
# uninstaller has read the Start menu folder from its Uninstall key by now).
string(CONFIGURE [=[
  ReadRegStr $0 HKCR ".nicbench" ""
  StrCmp $0 "NicBench.Snapshot" 0 +2
    DeleteRegKey HKCR ".nicbench"
  DeleteRegKey HKCR "NicBench.Snapshot"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
  DeleteRegKey SHCTX "Software\@CPACK_PACKAGE_VENDOR@\@CPACK_PACKAGE_INSTALL_REGISTRY_KEY@"
  DeleteRegKey /ifempty SHCTX "Software\@CPACK_PACKAGE_VENDOR@"
]=] CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS @ONLY)
