# SPDX-License-Identifier: GPL-3.0-or-later
# Install-time script (packaging/windows/CMakeLists.txt sets the NB_* variables before it):
# copies every DLL the Windows programs and Qt plugins load, directly or through other DLLs,
# beside the programs, then strips the mingw runtime.
#
# file(GET_RUNTIME_DEPENDENCIES) reads the PE import tables with mingw's objdump. For
# windows+pe it lower-cases every DLL name before looking it up, which finds nothing on a
# case-sensitive file system (Qt6Core.dll is looked for as qt6core.dll). So the lookup runs
# in NB_DLL_INDEX, a folder of lower-case links to the DLLs in NB_DLL_DIRS (the first folder
# holding a name wins), and each link found is installed as the file it points to, under
# its real name.

set(CMAKE_GET_RUNTIME_DEPENDENCIES_PLATFORM "windows+pe")
set(CMAKE_GET_RUNTIME_DEPENDENCIES_TOOL "objdump")
set(CMAKE_GET_RUNTIME_DEPENDENCIES_COMMAND "${NB_OBJDUMP}")

file(REMOVE_RECURSE "${NB_DLL_INDEX}")
file(MAKE_DIRECTORY "${NB_DLL_INDEX}")
foreach(dir ${NB_DLL_DIRS})
  file(GLOB dlls "${dir}/*.dll")
  foreach(dll ${dlls})
    get_filename_component(name "${dll}" NAME)
    string(TOLOWER "${name}" lower)
    if(NOT EXISTS "${NB_DLL_INDEX}/${lower}")
      file(CREATE_LINK "${dll}" "${NB_DLL_INDEX}/${lower}" SYMBOLIC)
    endif()
  endforeach()
endforeach()

# What Windows itself provides stays out (names arrive lower-cased). A DLL neither listed
# here nor found in NB_DLL_DIRS fails the install with its name: add it here if Windows
# ships it, or its folder to NB_DLL_DIRS if it is ours to ship.
set(windows_dlls
  "^api-ms-win-" "^ext-ms-"
  "^(kernel32|kernelbase|ntdll|user32|gdi32|gdiplus|shell32|shlwapi|ole32|oleaut32|advapi32|comdlg32|comctl32)\\.dll$"
  "^(ws2_32|mswsock|iphlpapi|dnsapi|netapi32|userenv|wtsapi32|mpr|version|winmm|imm32|uxtheme|dwmapi)\\.dll$"
  "^(d2d1|d3d9|d3d11|d3d12|dxgi|dwrite|dcomp|setupapi|crypt32|secur32|ncrypt|bcrypt|authz|shcore)\\.dll$"
  "^(msvcrt|ucrtbase|winspool\\.drv|opengl32|glu32|usp10|cfgmgr32|powrprof|rpcrt4|sspicli|normaliz|winhttp|wininet|psapi|dbghelp)(\\.dll)?$")

file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES ${NB_EXECUTABLES}
  MODULES ${NB_MODULES}
  DIRECTORIES "${NB_DLL_INDEX}"
  PRE_EXCLUDE_REGEXES ${windows_dlls}
  RESOLVED_DEPENDENCIES_VAR resolved
  UNRESOLVED_DEPENDENCIES_VAR unresolved)
if(unresolved)
  list(JOIN unresolved ", " names)
  message(FATAL_ERROR "Windows DLLs neither found in ${NB_DLL_DIRS} nor known as Windows' own: ${names}")
endif()

set(dest "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
foreach(link ${resolved})
  file(REAL_PATH "${link}" dll)
  file(INSTALL DESTINATION "${dest}" TYPE SHARED_LIBRARY FILES "${dll}")
  get_filename_component(name "${dll}" NAME)
  # Debian's mingw runtime carries debug information (libstdc++-6.dll: 23 MB, 2 MB stripped);
  # Qt's DLLs come stripped already.
  if(name MATCHES "^lib|^zlib")
    execute_process(COMMAND "${NB_STRIP}" --strip-unneeded "${dest}/${name}" COMMAND_ERROR_IS_FATAL ANY)
  endif()
endforeach()

# The programs lose their symbol tables too.
file(GLOB exes "${dest}/*.exe")
foreach(exe ${exes})
  execute_process(COMMAND "${NB_STRIP}" --strip-unneeded "${exe}" COMMAND_ERROR_IS_FATAL ANY)
endforeach()
