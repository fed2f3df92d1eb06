/* The core that saved a state file, by the signature its states start with (src/emu/state_core.c). */
#ifndef RG_SRC_EMU_STATE_CORE_H
#define RG_SRC_EMU_STATE_CORE_H

#include "retrogym/system.h"

/* Whether a core can be opened: built in, or a shared object on the search path. */
int rg__core_available(const char *name);

/* The installed core of sys's list whose own states start as the state file at path does (nestopia's "NST",
 * FCEUmm's "FCS", ...), or NULL: no signature known, not a regular file, or that core is not installed. */
const char *rg__state_file_core(const char *path, const rg_system_info *sys);

#endif
