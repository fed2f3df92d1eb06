/* For other layers of the library: saving a movie with one more entry of their own (the environment's recorded
 * rewards, retrogym.txt), written whole through the atomic writer like rg_movie_save. */
#ifndef RG_MOVIE_SAVE_H
#define RG_MOVIE_SAVE_H

#include "retrogym/movie.h"

int rg__movie_save_with(const rg_movie *m, const char *path, const char *entry, const char *text);

#endif
