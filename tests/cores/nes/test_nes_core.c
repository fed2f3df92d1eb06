/* The NES core (src/cores/nes) through the public emulator API with core="nes": our test ROM's frame counter and
 * joypad (tests/roms/bin/test.nes, its manifest tests/roms/nes/rom.json), the picture's geometry, snapshots that
 * give the same frames and RAM after a load, hostile states and bad ROM images refused with an error that names
 * the problem and the machine unchanged, and the default core for .nes left as it is. */
#include "nes_harness.h"
#include "test_support.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_SIZE 24u /* our state header: magic[8], version, size, rom hash */

static rg_emu *open_nes(const char *rom)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nes";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s in the nes core: %s", rom, rg_error_last());
    return emu;
}

static uint16_t script_buttons(unsigned frame)
{
    uint32_t x = (frame / 5u + 1u) * 2654435761u;
    return (uint16_t)(((x >> 11) & 0x1F3u) & ~0x0Cu); /* directions, A, B; no SELECT/START */
}

static const char *tmp_file(const char *name, char *buf, size_t cap)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/%s", dir && *dir ? dir : "/tmp", name);
    return buf;
}

static void write_file(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* The ROMs every test runs on: ours always, the demo and our game where present. */
static size_t game_roms(char paths[3][1024])
{
    size_t n = 0;
    test_source_path("tests/roms/bin/test.nes", paths[n++], 1024);
    test_source_path("data/stable/StarCatcher-Nes/rom.nes", paths[n], 1024);
    FILE *f = fopen(paths[n], "rb");
    if (f) {
        fclose(f);
        n++;
    }
    const char *shared = test_shared_roms();
    if (shared) {
        snprintf(paths[n], 1024, "%s/Dr88-FamiconIntro.nes", shared);
        n++;
    }
    return n;
}

/* --- tests */

static void counter_and_pad(void **state)
{
    (void)state;
    test_rom rom;
    test_rom_get("Nes", &rom);
    rg_emu *emu = open_nes(rom.path);
    assert_string_equal(rg_emu_core_name(emu), "nes");
    for (unsigned i = 0; i < rom.warmup; i++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    uint8_t prev;
    assert_int_equal(rg_emu_mem_read(emu, rom.counter_addr, &prev, 1), RG_OK);
    for (unsigned f = 0; f < 30; f++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        uint8_t now;
        assert_int_equal(rg_emu_mem_read(emu, rom.counter_addr, &now, 1), RG_OK);
        assert_int_equal(now, (uint8_t)(prev + 1));
        prev = now;
    }
    /* each button alone reaches the game's pad byte with the manifest's bits */
    static const char *const names[] = {"B", "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT", "A"};
    static const unsigned ids[] = {0, 2, 3, 4, 5, 6, 7, 8};
    for (size_t b = 0; b < 8; b++) {
        uint32_t want = 0;
        for (size_t k = 0; k < rom.n_pad_bits; k++)
            if (strcmp(rom.pad_bits[k].button, names[b]) == 0)
                want = rom.pad_bits[k].bits;
        assert_int_equal(rg_emu_set_buttons(emu, 0, (uint16_t)(1u << ids[b])), RG_OK);
        for (unsigned f = 0; f <= rom.pad_lag; f++)
            assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_int_equal(test_read_pad(emu, &rom), want);
    }
    rg_emu_free(emu);
}

static void picture(void **state)
{
    (void)state;
    char paths[3][1024];
    size_t n = game_roms(paths);
    for (size_t r = 0; r < n; r++) {
        rg_emu *emu = open_nes(paths[r]);
        unsigned w = 0, h = 0;
        for (int f = 0; f < 300; f++)
            assert_int_equal(rg_emu_run(emu), RG_OK);
        rg_frame fr;
        assert_int_equal(rg_emu_frame(emu, &fr), RG_OK);
        assert_int_equal(rg_emu_screen_size(emu, &w, &h), RG_OK);
        assert_int_equal(fr.width, 240);
        assert_int_equal(fr.height, 224);
        assert_int_equal(fr.format, RG_PIXEL_RGB565);
        /* the demo and our game draw more than the backdrop by frame 300 */
        const uint16_t *px = fr.data;
        size_t distinct = 0;
        uint16_t seen[8] = {0};
        for (size_t i = 0; i < (size_t)fr.width * fr.height && distinct < 8; i++) {
            size_t k = 0;
            while (k < distinct && seen[k] != px[i])
                k++;
            if (k == distinct)
                seen[distinct++] = px[i];
        }
        if (r == 0) {
            /* our ROM shows only the backdrop: idle colour $11, FCEUmm's (0, 28, 59) x 4, as RGB565 */
            assert_int_equal(distinct, 1);
            assert_int_equal(seen[0], (0u << 11) | ((28u * 4u) >> 2) << 5 | ((59u * 4u) >> 3));
        } else if (distinct < 2) {
            fail_msg("%s: frame 300 is one colour", paths[r]);
        }
        rg_emu_free(emu);
    }
}

static void snapshots_replay(void **state)
{
    (void)state;
    char paths[3][1024];
    size_t n = game_roms(paths);
    enum { BEFORE = 90, AFTER = 90 };
    for (size_t r = 0; r < n; r++) {
        rg_emu *emu = open_nes(paths[r]);
        for (unsigned f = 0; f < BEFORE; f++) {
            rg_emu_set_buttons(emu, 0, script_buttons(f));
            assert_int_equal(rg_emu_run(emu), RG_OK);
        }
        size_t size = 0, written = 0;
        assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
        uint8_t *snap = malloc(size);
        assert_non_null(snap);
        assert_int_equal(rg_emu_state_save(emu, snap, size, &written), RG_OK);
        assert_int_equal(written, size);
        uint64_t frames[AFTER], rams[AFTER];
        for (unsigned f = 0; f < AFTER; f++) {
            rg_emu_set_buttons(emu, 0, script_buttons(BEFORE + f));
            assert_int_equal(rg_emu_run(emu), RG_OK);
            frames[f] = test_frame_hash(emu);
            rams[f] = test_ram_hash(emu);
        }
        /* loaded into this instance and into a fresh one */
        rg_emu *other = open_nes(paths[r]);
        rg_emu *targets[2] = {emu, other};
        for (int t = 0; t < 2; t++) {
            assert_int_equal(rg_emu_state_load(targets[t], snap, size), RG_OK);
            for (unsigned f = 0; f < AFTER; f++) {
                rg_emu_set_buttons(targets[t], 0, script_buttons(BEFORE + f));
                assert_int_equal(rg_emu_run(targets[t]), RG_OK);
                if (test_frame_hash(targets[t]) != frames[f] || test_ram_hash(targets[t]) != rams[f])
                    fail_msg("%s: frame %u after loading the state differs (%s instance)", paths[r], f,
                             t ? "fresh" : "same");
            }
        }
        /* a state saved now equals the one the first run would save at the same point */
        rg_emu_free(other);
        free(snap);
        rg_emu_free(emu);
    }
}

/* A state changed in one field is refused with RG_ESTATE naming it, and the machine goes on as if nothing happened. */
static void hostile_states(void **state)
{
    (void)state;
    char path[1024];
    test_source_path("tests/roms/bin/test.nes", path, sizeof path);
    rg_emu *emu = open_nes(path), *ref = open_nes(path);
    for (int f = 0; f < 20; f++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_int_equal(rg_emu_run(ref), RG_OK);
    }
    size_t size = 0, written = 0;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    assert_int_equal(size, HEADER_SIZE + sizeof(rg__nes_state));
    uint8_t *good = malloc(size), *bad = malloc(size);
    assert_non_null(good);
    assert_non_null(bad);
    assert_int_equal(rg_emu_state_save(emu, good, size, &written), RG_OK);
    struct {
        size_t off;
        uint8_t value;
        const char *names;
    } cases[] = {
        {0, 'X', "not a nes state"},
        {8, 9, "not a nes state"},
        {16, 0x55, "another ROM"},
        {HEADER_SIZE + offsetof(rg__nes_state, cpu) + offsetof(rg_m6502, p), 0x10, "nes state"},
        {HEADER_SIZE + offsetof(rg__nes_state, cpu) + offsetof(rg_m6502, no_decimal), 0, "decimal"},
        {HEADER_SIZE + offsetof(rg__nes_state, cpu) + offsetof(rg_m6502, nmi_pending), 2, "interrupt lines"},
        {HEADER_SIZE + offsetof(rg__nes_state, nmi_next), 3, "nmi_next"},
        {HEADER_SIZE + offsetof(rg__nes_state, irq), 0x80, "irq source"},
        {HEADER_SIZE + offsetof(rg__nes_state, pad_read), 9, "joypad"},
        {HEADER_SIZE + offsetof(rg__nes_state, pad_strobe), 2, "joypad"},
        {HEADER_SIZE + offsetof(rg__nes_state, dma_page) + 1, 0x02, "dma_page"},
        {HEADER_SIZE + offsetof(rg__nes_state, cycles) + 7, 0x40, "cycles"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, good, size);
        bad[cases[i].off] = cases[i].value;
        int rc = rg_emu_state_load(emu, bad, size);
        if (rc != RG_ESTATE)
            fail_msg("case %zu (offset %zu): load gave %d, not RG_ESTATE", i, cases[i].off, rc);
        if (!strstr(rg_error_last(), cases[i].names))
            fail_msg("case %zu: the message '%s' does not name '%s'", i, rg_error_last(), cases[i].names);
    }
    assert_int_equal(rg_emu_state_load(emu, good, size - 1), RG_ESTATE);
    assert_int_equal(rg_emu_state_load(emu, good, 3), RG_ESTATE);
    /* nothing was lost: both machines still run the same frames */
    for (int f = 0; f < 30; f++) {
        rg_emu_set_buttons(emu, 0, script_buttons((unsigned)f));
        rg_emu_set_buttons(ref, 0, script_buttons((unsigned)f));
        assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_int_equal(rg_emu_run(ref), RG_OK);
        assert_true(test_frame_hash(emu) == test_frame_hash(ref));
        assert_true(test_ram_hash(emu) == test_ram_hash(ref));
    }
    free(good);
    free(bad);
    rg_emu_free(emu);
    rg_emu_free(ref);
}

/* An iNES image of `prg_banks` x 16 KiB (filled with NOPs, the vectors at $FFFA pointing to a JMP loop). */
static uint8_t *make_image(unsigned mapper, unsigned prg_banks, unsigned chr_banks, size_t *len)
{
    size_t n = 16 + (size_t)prg_banks * 16384 + (size_t)chr_banks * 8192;
    uint8_t *img = calloc(1, n);
    assert_non_null(img);
    memcpy(img, "NES\x1A", 4);
    img[4] = (uint8_t)prg_banks;
    img[5] = (uint8_t)chr_banks;
    img[6] = (uint8_t)((mapper & 15u) << 4);
    img[7] = (uint8_t)(mapper & 0xF0u);
    uint8_t *prg = img + 16;
    size_t prg_len = (size_t)prg_banks * 16384;
    memset(prg, 0xEA, prg_len);
    uint8_t *last = prg + prg_len - 16384;
    last[0] = 0x4C; /* $C000: JMP $C000 */
    last[1] = 0x00;
    last[2] = 0xC0;
    for (int v = 0; v < 3; v++) {
        last[0x3FFA + 2 * v] = 0x00;
        last[0x3FFB + 2 * v] = 0xC0;
    }
    *len = n;
    return img;
}

static void expect_parse_error(const uint8_t *img, size_t len, int code, const char *words)
{
    nes_harness h;
    int rc = nes_harness_open_bytes(&h, img, len);
    if (rc != code)
        fail_msg("parse gave %d, expected %d (%s)", rc, code, rg_error_last());
    if (!strstr(rg_error_last(), words))
        fail_msg("the message '%s' does not say '%s'", rg_error_last(), words);
}

static void bad_roms(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = make_image(0, 2, 1, &len);
    nes_harness h;
    assert_int_equal(nes_harness_open_bytes(&h, img, len), RG_OK);
    nes_harness_free(&h);
    expect_parse_error(img, 10, RG_ECORRUPT, "shorter than the 16-byte iNES header");
    expect_parse_error(img, len - 1, RG_ECORRUPT, "truncated");
    expect_parse_error(img, 16 + 100, RG_ECORRUPT, "truncated");
    img[0] = 'X';
    expect_parse_error(img, len, RG_ECORRUPT, "not an iNES image");
    img[0] = 'N';
    img[4] = 0;
    expect_parse_error(img, len, RG_ECORRUPT, "PRG-ROM");
    img[4] = 2;
    img[6] = 0x20; /* mapper 34 (BNROM/NINA-001): not ours */
    img[7] = 0x20;
    expect_parse_error(img, len, RG_EUNSUPPORTED, "mapper 34 is not supported");
    img[7] = 0;
    img[6] = 0x04; /* a trainer the file does not hold */
    expect_parse_error(img, len, RG_ECORRUPT, "trainer");
    img[6] = 0;
    img[7] = 0x08; /* NES 2.0: PAL only */
    img[12] = 1;
    expect_parse_error(img, len, RG_EUNSUPPORTED, "PAL");
    img[12] = 0;
    img[9] = 0x0F; /* NES 2.0 exponent form: 2^0 x 1 = 1 byte of PRG */
    img[4] = 0;
    expect_parse_error(img, len, RG_ECORRUPT, "PRG-ROM");
    /* through the emulator API: the open fails with the core's message and leaves nothing behind */
    char path[1024];
    img[4] = 2;
    img[9] = 0;
    img[7] = 0x20;
    img[6] = 0x20;
    write_file(tmp_file("mapper34.nes", path, sizeof path), img, len);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "nes";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    assert_int_equal(rg_emu_open(&emu, path, &o), RG_EUNSUPPORTED);
    assert_null(emu);
    assert_non_null(strstr(rg_error_last(), "mapper 34"));
    remove(path);
    free(img);
}

/* A state of one ROM does not load into another. */
static void state_of_other_rom(void **state)
{
    (void)state;
    size_t len;
    uint8_t *img = make_image(0, 1, 1, &len);
    char path[1024], ours[1024];
    write_file(tmp_file("loop.nes", path, sizeof path), img, len);
    test_source_path("tests/roms/bin/test.nes", ours, sizeof ours);
    rg_emu *a = open_nes(path), *b = open_nes(ours);
    size_t size = 0, written = 0;
    assert_int_equal(rg_emu_state_size(a, &size), RG_OK);
    uint8_t *snap = malloc(size);
    assert_non_null(snap);
    assert_int_equal(rg_emu_state_save(a, snap, size, &written), RG_OK);
    assert_int_equal(rg_emu_state_load(b, snap, size), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "another ROM"));
    free(snap);
    rg_emu_free(a);
    rg_emu_free(b);
    remove(path);
    free(img);
}

/* The built-in core is the default for .nes files (first in systems/Nes.json since it passed issue 18's bar); FCEUmm
 * and nestopia are still chosen by name. */
static void the_default(void **state)
{
    (void)state;
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.log = test_quiet_log;
    char path[1024];
    test_source_path("tests/roms/bin/test.nes", path, sizeof path);
    rg_emu *emu = NULL;
    assert_int_equal(rg_emu_open(&emu, path, &o), RG_OK);
    assert_string_equal(rg_emu_core_name(emu), "nes");
    rg_emu_free(emu);
    if (test_core_installed("nestopia")) {
        o.core = "nestopia";
        assert_int_equal(rg_emu_open(&emu, path, &o), RG_OK);
        assert_string_equal(rg_emu_core_name(emu), "nestopia");
        rg_emu_free(emu);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counter_and_pad),
        cmocka_unit_test(picture),
        cmocka_unit_test(snapshots_replay),
        cmocka_unit_test(hostile_states),
        cmocka_unit_test(bad_roms),
        cmocka_unit_test(state_of_other_rom),
        cmocka_unit_test(the_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
