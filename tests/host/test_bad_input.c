/* Every bad-input path of the host gives its error code and a clear message, crashes nothing and loses nothing:
 * an instance that refused a bad state keeps running from where it was. */
#define _GNU_SOURCE
#include "test_support.h"

#include "emu/state_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[512];
static test_rom nes;
static int tmp_before; /* temporary folders left by earlier runs of the test in the same TMPDIR */

static const char *tmp_file(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    return path;
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static int open_with(const char *rom, const char *core, const char *system, size_t max_rom)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.system = system;
    o.max_rom_size = max_rom;
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, rom, &o);
    if (rc == RG_OK)
        rg_emu_free(emu);
    else
        assert_null(emu);
    return rc;
}

#define EXPECT(call, code, text) TEST_EXPECT_ERROR(call, code, text)

static void bad_cores(void **state)
{
    (void)state;
    EXPECT(open_with(nes.path, "no_such_core", NULL, 0), RG_ENOTFOUND, "no_such_core");
    EXPECT(open_with(nes.path, "/nonexistent/dir/x_libretro.so", NULL, 0), RG_ENOTFOUND, "does not exist");
    const char *junk = tmp_file("junk_libretro.so");
    write_bytes(junk, "this is not an ELF file", 23);
    EXPECT(open_with(nes.path, junk, NULL, 0), RG_ECORE, "cannot load core");
    EXPECT(open_with(nes.path, FIXTURE_NOSYMS, NULL, 0), RG_ECORE, "lacks the symbol retro_init");
    EXPECT(open_with(nes.path, FIXTURE_BADAPI, NULL, 0), RG_ECORE, "API version 2");
    /* A system whose cores are not installed (no Debian core for the Genesis). */
    if (!test_core_installed("genesis_plus_gx") && !test_core_installed("picodrive") &&
        !test_core_installed("genesis")) {
        char md[512];
        EXPECT(open_with(test_source_path("tests/roms/bin/test.md", md, sizeof md), NULL, NULL, 0), RG_ENOTFOUND,
               "no core for Genesis");
    }
    assert_int_equal(test_tmp_entries(), tmp_before);
}

static void bad_roms(void **state)
{
    (void)state;
    EXPECT(open_with(tmp_file("missing.nes"), NULL, NULL, 0), RG_ENOTFOUND, "missing.nes");
    const char *unknown = tmp_file("game.xyz");
    write_bytes(unknown, "x", 1);
    EXPECT(open_with(unknown, NULL, NULL, 0), RG_ENOTFOUND, "xyz");
    EXPECT(open_with(unknown, NULL, "NoSuchSystem", 0), RG_ENOTFOUND, "NoSuchSystem");
    const char *empty = tmp_file("empty.nes");
    write_bytes(empty, "", 0);
    EXPECT(open_with(empty, NULL, NULL, 0), RG_EINVAL, "empty");
    /* No iNES signature. */
    uint8_t *junk = calloc(1, 40000);
    const char *nosig = tmp_file("nosig.nes");
    write_bytes(nosig, junk, 40000);
    EXPECT(open_with(nosig, NULL, NULL, 0), RG_ECORRUPT, "signature");
    /* Too small for a Game Boy cartridge. */
    const char *tiny = tmp_file("tiny.gb");
    write_bytes(tiny, junk, 100);
    EXPECT(open_with(tiny, NULL, NULL, 0), RG_ECORRUPT, "at least");
    free(junk);
    /* Over the caller's limit, and over the default 64 MiB limit (a sparse file: nothing is read). */
    EXPECT(open_with(nes.path, NULL, NULL, 1000), RG_ETOOBIG, "limit");
    const char *huge = tmp_file("huge.nes");
    int fd = open(huge, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)65 << 20), 0);
    close(fd);
    EXPECT(open_with(huge, NULL, NULL, 0), RG_ETOOBIG, "limit");
    /* A folder is not a ROM. */
    const char *dir = tmp_file("folder.nes");
    mkdir(dir, 0700);
    EXPECT(open_with(dir, NULL, NULL, 0), RG_EIO, "not a regular file");
    /* A ROM that passes our checks but the core refuses: a GBA header without the fixed 0x96 at 0xB2. */
    if (test_core_installed("mgba")) {
        test_rom gba;
        test_rom_get("GbAdvance", &gba);
        uint8_t *rom;
        size_t size;
        FILE *f = fopen(gba.path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        size = (size_t)ftell(f);
        rewind(f);
        rom = malloc(size);
        assert_int_equal(fread(rom, 1, size, f), size);
        fclose(f);
        rom[0xB2] = 0;
        const char *bad = tmp_file("bad.gba");
        write_bytes(bad, rom, size);
        free(rom);
        EXPECT(open_with(bad, "mgba", NULL, 0), RG_ECORE, "refused the ROM");
    }
    assert_int_equal(test_tmp_entries(), tmp_before);
}

static void bad_states(void **state)
{
    (void)state;
    if (!test_core_installed(nes.core))
        skip();
    rg_emu *emu = test_open(nes.path, nes.core);
    for (int i = 0; i < 60; i++)
        rg_emu_run(emu);
    size_t size;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    size_t over = size * 2 + 65536 + 1; /* past the bound on states longer than the core's (lr_host.c) */
    uint8_t *st = calloc(1, over);
    assert_int_equal(rg_emu_state_save(emu, st, size, NULL), RG_OK);
    EXPECT(rg_emu_state_save(emu, st, size - 1, NULL), RG_EBUFFER, "needs");
    uint64_t before = test_ram_hash(emu);

    EXPECT(rg_emu_state_load(emu, st, 0), RG_ESTATE, "empty");
    EXPECT(rg_emu_state_load(emu, st, over), RG_ESTATE, "takes");
    /* a state with trailing bytes loads whole, as Gym Retro passes it (other builds of a core write more) */
    assert_int_equal(rg_emu_state_load(emu, st, size + 100), RG_OK);
    assert_true(test_ram_hash(emu) == before);
    uint8_t *garbage = malloc(size);
    memset(garbage, 0x5A, size);
    EXPECT(rg_emu_state_load(emu, garbage, size), RG_ESTATE, "refused the state");
    EXPECT(rg_emu_state_load(emu, st, size / 2), RG_ESTATE, "refused the state");
    assert_int_equal(test_ram_hash(emu), before); /* nothing lost */

    /* Files: missing, corrupt gzip, truncated gzip, a gzip bomb larger than any state of this core. */
    EXPECT(rg_emu_state_load_file(emu, tmp_file("missing.state")), RG_ENOTFOUND, "missing.state");
    uint8_t *gz;
    size_t gz_size;
    assert_int_equal(rg__gzip_compress(st, size, &gz, &gz_size), RG_OK);
    write_bytes(tmp_file("trunc.state"), gz, gz_size - 10);
    EXPECT(rg_emu_state_load_file(emu, tmp_file("trunc.state")), RG_ESTATE, "truncated");
    gz[gz_size / 2] ^= 0xFF;
    write_bytes(tmp_file("corrupt.state"), gz, gz_size);
    EXPECT(rg_emu_state_load_file(emu, tmp_file("corrupt.state")), RG_ESTATE, "corrupt");
    free(gz);
    uint8_t *zeros = calloc(1, 8u << 20);
    assert_int_equal(rg__gzip_compress(zeros, 8u << 20, &gz, &gz_size), RG_OK);
    write_bytes(tmp_file("bomb.state"), gz, gz_size);
    EXPECT(rg_emu_state_load_file(emu, tmp_file("bomb.state")), RG_ESTATE, "limit");
    free(gz);
    free(zeros);
    assert_int_equal(test_ram_hash(emu), before);

    /* The good state still loads and the instance goes on. */
    assert_int_equal(rg_emu_state_load(emu, st, size), RG_OK);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    free(st);
    free(garbage);
    rg_emu_free(emu);
}

static void api_misuse(void **state)
{
    (void)state;
    if (!test_core_installed(nes.core))
        skip();
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.version = 99;
    rg_emu *emu = NULL;
    EXPECT(rg_emu_open(&emu, nes.path, &o), RG_EINVAL, "version");
    EXPECT(rg_emu_open(NULL, nes.path, NULL), RG_EINVAL, "NULL");
    emu = test_open(nes.path, nes.core);
    uint8_t px[16];
    EXPECT(rg_emu_frame_rgb24(emu, px, sizeof px), RG_EMISUSE, "no frame yet");
    rg_emu_run(emu);
    EXPECT(rg_emu_frame_rgb24(emu, px, sizeof px), RG_EBUFFER, "needs");
    EXPECT(rg_emu_set_buttons(emu, RG_MAX_PORTS, 1), RG_EINVAL, "port");
    uint8_t b;
    EXPECT(rg_emu_mem_read(emu, 0x12345678, &b, 1), RG_ERANGE, "not mapped");
    EXPECT(rg_emu_ram_copy(emu, px, sizeof px), RG_EBUFFER, "RAM is");
    rg_emu_free(emu);
    rg_emu_free(NULL);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/files", t && *t ? t : "/tmp");
    mkdir(tmp, 0700);
    test_tmp_clean();
    tmp_before = test_tmp_entries();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_cores),
        cmocka_unit_test(bad_roms),
        cmocka_unit_test(bad_states),
        cmocka_unit_test(api_misuse),
    };
    int rc;
    {
        test_rom all[16];
        size_t n = test_roms_load(all, 16);
        for (size_t i = 0; i < n; i++)
            if (strcmp(all[i].system, "Nes") == 0)
                nes = all[i];
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    return rc;
}
