/* rg_integration_import: files, folders, zips (nested, hostile, broken), precedence of known hashes, and that nothing is ever
 * written outside the game folders. Archives are made at run time with libzip. */
#include "data_fixture.h"

#include "data/data_internal.h"

#include <dirent.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>

static fixture fx;
static char src[700]; /* where the files to import are */

/* ROM contents and their hashes. A NES ROM is 16 header bytes + body; the hash is of the body. */
static uint8_t nes_rom[16 + 64];
static uint8_t snes_rom[128];
static char nes_sha[RG_INTEGRATION_SHA1_HEX + 1], snes_sha[RG_INTEGRATION_SHA1_HEX + 1];

static int setup(void **state)
{
    (void)state;
    fx_setup(&fx);
    snprintf(src, sizeof src, "%s/src", fx.tmp);
    test_mkdirs(src);
    memcpy(nes_rom, "NES\x1a", 4);
    for (size_t i = 16; i < sizeof nes_rom; i++)
        nes_rom[i] = (uint8_t)(i * 7);
    for (size_t i = 0; i < sizeof snes_rom; i++)
        snes_rom[i] = (uint8_t)(i * 13 + 1);
    rg_integration_rom_sha1(nes_rom, sizeof nes_rom, "x.nes", nes_sha);
    rg_integration_rom_sha1(snes_rom, sizeof snes_rom, "x.sfc", snes_sha);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fx_teardown(&fx);
    return 0;
}

/* Fresh data root and source folder for each test. */
static int reset(void **state)
{
    (void)state;
    char p[800];
    rg_integration_paths_free(fx.dp);
    rg__remove_tree(fx.root);
    rg__remove_tree(src);
    test_mkdirs(src);
    const char *dirs[] = {"stable", "contrib", "experimental"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", fx.root, dirs[i]);
        test_mkdirs(p);
    }
    assert_int_equal(rg_integration_paths_create(&fx.dp, fx.root), RG_OK);
    return 0;
}

/* ---- collecting what the library reports ---- */

typedef struct sink {
    char warnings[64][512];
    size_t n_warnings;
    size_t progress_calls, last_done, last_total;
    char imported[16][64];
    size_t n_imported;
} sink;

static void on_warning(const char *message, void *user)
{
    sink *s = user;
    if (s->n_warnings < 64)
        snprintf(s->warnings[s->n_warnings++], sizeof s->warnings[0], "%s", message);
}

static void on_progress(size_t done, size_t total, const char *current, void *user)
{
    sink *s = user;
    assert_non_null(current);
    assert_true(done >= 1 && done <= total);
    assert_int_equal(done, s->last_done + 1);
    s->progress_calls++;
    s->last_done = done;
    s->last_total = total;
}

static void on_imported(const char *game, const char *path, void *user)
{
    sink *s = user;
    assert_non_null(strstr(path, game));
    if (s->n_imported < 16)
        snprintf(s->imported[s->n_imported++], sizeof s->imported[0], "%s", game);
}

static size_t warned(const sink *s, const char *text)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_warnings; i++)
        n += strstr(s->warnings[i], text) != NULL;
    return n;
}

static void dump(const sink *s)
{
    for (size_t i = 0; i < s->n_warnings; i++)
        print_message("  warning: %s\n", s->warnings[i]);
}

static int run_import(const char *const *paths, size_t n, rg_integration_import_options *opts, rg_integration_import_report *rep, sink *s)
{
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    if (!opts)
        opts = &o;
    opts->warning = on_warning;
    opts->progress = on_progress;
    opts->imported = on_imported;
    opts->user = s;
    memset(s, 0, sizeof *s);
    return rg_integration_import(fx.dp, paths, n, opts, rep);
}

/* ---- archives ---- */

typedef struct member {
    const char *name;
    const void *data;
    size_t size;
} member;

/* Writes a zip (deflate) with the given members to path. */
static void make_zip(const char *path, const member *m, size_t n)
{
    int err = 0;
    zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
    assert_non_null(za);
    for (size_t i = 0; i < n; i++) {
        zip_source_t *s = zip_source_buffer(za, m[i].data, m[i].size, 0);
        assert_non_null(s);
        zip_int64_t idx = zip_file_add(za, m[i].name, s, ZIP_FL_ENC_RAW);
        if (idx < 0)
            fail_msg("zip_file_add %s: %s", m[i].name, zip_strerror(za));
        zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_DEFLATE, 9);
    }
    if (zip_close(za) != 0)
        fail_msg("zip_close %s: %s", path, zip_strerror(za));
}

/* A whole file into memory. */
static uint8_t *slurp(const char *path, size_t *size)
{
    uint8_t *data;
    assert_int_equal(rg__read_file(path, 1u << 30, &data, size), RG_OK);
    return data;
}

/* ---- snapshots: every path under the temporary folder ---- */

static void snap_walk(const char *dir, const char *rel, rg_strlist *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[1024], r[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        rg__strlist_push(out, r);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            snap_walk(p, r, out);
    }
    closedir(d);
}

static void snapshot(rg_strlist *out)
{
    rg__strlist_clear(out);
    snap_walk(fx.tmp, "", out);
    rg__strlist_sort_unique(out);
}

/* Asserts that the paths added since `before` are exactly `added` (NULL-terminated). */
static void expect_added(const rg_strlist *before, const char *const *added)
{
    rg_strlist after = {0};
    snapshot(&after);
    size_t n_added = 0;
    while (added[n_added])
        n_added++;
    size_t extra = 0;
    for (size_t i = 0; i < after.count; i++) {
        if (rg__strlist_contains(before, after.items[i]))
            continue;
        int expected = 0;
        for (size_t j = 0; j < n_added; j++)
            expected |= strcmp(after.items[i], added[j]) == 0;
        if (!expected) {
            print_message("  unexpected new path: %s\n", after.items[i]);
            extra++;
        }
    }
    for (size_t j = 0; j < n_added; j++)
        if (!rg__strlist_contains(&after, added[j]))
            fail_msg("missing %s", added[j]);
    for (size_t i = 0; i < before->count; i++)
        if (!rg__strlist_contains(&after, before->items[i]))
            fail_msg("removed: %s", before->items[i]);
    rg__strlist_clear(&after);
    assert_int_equal(extra, 0);
}

#define PATHS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- tests ---- */

static void plain_files_and_folders(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Star-Nes", nes_sha);
    fx_game(&fx, "stable", "Sky-Snes", snes_sha);
    fx_write(src, "a/b/c/star.nes", nes_rom, sizeof nes_rom);
    fx_write(src, "a/unrelated.bin", "nothing", 7);
    fx_write(src, "sky.sfc", snes_rom, sizeof snes_rom);
    /* The same body without its header and not named .nes has the game's hash, but is no iNES file: refused. */
    fx_write(src, "a/headerless.bin", nes_rom + 16, sizeof nes_rom - 16);
    rg_strlist before = {0};
    snapshot(&before);
    char dir_a[800], sky[800];
    snprintf(dir_a, sizeof dir_a, "%s/a", src);
    snprintf(sky, sizeof sky, "%s/sky.sfc", src);
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){dir_a, sky}, 2, NULL, &rep, &s), RG_OK);
    dump(&s);
    assert_int_equal(rep.imported, 2);
    assert_int_equal(rep.known, 2);
    assert_int_equal(rep.files, 4);
    assert_int_equal(rep.scanned, 4);
    assert_int_equal(rep.skipped, 1);
    assert_int_equal(s.n_warnings, 1);
    assert_int_equal(warned(&s, "headerless.bin: it matches Star-Nes only as a NES ROM without its 16-byte iNES"), 1);
    assert_int_equal(s.progress_calls, 4);
    assert_int_equal(s.last_total, 4);
    assert_int_equal(s.n_imported, 2);
    expect_added(&before, PATHS("data/stable/Star-Nes/rom.nes", "data/stable/Sky-Snes/rom.sfc"));
    /* The NES ROM is written unchanged, header included. */
    char out[800];
    snprintf(out, sizeof out, "%s/stable/Star-Nes/rom.nes", fx.root);
    size_t size;
    uint8_t *data = slurp(out, &size);
    assert_int_equal(size, sizeof nes_rom);
    assert_memory_equal(data, nes_rom, size);
    free(data);
    /* Importing again rewrites the same files: still two games, nothing else appears. */
    snapshot(&before);
    assert_int_equal(run_import((const char *[]){src}, 1, NULL, &rep, &s), RG_OK);
    assert_int_equal(rep.imported, 2);
    expect_added(&before, PATHS(NULL));
    rg__strlist_clear(&before);
    /* The found ROM passes the hash check. */
    rg_integration_diags *d;
    assert_int_equal(rg_integration_diags_create(&d), RG_OK);
    assert_int_equal(rg_integration_validate_hash(fx.dp, "Star-Nes", 0, d), RG_OK);
    assert_int_equal(rg_integration_validate_hash(fx.dp, "Sky-Snes", 0, d), RG_OK);
    assert_int_equal(rg_integration_diags_count(d), 0);
    rg_integration_diags_free(d);
}

static void precedence_and_unknown_systems(void **state)
{
    (void)state;
    /* The same game in contrib and stable: stable (the later folder) wins. */
    fx_game(&fx, "contrib", "Dup-Nes", nes_sha);
    fx_game(&fx, "stable", "Dup-Nes", nes_sha);
    /* Two games with one hash: Gym Retro iterates games by name, so the later name wins whatever its folder. */
    fx_game(&fx, "stable", "AAA-Snes", snes_sha);
    fx_game(&fx, "contrib", "BBB-Snes", snes_sha);
    /* A custom integration folder takes part too; an unknown system and a bad rom.sha are reported. */
    char custom[800];
    snprintf(custom, sizeof custom, "%s/custom", fx.tmp);
    test_mkdirs(custom);
    assert_int_equal(rg_integration_paths_add_custom_path(fx.dp, custom), RG_OK);
    fx_text(custom, "Mystery-Foo/rom.sha", "0123456789abcdef0123456789abcdef01234567\n");
    fx_text(custom, "Broken-Nes/rom.sha", "not a hash\n");
    fx_write(src, "dup.nes", nes_rom, sizeof nes_rom);
    fx_write(src, "shared.sfc", snes_rom, sizeof snes_rom);
    rg_strlist before = {0};
    snapshot(&before);
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){src}, 1, NULL, &rep, &s), RG_OK);
    assert_int_equal(rep.imported, 2);
    assert_int_equal(rep.known, 2);
    assert_int_equal(warned(&s, "Mystery-Foo: no known system"), 1);
    assert_int_equal(warned(&s, "Broken-Nes/rom.sha"), 1);
    expect_added(&before, PATHS("data/stable/Dup-Nes/rom.nes", "data/contrib/BBB-Snes/rom.sfc"));
    rg__strlist_clear(&before);
}

static void zips_nested_and_slip(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Star-Nes", nes_sha);
    fx_game(&fx, "experimental", "Sky-Snes", snes_sha);
    /* inner.zip holds the SNES ROM; outer.zip holds inner.zip and hostile names for the NES ROM. */
    char inner[800], outer[800];
    snprintf(inner, sizeof inner, "%s/inner.zip", fx.tmp);
    snprintf(outer, sizeof outer, "%s/outer.zip", src);
    make_zip(inner, (member[]){{"roms/sky.sfc", snes_rom, sizeof snes_rom}}, 1);
    size_t inner_size;
    uint8_t *inner_data = slurp(inner, &inner_size);
    unlink(inner);
    const member ms[] = {
        {"../../evil.nes", nes_rom, sizeof nes_rom},
        {"/abs/evil.nes", nes_rom, sizeof nes_rom},
        {"..\\..\\evil.nes", nes_rom, sizeof nes_rom},
        {"dir/", "", 0},
        {"weird\x1b[2Jname.nes", nes_rom, sizeof nes_rom},
        {"nested/INNER.ZIP", inner_data, inner_size},
    };
    make_zip(outer, ms, sizeof ms / sizeof ms[0]);
    free(inner_data);
    rg_strlist before = {0};
    snapshot(&before);
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){outer}, 1, NULL, &rep, &s), RG_OK);
    dump(&s);
    assert_int_equal(rep.imported, 2);
    assert_int_equal(rep.files, 1);
    assert_int_equal(rep.scanned, 5);
    assert_int_equal(s.n_warnings, 0);
    expect_added(&before, PATHS("data/stable/Star-Nes/rom.nes", "data/experimental/Sky-Snes/rom.sfc"));
    rg__strlist_clear(&before);
    /* Nothing relative to the working folder or at the absolute name either. */
    struct stat st;
    assert_int_not_equal(stat("../../evil.nes", &st), 0);
    assert_int_not_equal(stat("/abs/evil.nes", &st), 0);
}

static void nesting_limit(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Sky-Snes", snes_sha);
    /* z5 ⊃ z4 ⊃ z3 ⊃ z2 ⊃ z1 ⊃ sky.sfc: five levels of zip, one more than the default limit of 4. */
    char path[800];
    snprintf(path, sizeof path, "%s/level.zip", fx.tmp);
    make_zip(path, (member[]){{"sky.sfc", snes_rom, sizeof snes_rom}}, 1);
    for (int level = 2; level <= 5; level++) {
        size_t size;
        uint8_t *data = slurp(path, &size);
        char name[32];
        snprintf(name, sizeof name, "z%d.zip", level - 1);
        make_zip(path, (member[]){{name, data, size}}, 1);
        free(data);
        if (level == 4) { /* four levels: still found */
            char copy[800];
            snprintf(copy, sizeof copy, "%s/four.zip", src);
            assert_int_equal(rg__copy_file(path, copy), RG_OK);
        }
    }
    char five[800];
    snprintf(five, sizeof five, "%s/five.zip", fx.tmp);
    assert_int_equal(rename(path, five), 0);
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){five}, 1, NULL, &rep, &s), RG_OK);
    assert_int_equal(rep.imported, 0);
    assert_int_equal(warned(&s, "zips nested deeper than 4"), 1);
    assert_int_equal(run_import((const char *[]){src}, 1, NULL, &rep, &s), RG_OK);
    dump(&s);
    assert_int_equal(rep.imported, 1);
    /* A smaller limit stops earlier. */
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    o.max_zip_depth = 1;
    assert_int_equal(run_import((const char *[]){src}, 1, &o, &rep, &s), RG_OK);
    assert_int_equal(rep.imported, 0);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sets the uncompressed size of every entry (local and central headers) of a one-member zip image. */
static void lie_about_size(uint8_t *z, size_t n, uint32_t size)
{
    for (size_t i = 0; i + 46 <= n; i++) {
        if (memcmp(z + i, "PK\x03\x04", 4) == 0) {
            memcpy(z + i + 22, &size, 4);
        } else if (memcmp(z + i, "PK\x01\x02", 4) == 0) {
            memcpy(z + i + 24, &size, 4);
            break;
        }
    }
}

static void zip_bomb(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Sky-Snes", snes_sha);
    size_t big = 100u << 20;
    uint8_t *zeros = calloc(1, big);
    assert_non_null(zeros);
    char honest[800], liar[800];
    snprintf(honest, sizeof honest, "%s/bomb.zip", src);
    snprintf(liar, sizeof liar, "%s/liar.zip", src);
    make_zip(honest, (member[]){{"bomb.sfc", zeros, big}, {"sky.sfc", snes_rom, sizeof snes_rom}}, 2);
    make_zip(liar, (member[]){{"liar.sfc", zeros, big}}, 1);
    free(zeros);
    size_t n;
    uint8_t *z = slurp(liar, &n);
    assert_true(n < (1u << 20)); /* 100 MiB of zeros compress to ~100 KiB */
    lie_about_size(z, n, 1000);
    fx_write(src, "liar.zip", z, n);
    free(z);
    rg_strlist before = {0};
    snapshot(&before);
    rg_integration_import_report rep;
    sink s;
    double t0 = now();
    assert_int_equal(run_import((const char *[]){src}, 1, NULL, &rep, &s), RG_OK);
    double took = now() - t0;
    dump(&s);
    /* The honest bomb is refused from its header; the liar after inflating at most the cap, or on a bad size. */
    assert_int_equal(warned(&s, "bomb.sfc: ROM is too big"), 1);
    assert_int_equal(warned(&s, "liar.zip:liar.sfc"), 1);
    assert_int_equal(rep.imported, 1);
    assert_int_equal(rep.skipped, 2);
    assert_true(took < 10.0);
    expect_added(&before, PATHS("data/stable/Sky-Snes/rom.sfc"));
    rg__strlist_clear(&before);
    /* With a small cap, the liar is refused after cap + 1 inflated bytes, whatever it claims. */
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    o.max_rom_size = 4096;
    char liar_only[800];
    snprintf(liar_only, sizeof liar_only, "%s/liar.zip", src);
    assert_int_equal(run_import((const char *[]){liar_only}, 1, &o, &rep, &s), RG_OK);
    dump(&s);
    assert_int_equal(rep.skipped, 1);
    assert_int_equal(rep.scanned, 0);
}

/* The child's import of the hostile archive: 0 when it found the ROM. */
static int import_outer(void *outer)
{
    rg_integration_import_report rep;
    sink s;
    int rc = run_import((const char *[]){outer}, 1, NULL, &rep, &s);
    return rc != RG_OK ? 1 : rep.imported != 1 ? 2 : 0;
}

/* A 64 KiB zip holding a zip that inflates to 64 MiB (a stored 64 MiB member, then our ROM): the import finds the ROM
 * with no more than 40 MiB of address space to spare (RLIMIT_AS in a forked child): the nested zip goes to a
 * temporary file, not memory (it used to be read whole into a buffer grown to 128 MiB). The bound for an import is
 * one ROM candidate (max_rom_size) plus libzip's directories. */
static void nested_zip_memory_bounded(void **state)
{
    (void)state;
    if (!test_memory_limit_usable())
        skip(); /* ASan reserves terabytes of address space: RLIMIT_AS cannot be used */
    fx_game(&fx, "stable", "Sky-Snes", snes_sha);
    size_t big = 64u << 20;
    uint8_t *zeros = calloc(1, big);
    assert_non_null(zeros);
    char inner[800], outer[800];
    snprintf(inner, sizeof inner, "%s/../inner.zip", src);
    snprintf(outer, sizeof outer, "%s/outer.zip", src);
    int err = 0;
    zip_t *za = zip_open(inner, ZIP_CREATE | ZIP_TRUNCATE, &err);
    assert_non_null(za);
    zip_int64_t i0 = zip_file_add(za, "pad.bin", zip_source_buffer(za, zeros, big, 0), 0);
    zip_int64_t i1 = zip_file_add(za, "sky.sfc", zip_source_buffer(za, snes_rom, sizeof snes_rom, 0), 0);
    assert_true(i0 >= 0 && i1 >= 0);
    zip_set_file_compression(za, (zip_uint64_t)i0, ZIP_CM_STORE, 0);
    assert_int_equal(zip_close(za), 0);
    free(zeros);
    size_t n;
    uint8_t *bytes = slurp(inner, &n);
    assert_true(n > big);
    unlink(inner);
    make_zip(outer, (member[]){{"inner.zip", bytes, n}}, 1);
    free(bytes);
    bytes = slurp(outer, &n);
    free(bytes);
    assert_true(n < (1u << 20)); /* the whole hostile archive is well under 1 MiB */
    int code = test_run_with_spare_memory(40u << 20, import_outer, outer);
    if (code < 0)
        skip(); /* no address-space limit here (no /proc) */
    if (code != 0)
        fail_msg("the import under a 40 MiB margin %s", code == 1 ? "failed" : "imported no ROM");
    /* and without the limit, the same import reports the oversized member and finds the ROM */
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){outer}, 1, NULL, &rep, &s), RG_OK);
    assert_int_equal(rep.imported, 1);
    assert_int_equal(warned(&s, "inner.zip:pad.bin: ROM is too big"), 1);
}

static void archive_budget(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Sky-Snes", snes_sha);
    uint8_t junk[300];
    memset(junk, 0x5a, sizeof junk);
    char path[800];
    snprintf(path, sizeof path, "%s/many.zip", src);
    make_zip(path,
             (member[]){{"a.bin", junk, sizeof junk}, {"b.bin", junk, sizeof junk}, {"c.bin", junk, sizeof junk},
                        {"sky.sfc", snes_rom, sizeof snes_rom}},
             4);
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    o.max_archive_bytes = 500;
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){path}, 1, &o, &rep, &s), RG_OK);
    dump(&s);
    assert_int_equal(warned(&s, "more than its limit of 500 bytes"), 1);
    assert_int_equal(rep.scanned, 1);
    assert_int_equal(rep.imported, 0);
    o.max_archive_bytes = 0;
    assert_int_equal(run_import((const char *[]){path}, 1, &o, &rep, &s), RG_OK);
    assert_int_equal(rep.imported, 1);
}

static void broken_inputs(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Star-Nes", nes_sha);
    fx_game(&fx, "stable", "Sky-Snes", snes_sha);
    /* Not a zip at all; a truncated zip; a zip whose member data is damaged; a zip inside a zip that is junk. */
    fx_text(src, "junk.zip", "this is not a zip archive, only text that claims to be one.");
    char good[800];
    snprintf(good, sizeof good, "%s/good.zip", fx.tmp);
    uint8_t body[4096];
    for (size_t i = 0; i < sizeof body; i++)
        body[i] = (uint8_t)(i * 31 + (i >> 5));
    make_zip(good, (member[]){{"body.bin", body, sizeof body}, {"star.nes", nes_rom, sizeof nes_rom}}, 2);
    size_t n;
    uint8_t *z = slurp(good, &n);
    fx_write(src, "truncated.zip", z, n / 2);
    z[60] ^= 0xff; /* inside body.bin's compressed data */
    z[61] ^= 0xff;
    fx_write(src, "damaged.zip", z, n);
    free(z);
    char nest[800];
    snprintf(nest, sizeof nest, "%s/nest.zip", src);
    make_zip(nest, (member[]){{"fake.zip", "PK\x03\x04garbage", 11}}, 1);
    /* A dangling link, a file nobody may read (when not root), a link to a folder (not followed). */
    char link[800], target[800];
    snprintf(link, sizeof link, "%s/dangling.sfc", src);
    assert_int_equal(symlink("/nonexistent/rom.sfc", link), 0);
    fx_write(src, "secret/sky.sfc", snes_rom, sizeof snes_rom);
    snprintf(target, sizeof target, "%s/secret/sky.sfc", src);
    chmod(target, 0);
    int root = geteuid() == 0;
    fx_write(fx.tmp, "elsewhere/sky.sfc", snes_rom, sizeof snes_rom);
    snprintf(link, sizeof link, "%s/linked", src);
    snprintf(target, sizeof target, "%s/elsewhere", fx.tmp);
    assert_int_equal(symlink(target, link), 0);
    char missing[800];
    snprintf(missing, sizeof missing, "%s/does-not-exist", src);
    rg_strlist before = {0};
    snapshot(&before);
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){src, missing}, 2, NULL, &rep, &s), RG_OK);
    dump(&s);
    assert_int_equal(warned(&s, "junk.zip: not a valid zip archive"), 1);
    assert_int_equal(warned(&s, "truncated.zip: not a valid zip archive"), 1);
    assert_int_equal(warned(&s, "damaged.zip:body.bin"), 1);
    assert_int_equal(warned(&s, "nest.zip:fake.zip: not a valid zip archive"), 1);
    assert_int_equal(warned(&s, "dangling.sfc"), 1);
    assert_int_equal(warned(&s, "does-not-exist"), 1);
    assert_int_equal(warned(&s, "secret/sky.sfc"), root ? 0 : 1);
    /* damaged.zip's second member is intact; the secret ROM is read only by root. */
    assert_int_equal(rep.imported, root ? 2 : 1);
    if (root)
        expect_added(&before, PATHS("data/stable/Star-Nes/rom.nes", "data/stable/Sky-Snes/rom.sfc"));
    else
        expect_added(&before, PATHS("data/stable/Star-Nes/rom.nes"));
    rg__strlist_clear(&before);
    assert_int_equal(rep.files, 6);
    /* Bad arguments. */
    assert_int_equal(rg_integration_import(NULL, NULL, 0, NULL, &rep), RG_EINVAL);
    rg_integration_import_options o = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    o.version = 99;
    assert_int_equal(rg_integration_import(fx.dp, NULL, 0, &o, &rep), RG_EINVAL);
    assert_int_equal(rg_integration_import(fx.dp, NULL, 0, NULL, &rep), RG_OK);
    assert_int_equal(rep.files, 0);
}

static void unwritable_destination(void **state)
{
    (void)state;
    fx_game(&fx, "stable", "Star-Nes", nes_sha);
    fx_write(src, "star.nes", nes_rom, sizeof nes_rom);
    /* A folder where the ROM file should go: the write fails, the import reports it and goes on. */
    char p[800];
    snprintf(p, sizeof p, "%s/stable/Star-Nes/rom.nes", fx.root);
    test_mkdirs(p);
    fx_text(p, "keep", "x");
    rg_integration_import_report rep;
    sink s;
    assert_int_equal(run_import((const char *[]){src}, 1, NULL, &rep, &s), RG_EIO);
    assert_int_equal(warned(&s, "cannot import Star-Nes"), 1);
    assert_int_equal(rep.imported, 0);
    assert_true(fx_exists(p, "keep"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(plain_files_and_folders, reset),
        cmocka_unit_test_setup(precedence_and_unknown_systems, reset),
        cmocka_unit_test_setup(zips_nested_and_slip, reset),
        cmocka_unit_test_setup(nesting_limit, reset),
        cmocka_unit_test_setup(zip_bomb, reset),
        cmocka_unit_test_setup(nested_zip_memory_bounded, reset),
        cmocka_unit_test_setup(archive_budget, reset),
        cmocka_unit_test_setup(broken_inputs, reset),
        cmocka_unit_test_setup(unwritable_destination, reset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
