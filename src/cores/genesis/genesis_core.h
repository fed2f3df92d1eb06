/* The Genesis / Mega Drive core's entry point (genesis_core.c), registered in src/emu/native.c as core "genesis". */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_CORE_H
#define RG_SRC_CORES_GENESIS_GENESIS_CORE_H

#include "emu/core_iface.h"

/* Opens a plain (not interleaved) .md / .gen / .bin ROM image; core_path is unused. */
int rg__genesis_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args);

#endif
