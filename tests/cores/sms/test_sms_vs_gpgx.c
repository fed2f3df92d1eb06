/* Our SMS/GG core against Genesis Plus GX (stable-retro's genesis_plus_gx libretro core through our host, with the
 * core options systems/Sms.json and GameGear.json set), frame by frame from power-on on our demo ROMs
 * ../shared/roms/blind-happy10.sms and benryves-SegaTween.gg: FRAMES frames of seeded random input on both joypads
 * (the SMS pause button now and then), and after every frame the 8 KiB of work RAM at $C000 and the RGB picture must
 * be identical (docs/sms.md, "Equivalence"). Also ROMs of ours: a VDP-timing ROM built here (reading past the end of a
 * 32 KiB cartridge), the TMS-modes and mode-4 feature ROMs of tests/roms/sms, and our Z80 exerciser (z80ex).
 * SMS_VS_GPGX_VERBOSE=1 prints the runs; SMS_VS_GPGX_FRAMES=N runs the demo ROMs N frames instead of 10,000 (the
 * equivalence bar of docs/sms.md). Skipped without ../shared or the stable-retro wheel. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FRAMES_DEFAULT 10000u
#define FRAMES frames()

static unsigned frames(void)
{
    const char *v = getenv("SMS_VS_GPGX_FRAMES");
    long n = v ? strtol(v, NULL, 10) : 0;
    return n > 0 && n <= 1000000 ? (unsigned)n : FRAMES_DEFAULT;
}

typedef struct result {
    unsigned ram_frames;  /* frames whose RAM agreed before the first difference (FRAMES: all) */
    unsigned pix_frames;  /* the same for the picture */
    unsigned pix_bad;     /* frames whose picture differed */
    unsigned ram_bad;     /* frames whose RAM differed */
    char ram_why[160];
    char pix_why[160];
} result;

static void read_ram(const rg_emu *emu, uint8_t out[0x2000])
{
    if (rg_emu_mem_read(emu, 0xC000, out, 0x2000) != RG_OK)
        fail_msg("RAM of %s: %s", rg_emu_core_name(emu), rg_error_last());
}

/* the joypad bits of frame f (libretro ids: B 0, START 3, UP-RIGHT 4-7, A 8): a button held for a few frames at a
 * time; START (the SMS pause) about once in 200 frames */
static uint16_t pad(unsigned port, unsigned f)
{
    uint32_t x = (f / 4u) * 2654435761u ^ (port + 1u) * 0x9E3779B9u;
    x ^= x >> 15;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    uint16_t m = (uint16_t)((x & 0xF0u) | (x >> 8 & 1u) | ((x >> 9 & 1u) << 8));
    if (port == 0 && (x >> 16) % 50u == 0)
        m |= 1u << 3;
    return m;
}

/* SMS_VS_GPGX_DUMP=dir (for debugging): the first frame whose pictures differ as gpgx.ppm and ours.ppm (with that
 * frame's RAM as gpgx.ram and ours.ram), the first whose RAM differs as gpgx.ram and ours.ram, into dir. */
static void dump(const uint8_t *a, const uint8_t *b, size_t n, unsigned w, unsigned h, const uint8_t *ra,
                 const uint8_t *rb, unsigned f)
{
    const char *dir = getenv("SMS_VS_GPGX_DUMP");
    if (!dir || !*dir)
        return;
    const uint8_t *pix[2] = {a, b}, *ram[2] = {ra, rb};
    const char *name[2] = {"gpgx", "ours"};
    for (int i = 0; i < 2; i++) {
        char path[1200];
        FILE *o;
        snprintf(path, sizeof path, "%s/%s.%s", dir, name[i], a ? "ppm" : "ram");
        if (!(o = fopen(path, "wb")))
            return;
        if (a) {
            fprintf(o, "P6\n%u %u\n255\n", w, h);
            fwrite(pix[i], 1, n, o);
        } else {
            fwrite(ram[i], 1, 0x2000, o);
        }
        fclose(o);
    }
    print_message("frame %u (%s) dumped into %s\n", f, a ? "pixels" : "RAM", dir);
}

static void compare(const char *rom, const char *ours, const char *system, unsigned w, unsigned h, unsigned frames,
                    result *out)
{
    rg_emu *gx = test_open_in(rom, "genesis_plus_gx", system, 0), *us = test_open_in(rom, ours, system, 0);
    size_t n = (size_t)w * h * 3;
    uint8_t *a = malloc(n), *b = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    memset(out, 0, sizeof *out);
    out->ram_frames = out->pix_frames = frames;
    for (unsigned f = 0; f < frames; f++) {
        for (unsigned p = 0; p < 2; p++) {
            assert_int_equal(rg_emu_set_buttons(gx, p, pad(p, f)), RG_OK);
            assert_int_equal(rg_emu_set_buttons(us, p, pad(p, f)), RG_OK);
        }
        assert_int_equal(rg_emu_run(gx), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        uint8_t ra[0x2000], rb[0x2000];
        read_ram(gx, ra);
        read_ram(us, rb);
        if (memcmp(ra, rb, sizeof ra) != 0) {
            out->ram_bad++;
            if (out->ram_frames == frames)
                dump(NULL, NULL, 0, w, h, ra, rb, f);
            if (out->ram_frames == frames) {
                int k = 0, d = 0;
                while (ra[k] == rb[k])
                    k++;
                for (int i = 0; i < (int)sizeof ra; i++)
                    d += ra[i] != rb[i];
                out->ram_frames = f;
                snprintf(out->ram_why, sizeof out->ram_why, "frame %u: RAM $%04X is %02x in GPGX, %02x in ours (%d "
                         "bytes differ)", f, 0xC000 + k, ra[k], rb[k], d);
            }
        }
        rg_frame fa, fb;
        assert_int_equal(rg_emu_frame(gx, &fa), RG_OK);
        assert_int_equal(rg_emu_frame(us, &fb), RG_OK);
        assert_int_equal(fa.width, w);
        assert_int_equal(fa.height, h);
        assert_int_equal(fb.width, w);
        assert_int_equal(fb.height, h);
        assert_int_equal(rg_emu_frame_rgb24(gx, a, n), RG_OK);
        assert_int_equal(rg_emu_frame_rgb24(us, b, n), RG_OK);
        if (memcmp(a, b, n) != 0) {
            out->pix_bad++;
            if (out->pix_frames == frames) {
                dump(a, b, n, w, h, NULL, NULL, f);
                dump(NULL, NULL, 0, w, h, ra, rb, f);
            }
            if (out->pix_frames == frames) {
                size_t k = 0, d = 0;
                while (a[k] == b[k])
                    k++;
                for (size_t i = 0; i < n; i += 3)
                    d += memcmp(a + i, b + i, 3) != 0;
                out->pix_frames = f;
                snprintf(out->pix_why, sizeof out->pix_why, "frame %u: first pixel differing at row %zu column %zu "
                         "(%zu pixels differ; GPGX %02x%02x%02x, ours %02x%02x%02x)", f, k / 3 / w, k / 3 % w, d,
                         a[k / 3 * 3], a[k / 3 * 3 + 1], a[k / 3 * 3 + 2], b[k / 3 * 3], b[k / 3 * 3 + 1],
                         b[k / 3 * 3 + 2]);
            }
        }
    }
    free(a);
    free(b);
    rg_emu_free(gx);
    rg_emu_free(us);
}

static void report(const char *name, const result *r, unsigned frames)
{
    if (test_env_flag("SMS_VS_GPGX_VERBOSE"))
        print_message("%-24s RAM %3u frames agree%s%s; %u/%u frames differ | pixels %3u frames agree%s%s; %u/%u "
                      "frames differ\n", name, r->ram_frames, r->ram_why[0] ? " (" : "", r->ram_why, r->ram_bad,
                      frames, r->pix_frames, r->pix_why[0] ? ": " : "", r->pix_why, r->pix_bad, frames);
}

static int setup(const char *file, char *rom, size_t cap)
{
    return test_shared_rom_with_wheel_core(file, "genesis_plus_gx", rom, cap);
}

/* A demo ROM of ../shared (w x h pictures) on both cores: RAM and pixels equal on every frame. */
static void demo(const char *file, const char *core, const char *system, unsigned w, unsigned h)
{
    char rom[1200];
    if (!setup(file, rom, sizeof rom))
        skip();
    result r;
    compare(rom, core, system, w, h, FRAMES, &r);
    report(file, &r, FRAMES);
    assert_int_equal(r.ram_bad, 0);
    assert_int_equal(r.pix_bad, 0);
}

static void test_sms_demo(void **s)
{
    (void)s;
    demo("blind-happy10.sms", "sms", "Sms", 256, 192);
}

static void test_gg_demo(void **s)
{
    (void)s;
    demo("benryves-SegaTween.gg", "gamegear", "GameGear", 160, 144);
}


/* Our VDP-timing ROM (32 KiB, no mapper), assembled by hand: VDP registers set with OTIR (display on, 8x16 sprites,
 * frame interrupt, a line interrupt every 32 lines, left column blank, fine horizontal scroll 5), ten overlapping
 * sprites on one line (overflow and collision), CRAM filled, 16 bytes read from $BFF0 (past the ROM's end) into $C200;
 * then a loop that logs the V and H counters into a ring at $C300 (with a varying delay), toggles the TH lines (the
 * H counter latch) and reads the joypad ports; the interrupt handler counts at $C001 and logs the status and V
 * counter into a ring at $C100; the NMI (pause) counts at $C006. */
typedef struct chunk {
    uint16_t at;
    uint8_t len;
    uint8_t bytes[200];
} chunk;

static const chunk k_timing_rom[] = {
    {0x0000, 9, {
        0xF3, 0x31, 0xF0, 0xDF, 0xED, 0x56, 0xC3, 0x00, 0x01,
    }},
    {0x0038, 28, {
        0xF5, 0xE5, 0x21, 0x01, 0xC0, 0x34, 0x3A, 0x00, 0xC0, 0x6F, 0x26, 0xC1, 0xDB, 0xBF,
        0x77, 0x2C, 0xDB, 0x7E, 0x77, 0x2C, 0x7D, 0x32, 0x00, 0xC0, 0xE1, 0xF1, 0xFB, 0xC9,
    }},
    {0x0066, 11, {
        0xF5, 0x3A, 0x06, 0xC0, 0x3C, 0x32, 0x06, 0xC0, 0xF1, 0xED, 0x45,
    }},
    {0x0100, 134, {
        0x21, 0x00, 0x02, 0x06, 0x16, 0x0E, 0xBF, 0xED, 0xB3, 0x3E, 0x00, 0xD3, 0xBF, 0x3E,
        0x7F, 0xD3, 0xBF, 0x21, 0x20, 0x02, 0x06, 0x0B, 0x0E, 0xBE, 0xED, 0xB3, 0x3E, 0x80,
        0xD3, 0xBF, 0x3E, 0x7F, 0xD3, 0xBF, 0x21, 0x30, 0x02, 0x06, 0x14, 0xED, 0xB3, 0x3E,
        0x00, 0xD3, 0xBF, 0x3E, 0x60, 0xD3, 0xBF, 0x06, 0x20, 0x3E, 0xFF, 0xD3, 0xBE, 0x10,
        0xFC, 0x3E, 0x00, 0xD3, 0xBF, 0x3E, 0xC0, 0xD3, 0xBF, 0x06, 0x20, 0x78, 0xD3, 0xBE,
        0x10, 0xFB, 0x21, 0xF0, 0xBF, 0x11, 0x00, 0xC2, 0x01, 0x10, 0x00, 0xED, 0xB0, 0xFB,
        0x3A, 0x02, 0xC0, 0x6F, 0x26, 0xC3, 0xDB, 0x7E, 0x77, 0x2C, 0xDB, 0x7F, 0x77, 0x2C,
        0x7D, 0x32, 0x02, 0xC0, 0x3A, 0x03, 0xC0, 0xEE, 0xA0, 0x32, 0x03, 0xC0, 0xD3, 0x3F,
        0xDB, 0xDC, 0x32, 0x04, 0xC0, 0xDB, 0xDD, 0x32, 0x05, 0xC0, 0x3A, 0x02, 0xC0, 0xE6,
        0x07, 0x47, 0x04, 0x10, 0xFE, 0xC3, 0x54, 0x01,
    }},
    {0x0200, 22, {
        0x34, 0x80, 0xE2, 0x81, 0xFF, 0x82, 0xFF, 0x83, 0xFF, 0x84, 0x7F, 0x85, 0xFF, 0x86,
        0x03, 0x87, 0x05, 0x88, 0x00, 0x89, 0x1F, 0x8A,
    }},
    {0x0220, 11, {
        0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0x50, 0xD0,
    }},
    {0x0230, 20, {
        0x40, 0x00, 0x44, 0x00, 0x48, 0x00, 0x4C, 0x00, 0x50, 0x00, 0x54, 0x00, 0x58, 0x00,
        0x5C, 0x00, 0x60, 0x00, 0x64, 0x00,
    }},
};

static void write_timing_rom(const char *path)
{
    static uint8_t rom[0x8000];
    memset(rom, 0, sizeof rom);
    for (size_t i = 0; i < sizeof k_timing_rom / sizeof *k_timing_rom; i++)
        memcpy(rom + k_timing_rom[i].at, k_timing_rom[i].bytes, k_timing_rom[i].len);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(rom, 1, sizeof rom, f), sizeof rom);
    fclose(f);
}

static void test_timing_rom(void **s)
{
    (void)s;
    char rom[1200];
    if (!setup("blind-happy10.sms", rom, sizeof rom))
        skip();
    const char *dir = getenv("TMPDIR");
    static const struct { const char *ext, *core, *system; unsigned w, h; } k[] = {
        {"sms", "sms", "Sms", 256, 192}, {"gg", "gamegear", "GameGear", 160, 144}};
    for (size_t i = 0; i < 2; i++) {
        snprintf(rom, sizeof rom, "%s/rg_sms_timing_%d.%s", dir && *dir ? dir : "/tmp", (int)getpid(), k[i].ext);
        write_timing_rom(rom);
        result r;
        compare(rom, k[i].core, k[i].system, k[i].w, k[i].h, 600, &r);
        report(k[i].ext, &r, 600);
        remove(rom);
        assert_int_equal(r.ram_bad, 0);
        assert_int_equal(r.pix_bad, 0);
    }
}

/* One of our ROMs in tests/roms/bin/sms (`size` bytes), run as .sms and as .gg for `frames` frames; gg_tail, when
 * not NULL, replaces the last 4 bytes of the .gg copy. */
static void run_own_rom_tail(const char *name, size_t size, unsigned frames, const uint8_t *gg_tail)
{
    char rom[1200], src[1200];
    if (!setup("blind-happy10.sms", rom, sizeof rom))
        skip();
    snprintf(src, sizeof src, "%s/tests/roms/bin/sms/%s.sms", RG_SOURCE_DIR, name);
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    static uint8_t image[0x20000];
    assert_true(size <= sizeof image);
    assert_int_equal(fread(image, 1, sizeof image, f), size);
    fclose(f);
    const char *dir = getenv("TMPDIR");
    static const struct { const char *ext, *core, *system; unsigned w, h; } k[] = {
        {"sms", "sms", "Sms", 256, 192}, {"gg", "gamegear", "GameGear", 160, 144}};
    for (size_t i = 0; i < 2; i++) {
        snprintf(rom, sizeof rom, "%s/rg_sms_%s_%d.%s", dir && *dir ? dir : "/tmp", name, (int)getpid(), k[i].ext);
        if (i == 1 && gg_tail)
            memcpy(image + size - 4, gg_tail, 4);
        FILE *o = fopen(rom, "wb");
        assert_non_null(o);
        assert_int_equal(fwrite(image, 1, size, o), size);
        fclose(o);
        result r;
        char label[64];
        snprintf(label, sizeof label, "%s.%s", name, k[i].ext);
        compare(rom, k[i].core, k[i].system, k[i].w, k[i].h, frames, &r);
        report(label, &r, frames);
        remove(rom);
        assert_int_equal(r.ram_bad, 0);
        assert_int_equal(r.pix_bad, 0);
    }
}

static void run_own_rom(const char *name, size_t size, unsigned frames)
{
    run_own_rom_tail(name, size, frames, NULL);
}

/* The CRC-32 (zlib's) of n bytes. */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

/* Our Codemasters-mapper ROM (tests/roms/sms/codemasters/codemasters.s, tests/roms/bin/sms/codemasters.sms, 128 KiB):
 * slots 0, 1 and 2 switched through $0000/$4000/$8000 every frame (pages 8-15 mirroring 0-7), each page's marker read
 * into RAM, ignored writes to other ROM addresses, the markers drawn into CRAM and the name table. Genesis Plus GX
 * picks the Codemasters mapper only from its CRC32 list: the image's CRC32 is that of a listed SMS title, the .gg copy
 * gets 4 other last bytes for a listed GG title (forge_crc.py). */
static const uint8_t codemasters_gg_tail[4] = {0x8B, 0x0D, 0x68, 0x60};

static void test_codemasters_rom(void **s)
{
    (void)s;
    run_own_rom_tail("codemasters", 0x20000, 400, codemasters_gg_tail);
}

/* Without GPGX: the image and its .gg form carry the CRC32s GPGX needs, and on our core every frame's markers are
 * those of the pages the program asked for (so the comparison above really runs the mapper), all 8 pages seen in
 * slots 0 and 2. */
static void test_codemasters_marks(void **s)
{
    (void)s;
    char src[1200];
    snprintf(src, sizeof src, "%s/tests/roms/bin/sms/codemasters.sms", RG_SOURCE_DIR);
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    static uint8_t image[0x20000];
    assert_int_equal(fread(image, 1, sizeof image, f), sizeof image);
    fclose(f);
    if (crc32_of(image, sizeof image) != 0xEA5C3A6Fu)
        fail_msg("codemasters.sms CRC32 %08x, not EA5C3A6F: rerun forge_crc.py", crc32_of(image, sizeof image));
    uint8_t gg[4];
    memcpy(gg, image + sizeof image - 4, 4);
    memcpy(image + sizeof image - 4, codemasters_gg_tail, 4);
    if (crc32_of(image, sizeof image) != 0x152F0DCCu)
        fail_msg("codemasters .gg CRC32 %08x, not 152F0DCC: update codemasters_gg_tail (forge_crc.py IMAGE 152F0DCC)",
                 crc32_of(image, sizeof image));
    memcpy(image + sizeof image - 4, gg, 4);
    rg_emu *us = test_open_in(src, "sms", "Sms", 0);
    unsigned seen[3] = {0, 0, 0};
    for (unsigned fr = 0; fr < 64; fr++) {
        assert_int_equal(rg_emu_set_buttons(us, 0, pad(0, fr)), RG_OK);
        assert_int_equal(rg_emu_run(us), RG_OK);
        uint8_t ram[0x2000];
        read_ram(us, ram);
        if (ram[0] == 0)
            continue; /* the first frame flag not reached yet */
        for (int k = 0; k < 3; k++) {
            unsigned page = ram[0x14 + k] & 7u;
            if (ram[0x10 + k] != (uint8_t)(0x81u + 0x11u * page))
                fail_msg("frame %u: slot %d page %u marker %02x", fr, k, ram[0x14 + k], ram[0x10 + k]);
            seen[k] |= 1u << page;
        }
        assert_int_equal(ram[0x13], ram[0x12]);
    }
    rg_emu_free(us);
    assert_int_equal(seen[0], 0xFF);
    assert_int_equal(seen[2], 0xFF);
}

/* SMS_VS_GPGX_ROM=file.sms (for experiments; skipped without it): that ROM against GPGX for 300 frames, verbose. */
static void test_env_rom(void **s)
{
    (void)s;
    char rom[1200];
    const char *path = getenv("SMS_VS_GPGX_ROM");
    if (!path || !*path || !setup("blind-happy10.sms", rom, sizeof rom))
        skip();
    size_t n = strlen(path);
    int gg = n > 3 && strcmp(path + n - 3, ".gg") == 0;
    result r;
    compare(path, gg ? "gamegear" : "sms", gg ? "GameGear" : "Sms", gg ? 160 : 256, gg ? 144 : 192, 300, &r);
    print_message("%s: RAM %u frames agree%s%s | pixels %u frames agree%s%s\n", path, r.ram_frames,
                  r.ram_why[0] ? ": " : "", r.ram_why, r.pix_frames, r.pix_why[0] ? ": " : "", r.pix_why);
    assert_int_equal(r.ram_bad, 0);
    assert_int_equal(r.pix_bad, 0);
}

/* Our TMS9918-modes ROM (tests/roms/sms/tms/tms.s, committed as tests/roms/bin/sms/tms.sms): every legacy mode with
 * sprites, overflow, collision and the 5th sprite's number logged from line and frame interrupts, as .sms and .gg. */
static void test_tms_rom(void **s)
{
    (void)s;
    run_own_rom("tms", 0x8000, 800);
}

/* Our mode-4 feature ROM (tests/roms/sms/features/features.s, tests/roms/bin/sms/features.sms, 128 KiB): H scroll
 * changed every 8 lines from the line interrupt, V scroll, the scroll locks, left column blank, 12 sprites (overflow,
 * collision, 8x8 and 8x16), the Sega mapper's three slots and cartridge RAM, status and V counter logged from every
 * interrupt, as .sms and .gg. */
static void test_features_rom(void **s)
{
    (void)s;
    run_own_rom("features", 0x20000, 600);
}

/* Our Z80 exerciser (tests/roms/sms/z80ex/z80ex.s, tests/roms/bin/sms/z80ex.sms, 32 KiB): groups of instructions over
 * every A and many operand/flag values, each folded into a CRC-16 in RAM ($C020 + 2 x group), $A5 at $C00D when all
 * Z80EX_GROUPS are done (docs/z80.md, "Exerciser"). Against GPGX, RAM on every frame must be identical, so the two
 * Z80s agree on every combination; Z80EX_FRAMES is enough for both to finish (test_z80ex_done checks that on ours). */
#define Z80EX_GROUPS 19u
#define Z80EX_FRAMES 7600u

/* Runs our core on the exerciser until its done marker; returns the frame count (0: not done in Z80EX_FRAMES), the
 * RAM of that frame in ram. */
static unsigned z80ex_run_ours(const char *ext, const char *core, const char *system, uint8_t ram[0x2000])
{
    char src[1200], rom[1200];
    snprintf(src, sizeof src, "%s/tests/roms/bin/sms/z80ex.sms", RG_SOURCE_DIR);
    const char *dir = getenv("TMPDIR");
    snprintf(rom, sizeof rom, "%s/rg_sms_z80ex_ours_%d.%s", dir && *dir ? dir : "/tmp", (int)getpid(), ext);
    FILE *f = fopen(src, "rb"), *o = fopen(rom, "wb");
    assert_non_null(f);
    assert_non_null(o);
    static uint8_t image[0x8000];
    assert_int_equal(fread(image, 1, sizeof image, f), sizeof image);
    assert_int_equal(fwrite(image, 1, sizeof image, o), sizeof image);
    fclose(f);
    fclose(o);
    rg_emu *us = test_open_in(rom, core, system, 0);
    unsigned done = 0;
    for (unsigned fr = 1; fr <= Z80EX_FRAMES && !done; fr++) {
        assert_int_equal(rg_emu_run(us), RG_OK);
        read_ram(us, ram);
        if (ram[0x0D] == 0xA5)
            done = fr;
    }
    rg_emu_free(us);
    remove(rom);
    return done;
}

/* The groups' CRC-16s, as both our core and GPGX leave them (z80ex.s lists the groups in this order). */
static const uint16_t z80ex_crcs[Z80EX_GROUPS] = {
    0x0bb9, 0x26e0, 0x689e, 0x8985, 0x9d44, 0xcbf1, 0xd9eb, 0x5162, 0x19cb, 0xdfdc,
    0xa35a, 0xb441, 0x31f4, 0x7dc5, 0x145f, 0x81ef, 0x638d, 0xef4f, 0xa82a,
};
static const char *const z80ex_names[Z80EX_GROUPS] = {
    "ADD A,r", "ADC A,r", "SUB r", "SBC A,r", "AND r", "XOR r", "OR r", "CP r", "ALU n", "INC/DEC",
    "DAA", "CPL/NEG/SCF/CCF/rotate A", "CB shifts on A", "CB shifts on (HL)/(IX+d)", "BIT n,(HL)/(IX+d)",
    "ADD/ADC/SBC HL, ADD IX", "LDI/LDD/CPI/CPD", "RLD/RRD", "IN r,(C)",
};

/* Without GPGX: on our core the exerciser finishes every group within Z80EX_FRAMES (so the comparison below covers
 * them all), with the CRCs GPGX gives (printed). */
static void test_z80ex_done(void **s)
{
    (void)s;
    static const struct { const char *ext, *core, *system; } k[] = {{"sms", "sms", "Sms"}};
    for (size_t i = 0; i < 1; i++) {
        uint8_t ram[0x2000];
        unsigned done = z80ex_run_ours(k[i].ext, k[i].core, k[i].system, ram);
        if (!done)
            fail_msg("z80ex.%s: done marker not set after %u frames (%u groups done)", k[i].ext, Z80EX_FRAMES,
                     ram[0x0C]);
        assert_int_equal(ram[0x0C], Z80EX_GROUPS);
        char line[Z80EX_GROUPS * 5 + 1];
        for (unsigned g = 0; g < Z80EX_GROUPS; g++)
            snprintf(line + 5 * g, 6, " %04x", ram[0x20 + 2 * g] | ram[0x21 + 2 * g] << 8);
        print_message("z80ex.%s: done at frame %u, CRCs%s\n", k[i].ext, done, line);
        for (unsigned g = 0; g < Z80EX_GROUPS; g++)
            if ((ram[0x20 + 2 * g] | ram[0x21 + 2 * g] << 8) != z80ex_crcs[g])
                fail_msg("z80ex group %u (%s): CRC %04x, GPGX gives %04x", g, z80ex_names[g],
                         ram[0x20 + 2 * g] | ram[0x21 + 2 * g] << 8, z80ex_crcs[g]);
    }
}

static void test_z80ex_rom(void **s)
{
    (void)s;
    char rom[1200];
    if (!setup("blind-happy10.sms", rom, sizeof rom))
        skip();
    snprintf(rom, sizeof rom, "%s/tests/roms/bin/sms/z80ex.sms", RG_SOURCE_DIR);
    result r;
    compare(rom, "sms", "Sms", 256, 192, Z80EX_FRAMES, &r);
    report("z80ex.sms", &r, Z80EX_FRAMES);
    assert_int_equal(r.ram_bad, 0);
    assert_int_equal(r.pix_bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sms_demo),
        cmocka_unit_test(test_gg_demo),
        cmocka_unit_test(test_timing_rom),
        cmocka_unit_test(test_tms_rom),
        cmocka_unit_test(test_features_rom),
        cmocka_unit_test(test_codemasters_rom),
        cmocka_unit_test(test_codemasters_marks),
        cmocka_unit_test(test_z80ex_done),
        cmocka_unit_test(test_z80ex_rom),
        cmocka_unit_test(test_env_rom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
