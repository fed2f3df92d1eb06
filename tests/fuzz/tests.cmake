# Fuzz targets (tests/fuzz, docs/reliability.md). Each target's LLVMFuzzerTestOneInput is built two ways:
#  - always: linked with regress_main.c into fuzz_<t>_regress, the CTest fuzz_<t> that runs every file of
#    corpus/<t>/ and crashes/<t>/ once (the Release and sanitizer builds of `make test`);
#  - with -DRG_FUZZ=ON (clang, -DRG_SANITIZE=fuzzer-no-link,address,undefined so the library is instrumented for
#    coverage): linked with libFuzzer into fuzz_<t>, run by `make fuzz`. The target rg_fuzzers builds them all.
option(RG_FUZZ "Build the libFuzzer targets of tests/fuzz (clang; with RG_SANITIZE=fuzzer-no-link,address,undefined)" OFF)
set(RG_FUZZ_TARGETS datatype json state movie zip a26rom lua nesrom nes_state search smsrom mdrom gpgx_state)
set(RG_FUZZ_DIR "${CMAKE_CURRENT_SOURCE_DIR}/fuzz")

if(RG_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RG_FUZZ needs clang (CC=clang); the compiler is ${CMAKE_C_COMPILER_ID}")
  endif()
  if(NOT RG_SANITIZE MATCHES "fuzzer-no-link")
    message(FATAL_ERROR "RG_FUZZ needs -DRG_SANITIZE=fuzzer-no-link,address,undefined (coverage in the library)")
  endif()
  add_custom_target(rg_fuzzers)
  # clang's optimizer takes tens of minutes on the Atari machine's CPU loops (five instances of the 6502
  # interpreter with the bus inlined, a26_cpu_<kind>.c) once ASan, UBSan and coverage are on; at -O0 a couple of
  # minutes.
  set_source_files_properties(${RG_A26_MACHINE_C} DIRECTORY "${CMAKE_SOURCE_DIR}" PROPERTIES COMPILE_OPTIONS "-O0")
endif()

add_library(rg_fuzz_support STATIC "${RG_FUZZ_DIR}/fuzz_support.c")
target_include_directories(rg_fuzz_support PUBLIC "${RG_FUZZ_DIR}" "${CMAKE_SOURCE_DIR}/src")
target_compile_definitions(rg_fuzz_support PRIVATE "RG_SOURCE_DIR=\"${CMAKE_SOURCE_DIR}\"")
target_link_libraries(rg_fuzz_support PUBLIC retrogym)

foreach(t ${RG_FUZZ_TARGETS})
  add_executable(fuzz_${t}_regress "${RG_FUZZ_DIR}/fuzz_${t}.c" "${RG_FUZZ_DIR}/regress_main.c")
  target_link_libraries(fuzz_${t}_regress PRIVATE rg_fuzz_support)
  add_test(NAME fuzz_${t} COMMAND fuzz_${t}_regress "${RG_FUZZ_DIR}/corpus/${t}" "${RG_FUZZ_DIR}/crashes/${t}")
  set(tmp "${CMAKE_BINARY_DIR}/test-tmp/fuzz_${t}")
  file(MAKE_DIRECTORY "${tmp}")
  set_tests_properties(fuzz_${t} PROPERTIES ENVIRONMENT "TMPDIR=${tmp};${RG_SANITIZER_ENV}" TIMEOUT 300
                       LABELS fuzz)
  if(RG_FUZZ)
    add_executable(fuzz_${t} "${RG_FUZZ_DIR}/fuzz_${t}.c")
    target_link_libraries(fuzz_${t} PRIVATE rg_fuzz_support)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    add_dependencies(rg_fuzzers fuzz_${t})
  endif()
endforeach()
