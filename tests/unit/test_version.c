/* The version has one source, include/retrogym/version.h: the library, RG_VERSION_STRING and RG_VERSION_NUMBER,
 * CMake's project version (PROJECT_VERSION, here as RG_TEST_PROJECT_VERSION), the build tree's retrogym.pc and
 * pyproject.toml (which must read it from version.h, not carry its own) agree. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_header_and_library(void **state)
{
    (void)state;
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", RG_VERSION_MAJOR, RG_VERSION_MINOR, RG_VERSION_PATCH);
    assert_string_equal(RG_VERSION_STRING, text);
    assert_string_equal(rg_version(), RG_VERSION_STRING);
    assert_int_equal(RG_VERSION_NUMBER, RG_VERSION_MAJOR * 10000 + RG_VERSION_MINOR * 100 + RG_VERSION_PATCH);
#if RG_VERSION_NUMBER < 100
#error "RG_VERSION_NUMBER must be usable in #if"
#endif
    assert_string_equal(RG_TEST_PROJECT_VERSION, RG_VERSION_STRING);
}

static void test_pkg_config(void **state)
{
    (void)state;
#ifndef RG_TEST_PC_FILE
    skip(); /* configured with RG_INSTALL off: no retrogym.pc */
#else
    const char *pc = slurp(RG_TEST_PC_FILE);
    char want[64];
    snprintf(want, sizeof want, "\nVersion: %s\n", RG_VERSION_STRING);
    if (!strstr(pc, want))
        fail_msg("%s has no line \"Version: %s\"", RG_TEST_PC_FILE, RG_VERSION_STRING);
#endif
}

static void test_pyproject_reads_header(void **state)
{
    (void)state;
    char path[1024];
    test_source_path("pyproject.toml", path, sizeof path);
    const char *toml = slurp(path);
    /* the [project] table declares the version dynamic and carries none */
    const char *project = strstr(toml, "\n[project]\n");
    assert_non_null(project);
    const char *next = strstr(project + 1, "\n[");
    size_t len = next ? (size_t)(next - project) : strlen(project);
    char table[4096];
    assert_true(len < sizeof table);
    memcpy(table, project, len);
    table[len] = '\0';
    assert_non_null(strstr(table, "\ndynamic = [\"version\"]\n"));
    assert_null(strstr(table, "\nversion ="));
    /* scikit-build-core's regex provider over version.h's three lines */
    assert_non_null(strstr(toml, "\nmetadata.version.provider = \"scikit_build_core.metadata.regex\"\n"));
    assert_non_null(strstr(toml, "\nmetadata.version.input = \"include/retrogym/version.h\"\n"));
    assert_non_null(strstr(toml, "#define RG_VERSION_MAJOR (?P<major>"));
    assert_non_null(strstr(toml, "\nmetadata.version.result = \"{major}.{minor}.{patch}\"\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_and_library),
        cmocka_unit_test(test_pkg_config),
        cmocka_unit_test(test_pyproject_reads_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
