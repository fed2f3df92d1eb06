/* The libretro export cores (libretro_export/libretro_shim.c) describe the systems of systems/<name>.json: each .so's
 * retro_get_system_info names exactly the extensions of its systems' json files, in order, and the library's
 * version; the library's own table (rg_system_find, parsed from the same files) agrees. */
#include "test_support.h"

#include <dlfcn.h>
#include <jansson.h>
#include <libretro.h>
#include <stdio.h>
#include <string.h>

typedef struct shim_case {
    const char *so;
    const char *systems[2];
} shim_case;

static const shim_case k_cases[] = {
    {A26_LIBRETRO, {"Atari2600", NULL}},
    {NES_LIBRETRO, {"Nes", NULL}},
    {SMS_LIBRETRO, {"Sms", "GameGear"}},
#ifdef GENESIS_LIBRETRO
    {GENESIS_LIBRETRO, {"Genesis", NULL}},
#endif
};

/* The '|'-joined extensions of systems/<name>.json, read straight from the file, appended to out. */
static void json_extensions(const char *name, char *out, size_t cap)
{
    char rel[64], path[1024];
    snprintf(rel, sizeof rel, "systems/%s.json", name);
    test_source_path(rel, path, sizeof path);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        fail_msg("%s: %s", path, err.text);
    json_t *ext = json_object_get(root, "extensions");
    assert_true(json_is_array(ext));
    assert_true(json_array_size(ext) > 0);
    for (size_t i = 0; i < json_array_size(ext); i++) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? "|" : "", json_string_value(json_array_get(ext, i)));
    }
    /* the library parsed the same file */
    const rg_system_info *sys;
    assert_int_equal(rg_system_find(&sys, name), RG_OK);
    assert_int_equal(sys->n_extensions, json_array_size(ext));
    for (size_t i = 0; i < sys->n_extensions; i++)
        assert_string_equal(sys->extensions[i], json_string_value(json_array_get(ext, i)));
    json_decref(root);
}

static void test_system_info_matches_json(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        const shim_case *k = &k_cases[c];
        void *dl = dlopen(k->so, RTLD_NOW | RTLD_LOCAL);
        if (!dl)
            fail_msg("dlopen %s: %s", k->so, dlerror());
        void (*get_info)(struct retro_system_info *) =
            (void (*)(struct retro_system_info *))dlsym(dl, "retro_get_system_info");
        assert_non_null(get_info);
        struct retro_system_info info;
        memset(&info, 0xAB, sizeof info);
        get_info(&info);

        char want[256] = "";
        for (size_t i = 0; i < 2 && k->systems[i]; i++)
            json_extensions(k->systems[i], want, sizeof want);
        assert_non_null(info.valid_extensions);
        if (strcmp(info.valid_extensions, want) != 0)
            fail_msg("%s: valid_extensions \"%s\", systems/<name>.json say \"%s\"", k->so, info.valid_extensions, want);
        assert_non_null(info.library_name);
        assert_true(strncmp(info.library_name, "retrogym ", 9) == 0);
        assert_string_equal(info.library_version, RG_VERSION_STRING);
        assert_false(info.need_fullpath);
        assert_false(info.block_extract);
        dlclose(dl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system_info_matches_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
