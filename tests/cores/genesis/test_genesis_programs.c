/* Our Genesis test programs (tests/roms/md/<name>/, built into tests/roms/bin/md/<name>.md) on our core against
 * Genesis Plus GX (stable-retro's wheel through our host), frame by frame from power-on with the same seeded input:
 * all 64 KiB of work RAM and the picture (size and bytes) must be equal after every frame. Each program also has
 * assertions on our core alone that need no GPGX. GENESIS_PROGRAMS_VERBOSE=1 prints where a comparison first
 * differs; GENESIS_PROGRAMS_FRAMES=n runs n frames. The GPGX parts skip without the wheel (docs/genesis.md, "Tests").
 *
 * vdp (tests/roms/md/vdp/vdp.s): the VDP's picture features in 16 scenes of 16 frames (scroll modes, plane sizes,
 * the window, sprite limits and masking, shadow/highlight, interlace modes 1 and 2).
 * sat (tests/roms/md/sat/sat.s): the sprite table moved by register 5 without being rewritten, in 8 scenes of 16
 * frames (double buffering, H32, DMA fill and copy into it, moved by an H interrupt): y, size and link come from the
 * VDP's own copy of the table.
 * stop (tests/roms/md/stop/stop.s): the 68000 waiting in STOP (entered at many places in a line) for H and V
 * interrupts, each handler logging the HV counter first: the time it left STOP.
 * m68k (tests/roms/md/m68k/m68k.s): TAS, TRAP, TRAPV, CHK and line A in batches timed with the HV counter (the
 * counts of Genesis Plus GX 1.7.4). */
#define _POSIX_C_SOURCE 200809L
#include "test_emu_state.h"
#include "test_support.h"

#include "cores/genesis/genesis.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PICTURE_CAP (320u * 240u * 3u)

static int verbose(void)
{
    return test_env_flag("GENESIS_PROGRAMS_VERBOSE");
}

static unsigned frames_to_run(unsigned dflt)
{
    return test_env_count("GENESIS_PROGRAMS_FRAMES", dflt);
}

static void program_path(const char *name, char *out, size_t cap)
{
    char rel[64];
    snprintf(rel, sizeof rel, "tests/roms/bin/md/%s.md", name);
    test_source_path(rel, out, cap);
}

static rg_emu *open_program(const char *name, const char *core)
{
    char rom[1024];
    program_path(name, rom, sizeof rom);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.system = "Genesis";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s in %s: %s", rom, core, rg_error_last());
    return emu;
}

/* pad 1 in frame f: seeded buttons held 6 frames at a time (both cores get the same) */
static uint16_t seeded_pad(unsigned f)
{
    uint32_t x = (f / 6u + 3u) * 2654435761u;
    x ^= x >> 15;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    return (uint16_t)(x & 0x1FBu);
}

static int have_gpgx(void)
{
    return test_have_wheel_core("genesis_plus_gx");
}

/* Runs program name for frames frames on both cores; returns the first frame whose RAM or picture differs (frames
 * when none) and says why. */
static unsigned compare_program(const char *name, unsigned frames, char *why, size_t why_cap)
{
    rg_emu *gx = open_program(name, "genesis_plus_gx"), *us = open_program(name, "genesis");
    uint8_t *a = malloc(PICTURE_CAP), *b = malloc(PICTURE_CAP);
    static uint8_t ra[0x10000], rb[0x10000];
    assert_non_null(a);
    assert_non_null(b);
    unsigned first = frames;
    why[0] = 0;
    for (unsigned f = 0; f < frames && first == frames; f++) {
        assert_int_equal(rg_emu_set_buttons(gx, 0, seeded_pad(f)), RG_OK);
        assert_int_equal(rg_emu_set_buttons(us, 0, seeded_pad(f)), RG_OK);
        assert_int_equal(rg_emu_run(gx), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        assert_int_equal(rg_emu_mem_read(gx, 0xFF0000, ra, sizeof ra), RG_OK);
        assert_int_equal(rg_emu_mem_read(us, 0xFF0000, rb, sizeof rb), RG_OK);
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(gx, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(us, &fb), RG_OK);
        if (memcmp(ra, rb, sizeof ra) != 0) {
            size_t k = 0;
            while (ra[k] == rb[k])
                k++;
            first = f;
            snprintf(why, why_cap, "frame %u: RAM $%06zX is %02x in GPGX, %02x in ours", f, 0xFF0000 + k, ra[k],
                     rb[k]);
        } else if (fa.width != fb.width || fa.height != fb.height) {
            first = f;
            snprintf(why, why_cap, "frame %u: GPGX %ux%u, ours %ux%u", f, fa.width, fa.height, fb.width, fb.height);
        } else {
            assert_int_equal(rg_emu_frame_rgb24(gx, a, PICTURE_CAP), RG_OK);
            assert_int_equal(rg_emu_frame_rgb24(us, b, PICTURE_CAP), RG_OK);
            size_t n = (size_t)fb.width * fb.height * 3u, k = 0, d = 0;
            for (size_t i = 0; i < n; i++)
                if (a[i] != b[i]) {
                    if (!d)
                        k = i;
                    d++;
                }
            if (d) {
                size_t p = k / 3u * 3u;
                first = f;
                snprintf(why, why_cap, "frame %u: picture row %zu column %zu first (%zu bytes differ; GPGX "
                         "%02x%02x%02x, ours %02x%02x%02x)", f, k / 3u / fb.width, k / 3u % fb.width, d, a[p],
                         a[p + 1], a[p + 2], b[p], b[p + 1], b[p + 2]);
            }
        }
    }
    free(a);
    free(b);
    rg_emu_free(gx);
    rg_emu_free(us);
    return first;
}

/* Runs program `name` on our core and on Genesis Plus GX for `dflt` frames (GENESIS_PROGRAMS_FRAMES overrides) and
 * fails at the first frame whose RAM or picture differs; skipped under ASan and without the wheel. */
static void program_vs_gpgx(const char *name, unsigned dflt)
{
#if defined(__SANITIZE_ADDRESS__)
    print_message("skipped: the foreign core is not run under ASan\n");
    skip();
#endif
    if (!have_gpgx()) {
        print_message("skipped: no genesis_plus_gx in .venv's stable-retro\n");
        skip();
    }
    unsigned frames = frames_to_run(dflt);
    char why[256];
    unsigned first = compare_program(name, frames, why, sizeof why);
    if (verbose())
        print_message("%s: %u of %u frames equal%s%s\n", name, first, frames, why[0] ? ": " : "", why);
    if (first < frames)
        fail_msg("%s: our core and Genesis Plus GX differ: %s", name, why);
}

/* ---- sat: the sprite table moved by register 5, and the VDP's own copy of it ---- */

#define SAT_FRAMES 150u /* the 8 scenes of 16 frames after the set-up, and the first again */

static void test_sat_vs_gpgx(void **s)
{
    (void)s;
    program_vs_gpgx("sat", SAT_FRAMES);
}

/* ---- stop: the 68000 waiting in STOP for interrupts, the HV counter read first in each handler ---- */

#define STOP_FRAMES 120u

static void test_stop_vs_gpgx(void **s)
{
    (void)s;
    program_vs_gpgx("stop", STOP_FRAMES);
}

/* ---- m68k: the instructions GPGX 1.7.4 counts otherwise than the 68000, timed with the HV counter ---- */

#define M68K_FRAMES 60u

static void test_m68k_vs_gpgx(void **s)
{
    (void)s;
    program_vs_gpgx("m68k", M68K_FRAMES);
}

/* ---- vdp: the VDP's picture ---- */

#define VDP_FRAMES 300u  /* the 16 scenes of 16 frames after about 15 frames of setup, and the first again */
#define VDP_SCENE 0xFF0016u
#define VDP_STAT 0xFF0012u

static void test_vdp_vs_gpgx(void **s)
{
    (void)s;
    program_vs_gpgx("vdp", VDP_FRAMES);
}

static unsigned mem_word(rg_emu *emu, uint32_t addr)
{
    uint8_t w[2];
    assert_int_equal(rg_emu_mem_read(emu, addr, w, 2), RG_OK);
    return (unsigned)w[0] << 8 | w[1]; /* as the 68000 sees it (the systems file's big-endian overlay) */
}

/* The colour intensities in a frame (red components as GPGX's RGB565 expansion gives them: intensity i is
 * ((i << 1 | i >> 3) & 31) << 3): bit i set when intensity i occurs. Normal colours are even intensities (2c);
 * shadow/highlight adds the odd ones (shadow c, highlight c + 7). */
static unsigned red_intensities(rg_emu *emu, uint8_t *buf)
{
    rg_frame fr;
    assert_int_equal(rg_emu_frame(emu, &fr), RG_OK);
    assert_int_equal(rg_emu_frame_rgb24(emu, buf, PICTURE_CAP), RG_OK);
    unsigned seen = 0;
    for (size_t i = 0; i < (size_t)fr.width * fr.height; i++)
        for (unsigned c = 0; c < 16; c++)
            if (buf[i * 3] == (((c << 1 | c >> 3) & 31u) << 3))
                seen |= 1u << c;
    return seen;
}

/* On our core alone: a scene without shadow/highlight shows only even intensities, the shadow/highlight scenes odd
 * ones too (shadows below 7 and highlights above); the status register's field bit alternates frame by frame in the
 * interlaced scenes and is 0 otherwise; the left column blank shows the backdrop in the first 8 columns. */
static void test_vdp_ours(void **s)
{
    (void)s;
    rg_emu *us = open_program("vdp", "genesis");
    uint8_t *buf = malloc(PICTURE_CAP);
    assert_non_null(buf);
    unsigned plain = 0, sh = 0, odd_seen[2] = {0, 0}, field_flips = 0, last_field = 2, lcb_frames = 0;
    for (unsigned f = 0; f < VDP_FRAMES; f++) {
        assert_int_equal(rg_emu_run(us), RG_OK);
        unsigned scene = mem_word(us, VDP_SCENE), stat = mem_word(us, VDP_STAT);
        unsigned field = (stat >> 4) & 1u;
        int interlaced = scene == 11u || scene >= 13u;
        if (f > 20u) {
            if (scene == 0u || scene == 1u)
                plain |= red_intensities(us, buf);
            if (scene == 7u || scene == 8u)
                sh |= red_intensities(us, buf);
            /* the status was read at the start of this frame's V interrupt: the field of the frame run */
            if (interlaced && (scene == 11u || scene == 13u)) {
                odd_seen[field] = 1;
                if (last_field != 2u && field != last_field)
                    field_flips++;
                last_field = field;
            } else if (!interlaced && scene != 12u && scene != 0u) {
                assert_int_equal(field, 0);
            }
            if (scene == 7u) { /* register 0 bit 5: columns 0-7 are the backdrop (register 7 = 0: CRAM entry 0) */
                rg_frame fr;
                assert_int_equal(rg_emu_frame(us, &fr), RG_OK);
                for (unsigned y = 0; y < fr.height; y++)
                    for (unsigned x = 1; x < 8; x++)
                        assert_memory_equal(&buf[(y * fr.width + x) * 3u], &buf[y * fr.width * 3u], 3);
                lcb_frames++;
            }
        }
    }
    if (verbose())
        print_message("vdp on ours: intensities plain %04x, shadow/highlight %04x; field flips %u\n", plain, sh,
                      field_flips);
    assert_int_equal(plain & 0xAAAAu, 0);      /* no odd intensity without shadow/highlight */
    assert_true((sh & 0x002Au) != 0);          /* shadows: intensity 1, 3 or 5 */
    assert_true((sh & 0x2A00u) != 0);          /* highlights: 9, 11 or 13 */
    assert_true(odd_seen[0] && odd_seen[1]);
    assert_true(field_flips >= 20u);           /* every frame of the 32 interlaced ones flips the field */
    assert_true(lcb_frames >= 10u);
    free(buf);
    rg_emu_free(us);
}

/* On our core alone: drawing only every fourth frame (frame skip 4) leaves the machine as drawing every frame does
 * (the sprite collision and overflow flags, the masking carried from a line at the dot limit, the interlace field),
 * and the drawn frames' pictures equal. */
static void test_vdp_frame_skip(void **s)
{
    (void)s;
    rg_emu *all = open_program("vdp", "genesis"), *skip4 = open_program("vdp", "genesis");
    size_t n = 0, wr = 0;
    assert_int_equal(rg_emu_state_size(all, &n), RG_OK);
    uint8_t *st = malloc(n), *st4 = malloc(n);
    assert_non_null(st);
    assert_non_null(st4);
    for (unsigned f = 0; f < VDP_FRAMES; f++) {
        assert_int_equal(rg_emu_run(all), RG_OK);
        assert_int_equal(rg_emu_set_av_enable(skip4, f % 4u == 3u, 0), RG_OK);
        assert_int_equal(rg_emu_run(skip4), RG_OK);
        assert_int_equal(rg_emu_state_save(all, st, n, &wr), RG_OK);
        assert_int_equal(rg_emu_state_save(skip4, st4, n, &wr), RG_OK);
        if (memcmp(st, st4, n) != 0)
            fail_msg("frame %u: not drawing frames changed the machine", f);
        if (f % 4u == 3u && test_frame_hash(all) != test_frame_hash(skip4))
            fail_msg("frame %u: the drawn picture differs after undrawn frames", f);
    }
    free(st);
    free(st4);
    rg_emu_free(all);
    rg_emu_free(skip4);
}

/* A state whose picture flags are impossible (unknown bits, double resolution without interlace, a field bit set
 * without interlace) is refused naming them, the machine unchanged; the good state loads. */
static void test_vdp_bad_states(void **s)
{
    (void)s;
    rg_emu *emu = open_program("vdp", "genesis");
    for (unsigned f = 0; f < 60; f++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    size_t n = 0;
    uint8_t *good = test_state_save(emu, &n), *bad = malloc(n);
    assert_non_null(bad);
    uint64_t ram0 = test_ram_hash(emu);
    const size_t hdr = 24; /* our snapshot's header (docs/genesis.md, "State") */
    const size_t lf = hdr + offsetof(rg__gen_state, vdp) + offsetof(rg__gen_vdp, lflags);
    const size_t odd = hdr + offsetof(rg__gen_state, vdp) + offsetof(rg__gen_vdp, odd);
    assert_int_equal(good[lf] & RG__GEN_LF_INTERLACE, 0); /* frame 60: scene 1, no interlace */
    struct { size_t off; uint8_t val; } cases[] = {{lf, 0x10}, {lf, RG__GEN_LF_IM2}, {odd, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, good, n);
        bad[cases[i].off] |= cases[i].val;
        assert_int_equal(rg_emu_state_load(emu, bad, n), RG_ESTATE);
        if (!strstr(rg_error_last(), "lflags"))
            fail_msg("case %zu: '%s' does not name vdp.lflags", i, rg_error_last());
        assert_true(test_ram_hash(emu) == ram0);
    }
    memcpy(bad, good, n);
    bad[lf] |= RG__GEN_LF_INTERLACE | RG__GEN_LF_IM2; /* a possible state */
    bad[odd] = 1;
    assert_int_equal(rg_emu_state_load(emu, bad, n), RG_OK);
    assert_int_equal(rg_emu_state_load(emu, good, n), RG_OK);
    free(good);
    free(bad);
    rg_emu_free(emu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sat_vs_gpgx),
        cmocka_unit_test(test_stop_vs_gpgx),
        cmocka_unit_test(test_m68k_vs_gpgx),
        cmocka_unit_test(test_vdp_vs_gpgx),
        cmocka_unit_test(test_vdp_ours),
        cmocka_unit_test(test_vdp_frame_skip),
        cmocka_unit_test(test_vdp_bad_states),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
