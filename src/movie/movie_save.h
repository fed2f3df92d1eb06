/* For other layers of the library: saving a movie with one more entry of their own (the environment's recorded
 * rewards, retrogym.txt), written whole through the atomic writer like rg_movie_save; and that entry's text
 * (movie_scores.c, which also reads it back: rg_movie_scores_read in movie.h). */
#ifndef RG_MOVIE_SAVE_H
#define RG_MOVIE_SAVE_H

#include "retrogym/movie.h"
#include "retrogym/scenario.h"

#include <stddef.h>
#include <stdint.h>

int rg__movie_save_with(const rg_movie *m, const char *path, const char *entry, const char *text);

/* retrogym.txt, the rewards recorded beside a movie: one frame's rewards and done. */
typedef struct rg__score {
    uint64_t frame;
    float rewards[RG_SCENARIO_MAX_PLAYERS];
    int done;
} rg__score;
/* The entry's text for frames first .. frames - 1 (scores: the frames with a reward or done, ascending); malloc'd,
 * NULL when out of memory. */
char *rg__scores_text(const char *core, unsigned players, uint64_t first, uint64_t frames, const rg__score *scores,
                      size_t n);
/* The movie entry holding that text (stable-retro ignores it). */
#define RG__SCORES_ENTRY "retrogym.txt"

#endif
