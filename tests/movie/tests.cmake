# Tests of the movie layer (src/movie): stable-retro's reference movies, our writer against them, the API, BizHawk and
# FCEUX files, hostile archives. movie_tool is the helper of tests/movie/make_reference.py.
add_executable(movie_tool movie/movie_tool.c)
target_link_libraries(movie_tool PRIVATE retrogym)
target_include_directories(movie_tool PRIVATE "${CMAKE_SOURCE_DIR}/src")

rg_test(movie_reference movie/test_movie_reference.c)
rg_test(movie_api movie/test_movie_api.c)
rg_test(movie_formats movie/test_movie_formats.c)
rg_test(movie_hostile movie/test_movie_hostile.c)

# Our writer and reader against stable-retro's own Movie on every system (skipped without stable-retro).
if(EXISTS "${CMAKE_SOURCE_DIR}/.venv/bin/python")
  set(RG_MOVIE_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python")
else()
  set(RG_MOVIE_PYTHON python3)
endif()
add_test(NAME movie_stable_retro
         COMMAND ${RG_MOVIE_PYTHON} "${CMAKE_SOURCE_DIR}/tests/movie/check_stable_retro.py" "$<TARGET_FILE:movie_tool>")
set_tests_properties(movie_stable_retro PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 LABELS no-asan
                     ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/movie_stable_retro")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/test-tmp/movie_stable_retro")
