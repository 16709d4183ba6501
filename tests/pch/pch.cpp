// SPDX-License-Identifier: GPL-3.0-or-later
// Empty: the targets nicbench_test_pch and nicbench_guitest_pch exist to build the precompiled
// headers the tests reuse (tests/CMakeLists.txt).
