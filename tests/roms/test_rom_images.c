/* Offline checks of every committed test ROM image: emulators forgive what hardware does not (docs/testing.md,
 * "Header checksums of the test ROMs"), so header checksums, magic strings and vectors are verified on the bytes
 * themselves. */
#include "test_support.h"

#include "romfix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    uint8_t *p = malloc(*size);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, *size, f), *size);
    fclose(f);
    return p;
}

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static unsigned le16(const uint8_t *p) { return (unsigned)p[1] << 8 | p[0]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)be16(p) << 16 | be16(p + 2); }

static void check_image(void **state)
{
    const test_rom *r = *state;
    size_t size;
    uint8_t *img = slurp(r->path, &size);
    if (r->romfix[0]) {
        romfix_kind kind;
        assert_int_equal(romfix_parse_kind(r->romfix, &kind), 0);
        const char *why = NULL;
        int ok = romfix_check(kind, img, size, &why);
        if (ok != 1)
            fail_msg("%s: header checksum check gave %d (%s)", r->path, ok, why ? why : "fields differ");
    }
    const char *sys = r->system;
    if (strcmp(sys, "Nes") == 0) {
        assert_memory_equal(img, "NES\x1a", 4);
        size_t prg = img[4] * 16384u, chr = img[5] * 8192u;
        assert_int_equal(size, 16 + prg + chr);
        unsigned reset = le16(img + 16 + prg - 4);
        assert_true(reset >= 0x8000);
    } else if (strcmp(sys, "Atari2600") == 0) {
        assert_true(size == 2048 || size == 4096);
        unsigned reset = le16(img + size - 4);
        assert_true((reset & 0x1000) != 0); /* in cartridge space */
    } else if (strcmp(sys, "Genesis") == 0) {
        assert_memory_equal(img + 0x100, "SEGA", 4);
        assert_int_equal(be32(img + 0x1A4), size - 1);
        assert_true(be32(img + 4) >= 0x200 && be32(img + 4) < size); /* initial PC */
        assert_true(be32(img + 0x78) >= 0x200 && be32(img + 0x78) < size); /* level-6 vblank handler */
    } else if (strcmp(sys, "Sms") == 0 || strcmp(sys, "GameGear") == 0) {
        assert_memory_equal(img + 0x7FF0, "TMR SEGA", 8);
        assert_int_equal(img[0x7FFF] >> 4, strcmp(sys, "Sms") == 0 ? 4 : 7);
    } else if (strcmp(sys, "GameBoy") == 0 || strcmp(sys, "GbColor") == 0) {
        assert_int_equal(img[0x143], strcmp(sys, "GbColor") == 0 ? 0x80 : 0x00);
        assert_int_equal(img[0x104], 0xCE); /* logo present (first byte) */
    } else if (strcmp(sys, "GbAdvance") == 0) {
        assert_int_equal(img[0xB2], 0x96);
        assert_int_equal(img[4], 0x24); /* logo present (first byte) */
    } else if (strcmp(sys, "Snes") == 0) {
        assert_int_equal(img[0x7FD5] & 0x0F, 0x00); /* LoROM map mode */
        assert_true(le16(img + 0x7FFC) >= 0x8000);  /* reset vector into ROM */
    } else if (strcmp(sys, "PCEngine") == 0) {
        assert_int_equal(size % 8192, 0);
        assert_true(le16(img + 0x1FFE) >= 0xE000); /* reset vector into bank 0 at $E000 */
    } else {
        fail_msg("no offline check for %s", sys);
    }
    free(img);
}

int main(void)
{
    static test_rom roms[16];
    size_t n = test_roms_load(roms, 16);
    if (n != 10) {
        fprintf(stderr, "expected 10 test ROM manifests, found %zu\n", n);
        return 1;
    }
    /* The size-switching ROMs (md/modes, snes/modes, pce/modes) have no manifest of their own: checked as their system's. */
    static const struct { const char *system, *image, *name; } extra[] = {
        {"Genesis", "md/modes.md", "Genesis modes.md"}, {"Snes", "snes/modes.sfc", "Snes modes.sfc"},
        {"PCEngine", "pce/modes.pce", "PCEngine modes.pce"}};
    static test_rom modes[3];
    struct CMUnitTest tests[19];
    for (size_t i = 0; i < n; i++)
        tests[i] = (struct CMUnitTest){roms[i].system, check_image, NULL, NULL, &roms[i]};
    size_t total = n;
    for (size_t k = 0; k < 3; k++) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(roms[i].system, extra[k].system) == 0)
                modes[k] = roms[i];
        char *slash = strrchr(modes[k].path, '/');
        if (!slash || strcmp(modes[k].system, extra[k].system) != 0) {
            fprintf(stderr, "no %s manifest for %s\n", extra[k].system, extra[k].image);
            return 1;
        }
        snprintf(slash + 1, sizeof modes[k].path - (size_t)(slash + 1 - modes[k].path), "%s", extra[k].image);
        tests[total++] = (struct CMUnitTest){extra[k].name, check_image, NULL, NULL, &modes[k]};
    }
    n = total;
    return _cmocka_run_group_tests("rom_images", tests, n, NULL, NULL);
}
