# Precompiled headers (issue #18 item 9: about half of a fresh build was
# parsing grpcpp, protobuf and gtest again in every translation unit).
#
# gorank_precompile_headers(), called once at the end of the top-level
# CMakeLists.txt, walks every target the project defines and gives each C++
# target that compiles against gRPC or GoogleTest a shared precompiled header
# (target_precompile_headers(... REUSE_FROM donor)). New targets need nothing:
# the kind is read from what the target links:
#   links gRPC (gorank_proto, gRPC::grpc++), outside tests/ -> gorank_pch_grpc
#   links gRPC and GoogleTest, in tests/                    -> gorank_pch_grpc_test
#   links GoogleTest but not gRPC, in tests/                -> gorank_pch_test
#   neither, in services/ or storage/ (the domain libraries) -> gorank_pch_domain
#   anything else (benchmarks, tools)                       -> no PCH
# The headers are third-party only (the standard library, absl::Status,
# nlohmann::json for the domain, protobuf, grpcpp, gtest, gmock), never the project's own or the generated
# *.pb.h: they do not change, so a PCH is built once per donor and an edit to
# a project header or a .proto rebuilds no more than before. gcc reuses a PCH
# only when the defines it was built with are defined alike, so each donor
# links the same libraries as its users; -Winvalid-pch reports a TU that falls
# back to parsing the headers (slower, never wrong).
#
# Mind: the PCH is force-included, so a missing #include of one of those
# headers goes unnoticed here. Build with -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON
# to check includes; clang (the fuzz build) gets no PCH.

set(GORANK_PCH_STD
  <algorithm> <chrono> <cstdint> <functional> <map> <memory> <optional>
  <set> <string> <string_view> <utility> <vector>)
set(GORANK_PCH_GRPC
  [["absl/status/status.h"]] [["absl/status/statusor.h"]]
  [["google/protobuf/message.h"]] [["grpcpp/grpcpp.h"]])
set(GORANK_PCH_GTEST [["gtest/gtest.h"]] [["gmock/gmock.h"]])
# The domain libraries: absl::Status and nlohmann::json were most of the
# parsing of a domain file (json.hpp 2.6 s, absl and the standard library
# 1.7 s of event_json.cc's 5.3 s).
set(GORANK_PCH_DOMAIN
  [["absl/status/status.h"]] [["absl/status/statusor.h"]]
  [["nlohmann/json.hpp"]])

# _gorank_pch_kind(<target> <out-var>): sets <out-var> to "grpc", "gtest",
# "grpc;gtest" or "" from the libraries whose usage requirements reach the
# target's compile line: its own LINK_LIBRARIES and, through them, their
# INTERFACE_LINK_LIBRARIES (what a library links PRIVATE, $<LINK_ONLY:...>,
# adds no flags to its users).
function(_gorank_pch_kind target out)
  get_target_property(deps ${target} LINK_LIBRARIES)
  _gorank_pch_kind_of_deps("${deps}" kind)
  set(${out} "${kind}" PARENT_SCOPE)
endfunction()

# The kind of a list of link items: their names and, for the project's own
# targets, their interface kind (memoised in a global property).
function(_gorank_pch_kind_of_deps deps out)
  set(kind)
  foreach(dep IN LISTS deps)
    if(dep MATCHES "^\\$<LINK_ONLY:")
      continue()
    endif()
    if(dep MATCHES "^(gRPC::grpc\\+\\+|gRPC::grpc\\+\\+_unsecure|gorank_proto)$")
      list(APPEND kind grpc)
    elseif(dep MATCHES "^GTest::")
      list(APPEND kind gtest)
    endif()
    if(NOT TARGET ${dep})
      continue()
    endif()
    get_target_property(alias ${dep} ALIASED_TARGET)
    if(alias)
      set(dep ${alias})
    endif()
    get_target_property(imported ${dep} IMPORTED)
    if(imported)
      continue()
    endif()
    get_property(known GLOBAL PROPERTY _gorank_pch_iface_${dep} SET)
    if(NOT known)
      set_property(GLOBAL PROPERTY _gorank_pch_iface_${dep} "")  # cycles
      get_target_property(iface ${dep} INTERFACE_LINK_LIBRARIES)
      if(iface)
        _gorank_pch_kind_of_deps("${iface}" iface_kind)
        set_property(GLOBAL PROPERTY _gorank_pch_iface_${dep} "${iface_kind}")
      endif()
    endif()
    get_property(iface_kind GLOBAL PROPERTY _gorank_pch_iface_${dep})
    list(APPEND kind ${iface_kind})
  endforeach()
  if(kind)
    list(REMOVE_DUPLICATES kind)
    list(SORT kind)
  endif()
  set(${out} "${kind}" PARENT_SCOPE)
endfunction()

# _gorank_targets_in(<dir> <out-var>): every build-system target of <dir> and
# the folders below it.
function(_gorank_targets_in dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _gorank_targets_in(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# The donor of one kind: an object library of one empty file that links what
# its users link (so the PCH has their defines and flags) and precompiles the
# headers.
function(_gorank_pch_donor name in_tests kind)
  set(stub ${CMAKE_BINARY_DIR}/gorank_pch/${name}.cc)
  if(NOT EXISTS ${stub})
    file(WRITE ${stub} "// Precompiled-header donor (cmake/GorankPch.cmake).\n")
  endif()
  add_library(${name} OBJECT ${stub})
  # gorank_warnings too: -Wpedantic changes a predefined macro
  # (__cpp_runtime_arrays), and gcc then refuses the PCH.
  target_link_libraries(${name} PRIVATE gorank_warnings)
  set(headers ${GORANK_PCH_STD})
  if("domain" IN_LIST kind)
    target_link_libraries(${name} PRIVATE absl::status absl::statusor
                                          nlohmann_json::nlohmann_json)
    list(APPEND headers ${GORANK_PCH_DOMAIN})
  endif()
  if("grpc" IN_LIST kind)
    target_link_libraries(${name} PRIVATE gRPC::grpc++ protobuf::libprotobuf)
    list(APPEND headers ${GORANK_PCH_GRPC})
  endif()
  if("gtest" IN_LIST kind)
    target_link_libraries(${name} PRIVATE GTest::gtest GTest::gmock)
    list(APPEND headers ${GORANK_PCH_GTEST})
  endif()
  if(in_tests)
    target_compile_options(${name} PRIVATE ${GORANK_TEST_COMPILE_OPTIONS})
  endif()
  target_compile_options(${name} PRIVATE -Winvalid-pch)
  target_precompile_headers(${name} PRIVATE ${headers})
endfunction()

function(gorank_precompile_headers)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR CMAKE_DISABLE_PRECOMPILE_HEADERS)
    return()
  endif()
  _gorank_targets_in(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    if(NOT sources MATCHES "\\.(cc|cpp|cxx)(;|$)")
      continue()
    endif()
    get_target_property(dir ${target} SOURCE_DIR)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${dir})
    if(rel MATCHES "^tests/fuzz")
      continue()
    endif()
    _gorank_pch_kind(${target} kind)
    set(in_tests OFF)
    if(rel MATCHES "^tests(/|$)")
      set(in_tests ON)
    endif()
    if(in_tests AND kind STREQUAL "grpc;gtest")
      set(donor gorank_pch_grpc_test)
    elseif(in_tests AND kind STREQUAL "gtest")
      set(donor gorank_pch_test)
    elseif(NOT in_tests AND kind STREQUAL "grpc")
      set(donor gorank_pch_grpc)
    elseif(NOT in_tests AND kind STREQUAL "" AND rel MATCHES "^(services|storage)(/|$)")
      set(donor gorank_pch_domain)
      set(kind domain)
    else()
      continue()
    endif()
    if(NOT TARGET ${donor})
      _gorank_pch_donor(${donor} ${in_tests} "${kind}")
    endif()
    target_precompile_headers(${target} REUSE_FROM ${donor})
    target_compile_options(${target} PRIVATE -Winvalid-pch)
  endforeach()
endfunction()
