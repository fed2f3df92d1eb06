/* Fuzz target "movie": reading movies from memory (rg_movie_open_memory): stable-retro and BizHawk `.bk2` zips and
 * FCEUX `.fm2` text, told apart by content. An input starting with byte 0x01 is the texts of a `.bk2` instead:
 * Header.txt, Input Log.txt and optionally Core.bin (then more entries), separated by "\n====\n", stored
 * uncompressed in a zip built here, so the mutations reach the header and log parsers rather than deflate streams.
 *
 * A movie that opens is stepped to its end and every accessor is asked (buttons, keys, commands, random access,
 * headers, start state); then it is written as a `.bk2` (the zip in memory, as rg_movie_save writes it) and read
 * back: the copy must have the same system, players, frames, buttons, commands and start state. */
#include "fuzz.h"

#include "movie/movie_internal.h"

#include <retrogym/error.h>
#include <retrogym/movie.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

static const rg_movie_limits limits = {RG_MOVIE_LIMITS_VERSION, 8u << 20, 8u << 20, 1u << 20, 4u << 20, 200000};

static void walk(rg_movie *m)
{
    unsigned players = rg_movie_players(m);
    FUZZ_CHECK(players >= 1 && players <= RG_MOVIE_MAX_PLAYERS);
    FUZZ_CHECK(rg_movie_system(m) != NULL);
    FUZZ_CHECK(rg_movie_game(m) != NULL);
    static const char *const keys[] = {"Platform", "GameName", "MovieVersion", "version", "port0", "", "SHA1"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        rg_movie_header(m, keys[k]);
    const uint8_t *state;
    size_t state_size;
    FUZZ_CHECK(rg_movie_state(m, &state, &state_size) == RG_OK);
    FUZZ_CHECK((state == NULL) == (state_size == 0));
    uint64_t frames = rg_movie_frame_count(m), stepped = 0;
    int r;
    while ((r = rg_movie_step(m)) == 1) {
        stepped++;
        unsigned cmds;
        FUZZ_CHECK(rg_movie_frame_commands(m, stepped - 1, &cmds) == RG_OK && cmds == rg_movie_commands(m));
        for (unsigned p = 0; p <= players; p++) {
            uint16_t mask = 0;
            int frc = rg_movie_frame_buttons(m, stepped - 1, p, &mask);
            FUZZ_CHECK((frc == RG_OK) == (p < players));
            FUZZ_CHECK(p == players || mask == rg_movie_buttons(m, p));
            for (unsigned b = 0; b < 17; b++)
                FUZZ_CHECK(rg_movie_get_key(m, b, p) == (b < 16 && p < players && ((mask >> b) & 1)));
        }
    }
    FUZZ_CHECK(r == 0);
    FUZZ_CHECK(stepped == frames && rg_movie_position(m) == frames);
    uint16_t mask;
    unsigned cmds;
    FUZZ_CHECK(rg_movie_frame_buttons(m, frames, 0, &mask) == RG_ERANGE);
    FUZZ_CHECK(rg_movie_frame_commands(m, frames, &cmds) == RG_ERANGE);
}

static void compare(const rg_movie *a, const rg_movie *b)
{
    FUZZ_CHECK(rg_movie_system(a) == rg_movie_system(b));
    FUZZ_CHECK(rg_movie_players(a) == rg_movie_players(b));
    FUZZ_CHECK(rg_movie_frame_count(a) == rg_movie_frame_count(b));
    for (uint64_t f = 0; f < rg_movie_frame_count(a); f++) {
        unsigned ca, cb;
        FUZZ_CHECK(rg_movie_frame_commands(a, f, &ca) == RG_OK && rg_movie_frame_commands(b, f, &cb) == RG_OK);
        FUZZ_CHECK(ca == cb);
        for (unsigned p = 0; p < rg_movie_players(a); p++) {
            uint16_t ma, mb;
            FUZZ_CHECK(rg_movie_frame_buttons(a, f, p, &ma) == RG_OK && rg_movie_frame_buttons(b, f, p, &mb) == RG_OK);
            FUZZ_CHECK(ma == mb);
        }
    }
    const uint8_t *sa, *sb;
    size_t na, nb;
    FUZZ_CHECK(rg_movie_state(a, &sa, &na) == RG_OK && rg_movie_state(b, &sb, &nb) == RG_OK);
    FUZZ_CHECK(na == nb && (na == 0 || memcmp(sa, sb, na) == 0));
}

static int fuzz_movie(const uint8_t *data, size_t size)
{
    rg_movie *m = NULL;
    int rc = rg_movie_open_memory(&m, data, size, "fuzz.bk2", &limits);
    fuzz_note("open: %d %s", rc, rc == RG_OK ? "" : rg_error_last());
    if (rc != RG_OK) {
        FUZZ_CHECK(m == NULL);
        FUZZ_CHECK(rc == RG_ECORRUPT || rc == RG_ETOOBIG || rc == RG_EUNSUPPORTED || rc == RG_ENOMEM);
        return 0;
    }
    walk(m);
    uint8_t *zip;
    size_t zip_size;
    rc = rg__bk2_zip(m, &zip, &zip_size);
    FUZZ_CHECK(rc == RG_OK || rc == RG_ENOMEM);
    if (rc == RG_OK) {
        rg_movie *copy = NULL;
        rc = rg_movie_open_memory(&copy, zip, zip_size, "copy.bk2", &limits);
        if (rc != RG_OK)
            fprintf(stderr, "reading the written copy: %s\n", rg_error_last());
        FUZZ_CHECK(rc == RG_OK);
        compare(m, copy);
        rg_movie_free(copy);
        free(zip);
    }
    rg_movie_free(m);
    return 0;
}

#define PART_SEPARATOR "\n====\n"

/* The zip of the texts (see the top of the file); NULL when libzip fails. */
static uint8_t *build_bk2(const uint8_t *text, size_t size, size_t *out_size)
{
    static const char *const names[] = {"Header.txt", "Input Log.txt", "Core.bin", "extra.txt", "Header.txt"};
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *mem = zip_source_buffer_create(NULL, 0, 0, &err);
    zip_t *za = NULL;
    if (mem) {
        zip_source_keep(mem);
        if (!(za = zip_open_from_source(mem, ZIP_TRUNCATE, &err)))
            zip_source_free(mem);
    }
    zip_error_fini(&err);
    const size_t sep = sizeof PART_SEPARATOR - 1;
    const uint8_t *p = text, *end = text + size;
    for (size_t part = 0; za && part < sizeof names / sizeof *names && p <= end; part++) {
        const uint8_t *q = p;
        while (q + sep <= end && memcmp(q, PART_SEPARATOR, sep) != 0)
            q++;
        if (q + sep > end)
            q = end;
        zip_source_t *src = zip_source_buffer(za, p, (zip_uint64_t)(q - p), 0);
        zip_int64_t idx = src ? zip_file_add(za, names[part], src, 0) : -1;
        if (idx < 0) {
            zip_source_free(src);
            if (part < 4) /* the last name repeats the first: refused, which is fine */
                break;
        } else {
            zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0);
        }
        p = q + sep;
    }
    uint8_t *out = NULL;
    *out_size = 0;
    if (za && zip_close(za) != 0) {
        zip_discard(za);
        za = NULL;
    }
    zip_stat_t st;
    zip_stat_init(&st);
    if (za && zip_source_stat(mem, &st) == 0 && zip_source_open(mem) == 0) {
        out = malloc(st.size ? st.size : 1);
        if (out && zip_source_read(mem, out, st.size) == (zip_int64_t)st.size) {
            *out_size = st.size;
        } else {
            free(out);
            out = NULL;
        }
        zip_source_close(mem);
    }
    if (mem)
        zip_source_free(mem); /* our reference (the archive's went with zip_close or zip_discard) */
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *built = NULL;
    if (size >= 1 && data[0] == 0x01) {
        size_t built_size;
        if (!(built = build_bk2(data + 1, size - 1, &built_size)))
            return 0;
        data = built;
        size = built_size;
    }
    int rc = fuzz_movie(data, size);
    free(built);
    return rc;
}
