/* A small tool for the movie tests and tests/movie/make_reference.py:
 *   movie_tool dump MOVIE               prints the movie in the .masks format (below) and its state size
 *   movie_tool write MASKS OUT [STATE]  writes OUT with retrogym's writer from a .masks file (STATE: a .bk2 whose
 *                                       Core.bin becomes the start state)
 * A .masks file: a first line "<System> <players> <GameName or ->", then one line per frame with each player's
 * button mask in hex (4 digits), separated by spaces. */
#include "movie_masks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
    fprintf(stderr, "movie_tool: %s: %s\n", what, rg_error_last());
    return 1;
}

static int dump(const char *path)
{
    rg_movie *m;
    if (rg_movie_open_read(&m, path) != RG_OK)
        return fail(path);
    const uint8_t *state;
    size_t state_size;
    rg_movie_state(m, &state, &state_size);
    const char *game = rg_movie_game(m);
    printf("%s %u %s\n", rg_movie_system(m)->name, rg_movie_players(m), *game ? game : "-");
    for (uint64_t f = 0; f < rg_movie_frame_count(m); f++) {
        for (unsigned p = 0; p < rg_movie_players(m); p++) {
            uint16_t mask;
            rg_movie_frame_buttons(m, f, p, &mask);
            printf(p ? " %04x" : "%04x", mask);
        }
        printf("\n");
    }
    fprintf(stderr, "state: %zu bytes\n", state_size);
    rg_movie_free(m);
    return 0;
}

static int write_movie(const char *masks_path, const char *out, const char *state_from)
{
    movie_masks mm;
    if (movie_masks_load(masks_path, &mm) != 0) {
        fprintf(stderr, "movie_tool: cannot read %s\n", masks_path);
        return 1;
    }
    rg_movie *m;
    if (rg_movie_open_write(&m, out, mm.system, mm.game, mm.players) != RG_OK) {
        movie_masks_free(&mm);
        return fail(out);
    }
    int rc = 0;
    if (state_from) {
        rg_movie *src;
        const uint8_t *state;
        size_t size;
        if (rg_movie_open_read(&src, state_from) != RG_OK)
            rc = fail(state_from);
        else {
            rg_movie_state(src, &state, &size);
            rg_movie_set_state(m, state, size);
            rg_movie_free(src);
        }
    }
    for (size_t f = 0; rc == 0 && f < mm.frames; f++) {
        for (unsigned p = 0; p < mm.players; p++)
            rg_movie_set_buttons(m, p, mm.masks[f * mm.players + p]);
        if (rg_movie_step(m) != 1)
            rc = fail("step");
    }
    if (rc == 0 && rg_movie_close(m) != RG_OK)
        rc = fail(out);
    rg_movie_free(m);
    movie_masks_free(&mm);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "dump") == 0)
        return dump(argv[2]);
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "write") == 0)
        return write_movie(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
    fprintf(stderr, "usage: movie_tool dump MOVIE | movie_tool write MASKS OUT [STATE_FROM.bk2]\n");
    return 2;
}
