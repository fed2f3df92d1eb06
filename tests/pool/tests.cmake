rg_test(pool_engine pool/test_pool.c)
# Recording every environment's episodes as movies (src/pool/pool_record.c).
rg_test(pool_record pool/test_pool_record.c TIMEOUT 600)
# Waiting in slices: results unchanged, a hung core leaves the call pending and rg_pool_free returns (issue 16). Uses
# the fault cores built by tests/faults/tests.cmake.
rg_test(pool_wait pool/test_pool_wait.c)
target_compile_definitions(pool_wait PRIVATE "FAULT_CORE_DIR=\"${CMAKE_BINARY_DIR}/fault-cores\"")
add_dependencies(pool_wait rg_fault_core_good rg_fault_core_run_hang)
# One more fault core for it, built here: fault_run_slow (2 ms per frame).
add_library(rg_fault_core_run_slow SHARED faults/fake_core.c)
target_include_directories(rg_fault_core_run_slow PRIVATE "${LIBRETRO_INCLUDE_DIR}")
target_compile_definitions(rg_fault_core_run_slow PRIVATE FAULT_RUN_SLOW _POSIX_C_SOURCE=200809L)
set_target_properties(rg_fault_core_run_slow PROPERTIES PREFIX "" OUTPUT_NAME "fault_run_slow_libretro" SUFFIX ".so"
                      LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fault-cores" C_VISIBILITY_PRESET hidden)
if(RG_SANITIZE)
  target_compile_options(rg_fault_core_run_slow PRIVATE -fno-sanitize=all)
endif()
add_dependencies(pool_wait rg_fault_core_run_slow)
# Process isolation (src/pool/pool_proc.c): results equal to threads; crashing, aborting, exiting and hanging fault
# cores lose only their worker's environments (issue 16).
rg_test(pool_proc pool/test_pool_proc.c TIMEOUT 300)
target_compile_definitions(pool_proc PRIVATE "FAULT_CORE_DIR=\"${CMAKE_BINARY_DIR}/fault-cores\"")
add_dependencies(pool_proc rg_fault_core_good rg_fault_core_run_hang rg_fault_core_run_segv rg_fault_core_run_abort
                 rg_fault_core_run_exit)
# The preprocessing kernels (src/pool/pool_preproc*.c, src/env/env_maxpool.c): AVX2 and scalar give the same bytes
# on every colour, random frames of many sizes and real frames; the resize is an area average (issue 17).
rg_test(pool_preproc pool/test_preproc.c)
