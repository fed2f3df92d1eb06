/* Helpers of the movie tests: a private folder, files, zips built at run time. Header-only (static functions). */
#ifndef RG_TESTS_MOVIE_TEST_UTIL_H
#define RG_TESTS_MOVIE_TEST_UTIL_H

#include "test_support.h"

#include "movie_masks.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

/* A fresh folder under $TMPDIR (removed by rmtree). */
static inline char *mt_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    char *path = malloc(4096);
    assert_non_null(path);
    snprintf(path, 4096, "%s/movie-XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(path));
    return path;
}

static inline void mt_rmtree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                mt_rmtree(sub);
            else
                unlink(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

/* Number of entries in a folder (not counting . and ..). */
static inline int mt_count_entries(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static inline void mt_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

static inline uint8_t *mt_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

typedef struct mt_entry {
    const char *name;
    const void *data;
    size_t size; /* (size_t)-1: strlen(data) */
} mt_entry;

/* Writes a zip holding the entries (deflated), in order. */
static inline void mt_build_zip(const char *path, const mt_entry *entries, size_t n)
{
    int err = 0;
    zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
    assert_non_null(za);
    for (size_t i = 0; i < n; i++) {
        size_t size = entries[i].size == (size_t)-1 ? strlen(entries[i].data) : entries[i].size;
        zip_source_t *s = zip_source_buffer(za, entries[i].data, size, 0);
        assert_non_null(s);
        zip_int64_t idx = zip_file_add(za, entries[i].name, s, ZIP_FL_ENC_RAW);
        assert_true(idx >= 0);
        zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_DEFLATE, 0);
    }
    assert_int_equal(zip_close(za), 0);
}

/* A BK2 of the given header and log texts (and Core.bin when state is non-NULL). */
static inline void mt_build_bk2(const char *path, const char *header, const char *log, const char *state)
{
    mt_entry e[3] = {{"Input Log.txt", log, (size_t)-1}, {"Header.txt", header, (size_t)-1},
                     {"Core.bin", state, (size_t)-1}};
    mt_build_zip(path, e, state ? 3 : 2);
}

#define MT_HEADER(platform, game)                                                                                   \
    "MovieVersion Retro\nAuthor ?\nemuVersion ?\nPlatform " platform "\nGameName " game                          \
    "\nSHA1 ?\nCore ?\nrerecordCount 1\n"

/* Opens a movie built from texts; returns the code (movie freed unless out is non-NULL). */
static inline int mt_open_texts(const char *dir, const char *header, const char *log, rg_movie **out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/built.bk2", dir);
    mt_build_bk2(path, header, log, NULL);
    rg_movie *m = NULL;
    int rc = rg_movie_open_read(&m, path);
    if (out)
        *out = m;
    else
        rg_movie_free(m);
    return rc;
}

static inline uint16_t mt_frame(const rg_movie *m, uint64_t frame, unsigned player)
{
    uint16_t mask = 0xdead;
    assert_int_equal(rg_movie_frame_buttons(m, frame, player, &mask), RG_OK);
    return mask;
}

#endif
