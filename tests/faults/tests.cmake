# Faults (docs/reliability.md "Faults"): misbehaving libretro cores, a core file deleted after start, a full disk
# and read-only folders while importing, recording and saving.

# The fault cores: one real libretro core (tests/faults/fake_core.c) built once per way of misbehaving, named
# fault_<name>_libretro.so in one folder; "good" is the well-behaved reference.
set(RG_FAULT_CORE_DIR "${CMAKE_BINARY_DIR}/fault-cores")
set(RG_FAULT_CORES good run_segv run_abort run_exit run_hang load_fail sersize_zero sersize_huge sersize_changes serialize_false
    unserialize_false mem_null mem_size0 mem_oversize map_oversize video_dupe video_short_pitch video_empty video_none env_unknown shutdown
    api_version missing_symbol)
set(RG_FAULT_CORE_TARGETS "")
foreach(fault ${RG_FAULT_CORES})
  set(t rg_fault_core_${fault})
  add_library(${t} SHARED faults/fake_core.c)
  target_include_directories(${t} PRIVATE "${LIBRETRO_INCLUDE_DIR}")
  if(NOT fault STREQUAL "good")
    string(TOUPPER "${fault}" upper)
    target_compile_definitions(${t} PRIVATE "FAULT_${upper}")
  endif()
  set_target_properties(${t} PROPERTIES PREFIX "" OUTPUT_NAME "fault_${fault}_libretro" SUFFIX ".so"
                        LIBRARY_OUTPUT_DIRECTORY "${RG_FAULT_CORE_DIR}" C_VISIBILITY_PRESET hidden)
  # Uninstrumented, like the third-party cores they stand for: the sanitizers would otherwise stop the invalid write
  # of run_segv themselves (exit status 1) before it faults.
  if(RG_SANITIZE)
    target_compile_options(${t} PRIVATE -fno-sanitize=all)
  endif()
  list(APPEND RG_FAULT_CORE_TARGETS ${t})
endforeach()

# Each misbehaving core: a clear error and a process that goes on; crashes in a forked child.
rg_test(faults_core faults/test_faults_core.c)
# The core file deleted (or replaced by junk) while an instance runs: it goes on; resets and new instances fail clearly.
rg_test(faults_missing_core faults/test_faults_missing_core.c)
# Import, recording, movie, state and variable files, CLI outputs on a full disk (RLIMIT_FSIZE) and in read-only
# folders: clear errors, no partial or temporary files, the previous file intact.
rg_test(faults_disk faults/test_faults_disk.c)
# The folders of processes killed with instances open are removed by a later process (their locks are free).
rg_test(faults_stale_tmp faults/test_faults_stale_tmp.c)
# A FIFO in place of any input file (data, scenario, script, ROM, state, movie, import folder, validation): a clear
# error at once, never a wait.
rg_test(faults_fifo faults/test_faults_fifo.c)
# A refused rg_env_restore (cut short, emulator bytes refused, other variables) leaves the env exactly as it was.
rg_test(faults_restore faults/test_faults_restore.c)
# More action groups than DISCRETE actions can number (an int64): our error naming the limit; other modes work.
rg_test(faults_actions faults/test_faults_actions.c)
# The standing damaged-state campaign: a few hundred seeded damaged states per core (ours and each Debian core
# installed), each loaded and run in a forked child; our core never crashes or hangs, third-party crashes are contained.
rg_test(faults_damaged_states faults/test_faults_damaged_states.c TIMEOUT 240)
foreach(t faults_core faults_missing_core faults_disk faults_stale_tmp faults_fifo faults_restore faults_actions
          faults_damaged_states)
  add_dependencies(${t} ${RG_FAULT_CORE_TARGETS})
  target_compile_definitions(${t} PRIVATE "FAULT_CORE_DIR=\"${RG_FAULT_CORE_DIR}\"")
endforeach()
if(TARGET retrogym_cli)
  # `validate --states`: each state in a child; ok, refused, crashed (run_segv) and hung (run_hang) per state.
  add_test(NAME faults_validate_states COMMAND "${CMAKE_SOURCE_DIR}/tests/faults/test_faults_validate_states.sh"
           "$<TARGET_FILE:retrogym_cli>" "${CMAKE_SOURCE_DIR}" "${RG_FAULT_CORE_DIR}")
  set_tests_properties(faults_validate_states PROPERTIES TIMEOUT 120
                       ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/faults_validate_states;${RG_SANITIZER_ENV}")
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/test-tmp/faults_validate_states")
  add_dependencies(faults_disk retrogym_cli)
  target_compile_definitions(faults_disk PRIVATE "RG_CLI=\"$<TARGET_FILE:retrogym_cli>\"")
endif()

# A core crashing inside Gymnasium's AsyncVectorEnv is python/tests/test_faults_async.py (it runs the installed
# package, so it belongs after `make python`), on the fault cores built here.
