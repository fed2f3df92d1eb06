# Tests of the integration-data layer (src/data): data root and search order, listings, metadata, rom.sha and ROM
# hashes, import (zips included), the validators, and the CLI commands built on them.
rg_test(data_datapaths data/test_datapaths.c)
rg_test(data_listing data/test_listing.c)
rg_test(data_romhash data/test_romhash.c)
rg_test(data_import data/test_import.c)
rg_test(data_validate data/test_validate.c)
rg_test(data_roots data/test_roots.c)

add_test(NAME data_cli COMMAND "${CMAKE_SOURCE_DIR}/tests/data/test_data_cli.sh" "$<TARGET_FILE:retrogym_cli>"
         "${CMAKE_SOURCE_DIR}")
set_tests_properties(data_cli PROPERTIES TIMEOUT 300
                     ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/data_cli;${RG_SANITIZER_ENV}")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/test-tmp/data_cli")

# The game library out of the box: discovery of stable-retro, origins, `library`, imports into the user root.
add_test(NAME cli_library COMMAND "${CMAKE_SOURCE_DIR}/tests/cli/test_cli_library.sh" "$<TARGET_FILE:retrogym_cli>"
         "${CMAKE_SOURCE_DIR}")
set_tests_properties(cli_library PROPERTIES TIMEOUT 300
                     ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/cli_library;${RG_SANITIZER_ENV}")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/test-tmp/cli_library")
