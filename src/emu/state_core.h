/* Cores that can be opened, for src/emu/state_core.c (rg_core_for_state_file) and the environment's fallback. */
#ifndef RG_SRC_EMU_STATE_CORE_H
#define RG_SRC_EMU_STATE_CORE_H

#include "retrogym/system.h"

/* Whether a core can be opened: built in, or a shared object on the search path. */
int rg__core_available(const char *name);
/* rg_core_for_state_file for a state in memory (raw, its first n bytes): a movie's Core.bin. */
const char *rg__core_for_state_data(const void *data, size_t n, const rg_system_info *sys);

#endif
