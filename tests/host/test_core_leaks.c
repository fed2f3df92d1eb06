/* nestopia's per-load leak is bounded (src/host/lr_gamedb.c): the core parses its built-in game database through a
 * stream it never frees (~970 KiB per retro_load_game) unless NstDatabase.xml is in its system folder, so the host
 * writes the core's own database there. Creating and freeing instances and power-on resets keep resident memory flat,
 * the core really reads the file (and the caller's system folder is left alone), and the file changes nothing the
 * core does: frames and RAM equal those of the core's built-in copy. */
#define _GNU_SOURCE
#include "test_support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOOPS 100
#define FRAMES 240
/* Before the fix: ~970 KiB per load, about 95 MiB over LOOPS; after: well under 1 MiB. */
#define BOUND_KIB (8 * 1024)

static test_rom nes;

static int setup(void **state)
{
    (void)state;
    test_rom_get("Nes", &nes);
    return 0;
}

static void create_free_loop(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    for (int i = 0; i < 10; i++) { /* warm-up: allocator pools, dynamic loader caches */
        rg_emu *emu = test_open(nes.path, "nestopia");
        rg_emu_run(emu);
        rg_emu_free(emu);
    }
    long rss0 = test_rss_kib();
    for (int i = 0; i < LOOPS; i++) {
        rg_emu *emu = test_open(nes.path, "nestopia");
        for (int f = 0; f < 3; f++)
            assert_int_equal(rg_emu_run(emu), RG_OK);
        rg_emu_free(emu);
    }
    long rss1 = test_rss_kib();
    print_message("nestopia: RSS %ld KiB -> %ld KiB after %d create/free\n", rss0, rss1, LOOPS);
#ifdef RG_SANITIZED
    return; /* ASan's quarantine and the kept core mappings (lr_api.c) make resident memory meaningless here */
#endif
    assert_true(rss1 - rss0 < BOUND_KIB);
}

static void power_on_loop(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    rg_emu *emu = test_open(nes.path, "nestopia");
    for (int i = 0; i < 10; i++)
        assert_int_equal(rg_emu_reset(emu), RG_OK);
    long rss0 = test_rss_kib();
    for (int i = 0; i < LOOPS; i++) {
        assert_int_equal(rg_emu_reset(emu), RG_OK);
        assert_int_equal(rg_emu_run(emu), RG_OK);
    }
    long rss1 = test_rss_kib();
    rg_emu_free(emu);
    print_message("nestopia: RSS %ld KiB -> %ld KiB after %d power-on resets\n", rss0, rss1, LOOPS);
#ifdef RG_SANITIZED
    return;
#endif
    assert_true(rss1 - rss0 < BOUND_KIB);
}

typedef struct db_log {
    int external, baked;
} db_log;

static void watch_log(rg_log_level level, const char *message, void *user)
{
    (void)level;
    db_log *d = user;
    if (strstr(message, "Using external XML database"))
        d->external++;
    if (strstr(message, "Using baked in XML database"))
        d->baked++;
}

/* Runs FRAMES frames with scripted input and hashes every frame and the RAM after each. */
static void run_hashed(const char *system_dir, uint64_t *frames, uint64_t *ram, db_log *log)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nestopia";
    o.system_dir = system_dir;
    o.log = watch_log;
    o.log_user = log;
    o.log_level = RG_LOG_DEBUG;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, nes.path, &o) != RG_OK)
        fail_msg("cannot open %s in nestopia: %s", nes.path, rg_error_last());
    *frames = *ram = 0;
    for (int f = 0; f < FRAMES; f++) {
        rg_emu_set_buttons(emu, 0, (uint16_t)(((unsigned)(f / 7) * 2654435761u >> 9) & 0x0FF3));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        *frames = test_hash(&(uint64_t){test_frame_hash(emu)}, 8, *frames);
        *ram = test_hash(&(uint64_t){test_ram_hash(emu)}, 8, *ram);
    }
    rg_emu_free(emu);
}

static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void database_file_changes_nothing(void **state)
{
    (void)state;
    if (!test_core_installed("nestopia"))
        skip();
    db_log with_file = {0, 0}, again = {0, 0}, built_in = {0, 0};
    uint64_t f1, r1, f2, r2, f3, r3;
    run_hashed(NULL, &f1, &r1, &with_file);
    run_hashed(NULL, &f2, &r2, &again);
    char dir[] = "/tmp/rg-nestopia-system-XXXXXX";
    assert_non_null(mkdtemp(dir));
    run_hashed(dir, &f3, &r3, &built_in);
    size_t left = entries(dir);
    rmdir(dir);
    assert_int_equal(left, 0); /* the caller's folder is never written to */
    /* Builds of nestopia that log where their database came from: ours is read from the file. */
    if (with_file.external + with_file.baked + built_in.external + built_in.baked > 0) {
        assert_int_equal(with_file.external, 1);
        assert_int_equal(with_file.baked, 0);
        assert_int_equal(again.external, 1);
        assert_int_equal(built_in.baked, 1);
    }
    assert_true(f1 == f2 && r1 == r2);
    if (f1 != f3 || r1 != r3)
        fail_msg("nestopia with its database file differs from its built-in copy (frames %d, RAM %d)", f1 != f3,
                 r1 != r3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_free_loop),
        cmocka_unit_test(power_on_loop),
        cmocka_unit_test(database_file_changes_nothing),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
