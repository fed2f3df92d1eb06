/* Shared by the fuzz targets of tests/fuzz: the libFuzzer entry point, a private temporary folder, and a check that
 * aborts (libFuzzer and the regression driver both report an abort as a failure with the input that caused it). */
#ifndef RG_TESTS_FUZZ_FUZZ_H
#define RG_TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The entry point every target defines: libFuzzer's main calls it, and so does regress_main.c for each file of the
 * target's corpus. Returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A folder of this process's own (created on first use under $TMPDIR, removed at exit). */
const char *fuzz_tmpdir(void);

/* Writes data to <fuzz_tmpdir>/<name> and returns the path (a static buffer, valid until the next call). */
const char *fuzz_write_temp(const char *name, const void *data, size_t size);

/* The source tree (for the test ROMs). */
const char *fuzz_source_dir(void);

/* Reads a whole file of the source tree (relative path) into a fresh buffer; aborts when it cannot. */
uint8_t *fuzz_read_source_file(const char *relative, size_t *size);

/* Prints a line to stderr when FUZZ_VERBOSE is set in the environment (what an input did, for debugging seeds). */
void fuzz_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct rg_emu;

/* Buttons for pad 0 on frame f, taken from the input (pad 1 gets the complement). */
typedef uint16_t (*fuzz_pad_fn)(const uint8_t *data, size_t size, unsigned f);

/* What the ROM targets do with an emulator they opened: `first` frames with input, the frame read back (as RGB24
 * when it fits 320x256), a state saved, a soft reset and two frames, the saved state loaded back (it must load),
 * then, when flip is set, one byte of the state flipped (chosen by the input) and loaded (accepted or refused with
 * RG_ESTATE, nothing else), one frame, a power-on reset and two frames. The emulator stays open. */
void fuzz_exercise_emu(struct rg_emu *emu, const uint8_t *data, size_t size, unsigned first, fuzz_pad_fn pad,
                       int flip);

/* An invariant of the library that an input broke: prints and aborts. */
_Noreturn void fuzz_fail(const char *file, int line, const char *what);
#define FUZZ_CHECK(cond)                                                                                           \
    do {                                                                                                           \
        if (!(cond))                                                                                               \
            fuzz_fail(__FILE__, __LINE__, #cond);                                                                  \
    } while (0)

#endif
