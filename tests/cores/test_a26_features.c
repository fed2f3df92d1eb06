/* Our Atari 2600 TIA/RIOT feature ROMs (tests/roms/a26/features) against their golden hashes: for every entry of
 * features.json, run the ROM with its buttons for its frames and compare the SHA-1 of the RGB24 frame and of the
 * 128 bytes of RAM with the ones Stella 3.9.3 gave. Two halves: our own core ("atari2600"), and Stella itself when
 * its libretro core is installed (skipped otherwise), so a golden hash that Stella no longer gives is noticed.
 * A mismatch is reported with what differs: the rows of the frame and the RAM bytes. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include "cores/atari2600/a26.h"
#include "cores/atari2600/a26_core.h"
#include "emu/core_iface.h"
#include "emu/video_convert.h"

#include <glob.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 64
#define W 160
#define H 210

typedef struct entry {
    char rom[256];     /* absolute path */
    char name[64];     /* file name and buttons, for messages */
    unsigned frames;
    uint16_t buttons[2];
    char frame_sha1[RG_INTEGRATION_SHA1_HEX + 1];
    char ram_sha1[RG_INTEGRATION_SHA1_HEX + 1];
    char source[64];   /* the program's source file: one program in two cartridge layouts gives one picture */
} entry;

static entry entries[MAX_ENTRIES];
static size_t n_entries;

static int load_manifest(void **state)
{
    (void)state;
    char path[1024], bin[1024];
    test_source_path("tests/roms/a26/features/features.json", path, sizeof path);
    test_source_path("tests/roms/bin", bin, sizeof bin);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        fail_msg("%s:%d: %s", path, err.line, err.text);
    json_t *roms = json_object_get(root, "roms");
    assert_true(json_is_array(roms));
    n_entries = json_array_size(roms);
    assert_true(n_entries > 0 && n_entries <= MAX_ENTRIES);
    for (size_t i = 0; i < n_entries; i++) {
        json_t *o = json_array_get(roms, i);
        entry *e = &entries[i];
        const char *rom = json_string_value(json_object_get(o, "rom"));
        const char *fs = json_string_value(json_object_get(o, "frame_sha1"));
        const char *rs = json_string_value(json_object_get(o, "ram_sha1"));
        const char *src = json_string_value(json_object_get(o, "source"));
        json_t *frames = json_object_get(o, "frames"), *buttons = json_object_get(o, "buttons");
        if (!rom || !fs || !rs || !src || strlen(fs) != RG_INTEGRATION_SHA1_HEX || strlen(rs) != RG_INTEGRATION_SHA1_HEX || !json_is_integer(frames) ||
            json_array_size(buttons) != 2)
            fail_msg("%s: entry %zu is malformed", path, i);
        snprintf(e->rom, sizeof e->rom, "%s/%s", bin, rom);
        e->frames = (unsigned)json_integer_value(frames);
        for (int p = 0; p < 2; p++)
            e->buttons[p] = (uint16_t)json_integer_value(json_array_get(buttons, (size_t)p));
        const char *base = strrchr(rom, '/');
        snprintf(e->name, sizeof e->name, "%s [%#x %#x]", base ? base + 1 : rom, e->buttons[0], e->buttons[1]);
        memcpy(e->frame_sha1, fs, sizeof e->frame_sha1);
        memcpy(e->ram_sha1, rs, sizeof e->ram_sha1);
        snprintf(e->source, sizeof e->source, "%s", src);
    }
    json_decref(root);
    return 0;
}

/* One run's results. */
typedef struct result {
    uint8_t rgb[W * H * 3];
    uint8_t ram[128];
} result;

/* Through the public API: our core by its registry name once src/emu has it, or Stella. RG_ENOTFOUND when the
 * core is not there. */
static int run_emu_with(const entry *e, const char *core, const char *paint, result *out)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    const rg_core_option opt[] = {{"atari2600_paint", paint}};
    o.core = core;
    o.log = test_quiet_log;
    o.core_options = paint ? opt : NULL;
    o.n_core_options = paint ? 1 : 0;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, e->rom, &o);
    if (rc == RG_ENOTFOUND)
        return rc;
    if (rc != RG_OK)
        fail_msg("%s in %s: %s", e->name, core, rg_error_last());
    for (unsigned f = 0; f < e->frames; f++) {
        rg_emu_set_buttons(emu, 0, e->buttons[0]);
        rg_emu_set_buttons(emu, 1, e->buttons[1]);
        if (rg_emu_run(emu) != RG_OK)
            fail_msg("%s in %s, frame %u: %s", e->name, core, f, rg_error_last());
    }
    rg_frame fr;
    assert_int_equal(rg_emu_frame(emu, &fr), RG_OK);
    if (fr.width != W || fr.height != H)
        fail_msg("%s in %s: %ux%u frame, expected %dx%d", e->name, core, fr.width, fr.height, W, H);
    assert_int_equal(rg_emu_frame_rgb24(emu, out->rgb, sizeof out->rgb), RG_OK);
    assert_int_equal(rg_emu_mem_read(emu, 0x80, out->ram, sizeof out->ram), RG_OK);
    rg_emu_free(emu);
    return RG_OK;
}

static int run_emu(const entry *e, const char *core, result *out)
{
    return run_emu_with(e, core, NULL, out);
}

/* Our core straight through its backend entry, for as long as "atari2600" is not a registered core name. */
static void run_native(const entry *e, result *out)
{
    uint8_t *rom;
    size_t size;
    assert_int_equal(rg__read_file(e->rom, 1u << 20, &rom, &size), RG_OK);
    const rg_system_info *sys;
    assert_int_equal(rg_system_find(&sys, "Atari2600"), RG_OK);
    static const rg_emu_options opts = RG_EMU_OPTIONS_INIT;
    rg__core_io io;
    memset(&io, 0, sizeof io);
    io.video_enabled = 1;
    rg__core_open_args args = {NULL, e->rom, rom, size, &opts, sys, &io};
    void *core;
    const rg__core_ops *ops;
    int rc = rg__a26_open(&core, &ops, &args);
    free(rom);
    if (rc != RG_OK)
        fail_msg("%s: rg__a26_open: %s", e->name, rg_error_last());
    for (unsigned f = 0; f < e->frames; f++) {
        io.buttons[0] = e->buttons[0];
        io.buttons[1] = e->buttons[1];
        if (ops->run_frame(core) != RG_OK)
            fail_msg("%s, frame %u: %s", e->name, f, rg_error_last());
    }
    rg__io_video_fresh(&io);
    if (io.video.width != W || io.video.height != H || !io.video.data)
        fail_msg("%s: %ux%u frame, expected %dx%d", e->name, io.video.width, io.video.height, W, H);
    rg__convert_rgb24(&io.video, out->rgb);
    assert_true(io.system_ram && io.system_ram_size == sizeof out->ram);
    memcpy(out->ram, io.system_ram, sizeof out->ram);
    ops->destroy(core);
    free(io.audio);
}

static void sha1(const void *p, size_t n, char hex[RG_INTEGRATION_SHA1_HEX + 1])
{
    assert_int_equal(rg_integration_rom_sha1(p, n, NULL, hex), RG_OK);
}

/* Says what differs from the golden hashes (returns 0 when nothing does). The reference run, when there is one, shows
 * which rows and RAM bytes differ; without it only the hashes can be compared. */
static int compare(const entry *e, const char *who, const result *r, const result *ref)
{
    char fh[RG_INTEGRATION_SHA1_HEX + 1], rh[RG_INTEGRATION_SHA1_HEX + 1];
    sha1(r->rgb, sizeof r->rgb, fh);
    sha1(r->ram, sizeof r->ram, rh);
    int frame_bad = strcmp(fh, e->frame_sha1) != 0, ram_bad = strcmp(rh, e->ram_sha1) != 0;
    if (!frame_bad && !ram_bad)
        return 0;
    print_message("MISMATCH %s in %s:%s%s (this run: frame_sha1 %s, ram_sha1 %s)\n", e->name, who,
                  frame_bad ? " frame" : "", ram_bad ? " RAM" : "", fh, rh);
    if (!ref)
        return 1;
    if (frame_bad) {
        unsigned rows = 0, first = H, last = 0;
        size_t pixels = 0;
        for (unsigned y = 0; y < H; y++) {
            size_t row_diff = 0;
            for (unsigned x = 0; x < W; x++)
                row_diff += memcmp(r->rgb + (y * W + x) * 3, ref->rgb + (y * W + x) * 3, 3) != 0;
            if (row_diff) {
                rows++;
                pixels += row_diff;
                first = y < first ? y : first;
                last = y;
            }
        }
        print_message("  frame: %zu pixels differ on %u rows (rows %u-%u; row 3 = the first visible line)\n", pixels,
                      rows, first, last);
    }
    if (ram_bad) {
        print_message("  RAM (address: got/expected):");
        for (unsigned i = 0; i < sizeof r->ram; i++)
            if (r->ram[i] != ref->ram[i])
                print_message(" %02x:%02x/%02x", 0x80 + i, r->ram[i], ref->ram[i]);
        print_message("\n");
    }
    return 1;
}

/* Stella when its core can be found: RETROGYM_CORE_PATH, or the project's .venv with stable-retro. */
static int stella_available(void)
{
    if (!getenv("RETROGYM_CORE_PATH")) {
        char pattern[1024];
        test_source_path(".venv/lib/python3*/site-packages/stable_retro/cores", pattern, sizeof pattern);
        glob_t g;
        if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0)
            setenv("RETROGYM_CORE_PATH", g.gl_pathv[0], 1);
        globfree(&g);
    }
    return test_core_installed("stella");
}

static result ours, stella;

static void our_core_gives_golden_hashes(void **state)
{
    (void)state;
    int have_stella = stella_available();
    int bad = 0, native = 0;
    for (size_t i = 0; i < n_entries; i++) {
        const entry *e = &entries[i];
        if (run_emu(e, "atari2600", &ours) == RG_ENOTFOUND) {
            run_native(e, &ours);
            native = 1;
        }
        int have_ref = have_stella && run_emu(e, "stella", &stella) == RG_OK;
        bad += compare(e, "atari2600", &ours, have_ref ? &stella : NULL);
    }
    if (native)
        print_message("note: core name \"atari2600\" is not registered yet; ran rg__a26_open directly\n");
    if (bad)
        fail_msg("%d of %zu feature ROM runs differ from the golden hashes in our core", bad, n_entries);
}

/* The baseline drawing (atari2600_paint=scalar) gives the golden hashes too: where the CPU has AVX2 or AVX-512 the
 * test above ran tia_render.c's AVX2 instance or the wide painter, this one the code every other CPU runs. */
static void scalar_painter_gives_golden_hashes(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < n_entries; i++) {
        if (run_emu_with(&entries[i], "atari2600", "scalar", &ours) == RG_ENOTFOUND)
            skip();
        bad += compare(&entries[i], "atari2600 (scalar painter)", &ours, NULL);
    }
    if (bad)
        fail_msg("%d of %zu feature ROM runs differ from the golden hashes with the scalar painter", bad, n_entries);
}

/* The drawing code's variants on real games (ale-py's ROMs in .venv; skipped without them): every frame's RGB24
 * picture the same for 600 frames of moving joystick input, on the games whose pictures have the most runs and
 * layers, against the baseline (atari2600_paint=scalar): the AVX-512 painter (atari2600_paint=wide, so that it runs
 * wherever the CPU has AVX-512 BW, VBMI or not) and tia_render.c's AVX2 instance (atari2600_paint=avx2). Where the
 * CPU lacks one, both sides of its pair run the baseline. */
static void painters_agree_on_real_games(void **state)
{
    (void)state;
    static const char *const games[] = {"robotank", "ms_pacman", "pitfall", "enduro", "boxing", "space_invaders",
                                        "video_pinball", "atlantis", "pong", "seaquest"};
    char pattern[1024];
    test_source_path(".venv/lib/python3*/site-packages/ale_py/roms", pattern, sizeof pattern);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        globfree(&g);
        skip();
    }
    static uint8_t a[W * 320 * 3], b[W * 320 * 3], ga[W * 320], gb[W * 320];
    static const char *const variants[] = {"wide", "avx2"};
    size_t compared = 0;
    for (size_t i = 0; i < 2 * sizeof games / sizeof games[0]; i++) {
        const char *variant = variants[i & 1u];
        char rom[1200];
        snprintf(rom, sizeof rom, "%s/%s.bin", g.gl_pathv[0], games[i / 2]);
        rg_emu *emu[2] = {NULL, NULL};
        for (int k = 0; k < 2; k++) {
            rg_emu_options o = RG_EMU_OPTIONS_INIT;
            const rg_core_option opt[] = {{"atari2600_paint", k ? "scalar" : variant}};
            o.core = "atari2600";
            o.log = test_quiet_log;
            o.core_options = opt;
            o.n_core_options = 1;
            if (rg_emu_open(&emu[k], rom, &o) != RG_OK)
                fail_msg("%s: %s", rom, rg_error_last());
        }
        for (unsigned f = 0; f < 600; f++) {
            uint16_t btn = (uint16_t)(f >= 60 && f < 64 ? 1u << 3 : (1u << (4 + (f / 16) % 4)) | ((f / 8) & 1u));
            rg_frame fa, fb;
            for (int k = 0; k < 2; k++) {
                rg_emu_set_buttons(emu[k], 0, btn);
                assert_int_equal(rg_emu_run(emu[k]), RG_OK);
            }
            assert_int_equal(rg_emu_frame(emu[0], &fa), RG_OK);
            assert_int_equal(rg_emu_frame(emu[1], &fb), RG_OK);
            assert_true(fa.width == fb.width && fa.height == fb.height && fa.height <= 320);
            size_t n = (size_t)fa.width * fa.height * 3;
            assert_int_equal(rg_emu_frame_rgb24(emu[0], a, sizeof a), RG_OK);
            assert_int_equal(rg_emu_frame_rgb24(emu[1], b, sizeof b), RG_OK);
            if (memcmp(a, b, n) != 0)
                fail_msg("%s, frame %u: the %s and baseline RGB24 frames differ", games[i / 2], f, variant);
            /* every other way out of the core: the XRGB8888 frame (written from the indices when asked for), the
             * screen as RGB24 and as gray (made from the indices) */
            if (f % 3 == 0) {
                assert_int_equal(rg_emu_frame(emu[0], &fa), RG_OK);
                if (memcmp(fa.data, fb.data, (size_t)fa.pitch * fa.height) != 0)
                    fail_msg("%s, frame %u: the %s and baseline XRGB8888 frames differ", games[i / 2], f, variant);
            }
            unsigned sw, sh;
            assert_int_equal(rg_emu_screen_size(emu[0], &sw, &sh), RG_OK);
            assert_int_equal(rg_emu_screen_rgb24(emu[0], a, sizeof a), RG_OK);
            assert_int_equal(rg_emu_screen_rgb24(emu[1], b, sizeof b), RG_OK);
            assert_int_equal(rg_emu_screen_gray(emu[0], ga, sizeof ga), RG_OK);
            assert_int_equal(rg_emu_screen_gray(emu[1], gb, sizeof gb), RG_OK);
            if (memcmp(a, b, (size_t)sw * sh * 3) != 0 || memcmp(ga, gb, (size_t)sw * sh) != 0)
                fail_msg("%s, frame %u: the %s and baseline screens differ", games[i / 2], f, variant);
        }
        compared++;
        rg_emu_free(emu[0]);
        rg_emu_free(emu[1]);
    }
    globfree(&g);
    print_message("each variant equal to the baseline on %zu games, 600 frames each (on this CPU the AVX-512 painter "
                  "%s, the AVX2 instance %s)\n", compared / 2,
                  rg__tia_wide_paint_supported() ? "ran" : "is not available: both ran the baseline",
                  rg__tia_avx2_supported() ? "ran" : "is not available: both ran the baseline");
}

static void stella_gives_golden_hashes(void **state)
{
    (void)state;
    if (!stella_available())
        skip();
    int bad = 0;
    for (size_t i = 0; i < n_entries; i++) {
        assert_int_equal(run_emu(&entries[i], "stella", &stella), RG_OK);
        bad += compare(&entries[i], "stella", &stella, NULL);
    }
    if (bad)
        fail_msg("%d of %zu golden hashes are no longer what Stella gives", bad, n_entries);
}

/* The same program run with the same buttons for the same frames (code_fetch.asm as a 4K and an F8 image): one
 * picture is expected of both. */
static int same_run(const entry *a, const entry *b)
{
    return strcmp(a->source, b->source) == 0 && a->buttons[0] == b->buttons[0] && a->buttons[1] == b->buttons[1] &&
           a->frames == b->frames;
}

/* The manifest names every built image, and the golden pictures of different runs differ from each other (a hash
 * of a blank or broken frame would match too easily); only one program built as two cartridge layouts, run alike,
 * shows one picture. */
static void manifest_covers_every_image(void **state)
{
    (void)state;
    char pattern[1024];
    test_source_path("tests/roms/bin/a26/*.a26", pattern, sizeof pattern);
    glob_t g;
    assert_int_equal(glob(pattern, 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int found = 0;
        for (size_t j = 0; j < n_entries && !found; j++)
            found = strcmp(entries[j].rom, g.gl_pathv[i]) == 0;
        if (!found)
            fail_msg("%s has no entry in features.json", g.gl_pathv[i]);
    }
    globfree(&g);
    for (size_t i = 0; i < n_entries; i++)
        for (size_t j = i + 1; j < n_entries; j++)
            if (strcmp(entries[i].frame_sha1, entries[j].frame_sha1) == 0 && !same_run(&entries[i], &entries[j]))
                fail_msg("%s and %s have the same golden frame", entries[i].name, entries[j].name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(manifest_covers_every_image),
        cmocka_unit_test(stella_gives_golden_hashes),
        cmocka_unit_test(our_core_gives_golden_hashes),
        cmocka_unit_test(scalar_painter_gives_golden_hashes),
        cmocka_unit_test(painters_agree_on_real_games),
    };
    return cmocka_run_group_tests(tests, load_manifest, NULL);
}
