/* Helpers of the fuzz targets (fuzz.h). */
#define _XOPEN_SOURCE 700
#include "fuzz.h"

#include <retrogym/emu.h>
#include <retrogym/error.h>

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp_root[4096];

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tmpdir(void)
{
    if (tmp_root[0])
        nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_tmpdir(void)
{
    if (!tmp_root[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmp_root, sizeof tmp_root, "%s/rg-fuzz-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmp_root)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(remove_tmpdir);
    }
    return tmp_root;
}

const char *fuzz_write_temp(const char *name, const void *data, size_t size)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", fuzz_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
    return path;
}

const char *fuzz_source_dir(void)
{
    return RG_SOURCE_DIR;
}

uint8_t *fuzz_read_source_file(const char *relative, size_t *size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", RG_SOURCE_DIR, relative);
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!f || !buf || fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "fuzz: cannot read %s\n", path);
        abort();
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

void fuzz_note(const char *fmt, ...)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (!verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

_Noreturn void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
    abort();
}

static void run_frames(rg_emu *emu, const uint8_t *data, size_t size, unsigned frames, fuzz_pad_fn pad)
{
    for (unsigned f = 0; f < frames; f++) {
        uint16_t buttons = pad(data, size, f);
        FUZZ_CHECK(rg_emu_set_buttons(emu, 0, buttons) == RG_OK);
        FUZZ_CHECK(rg_emu_set_buttons(emu, 1, (uint16_t)~buttons) == RG_OK);
        FUZZ_CHECK(rg_emu_run(emu) == RG_OK);
    }
}

void fuzz_exercise_emu(rg_emu *emu, const uint8_t *data, size_t size, unsigned first, fuzz_pad_fn pad, int flip)
{
    static uint8_t pixels[320 * 256 * 3];
    run_frames(emu, data, size, first, pad);
    rg_frame fr;
    FUZZ_CHECK(rg_emu_frame(emu, &fr) == RG_OK);
    if (fr.data && (size_t)fr.width * fr.height * 3 <= sizeof pixels)
        FUZZ_CHECK(rg_emu_frame_rgb24(emu, pixels, sizeof pixels) == RG_OK);
    size_t n, written;
    FUZZ_CHECK(rg_emu_state_size(emu, &n) == RG_OK && n > 0);
    uint8_t *state = malloc(n);
    FUZZ_CHECK(state != NULL);
    FUZZ_CHECK(rg_emu_state_save(emu, state, n, &written) == RG_OK);
    FUZZ_CHECK(rg_emu_soft_reset(emu) == RG_OK);
    run_frames(emu, data, size, 2, pad);
    int rc = rg_emu_state_load(emu, state, written);
    if (rc != RG_OK)
        fprintf(stderr, "loading the state the core saved: %s\n", rg_error_last());
    FUZZ_CHECK(rc == RG_OK);
    if (flip && size >= 4 && written > 24) {
        size_t at = 24 + ((size_t)data[1] << 8 | data[2]) * 7u % (written - 24);
        state[at] ^= (uint8_t)(data[3] | 1u);
        rc = rg_emu_state_load(emu, state, written);
        FUZZ_CHECK(rc == RG_OK || rc == RG_ESTATE);
    }
    run_frames(emu, data, size, 1, pad);
    FUZZ_CHECK(rg_emu_reset(emu) == RG_OK);
    run_frames(emu, data, size, 2, pad);
    free(state);
}
