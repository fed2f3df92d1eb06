/* The .masks files of tests/movie/data: the frames a reference movie must hold (see movie_tool.c), and reading a
 * zip entry's bytes for comparisons. Header-only so the tool and the tests share it without a library. */
#ifndef RG_TESTS_MOVIE_MASKS_H
#define RG_TESTS_MOVIE_MASKS_H

#include "retrogym/error.h"
#include "retrogym/movie.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

typedef struct movie_masks {
    char system[32];
    char game[128];
    unsigned players;
    uint16_t *masks; /* frames * players */
    size_t frames;
} movie_masks;

static inline void movie_masks_free(movie_masks *mm)
{
    free(mm->masks);
    mm->masks = NULL;
}

/* Returns 0 on success. */
static inline int movie_masks_load(const char *path, movie_masks *mm)
{
    memset(mm, 0, sizeof *mm);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int rc = -1;
    if (fgets(line, sizeof line, f) &&
        sscanf(line, "%31s %u %127s", mm->system, &mm->players, mm->game) == 3 && mm->players >= 1 &&
        mm->players <= RG_MOVIE_MAX_PLAYERS) {
        if (strcmp(mm->game, "-") == 0)
            mm->game[0] = '\0';
        size_t cap = 0;
        rc = 0;
        while (rc == 0 && fgets(line, sizeof line, f)) {
            if (line[0] == '\n')
                continue;
            if (mm->frames == cap) {
                cap = cap ? cap * 2 : 256;
                uint16_t *grown = realloc(mm->masks, cap * mm->players * sizeof *grown);
                if (!grown) {
                    rc = -1;
                    break;
                }
                mm->masks = grown;
            }
            char *p = line;
            for (unsigned i = 0; i < mm->players; i++) {
                char *end;
                unsigned long v = strtoul(p, &end, 16);
                if (end == p || v > 0xffff) {
                    rc = -1;
                    break;
                }
                mm->masks[mm->frames * mm->players + i] = (uint16_t)v;
                p = end;
            }
            mm->frames++;
        }
    }
    fclose(f);
    if (rc != 0)
        movie_masks_free(mm);
    return rc;
}

/* The bytes of one entry of a zip file (malloc'd, NUL-terminated), or NULL when absent or unreadable. */
static inline char *zip_entry_bytes(const char *path, const char *entry, size_t *size)
{
    int err = 0;
    zip_t *za = zip_open(path, ZIP_RDONLY, &err);
    if (!za)
        return NULL;
    char *buf = NULL;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(za, entry, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE)) {
        zip_file_t *zf = zip_fopen(za, entry, 0);
        buf = zf ? malloc((size_t)st.size + 1) : NULL;
        if (buf && zip_fread(zf, buf, st.size) == (zip_int64_t)st.size) {
            buf[st.size] = '\0';
            *size = (size_t)st.size;
        } else {
            free(buf);
            buf = NULL;
        }
        if (zf)
            zip_fclose(zf);
    }
    zip_discard(za);
    return buf;
}

#endif
