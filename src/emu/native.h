/* Our own cores, built into the library (src/emu/native.c). */
#ifndef RG_SRC_EMU_NATIVE_H
#define RG_SRC_EMU_NATIVE_H

#include "emu/core_iface.h"
#include "retrogym/core.h"

typedef int (*rg__core_open_fn)(void **core, const rg__core_ops **ops, const rg__core_open_args *args);

typedef struct rg__native_core {
    const char *name;          /* the core name callers use: "atari2600" */
    const char *library_name;
    const char *version;
    const char *extensions;
    const char *system;        /* the system it emulates */
    rg__core_open_fn open;
} rg__native_core;

/* The built-in core of that name (case-insensitive), or NULL. */
const rg__native_core *rg__native_find(const char *name);

#endif
