# The determinism suite (docs/determinism.md): `ctest -L determinism`. Every system with a core: identical streams
# across runs, processes, pool thread counts, restores and power-on resets; movies played back in another process;
# the per-core facts (audio across restores, retro_reset against a reload). Systems without a core are skipped.
add_library(rg_det_support STATIC determinism/det.c)
target_link_libraries(rg_det_support PUBLIC rg_test_support)

rg_test(det_env determinism/test_det_env.c LIBS rg_det_support TIMEOUT 600 LABELS determinism)
rg_test(det_pool determinism/test_det_pool.c LIBS rg_det_support TIMEOUT 600 LABELS determinism)
rg_test(det_movie determinism/test_det_movie.c LIBS rg_det_support TIMEOUT 600 LABELS determinism)
rg_test(det_cores determinism/test_det_cores.c LIBS rg_det_support TIMEOUT 600 LABELS determinism)
# Stella restores replay exactly (the host reloads Stella before a state load); stable-retro's Stella, ale-py's ROMs.
rg_test(det_stella determinism/test_det_stella.c TIMEOUT 300 LABELS determinism)

# det_movie plays movies back through the CLI too.
add_dependencies(det_movie retrogym_cli)
target_compile_definitions(det_movie PRIVATE "RG_CLI_PATH=\"$<TARGET_FILE:retrogym_cli>\"")
