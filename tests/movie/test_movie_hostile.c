/* Hostile and broken movies, built here at run time: each is refused with a clear error, never a crash (the
 * sanitizer build runs this too). Zip bombs (declared and lying sizes), path tricks in entry names, duplicate and
 * missing entries, truncated archives and entries, random damage, lines of the wrong width, unknown platforms, too
 * many players, too many frames, garbage, empty files. */
#define _POSIX_C_SOURCE 200809L
#include "movie_test_util.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define NES_HEADER MT_HEADER("NES", "Hostile-Nes")
#define NES_KEY "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|\n"

static char *g_dir;

static int setup(void **state)
{
    (void)state;
    g_dir = mt_tempdir();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    mt_rmtree(g_dir);
    free(g_dir);
    return 0;
}

static void path_in(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
}

static int open_path(const char *path, const rg_movie_limits *limits)
{
    rg_movie *m = NULL;
    int rc = rg_movie_open_read_limits(&m, path, limits);
    if (rc == RG_OK) {
        assert_non_null(m);
        rg_movie_free(m);
    } else {
        assert_null(m);
        assert_true(strlen(rg_error_last()) > 0);
    }
    return rc;
}

static int open_bytes(const void *data, size_t size, const rg_movie_limits *limits)
{
    rg_movie *m = NULL;
    int rc = rg_movie_open_memory(&m, data, size, "test.bk2", limits);
    rg_movie_free(m);
    return rc;
}

static void expect_message(const char *part)
{
    if (!strstr(rg_error_last(), part))
        fail_msg("message '%s' lacks '%s'", rg_error_last(), part);
}

/* ---- little zip surgery: the local and central headers of an entry ---- */

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static void wr32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Offsets of the local and central header of the entry named `name` (asserted to exist). */
static void find_headers(uint8_t *zip, size_t size, const char *name, size_t *local, size_t *central)
{
    size_t len = strlen(name);
    *local = *central = SIZE_MAX;
    for (size_t i = 0; i + 46 < size; i++) {
        if (rd32(zip + i) == 0x04034b50 && rd16(zip + i + 26) == len && i + 30 + len <= size &&
            memcmp(zip + i + 30, name, len) == 0)
            *local = i;
        if (rd32(zip + i) == 0x02014b50 && rd16(zip + i + 28) == len && i + 46 + len <= size &&
            memcmp(zip + i + 46, name, len) == 0)
            *central = i;
    }
    assert_true(*local != SIZE_MAX && *central != SIZE_MAX);
}

/* Sets the declared uncompressed size in both headers. */
static void set_declared_size(uint8_t *zip, size_t size, const char *name, uint32_t value)
{
    size_t local, central;
    find_headers(zip, size, name, &local, &central);
    wr32(zip + local + 22, value);
    wr32(zip + central + 24, value);
}

/* Renames an entry in place (same length) in both headers. */
static void rename_entry(uint8_t *zip, size_t size, const char *from, const char *to)
{
    size_t local, central, len = strlen(from);
    find_headers(zip, size, from, &local, &central);
    memcpy(zip + local + 30, to, len);
    memcpy(zip + central + 46, to, len);
}

/* A valid NES movie of `frames` frames with the given extra entries, loaded into memory. */
static uint8_t *nes_zip(size_t frames, const mt_entry *extra, size_t n_extra, size_t *size)
{
    size_t cap = 64 + frames * 16;
    char *log = malloc(cap + 256);
    assert_non_null(log);
    size_t o = (size_t)sprintf(log, "[Input]\n" NES_KEY);
    for (size_t f = 0; f < frames; f++)
        o += (size_t)sprintf(log + o, "|..|%s|\n", f % 3 ? "A.......": "...D..sB");
    sprintf(log + o, "[/Input]");
    mt_entry e[8] = {{"Input Log.txt", log, (size_t)-1}, {"Header.txt", NES_HEADER, (size_t)-1}};
    for (size_t i = 0; i < n_extra; i++)
        e[2 + i] = extra[i];
    char path[4096];
    path_in(path, sizeof path, "gen.bk2");
    mt_build_zip(path, e, 2 + n_extra);
    free(log);
    return mt_read_file(path, size);
}

static void test_empty_and_garbage(void **state)
{
    (void)state;
    char path[4096];
    path_in(path, sizeof path, "empty.bk2");
    mt_write_file(path, "", 0);
    assert_int_equal(open_path(path, NULL), RG_ECORRUPT);
    expect_message("empty");

    uint8_t junk[1000];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (uint8_t)(x >> 16);
    }
    assert_int_equal(open_bytes(junk, sizeof junk, NULL), RG_ECORRUPT);
    expect_message("neither a BK2");
    memcpy(junk, "PK\x03\x04", 4);
    assert_int_equal(open_bytes(junk, sizeof junk, NULL), RG_ECORRUPT);
    assert_int_equal(open_bytes("PK\x05\x06", 4, NULL), RG_ECORRUPT);
    path_in(path, sizeof path, "text.fm2");
    mt_write_file(path, "hello\n", 6);
    assert_int_equal(open_path(path, NULL), RG_ECORRUPT);
    expect_message("version 3");

    assert_int_equal(open_path(g_dir, NULL), RG_EIO); /* a folder */
    path_in(path, sizeof path, "missing.bk2");
    assert_int_equal(open_path(path, NULL), RG_ENOTFOUND);

    size_t size;
    uint8_t *zip = nes_zip(10, NULL, 0, &size);
    rg_movie_limits lim = RG_MOVIE_LIMITS_INIT;
    lim.max_file_size = size - 1;
    assert_int_equal(open_bytes(zip, size, &lim), RG_ETOOBIG);
    path_in(path, sizeof path, "limit.bk2");
    mt_write_file(path, zip, size);
    assert_int_equal(open_path(path, &lim), RG_ETOOBIG);
    lim.version = 99;
    assert_int_equal(open_bytes(zip, size, &lim), RG_EINVAL);
    assert_int_equal(open_bytes(zip, size, NULL), RG_OK);
    free(zip);
}

/* Entries that claim or inflate to more than the limits. */
static void test_zip_bombs(void **state)
{
    (void)state;
    size_t size;
    uint8_t *zip = nes_zip(100000, NULL, 0, &size); /* a 1.3 MB log deflated to a few KB */
    assert_true(size < 100000);
    assert_int_equal(open_bytes(zip, size, NULL), RG_OK);
    rg_movie_limits lim = RG_MOVIE_LIMITS_INIT;
    lim.max_log_size = 1 << 20;
    assert_int_equal(open_bytes(zip, size, &lim), RG_ETOOBIG);
    expect_message("declares");

    /* A header declaring 4 GB: refused before inflating, with the default limits. */
    uint8_t *copy = malloc(size);
    memcpy(copy, zip, size);
    set_declared_size(copy, size, "Input Log.txt", 0xfffffff0u);
    assert_int_equal(open_bytes(copy, size, NULL), RG_ETOOBIG);
    expect_message("declares");

    /* A header that lies small: the read stops at the limit whatever the header says. */
    memcpy(copy, zip, size);
    set_declared_size(copy, size, "Input Log.txt", 1000);
    int rc = open_bytes(copy, size, &lim);
    assert_true(rc == RG_ETOOBIG || rc == RG_ECORRUPT);
    rc = open_bytes(copy, size, NULL);
    assert_true(rc == RG_ETOOBIG || rc == RG_ECORRUPT);
    free(copy);
    free(zip);

    /* Core.bin and Header.txt over their limits. */
    char *big = malloc(3 << 20);
    memset(big, 'x', 3 << 20);
    big[(3 << 20) - 1] = '\0';
    mt_entry core = {"Core.bin", big, (size_t)-1};
    zip = nes_zip(5, &core, 1, &size);
    lim = (rg_movie_limits)RG_MOVIE_LIMITS_INIT;
    lim.max_state_size = 1 << 20;
    assert_int_equal(open_bytes(zip, size, &lim), RG_ETOOBIG);
    expect_message("Core.bin");
    assert_int_equal(open_bytes(zip, size, NULL), RG_OK);
    free(zip);
    char header_path[4096];
    path_in(header_path, sizeof header_path, "bigheader.bk2");
    mt_build_bk2(header_path, big, "[Input]\n[/Input]", NULL);
    assert_int_equal(open_path(header_path, NULL), RG_ETOOBIG);
    expect_message("Header.txt");
    free(big);
}

struct big_movie {
    const uint8_t *zip;
    size_t size, frames;
};

/* The child's open of the big movie: 0 when every frame is there. */
static int open_big(void *arg)
{
    const struct big_movie *b = arg;
    rg_movie *m = NULL;
    int rc = rg_movie_open_memory(&m, b->zip, b->size, "big.bk2", NULL);
    return rc != RG_OK ? 1 : rg_movie_frame_count(m) != b->frames ? 2 : 0;
}

/* A .bk2 of a few hundred KB whose log inflates to 32 MB (2M frames) opens with 24 MiB of address space to spare
 * (RLIMIT_AS in a forked child): the log is parsed as it inflates, so memory is the frames (3 bytes each, grown by
 * doubling) and one 64 KiB chunk, never the whole text (it used to be read whole first: 32 MiB more). */
static void test_memory_bounded_by_frames(void **state)
{
    (void)state;
    if (!test_memory_limit_usable())
        skip(); /* ASan reserves terabytes of address space: RLIMIT_AS cannot be used */
    size_t size, frames = 2000000;
    uint8_t *zip = nes_zip(frames, NULL, 0, &size);
    assert_true(size < (1u << 20));
    struct big_movie big = {zip, size, frames};
    int code = test_run_with_spare_memory(24u << 20, open_big, &big);
    if (code < 0) {
        free(zip);
        skip(); /* no address-space limit here (no /proc) */
    }
    if (code != 0)
        fail_msg("the movie under a 24 MiB margin %s", code == 1 ? "failed to open" : "lost frames");
    /* without the limit: every frame as written (the chunk boundaries cut lines anywhere) */
    rg_movie *m = NULL;
    assert_int_equal(rg_movie_open_memory(&m, zip, size, "big.bk2", NULL), RG_OK);
    assert_int_equal(rg_movie_frame_count(m), frames);
    for (size_t f = 0; f < frames; f += 99991) {
        uint16_t a, b;
        assert_int_equal(rg_movie_frame_buttons(m, f, 0, &a), RG_OK);
        assert_int_equal(rg_movie_frame_buttons(m, f + (f % 3 ? 0 : 1), 0, &b), RG_OK);
        assert_true(f % 3 ? a == b : a != b);
    }
    rg_movie_free(m);
    free(zip);
}

/* Names that look like ours but are not: never taken for our entries, never used as paths. */
static void test_path_tricks(void **state)
{
    (void)state;
    const char *log = "[Input]\n" NES_KEY "|..|A.......|\n[/Input]";
    static const char *const fakes[] = {"../Input Log.txt", "/Input Log.txt", "sub/Input Log.txt",
                                        "./Input Log.txt",  "Input Log.txt/", "input log.txt",
                                        "Input Log.txt ",   "..\\Input Log.txt"};
    char path[4096];
    path_in(path, sizeof path, "tricks.bk2");
    for (size_t i = 0; i < sizeof fakes / sizeof fakes[0]; i++) {
        mt_entry e[2] = {{fakes[i], log, (size_t)-1}, {"Header.txt", NES_HEADER, (size_t)-1}};
        mt_build_zip(path, e, 2);
        assert_int_equal(open_path(path, NULL), RG_ECORRUPT);
        expect_message("no Input Log.txt");
    }
    /* A valid movie carrying entries that would escape: read, nothing written anywhere. */
    char escape_name[256], escape_path[4096];
    snprintf(escape_name, sizeof escape_name, "../../movie-escape-%d.txt", (int)getpid());
    snprintf(escape_path, sizeof escape_path, "%s/%s", g_dir, escape_name);
    mt_entry extra[3] = {{escape_name, "boo", (size_t)-1}, {"/tmp/movie-absolute.txt", "boo", (size_t)-1},
                         {"../Core.bin", "not a state", (size_t)-1}};
    size_t size;
    uint8_t *zip = nes_zip(3, extra, 3, &size);
    rg_movie *m;
    assert_int_equal(rg_movie_open_memory(&m, zip, size, "x.bk2", NULL), RG_OK);
    const uint8_t *st;
    size_t st_size;
    rg_movie_state(m, &st, &st_size);
    assert_int_equal(st_size, 0); /* "../Core.bin" is not Core.bin */
    rg_movie_free(m);
    assert_int_equal(access(escape_path, F_OK), -1);
    free(zip);

    /* A name with a NUL byte inside ("Input Log.txt\0evil") is not "Input Log.txt". */
    mt_entry tricky[1] = {{"Input Log.txtXevil", log, (size_t)-1}};
    mt_entry header_only[1] = {{"Header.txt", NES_HEADER, (size_t)-1}};
    path_in(path, sizeof path, "nul.bk2");
    mt_entry both[2] = {tricky[0], header_only[0]};
    mt_build_zip(path, both, 2);
    zip = mt_read_file(path, &size);
    rename_entry(zip, size, "Input Log.txtXevil", "Input Log.txt\0evil");
    int rc = open_bytes(zip, size, NULL);
    assert_int_equal(rc, RG_ECORRUPT);
    free(zip);
}

static void test_duplicate_and_missing_entries(void **state)
{
    (void)state;
    const char *log = "[Input]\n" NES_KEY "|..|A.......|\n[/Input]";
    static const char *const names[] = {"Input Log.txt", "Header.txt", "Core.bin"};
    static const char *const twins[] = {"Input Log.txX", "Header.txX", "Core.biX"};
    for (int i = 0; i < 3; i++) {
        mt_entry e[4] = {{"Input Log.txt", log, (size_t)-1}, {"Header.txt", NES_HEADER, (size_t)-1},
                         {"Core.bin", "state", (size_t)-1}, {twins[i], i == 0 ? log : i == 1 ? NES_HEADER : "s2",
                                                             (size_t)-1}};
        char path[4096];
        path_in(path, sizeof path, "dup.bk2");
        mt_build_zip(path, e, 4);
        size_t size;
        uint8_t *zip = mt_read_file(path, &size);
        rename_entry(zip, size, twins[i], names[i]);
        assert_int_equal(open_bytes(zip, size, NULL), RG_ECORRUPT);
        expect_message("two entries");
        free(zip);
    }
    char path[4096];
    path_in(path, sizeof path, "missing.bk2");
    mt_entry only_header[1] = {{"Header.txt", NES_HEADER, (size_t)-1}};
    mt_build_zip(path, only_header, 1);
    assert_int_equal(open_path(path, NULL), RG_ECORRUPT);
    expect_message("no Input Log.txt");
    mt_entry only_log[1] = {{"Input Log.txt", log, (size_t)-1}};
    mt_build_zip(path, only_log, 1);
    assert_int_equal(open_path(path, NULL), RG_ECORRUPT);
    expect_message("no Header.txt");
}

/* Every truncation of a real movie is refused; damaged entries too; random damage never crashes. */
static void test_truncated_and_damaged(void **state)
{
    (void)state;
    char ref[1024];
    test_source_path("tests/movie/data/sr-Genesis-2p.bk2", ref, sizeof ref);
    size_t size;
    uint8_t *zip = mt_read_file(ref, &size);
    assert_int_equal(open_bytes(zip, size, NULL), RG_OK);
    for (size_t len = 0; len < size; len++) {
        int rc = open_bytes(zip, len, NULL);
        if (rc != RG_ECORRUPT)
            fail_msg("truncated to %zu of %zu bytes: %d (%s)", len, size, rc, rg_error_last());
    }

    /* The log's compressed data damaged, then cut short (the sizes say less than the stream). */
    size_t local, central;
    find_headers(zip, size, "Input Log.txt", &local, &central);
    size_t data_at = local + 30 + rd16(zip + local + 26) + rd16(zip + local + 28);
    uint32_t comp = rd32(zip + central + 20);
    uint8_t *copy = malloc(size);
    memcpy(copy, zip, size);
    for (uint32_t i = comp / 3; i < comp / 3 + 8; i++)
        copy[data_at + i] ^= 0x5a;
    assert_int_equal(open_bytes(copy, size, NULL), RG_ECORRUPT);
    expect_message("Input Log.txt");
    memcpy(copy, zip, size);
    wr32(copy + local + 18, comp / 2);
    wr32(copy + central + 20, comp / 2);
    assert_int_equal(open_bytes(copy, size, NULL), RG_ECORRUPT);

    /* Random damage: anything but a crash or a sanitizer report. */
    uint32_t x = 2024;
    int ok = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(copy, zip, size);
        int n = 1 + round % 4;
        for (int k = 0; k < n; k++) {
            x = x * 1664525u + 1013904223u;
            size_t at = (x >> 8) % size;
            x = x * 1664525u + 1013904223u;
            copy[at] = (uint8_t)(x >> 24);
        }
        rg_movie *m = NULL;
        int rc = rg_movie_open_memory(&m, copy, size, "fuzz.bk2", NULL);
        if (rc == RG_OK) {
            ok++;
            while (rg_movie_step(m) == 1)
                ;
            rg_movie_free(m);
        } else {
            assert_null(m);
            assert_true(rc == RG_ECORRUPT || rc == RG_ETOOBIG || rc == RG_EUNSUPPORTED);
        }
    }
    assert_true(ok > 0 && ok < 3000);
    free(copy);
    free(zip);
}

static int open_log(const char *log)
{
    return mt_open_texts(g_dir, NES_HEADER, log, NULL);
}

static void test_bad_lines(void **state)
{
    (void)state;
    assert_int_equal(open_log("[Input]\n" NES_KEY "|..|A.......|\n[/Input]"), RG_OK);
    static const struct {
        const char *log;
        const char *message;
    } bad[] = {
        {"[Input]\n" NES_KEY "|..|A......|\n[/Input]", "line 3: field 2 is 7 characters wide, expected 8"},
        {"[Input]\n" NES_KEY "|..|A........|\n[/Input]", "line 3: field 2 is 9 characters wide, expected 8"},
        {"[Input]\n" NES_KEY "|..|\n[/Input]", "line 3"},
        {"[Input]\n" NES_KEY "|..|A.......|B.......|\n[/Input]", "line 3"},
        {"[Input]\n" NES_KEY "|..|A.......\n[/Input]", "line 3"},
        {"[Input]\n" NES_KEY "|.|A.......|\n[/Input]", "line 3: field 1"},
        {"[Input]\n" NES_KEY "|..|........|\n|..|A.\x7f.....|\n[/Input]", "line 4"},
        {"[Input]\n|..|A.......|\n[/Input]", "before the key line"},
        {"[Input]\n" NES_KEY "|..|A.......|\nsome text\n|..|A.......|\n[/Input]", "line 4"},
        {"[Input]\nno key here\n|..|A.......|\n[/Input]", "line 2: expected the key line"},
        {"[Input]\n" NES_KEY "|..|A.......|\n[Input]\n[/Input]", "[Input] again"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = open_log(bad[i].log);
        if (rc != RG_ECORRUPT)
            fail_msg("case %zu: %d (%s)", i, rc, rg_error_last());
        expect_message(bad[i].message);
    }
    /* A NUL byte inside the log. */
    char path[4096];
    path_in(path, sizeof path, "nul-log.bk2");
    static const char nul_log[] = "[Input]\n" NES_KEY "|..|A..\0....|\n[/Input]";
    mt_entry e[2] = {{"Input Log.txt", nul_log, sizeof nul_log - 1}, {"Header.txt", NES_HEADER, (size_t)-1}};
    mt_build_zip(path, e, 2);
    assert_int_equal(open_path(path, NULL), RG_ECORRUPT);
    expect_message("NUL");
}

static void test_bad_headers_and_players(void **state)
{
    (void)state;
    const char *log = "[Input]\n" NES_KEY "|..|A.......|\n[/Input]";
    assert_int_equal(mt_open_texts(g_dir, MT_HEADER("32X", "x"), log, NULL), RG_EUNSUPPORTED);
    expect_message("'32X'");
    assert_int_equal(mt_open_texts(g_dir, "GameName x\n", log, NULL), RG_ECORRUPT);
    expect_message("no Platform");
    assert_int_equal(mt_open_texts(g_dir, "Platform \n", log, NULL), RG_ECORRUPT);
    char path[4096];
    path_in(path, sizeof path, "nul-header.bk2");
    static const char nul_header[] = "Platform NES\nGameName a\0b\n";
    mt_entry e[2] = {{"Input Log.txt", log, (size_t)-1}, {"Header.txt", nul_header, sizeof nul_header - 1}};
    mt_build_zip(path, e, 2);
    assert_int_equal(open_path(path, NULL), RG_ECORRUPT);

    assert_int_equal(open_log("[Input]\nP9 A|\n|..|.|\n[/Input]"), RG_ETOOBIG);
    expect_message("at most 8 players");
    assert_int_equal(open_log("[Input]\nP99999999999999999999 A|\n|..|.|\n[/Input]"), RG_ETOOBIG);
    assert_int_equal(open_log("[Input]\nP0 A|\n|..|.|\n[/Input]"), RG_ECORRUPT);
    assert_int_equal(open_log("[Input]\nP8 A|\n|..|A|\n[/Input]"), RG_OK);
}

static void test_frame_limit(void **state)
{
    (void)state;
    size_t size;
    uint8_t *zip = nes_zip(101, NULL, 0, &size);
    rg_movie_limits lim = RG_MOVIE_LIMITS_INIT;
    lim.max_frames = 100;
    assert_int_equal(open_bytes(zip, size, &lim), RG_ETOOBIG);
    expect_message("more than 100 frames");
    lim.max_frames = 101;
    assert_int_equal(open_bytes(zip, size, &lim), RG_OK);
    free(zip);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_and_garbage),
        cmocka_unit_test(test_zip_bombs),
        cmocka_unit_test(test_memory_bounded_by_frames),
        cmocka_unit_test(test_path_tricks),
        cmocka_unit_test(test_duplicate_and_missing_entries),
        cmocka_unit_test(test_truncated_and_damaged),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_bad_headers_and_players),
        cmocka_unit_test(test_frame_limit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
