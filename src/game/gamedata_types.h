/* The gamedata handle's layout, shared by the files of the gamedata module. */
#ifndef RG_SRC_GAME_GAMEDATA_TYPES_H
#define RG_SRC_GAME_GAMEDATA_TYPES_H

#include "base/base.h"
#include "emu/addrspace.h"

#include <retrogym/gamedata.h>

typedef struct rg__gd_var {
    char *name;
    uint64_t address;
    rg_datatype type;
    uint64_t mask;
    int64_t cur, prev;            /* values at the last two updates */
    unsigned char have_cur, have_prev, cur_ok, prev_ok;
} rg__gd_var;

typedef struct rg__gd_custom {
    char *name;
    rg_value value;
} rg__gd_custom;

struct rg_gamedata {
    rg__gd_var *vars; /* ascending by name */
    size_t n_vars, cap_vars;
    unsigned long generation; /* bumped whenever the variable set changes */
    rg__messages warnings;
    rg__gd_custom *custom; /* ascending by name */
    size_t n_custom, cap_custom;
    rg_emu *emu;           /* bound emulator, or */
    rg__addrspace space;   /* bound caller blocks */
    int bound_blocks;
};

void rg__gd_free_vars(rg__gd_var *vars, size_t n);
void rg__gd_free_warnings(rg_gamedata *gd);
/* Appends a variable whose name is known to be new; rg__gd_sort must follow before any lookup. */
int rg__gd_append(rg_gamedata *gd, const char *name, uint64_t address, const rg_datatype *type, uint64_t mask);
void rg__gd_sort(rg_gamedata *gd);

#endif
