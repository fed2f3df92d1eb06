/* A user's program built against an installed retrogym (tests/install/test_install.sh): it includes only the public
 * headers and links only what pkg-config or find_package(retrogym) gives it.
 * usage: installed_app CORE_DIR DATA_DIR [ROM]
 * Checks that the library finds our own cores and integrations where the (moved) install put them (by itself, as
 * "own"; through $RETROGYM_CORE_PATH and $RETROGYM_DATA_PATH when those are set, as a static program must), that a
 * bad ROM path is refused with a message, and, given an Atari 2600 ROM, that our Atari core runs it: 120 frames
 * stepped, a 160-pixel-wide picture that is not one colour, RAM that changes. Exit 0 on success, 1 with a message. */
#include <retrogym/retrogym.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints "installed_app: <message>" and returns 1. */
static int complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int complain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("installed_app: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

/* Names what failed with the library's message. Returns 1. */
static int fail(const char *what)
{
    return complain("%s: %s", what, rg_error_last());
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return fputs("usage: installed_app CORE_DIR DATA_DIR [ROM]\n", stderr), 2;
    if (strcmp(rg_version(), RG_VERSION_STRING) != 0)
        return complain("library %s, headers %s", rg_version(), RG_VERSION_STRING);

    char core[4096];
    if (rg_core_resolve("atari2600", core, sizeof core) != RG_OK)
        return fail("rg_core_resolve(atari2600)");
    const char *core_origin = getenv("RETROGYM_CORE_PATH") ? "env var" : "own";
    if (!starts_with(core, argv[1]) || strcmp(rg_core_origin(core), core_origin) != 0)
        return complain("atari2600 resolved to %s (%s), not in %s", core, rg_core_origin(core),
                       argv[1]);

    rg_integration_paths *dp;
    if (rg_integration_paths_create(&dp, NULL) != RG_OK)
        return fail("rg_integration_paths_create");
    rg_integration_origin data_origin = getenv("RETROGYM_DATA_PATH") ? RG_INTEGRATION_ORIGIN_ENV : RG_INTEGRATION_ORIGIN_OWN;
    int own = 0;
    for (size_t i = 0; i < rg_integration_paths_root_count(dp); i++)
        own |= rg_integration_paths_root_origin(dp, i) == data_origin &&
               strcmp(rg_integration_paths_root_at(dp, i), argv[2]) == 0;
    char roots[8192];
    rg_integration_paths_roots_text(dp, roots, sizeof roots);
    rg_integration_paths_free(dp);
    if (!own)
        return complain("data root %s (%s) not among %s", argv[2],
                       rg_integration_origin_name(data_origin), roots);

    rg_emu_options opts = RG_EMU_OPTIONS_INIT;
    opts.core = core;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, "/nonexistent/rom.a26", &opts) != RG_ENOTFOUND || emu || !*rg_error_last())
        return complain("a missing ROM was not refused with RG_ENOTFOUND");
    if (argc < 4) {
        printf("installed_app: core %s, data %s (no ROM given: not run)\n", core, argv[2]);
        return 0;
    }

    if (rg_emu_open(&emu, argv[3], &opts) != RG_OK)
        return fail(argv[3]);
    uint8_t ram_start[128], ram_end[128];
    int rc = 0;
    if (rg_emu_ram_size(emu) != sizeof ram_start || rg_emu_ram_copy(emu, ram_start, sizeof ram_start) != RG_OK)
        rc = fail("RAM");
    for (int i = 0; rc == 0 && i < 120; i++)
        if (rg_emu_run(emu) != RG_OK)
            rc = fail("rg_emu_run");
    unsigned w = 0, h = 0;
    uint8_t *rgb = NULL;
    if (rc == 0 && (rg_emu_screen_size(emu, &w, &h) != RG_OK || w != 160 || h == 0))
        rc = complain("screen %ux%u, expected 160 wide", w, h);
    if (rc == 0 && (!(rgb = malloc((size_t)w * h * 3)) || rg_emu_screen_rgb24(emu, rgb, (size_t)w * h * 3) != RG_OK))
        rc = fail("rg_emu_screen_rgb24");
    size_t differing = 0;
    for (size_t i = 3; rc == 0 && i < (size_t)w * h * 3; i += 3)
        differing += memcmp(rgb + i, rgb, 3) != 0;
    if (rc == 0 && differing == 0)
        rc = complain("the picture is one colour after 120 frames");
    if (rc == 0 && rg_emu_frame_count(emu) != 120)
        rc = complain("%llu frames, expected 120",
                     (unsigned long long)rg_emu_frame_count(emu));
    if (rc == 0 && (rg_emu_ram_copy(emu, ram_end, sizeof ram_end) != RG_OK || !memcmp(ram_start, ram_end, 128)))
        rc = complain("RAM unchanged after 120 frames");
    if (rc == 0)
        printf("installed_app: %s ran %s: 120 frames, %ux%u, %zu pixels differ from the first\n",
               rg_emu_core_name(emu), argv[3], w, h, differing);
    free(rgb);
    rg_emu_free(emu);
    return rc;
}
