/* Writing a .bk2 exactly as stable-retro does: Header.txt's eight lines, Input Log.txt with "[Input]", the key line
 * (no "LogKey:" prefix, columns in descending joypad id), "|..|" frame lines and a final "[/Input]" without a line
 * break; entries in stable-retro's order (Input Log.txt, Header.txt, Core.bin when there is a state), deflated.
 * The whole archive is built in memory and written by the caller atomically.
 *
 * retrogym's extension: when a frame presses a button stable-retro cannot record (Atari RESET, SMS PAUSE, PC Engine
 * I-VI and RUN), every column of the system is written, still in descending id; otherwise the columns are exactly
 * stable-retro's, so such movies stay byte-identical. Unlike stable-retro, a movie of zero frames still gets its
 * Header.txt and key line (stable-retro writes them at the first frame, leaving files its own reader refuses). */
#include "movie_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int failed;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (rg__reserve(&b->p, &b->cap, b->len + n + 1, 1) != RG_OK) {
        b->failed = 1;
        return;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void puts_(sbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

static int finish(sbuf *b, char **text, size_t *len)
{
    if (b->failed) {
        free(b->p);
        return rg__error(RG_ENOMEM, "out of memory writing a movie");
    }
    *text = b->p;
    *len = b->len;
    return RG_OK;
}

int rg__bk2_header_text(const rg_movie *m, char **text, size_t *len)
{
    sbuf b = {0};
    puts_(&b, "MovieVersion Retro\nAuthor ?\nemuVersion ?\nPlatform ");
    puts_(&b, rg__movie_platform_code(m->sys));
    puts_(&b, "\nGameName ");
    puts_(&b, m->game ? m->game : "");
    puts_(&b, "\nSHA1 ?\nCore ?\nrerecordCount 1\n");
    return finish(&b, text, len);
}

int rg__bk2_log_text(const rg_movie *m, char **text, size_t *len)
{
    rg__movie_column all[RG__MOVIE_MAX_COLUMNS], cols[RG__MOVIE_MAX_COLUMNS];
    size_t n_all = rg__movie_columns(m->sys, all), n = 0;
    uint16_t stable = rg__movie_stable_mask(m->sys);
    int extended = 0;
    for (size_t i = 0; i < m->frames * m->players && !extended; i++)
        extended = (m->masks[i] & ~stable) != 0;
    for (size_t i = 0; i < n_all; i++)
        if (extended || all[i].stable)
            cols[n++] = all[i];

    sbuf b = {0};
    puts_(&b, "[Input]\n");
    char prefix[16];
    for (unsigned p = 0; p < m->players; p++) {
        int w = snprintf(prefix, sizeof prefix, "P%u ", p + 1);
        for (size_t c = 0; c < n; c++) {
            put(&b, prefix, (size_t)w);
            puts_(&b, cols[c].name);
            put(&b, "|", 1);
        }
    }
    put(&b, "\n", 1);
    char line[8 + RG_MOVIE_MAX_PLAYERS * (RG__MOVIE_MAX_COLUMNS + 1)];
    for (size_t f = 0; f < m->frames; f++) {
        size_t o = 0;
        line[o++] = '|';
        line[o++] = m->cmds[f] & RG_MOVIE_CMD_RESET ? 'r' : '.';
        line[o++] = m->cmds[f] & RG_MOVIE_CMD_POWER ? 'P' : '.';
        line[o++] = '|';
        for (unsigned p = 0; p < m->players; p++) {
            uint16_t mask = m->masks[f * m->players + p];
            for (size_t c = 0; c < n; c++)
                line[o++] = mask >> cols[c].id & 1 ? cols[c].mnemonic : '.';
            line[o++] = '|';
        }
        line[o++] = '\n';
        put(&b, line, o);
    }
    puts_(&b, "[/Input]");
    return finish(&b, text, len);
}

/* Adds an entry from a buffer that must live until zip_close. */
static int add_entry(zip_t *za, const char *name, const void *data, size_t size)
{
    zip_source_t *s = zip_source_buffer(za, data, size, 0);
    if (!s)
        return -1;
    zip_int64_t idx = zip_file_add(za, name, s, 0);
    if (idx < 0) {
        zip_source_free(s);
        return -1;
    }
    return zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_DEFLATE, 0);
}

int rg__bk2_zip(const rg_movie *m, uint8_t **data, size_t *size)
{
    return rg__bk2_zip_extra(m, NULL, NULL, data, size);
}

int rg__bk2_zip_extra(const rg_movie *m, const char *entry, const char *text, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    char *header = NULL, *log = NULL;
    size_t header_len, log_len;
    int rc = rg__bk2_log_text(m, &log, &log_len);
    if (rc == RG_OK)
        rc = rg__bk2_header_text(m, &header, &header_len);
    if (rc != RG_OK) {
        free(log);
        return rc;
    }

    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *mem = zip_source_buffer_create(NULL, 0, 0, &err);
    zip_t *za = NULL;
    if (mem) {
        zip_source_keep(mem); /* it must outlive zip_close, which writes the archive into it */
        za = zip_open_from_source(mem, ZIP_TRUNCATE, &err);
        if (!za)
            zip_source_free(mem); /* the reference the archive would have owned */
    }
    int ok = za && add_entry(za, "Input Log.txt", log, log_len) == 0 &&
             add_entry(za, "Header.txt", header, header_len) == 0 &&
             (m->state_size == 0 || add_entry(za, "Core.bin", m->state, m->state_size) == 0) &&
             (!entry || add_entry(za, entry, text, strlen(text)) == 0);
    if (za && !ok) {
        rc = rg__error(RG_ENOMEM, "cannot build the movie archive: %s", zip_strerror(za));
        zip_discard(za);
    } else if (za && zip_close(za) != 0) {
        rc = rg__error(RG_ENOMEM, "cannot build the movie archive: %s", zip_strerror(za));
        zip_discard(za);
    } else if (!za) {
        rc = rg__error(RG_ENOMEM, "cannot build the movie archive: %s", zip_error_strerror(&err));
    }
    zip_error_fini(&err);

    /* Copy the archive out of the memory source. */
    if (rc == RG_OK) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_source_stat(mem, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) || zip_source_open(mem) != 0) {
            rc = rg__error(RG_ENOMEM, "cannot read the movie archive back");
        } else {
            uint8_t *buf = malloc(st.size ? (size_t)st.size : 1);
            zip_int64_t got = buf ? zip_source_read(mem, buf, st.size) : -1;
            zip_source_close(mem);
            if (!buf || got < 0 || (zip_uint64_t)got != st.size) {
                free(buf);
                rc = rg__error(RG_ENOMEM, "cannot read the movie archive back");
            } else {
                *data = buf;
                *size = (size_t)st.size;
            }
        }
    }
    if (mem)
        zip_source_free(mem);
    free(header);
    free(log);
    return rc;
}
