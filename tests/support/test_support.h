/* Helpers shared by the C tests: paths of our test data, the ROM manifests, hashing, process figures. */
#ifndef RG_TESTS_SUPPORT_H
#define RG_TESTS_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "retrogym/retrogym.h"

/* The facts of one test ROM, from tests/roms/<system>/rom.json (see tests/roms/README.md). */
typedef struct test_rom {
    char system[32];
    char path[512];          /* absolute path of the image in tests/roms/bin */
    char core[64];           /* "" when no Debian core runs it */
    char romfix[16];         /* "" when there is no checksum to verify */
    uint64_t signature_addr;
    uint64_t counter_addr;
    unsigned warmup;
    uint64_t pad_addr;
    unsigned pad_bytes;
    int pad_big_endian;
    unsigned pad_lag;
    struct { char button[16]; uint32_t bits; } pad_bits[16];
    size_t n_pad_bits;
    struct { uint64_t addr; unsigned value; } checks[8];
    size_t n_checks;
} test_rom;

/* Loads every tests/roms/<system>/rom.json; fails the test on malformed manifests. Returns the count. */
size_t test_roms_load(test_rom *out, size_t cap);
/* The manifest for a system, or fails the test. */
void test_rom_get(const char *system, test_rom *out);

/* Folder of the third-party demo ROMs (../shared/roms beside the checkout), or NULL when absent. */
const char *test_shared_roms(void);
/* Absolute path inside the source tree. */
const char *test_source_path(const char *relative, char *buf, size_t cap);
/* stable-retro's build of a core in the project's .venv (<wheel>/stable_retro/cores/<name>_libretro.so) into out;
 * 0 when absent. */
int test_wheel_core(const char *name, char *out, size_t cap);
/* A file of stable-retro's integrations in the project's .venv (<wheel>/stable_retro/data/stable/<rel>, rel may hold
 * glob patterns: "Airstriker-Genesis*\/rom.md") into out; 0 when absent. */
int test_wheel_data(const char *rel, char *out, size_t cap);
/* Points RETROGYM_CORE_PATH at stable-retro's cores in the project's .venv when the variable is unset and the wheel is
 * there, so that a test sees the cores of a user who installed stable-retro. */
void test_use_wheel_cores(void);
/* For a comparison against a stable-retro core: the demo ROM <shared roms>/<file> into rom, with the wheel's cores on
 * the core path (test_use_wheel_cores) and `core` among them. Returns 0, after printing why, when ../shared or the
 * core is missing (the caller skips). */
int test_shared_rom_with_wheel_core(const char *file, const char *core, char *rom, size_t cap);
/* <$TMPDIR or /tmp>/<name> into buf; returns buf. */
const char *test_tmp_path(const char *name, char *buf, size_t cap);
/* Writes n bytes to path (created or truncated), or fails the test. */
void test_write_file(const char *path, const void *bytes, size_t n);
/* Writes text to <dir>/<name>, or fails the test. */
void test_write_text(const char *dir, const char *name, const char *text);
/* Writes bytes gzip-compressed (as a .state file) to <dir>/<name>, or fails the test. */
void test_write_gz(const char *dir, const char *name, const void *bytes, size_t len);
/* A fresh data root $TMPDIR/<prefix>-XXXXXX into root (the caller removes it with rg__remove_tree) holding the
 * integration folder stable/<game> (into dir) with a copy of the test ROM tests/roms/bin/<rom> as rom.<ext> and its
 * rom.sha; fails the test when any step fails. */
void test_integration_dir(const char *prefix, const char *game, const char *rom, char *root, size_t root_cap,
                          char *dir, size_t dir_cap);
/* Opens the committed movie tests/movie/data/<name> and its start state (*state lives as long as the returned movie,
 * which the caller frees), or fails the test. */
rg_movie *test_movie_start_state(const char *name, const uint8_t **state, size_t *len);
/* A call that must fail with `code` and a message mentioning `text`. */
#define TEST_EXPECT_ERROR(call, code, text)                                                                       \
    do {                                                                                                          \
        int rc_ = (call);                                                                                         \
        if (rc_ != (code))                                                                                        \
            fail_msg("%s gave %s (%s), expected %s", #call, rg_error_name(rc_), rg_error_last(), #code);         \
        if (!strstr(rg_error_last(), (text)))                                                                     \
            fail_msg("%s: message \"%s\" does not mention \"%s\"", #call, rg_error_last(), (text));               \
    } while (0)
/* A call that must succeed (its error and message otherwise). */
#define TEST_EXPECT_OK(call)                                                                                      \
    do {                                                                                                          \
        int rc_ = (call);                                                                                         \
        if (rc_ != RG_OK)                                                                                         \
            fail_msg("%s gave %s: %s", #call, rg_error_name(rc_), rg_error_last());                               \
    } while (0)
#ifndef EXPECT_OK
#define EXPECT_OK(call) TEST_EXPECT_OK(call)
#endif
/* CLOCK_MONOTONIC in milliseconds. */
double test_now_ms(void);
/* True when the named core is installed. */
int test_core_installed(const char *name);
/* Whether stable-retro's build of the core is in the project's .venv and found by name (test_use_wheel_cores first). */
int test_have_wheel_core(const char *name);
/* Whether the environment variable is set to something other than "" and "0" (a test's verbose switch). */
int test_env_flag(const char *name);
/* The positive whole number in the environment variable, else dflt (a test's frame count). */
unsigned test_env_count(const char *name, unsigned dflt);

uint64_t test_hash(const void *data, size_t len, uint64_t seed);
/* Hash of the current RGB24 frame and of all memory blocks. */
uint64_t test_frame_hash(const rg_emu *emu);
uint64_t test_ram_hash(const rg_emu *emu);
/* Distinct colours in the current frame, counted up to 16 (XRGB8888: the low 24 bits of a pixel; the 16-bit formats:
 * its value). */
unsigned test_frame_colours(const rg_emu *emu);
/* The pad value the ROM stored (manifest layout). */
uint32_t test_read_pad(const rg_emu *emu, const test_rom *rom);

/* Resident set size in KiB, and the number of open file descriptors of this process. */
long test_rss_kib(void);
int test_open_fds(void);
/* Number of entries named retrogym-* in $TMPDIR or /tmp. */
int test_tmp_entries(void);
/* Removes what earlier runs of the test left in its $TMPDIR (private folders whose lock is free, at any age): call it
 * before taking a count or listing to compare with, since the process's first instance sweeps old ones. */
void test_tmp_clean(void);
/* mkdir -p (mode 0755); fails the test when the folder cannot be made. */
void test_mkdirs(const char *path);
/* The group fixture of tests on the source tree's data/ folder: *paths opened on it, and *tmp (when tmp is not NULL)
 * a fresh folder under $TMPDIR. 0, or -1 when either fails. test_data_teardown frees both (NULLs allowed). */
int test_data_setup(rg_integration_paths **paths, char **tmp);
void test_data_teardown(rg_integration_paths *paths, char *tmp);

/* A log callback that drops everything (cores are chatty). */
void test_quiet_log(rg_log_level level, const char *message, void *user);

/* Runs fn(arg) in a forked child whose address space may grow by at most `spare` bytes beyond what it holds then
 * (RLIMIT_AS) and returns the child's exit code (fn's return value, 0..125); -1 when such a limit cannot be used here
 * (under ASan, which reserves terabytes; no /proc): the caller skips. For "this costs at most so much memory". */
int test_run_with_spare_memory(size_t spare, int (*fn)(void *), void *arg);
/* Whether test_run_with_spare_memory can limit memory in this build (not under ASan): tests skip early without it. */
int test_memory_limit_usable(void);

/* Opens ROM in the given core (NULL: default) or fails the test. */
rg_emu *test_open(const char *rom_path, const char *core);
/* The same on a named system (NULL: from the ROM's extension), capturing audio when capture_audio is set. */
rg_emu *test_open_in(const char *rom_path, const char *core, const char *system, int capture_audio);

#endif
