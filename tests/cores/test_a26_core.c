/* The Atari 2600 core through the public emulator API: snapshots, frames nobody looks at, independent instances,
 * options, audio, and the power-on state Stella 3.9.3 gives. The ROMs are ours (tests/roms/bin) plus two tiny
 * programs assembled here; the differential test against Stella itself is test_a26_vs_stella.c. */
#include "test_support.h"

#include "cores/atari2600/a26.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 160
#define H 210
#define RGB_SIZE (W * H * 3)

/* --- helpers */

static uint16_t script_buttons(unsigned frame)
{
    /* a fixed, varied input sequence: directions and fire change every few frames, reset now and then */
    uint32_t x = frame / 7u * 2654435761u;
    uint16_t b = (uint16_t)((x >> 13) & 0xF1u);
    if (frame % 97 == 50)
        b |= 1u << 3;
    return b;
}

static void rgb_of(const rg_emu *emu, uint8_t *rgb)
{
    assert_int_equal(rg_emu_frame_rgb24(emu, rgb, RGB_SIZE), RG_OK);
}

static void ram_of(const rg_emu *emu, uint8_t *ram)
{
    assert_int_equal(rg_emu_mem_read(emu, 0x80, ram, 128), RG_OK);
}

static rg_emu *open_with(const char *rom, const rg_core_option *opts, size_t n, int capture)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "atari2600";
    o.system = "Atari2600";
    o.log = test_quiet_log;
    o.core_options = opts;
    o.n_core_options = n;
    o.capture_audio = capture;
    rg_emu *emu = NULL;
    if (rg_emu_open(&emu, rom, &o) != RG_OK)
        fail_msg("cannot open %s: %s", rom, rg_error_last());
    return emu;
}

static const char *rom_path(const char *rel, char *buf, size_t cap)
{
    return test_source_path(rel, buf, cap);
}

/* Writes a 4 KiB image: `code` at $F000, reset vector $F000. */
static void write_image(const char *path, const uint8_t *code, size_t n)
{
    static uint8_t img[4096];
    memset(img, 0xEA, sizeof img);
    memcpy(img, code, n);
    img[0xFFC] = 0x00;
    img[0xFFD] = 0xF0;
    img[0xFFE] = 0x00;
    img[0xFFF] = 0xF0;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(img, 1, sizeof img, f), sizeof img);
    fclose(f);
}

static const char *tmp_file(const char *name, char *buf, size_t cap)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/%s", dir && *dir ? dir : "/tmp", name);
    return buf;
}

/* A 262-line frame loop with the tone channel 0 set up first (AUDC0=4 pure tone, AUDF0=7, AUDV0=15). */
static const uint8_t k_tone_prog[] = {
    0x78, 0xD8,             /* SEI CLD */
    0xA9, 0x0F, 0x85, 0x19, /* AUDV0 = 15 */
    0xA9, 0x04, 0x85, 0x15, /* AUDC0 = 4 */
    0xA9, 0x07, 0x85, 0x17, /* AUDF0 = 7 */
    /* $F00E frame: */
    0xA9, 0x02, 0x85, 0x02, 0x85, 0x00, 0x85, 0x02, 0x85, 0x02, 0x85, 0x02, /* VSYNC on for 3 lines */
    0xA9, 0x00, 0x85, 0x00,                                                 /* VSYNC off */
    0xA2, 0xFF, 0x85, 0x02, 0xCA, 0xD0, 0xFB,                               /* 255 lines */
    0xA2, 0x03, 0x85, 0x02, 0xCA, 0xD0, 0xFB,                               /* 3 more */
    0x4C, 0x0E, 0xF0,                                                       /* JMP frame */
};

/* --- tests */

/* Power-on is deterministic and the one of Stella 3.9.3 in stable-retro: the random RAM, timer and registers it
 * draws are the same on every load. The program stores A, X, Y, the timer and a RAM byte it never wrote. */
static void power_on_like_stella(void **state)
{
    (void)state;
    static const uint8_t prog[] = {
        0x85, 0xF0, 0x86, 0xF1, 0x84, 0xF2, /* STA $F0 STX $F1 STY $F2 */
        0xAD, 0x84, 0x02, 0x85, 0xF5,       /* LDA INTIM, STA $F5 */
        0xAD, 0x82, 0x02, 0x85, 0xF6,       /* LDA SWCHB, STA $F6 */
        0xA5, 0x0C, 0x85, 0xF7,             /* LDA INPT4, STA $F7 (undriven bits: the operand byte) */
        0x4C, 0x14, 0xF0,                   /* JMP * */
    };
    char path[1024];
    write_image(tmp_file("poweron.a26", path, sizeof path), prog, sizeof prog);
    for (int round = 0; round < 2; round++) {
        rg_emu *emu = open_with(path, NULL, 0, 0);
        assert_int_equal(rg_emu_run(emu), RG_OK);
        uint8_t ram[128];
        ram_of(emu, ram);
        /* values measured in stable-retro's stella core (its generator is seeded the same on every load) */
        assert_int_equal(ram[0x00], 0xC9);
        assert_int_equal(ram[0x01], 0xFE);
        assert_int_equal(ram[0x70], 0x20); /* A */
        assert_int_equal(ram[0x71], 0xFD); /* X */
        assert_int_equal(ram[0x72], 0xC0); /* Y */
        assert_int_equal(ram[0x75], 0x79); /* INTIM a few cycles in: 122 * 1024 cycles to go */
        assert_int_equal(ram[0x76], 0x3F); /* both difficulties B, colour */
        assert_int_equal(ram[0x77], 0x8C);
        rg_emu_free(emu);
    }
}

/* A snapshot restores everything: the frames after a load are those after the save. */
static void snapshot_round_trip(void **state)
{
    (void)state;
    char path[1024];
    rg_emu *emu = open_with(rom_path("tests/roms/bin/a26/hmove_midline.a26", path, sizeof path), NULL, 0, 0);
    for (unsigned f = 0; f < 40; f++) {
        rg_emu_set_buttons(emu, 0, script_buttons(f));
        assert_int_equal(rg_emu_run(emu), RG_OK);
    }
    size_t size;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    uint8_t *snap = malloc(size);
    assert_non_null(snap);
    assert_int_equal(rg_emu_state_save(emu, snap, size, NULL), RG_OK);
    uint64_t hashes[60];
    for (unsigned f = 0; f < 60; f++) {
        rg_emu_set_buttons(emu, 0, script_buttons(40 + f));
        rg_emu_run(emu);
        hashes[f] = test_frame_hash(emu) ^ test_ram_hash(emu);
    }
    assert_int_equal(rg_emu_state_load(emu, snap, size), RG_OK);
    for (unsigned f = 0; f < 60; f++) {
        rg_emu_set_buttons(emu, 0, script_buttons(40 + f));
        rg_emu_run(emu);
        if ((test_frame_hash(emu) ^ test_ram_hash(emu)) != hashes[f])
            fail_msg("frame %u after the load differs from the frame after the save", f);
    }
    /* refused: truncated, damaged header, another ROM's state */
    assert_int_not_equal(rg_emu_state_load(emu, snap, size - 1), RG_OK);
    snap[0] ^= 0xFF;
    assert_int_not_equal(rg_emu_state_load(emu, snap, size), RG_OK);
    snap[0] ^= 0xFF;
    rg_emu *other = open_with(rom_path("tests/roms/bin/test.a26", path, sizeof path), NULL, 0, 0);
    assert_int_not_equal(rg_emu_state_load(other, snap, size), RG_OK);
    rg_emu_free(other);
    free(snap);
    rg_emu_free(emu);
}

/* Frames nobody looks at are not drawn, yet the game runs the same: collisions stay exact. */
static void skipped_video_keeps_game_exact(void **state)
{
    (void)state;
    const char *roms[] = {"tests/roms/bin/a26/collisions.a26", "tests/roms/bin/a26/hmove.a26",
                          "tests/roms/bin/a26/missiles_ball.a26"};
    uint8_t *a = malloc(RGB_SIZE), *b = malloc(RGB_SIZE);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t r = 0; r < sizeof roms / sizeof roms[0]; r++) {
        char path[1024];
        rom_path(roms[r], path, sizeof path);
        rg_emu *full = open_with(path, NULL, 0, 0), *skip = open_with(path, NULL, 0, 0);
        for (unsigned f = 0; f < 200; f++) {
            uint16_t bt = script_buttons(f);
            rg_emu_set_buttons(full, 0, bt);
            rg_emu_set_buttons(skip, 0, bt);
            int shown = f % 4 == 3;
            rg_emu_set_av_enable(skip, shown, 0);
            rg_emu_run(full);
            rg_emu_run(skip);
            uint8_t ra[128], rb[128];
            ram_of(full, ra);
            ram_of(skip, rb);
            if (memcmp(ra, rb, 128) != 0)
                fail_msg("%s: RAM differs at frame %u with video off", roms[r], f);
            if (shown) {
                rgb_of(full, a);
                rgb_of(skip, b);
                if (memcmp(a, b, RGB_SIZE) != 0)
                    fail_msg("%s: frame %u (shown) differs after skipped ones", roms[r], f);
            }
        }
        rg_emu_free(full);
        rg_emu_free(skip);
    }
    free(a);
    free(b);
}

/* Instances share nothing: two driven in lock-step give what one alone gives. */
static void instances_are_independent(void **state)
{
    (void)state;
    char path[1024];
    rom_path("tests/roms/bin/a26/positions.a26", path, sizeof path);
    rg_emu *alone = open_with(path, NULL, 0, 0);
    uint64_t hashes[80];
    for (unsigned f = 0; f < 80; f++) {
        rg_emu_set_buttons(alone, 0, script_buttons(f));
        rg_emu_run(alone);
        hashes[f] = test_frame_hash(alone) ^ test_ram_hash(alone);
    }
    rg_emu_free(alone);
    rg_emu *x = open_with(path, NULL, 0, 0), *y = open_with(path, NULL, 0, 0);
    for (unsigned f = 0; f < 80; f++) {
        rg_emu_set_buttons(x, 0, script_buttons(f));
        rg_emu_set_buttons(y, 0, (uint16_t)~script_buttons(f) & 0xFD); /* something else entirely */
        rg_emu_run(x);
        rg_emu_run(y);
        assert_true((test_frame_hash(x) ^ test_ram_hash(x)) == hashes[f]);
    }
    /* a power-on reset starts over exactly */
    assert_int_equal(rg_emu_reset(y), RG_OK);
    for (unsigned f = 0; f < 80; f++) {
        rg_emu_set_buttons(y, 0, script_buttons(f));
        rg_emu_run(y);
        assert_true((test_frame_hash(y) ^ test_ram_hash(y)) == hashes[f]);
    }
    rg_emu_free(x);
    rg_emu_free(y);
}

/* Core options: switches, region, cartridge type; unknown keys are ignored, bad values refused. */
static void options(void **state)
{
    (void)state;
    static const uint8_t prog[] = {
        0xAD, 0x82, 0x02, 0x85, 0x80, /* LDA SWCHB, STA $80 */
        0x4C, 0x00, 0xF0,             /* JMP $F000 */
    };
    char path[1024];
    write_image(tmp_file("switches.a26", path, sizeof path), prog, sizeof prog);
    const rg_core_option set[] = {{"atari2600_left_difficulty", "A"}, {"atari2600_tv", "bw"},
                                  {"atari2600_region", "pal"}, {"some_other_core_key", "x"}};
    rg_emu *emu = open_with(path, set, 4, 0);
    rg_emu_run(emu);
    uint8_t v;
    assert_int_equal(rg_emu_mem_read(emu, 0x80, &v, 1), RG_OK);
    assert_int_equal(v, 0x77); /* left A (bit 6), B/W (bit 3 clear) */
    assert_true(rg_emu_fps(emu) == 50.0);
    rg_frame f;
    rg_emu_frame(emu, &f);
    assert_int_equal(f.width, 160);
    assert_int_equal(f.height, 250);
    /* the console buttons: Select and Reset pull their bits low */
    rg_emu_set_buttons(emu, 0, 1u << 2 | 1u << 3);
    rg_emu_run(emu);
    assert_int_equal(rg_emu_mem_read(emu, 0x80, &v, 1), RG_OK);
    assert_int_equal(v, 0x74);
    rg_emu_free(emu);

    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "atari2600";
    o.log = test_quiet_log;
    const rg_core_option bad[][1] = {{{"atari2600_cart_type", "XYZ"}}, {{"atari2600_region", "mars"}},
                                     {{"atari2600_tv", "sepia"}}, {{"atari2600_paint", "avx"}},
                                     {{"atari2600_cart_type", "F8"}}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o.core_options = bad[i];
        o.n_core_options = 1;
        rg_emu *e = NULL;
        assert_int_not_equal(rg_emu_open(&e, path, &o), RG_OK); /* F8: a 4 KiB image is too small */
        assert_null(e);
    }
}

/* Audio: two samples per line while someone listens, none otherwise; a pure tone is a square wave. */
static void audio(void **state)
{
    (void)state;
    char path[1024];
    write_image(tmp_file("tone.a26", path, sizeof path), k_tone_prog, sizeof k_tone_prog);
    rg_emu *emu = open_with(path, NULL, 0, 1);
    assert_true(rg_emu_sample_rate(emu) > 31000.0 && rg_emu_sample_rate(emu) < 31500.0);
    for (int i = 0; i < 5; i++)
        rg_emu_run(emu);
    const int16_t *s;
    size_t n;
    assert_int_equal(rg_emu_audio(emu, &s, &n), RG_OK);
    assert_true(n >= 2 * 262 - 2 && n <= 2 * 262 + 2);
    size_t high = 0, changes = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(s[2 * i] == s[2 * i + 1]); /* mono on both sides */
        assert_true(s[2 * i] == 0 || s[2 * i] == 15 * 1092);
        high += s[2 * i] != 0;
        changes += i && s[2 * i] != s[2 * i - 2];
    }
    /* AUDF0 = 7: the output toggles every 8 samples */
    assert_true(high > n / 2 - 16 && high < n / 2 + 16);
    assert_true(changes >= n / 8 - 2 && changes <= n / 8 + 2);
    rg_emu_set_av_enable(emu, 1, 0);
    rg_emu_run(emu);
    assert_int_equal(rg_emu_audio(emu, &s, &n), RG_OK);
    assert_int_equal(n, 0);
    rg_emu_free(emu);
}

/* A game that never ends its frame with VSYNC still gets frames (Stella's limits). */
static void frames_without_vsync(void **state)
{
    (void)state;
    static const uint8_t prog[] = {
        0xE6, 0x80,       /* INC $80 */
        0x85, 0x2D,       /* STA $2D (a TIA write: Stella ends a frame at the first one past its line limit) */
        0x4C, 0x00, 0xF0, /* JMP $F000 */
    };
    char path[1024];
    write_image(tmp_file("novsync.a26", path, sizeof path), prog, sizeof prog);
    rg_emu *emu = open_with(path, NULL, 0, 0);
    uint8_t prev = 0, v;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        rg_emu_mem_read(emu, 0x80, &v, 1);
        if (i > 0)
            assert_int_not_equal(v, prev);
        prev = v;
    }
    rg_emu_free(emu);
}

/* A damaged or edited state is refused when a field the machine indexes, shifts or counts with holds a value the
 * machine cannot produce (with a message naming it), and the machine is left as it was; every state the core
 * makes itself is taken back. */
#define EDIT(field, type, value, word) {offsetof(rg__a26_state, field), sizeof(type), (uint64_t)(value), word}
static void damaged_states_refused(void **state)
{
    (void)state;
    static const struct {
        size_t off, size;
        uint64_t value;
        const char *word; /* in the message */
    } edits[] = {
        EDIT(riot.shift, uint8_t, 175, "shift"),
        EDIT(riot.timer, uint32_t, 0x12345, "timer count"),
        EDIT(cycles, uint32_t, 0x7FFFFFFF, "cycles"),
        EDIT(tia.frame_start, int32_t, (uint32_t)-300, "line clocks"),
        EDIT(tia.line, int32_t, 400, "line clocks"),
        EDIT(tia.last_update, int32_t, 0x7FFFFFF0, "line clocks"),
        EDIT(tia.enabled, uint8_t, 0xCC, "do not match"),
        EDIT(tia.pf_bits, uint32_t, 0xFFFFFFFF, "do not match"),
        EDIT(tia.pos[2], int16_t, (uint16_t)-235, "object 2"),
        EDIT(tia.motion[4], int8_t, 100, "object 4"),
        EDIT(tia.hmove_pos, int32_t, 1000, "HMOVE"),
        EDIT(tia.lines_last, uint32_t, 100000, "line count"),
        EDIT(tia.audio_clock, int32_t, 0x80000000u, "audio clock"),
        EDIT(tia.voice[1].div3, uint8_t, 7, "sound channel 1"),
        EDIT(cpu.p, uint8_t, 0x00, "status register"),
        EDIT(cpu.nmi_pending, uint8_t, 1, "interrupt"),
        EDIT(cart.seg[1], uint32_t, 0x100000, "cartridge"),
        EDIT(paddles[0].repeat[1], int32_t, 0x7FFFFFFF, "paddle 1"),
        EDIT(rng, uint32_t, 0xFFFFFFFF, "generator"),
    };
    char path[1024];
    rg_emu *emu = open_with(rom_path("tests/roms/bin/a26/hmove_midline.a26", path, sizeof path), NULL, 0, 1);
    size_t size;
    assert_int_equal(rg_emu_state_size(emu, &size), RG_OK);
    assert_true(size > sizeof(rg__a26_state));
    size_t hdr = size - sizeof(rg__a26_state);
    uint8_t *good = malloc(size), *bad = malloc(size), *after = malloc(size);
    assert_non_null(good);
    assert_non_null(bad);
    assert_non_null(after);
    for (unsigned f = 0; f < 300; f++) { /* every state on the way is taken back, video and sound on or off */
        rg_emu_set_buttons(emu, 0, script_buttons(f));
        rg_emu_set_av_enable(emu, f % 3 != 0, f % 5 != 0);
        assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_int_equal(rg_emu_state_save(emu, good, size, NULL), RG_OK);
        if (rg_emu_state_load(emu, good, size) != RG_OK)
            fail_msg("the state after frame %u is refused: %s", f, rg_error_last());
    }
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        memcpy(bad, good, size);
        uint8_t u8 = (uint8_t)edits[i].value;
        uint16_t u16 = (uint16_t)edits[i].value;
        uint32_t u32 = (uint32_t)edits[i].value;
        const void *v = edits[i].size == 1 ? (const void *)&u8 : edits[i].size == 2 ? (const void *)&u16 : &u32;
        memcpy(bad + hdr + edits[i].off, v, edits[i].size);
        assert_int_equal(rg_emu_state_load(emu, bad, size), RG_ESTATE);
        if (!strstr(rg_error_last(), edits[i].word))
            fail_msg("edit %zu: the message '%s' does not name '%s'", i, rg_error_last(), edits[i].word);
        assert_int_equal(rg_emu_state_save(emu, after, size, NULL), RG_OK);
        assert_memory_equal(after, good, size);
    }
    /* a field whose every value is legal (a RAM byte) is taken as it is */
    memcpy(bad, good, size);
    bad[hdr + offsetof(rg__a26_state, ram) + 5] ^= 0xFF;
    assert_int_equal(rg_emu_state_load(emu, bad, size), RG_OK);
    assert_int_equal(rg_emu_run(emu), RG_OK);
    free(good);
    free(bad);
    free(after);
    rg_emu_free(emu);
}
#undef EDIT

/* The line cycle and phase helpers (tia.h: multiplications instead of the divisions by 3 and 76) give what the
 * divisions give: every frame start a frame can have (-227..0) with cycle counts over the whole 32-bit range, and
 * frame starts outside it (a state in memory may hold any). */
static void check_frame_start(int32_t fs)
{
    rg__a26_tia t;
    memset(&t, 0, sizeof t);
    t.frame_start = fs;
    for (uint64_t c = 0; c <= 0xFFFFFFFFull; c += c < 20000 ? 1 : 65521) {
        uint32_t want = (uint32_t)c + (uint32_t)(-fs / 3);
        if (rg__tia_line_cycles(&t, (uint32_t)c) != want || rg__tia_line_phase(&t, (uint32_t)c) != want % 76u)
            fail_msg("frame start %d, cycle %llu", (int)fs, (unsigned long long)c);
    }
}

static void line_phase_is_the_division(void **state)
{
    (void)state;
    static const int32_t odd[] = {INT32_MAX, INT32_MIN + 1, -2147483646, 123456789, -987654321, 1, 2, 3};
    for (int32_t fs = -227; fs <= 0; fs++)
        check_frame_start(fs);
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        check_frame_start(odd[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(power_on_like_stella),
        cmocka_unit_test(snapshot_round_trip),
        cmocka_unit_test(skipped_video_keeps_game_exact),
        cmocka_unit_test(instances_are_independent),
        cmocka_unit_test(options),
        cmocka_unit_test(audio),
        cmocka_unit_test(frames_without_vsync),
        cmocka_unit_test(damaged_states_refused),
        cmocka_unit_test(line_phase_is_the_division),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
