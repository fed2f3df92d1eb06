/* The NES conformance ROMs of ../shared/test-roms/nes run on our core (the machine, no emulator layer), as listed in
 * tests/cores/nes_testroms.txt: each line gives the ROM, how it reports, a frame limit and whether it is expected to
 * pass (pass) or known to fail (xfail). The test fails when a `pass` ROM fails or an `xfail` ROM passes (the list
 * must say the truth; docs/nes.md has the table). A ROM missing from ../shared is reported and skipped; without
 * ../shared the whole test skips.
 *
 * Argument: the group to run (the list's second column; default cpu), or "all".
 *
 * Methods (how a ROM reports):
 *   blargg   the status byte at $6000 with the signature DE B0 61 at $6001: $80 running, $81 reset wanted (the
 *            runner presses reset 6 frames later, once per request), else the result (0 = passed); the text at
 *            $6004.
 *   screen   the result only on screen: the nametables are read as ASCII text (these ROMs' fonts are laid out so)
 *            and searched every 10 frames (case-insensitive) for "failed" (a failure), else for "passed" or one of
 *            the texts of the line's pass= option (a pass).
 *   nestest  nestest's automation mode: pc = $C000 after power-on; the results are the bytes $02 and $03
 *            (0 = every test passed) when the ROM returns to the invalid opcode at $0001 or the frame limit ends.
 * Options after the expectation: buttons=0xNN (joypad 1 held from power-on, bit 0 = A ... bit 7 = Right);
 * pass=TEXT|TEXT... (screen: further texts that mean a pass, e.g. the CRC of an expected output; '_' stands for a
 * space). */
#include "nes_harness.h"
#include "test_support.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static const char *g_group;

typedef struct outcome {
    int passed;          /* 1 passed, 0 failed, -1 no result within the frame limit */
    unsigned frames;
    char text[256];
} outcome;

static void clean_text(char *dst, size_t cap, const uint8_t *src, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && src[i] && o + 1 < cap; i++) {
        unsigned char c = src[i];
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
        if (c < 32 || c > 126)
            continue;
        if (c == ' ' && o > 0 && dst[o - 1] == ' ')
            continue;
        dst[o++] = (char)c;
    }
    while (o > 0 && dst[o - 1] == ' ')
        o--;
    dst[o] = '\0';
}

static void run_blargg(nes_harness *h, unsigned max_frames, outcome *out)
{
    unsigned reset_at = 0;
    int pressed = 0;
    for (unsigned f = 1; f <= max_frames; f++) {
        rg__nes_run_frame(h->m);
        out->frames = f;
        if (nes_harness_wram(h, 0x6001) != 0xDE || nes_harness_wram(h, 0x6002) != 0xB0 ||
            nes_harness_wram(h, 0x6003) != 0x61)
            continue;
        uint8_t status = nes_harness_wram(h, 0x6000);
        if (status != 0x81)
            pressed = 0;
        if (status == 0x80)
            continue;
        if (status == 0x81) {
            /* one press per request: the ROM starts over and says $81 until it gets going again */
            if (!reset_at && !pressed)
                reset_at = f + 6;
            if (reset_at && f >= reset_at) {
                rg__nes_soft_reset(h->m);
                reset_at = 0;
                pressed = 1;
            }
            continue;
        }
        uint8_t buf[240];
        for (unsigned i = 0; i < sizeof buf; i++)
            buf[i] = nes_harness_wram(h, (uint16_t)(0x6004 + i));
        char text[240];
        clean_text(text, sizeof text, buf, sizeof buf);
        out->passed = status == 0;
        snprintf(out->text, sizeof out->text, "result %u: %s", status, text);
        return;
    }
    out->passed = -1;
    snprintf(out->text, sizeof out->text, "no result in %u frames (status $%02X)", max_frames,
             nes_harness_wram(h, 0x6000));
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == needle[i])
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

static void screen_text(nes_harness *h, char *dst, size_t cap)
{
    /* both console nametables, row by row */
    clean_text(dst, cap, h->m->st.cart.vram, 0x800);
    (void)clean_text;
}

/* Whether text holds one of the '|'-separated alternatives of `alts` ('_' matching a space). */
static int contains_any(const char *text, const char *alts)
{
    char alt[128];
    while (*alts) {
        size_t n = strcspn(alts, "|");
        if (n > 0 && n < sizeof alt) {
            for (size_t i = 0; i < n; i++)
                alt[i] = alts[i] == '_' ? ' ' : (char)tolower((unsigned char)alts[i]);
            alt[n] = '\0';
            if (contains_ci(text, alt))
                return 1;
        }
        alts += n;
        if (*alts == '|')
            alts++;
    }
    return 0;
}

static void run_screen(nes_harness *h, unsigned max_frames, const char *pass_texts, outcome *out)
{
    char text[2048];
    for (unsigned f = 1; f <= max_frames; f++) {
        rg__nes_run_frame(h->m);
        out->frames = f;
        if (f % 10 && f != max_frames)
            continue;
        /* nametable bytes: the fonts of these ROMs map tiles to ASCII; blank rows are spaces or zeros */
        uint8_t nt[0x800];
        memcpy(nt, h->m->st.cart.vram, sizeof nt);
        for (size_t i = 0; i < sizeof nt; i++)
            if (nt[i] == 0)
                nt[i] = ' ';
        clean_text(text, sizeof text, nt, sizeof nt);
        int failed = contains_ci(text, "failed") || contains_ci(text, "fail");
        int passed = contains_ci(text, "passed") || contains_any(text, pass_texts);
        if (failed || passed) {
            out->passed = failed ? 0 : 1;
            snprintf(out->text, sizeof out->text, "%s", text);
            return;
        }
    }
    out->passed = -1;
    snprintf(out->text, sizeof out->text, "no result text in %u frames: %.160s", max_frames, text);
    (void)screen_text;
}

static void run_nestest(nes_harness *h, unsigned max_frames, outcome *out)
{
    h->m->st.cpu.pc = 0xC000;
    for (unsigned f = 1; f <= max_frames; f++) {
        rg__nes_run_frame(h->m);
        out->frames = f;
        if (h->m->st.cpu.jammed)
            break;
    }
    uint8_t r2 = h->m->st.ram[2], r3 = h->m->st.ram[3];
    out->passed = r2 == 0 && r3 == 0;
    snprintf(out->text, sizeof out->text, "$02=%02X $03=%02X", r2, r3);
}

typedef struct line_spec {
    char rom[256], group[32], method[16], expect[16];
    unsigned frames;
    unsigned buttons;
    char pass[256];
} line_spec;

static int parse_line(char *line, line_spec *s)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    memset(s, 0, sizeof *s);
    char opts[256] = "";
    int n = sscanf(line, "%255s %31s %15s %u %15s %255[^\n]", s->rom, s->group, s->method, &s->frames, s->expect,
                   opts);
    if (n <= 0)
        return 0;
    if (n < 5)
        return -1;
    char *o = strstr(opts, "buttons=");
    if (o)
        s->buttons = (unsigned)strtoul(o + 8, NULL, 0);
    o = strstr(opts, "pass=");
    if (o)
        sscanf(o + 5, "%255s", s->pass);
    return 1;
}

static void testroms(void **state)
{
    (void)state;
    const char *shared_roms = test_shared_roms();
    if (!shared_roms) {
        print_message("../shared is absent: skipped\n");
        skip();
    }
    char base[1024], listpath[1024];
    snprintf(base, sizeof base, "%s/../test-roms/nes", shared_roms);
    FILE *list = fopen(test_source_path("tests/cores/nes_testroms.txt", listpath, sizeof listpath), "r");
    assert_non_null(list);
    char line[1024];
    unsigned lineno = 0, n_pass = 0, n_xfail = 0, n_bad = 0, n_skip = 0;
    char bad[4096] = "";
    while (fgets(line, sizeof line, list)) {
        lineno++;
        line_spec s;
        int p = parse_line(line, &s);
        if (p == 0)
            continue;
        if (p < 0)
            fail_msg("nes_testroms.txt:%u: expected 'rom group method frames pass|xfail [options]'", lineno);
        if (g_group && strcmp(g_group, s.group) != 0)
            continue;
        int want_pass = strcmp(s.expect, "pass") == 0;
        if (!want_pass && strcmp(s.expect, "xfail") != 0)
            fail_msg("nes_testroms.txt:%u: expectation '%s' is not pass or xfail", lineno, s.expect);
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", base, s.rom);
        nes_harness h;
        outcome out;
        memset(&out, 0, sizeof out);
        double t0 = test_now_ms();
        int rc = nes_harness_open(&h, path);
        if (rc == RG_EIO) {
            printf("SKIP   %-56s (not in ../shared)\n", s.rom);
            n_skip++;
            continue;
        }
        if (rc != RG_OK) {
            out.passed = 0;
            snprintf(out.text, sizeof out.text, "cannot load: %s", rg_error_last());
        } else {
            h.m->buttons[0] = (uint8_t)s.buttons;
            if (strcmp(s.method, "blargg") == 0)
                run_blargg(&h, s.frames, &out);
            else if (strcmp(s.method, "screen") == 0)
                run_screen(&h, s.frames, s.pass, &out);
            else if (strcmp(s.method, "nestest") == 0)
                run_nestest(&h, s.frames, &out);
            else
                fail_msg("nes_testroms.txt:%u: unknown method '%s'", lineno, s.method);
            nes_harness_free(&h);
        }
        int ok = out.passed == 1;
        const char *tag = ok ? (want_pass ? "PASS" : "XPASS") : (want_pass ? "FAIL" : "xfail");
        printf("%-6s %-56s %5u frames %6.0f ms  %s\n", tag, s.rom, out.frames, test_now_ms() - t0, out.text);
        fflush(stdout);
        if (ok == want_pass) {
            if (ok)
                n_pass++;
            else
                n_xfail++;
        } else {
            n_bad++;
            size_t l = strlen(bad);
            snprintf(bad + l, sizeof bad - l, " %s(%s)", s.rom, tag);
        }
    }
    fclose(list);
    printf("nes test ROMs%s%s: %u pass, %u xfail, %u skipped, %u unexpected\n", g_group ? " of group " : "",
           g_group ? g_group : "", n_pass, n_xfail, n_skip, n_bad);
    if (n_bad)
        fail_msg("unexpected results:%s", bad);
}

int main(int argc, char **argv)
{
    g_group = argc > 1 ? argv[1] : "cpu";
    if (strcmp(g_group, "all") == 0)
        g_group = NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(testroms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
