/* Index-based access to a gamedata's variables, for the scenario evaluator (names are resolved once). */
#ifndef RG_SRC_GAME_GAMEDATA_INTERNAL_H
#define RG_SRC_GAME_GAMEDATA_INTERNAL_H

#include <retrogym/gamedata.h>

/* Index of a data.json variable, or -1. Indices stay valid while rg__gd_generation() is unchanged. */
long rg__gd_index(const rg_gamedata *gd, const char *name);
unsigned long rg__gd_generation(const rg_gamedata *gd);
int rg__gd_value_at(const rg_gamedata *gd, size_t i, int64_t *value);
int rg__gd_delta_at(const rg_gamedata *gd, size_t i, int64_t *delta);
int rg__gd_set_at(rg_gamedata *gd, size_t i, int64_t value);
const char *rg__gd_name_at(const rg_gamedata *gd, size_t i);

#endif
