# The soak (docs/reliability.md, "Soak"): rg_soak runs every workload for STEPS environment steps and fails when
# resident memory, descriptors, mappings, threads or temporary files grow after its warm-up. `make soak` runs the
# full 1,000,000 steps; CTest runs a short one (fewer steps under the sanitizers, where LeakSanitizer also checks
# at exit and resident memory is not checked).
add_executable(rg_soak soak/soak.c soak/soak_proc.c soak/soak_data.c soak/soak_work.c)
target_link_libraries(rg_soak PRIVATE rg_test_support)
if(RG_SANITIZE)
  set(RG_SOAK_SHORT_STEPS 10000)
else()
  set(RG_SOAK_SHORT_STEPS 50000)
endif()
add_test(NAME soak_short COMMAND rg_soak ${RG_SOAK_SHORT_STEPS})
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/test-tmp/soak_short")
set_tests_properties(soak_short PROPERTIES TIMEOUT 300 LABELS soak
                     ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/soak_short;${RG_SANITIZER_ENV}")
