/* The soak's integrations: one game per system around our test ROM (tests/roms), written into a private data root. */
#ifndef RG_SOAK_DATA_H
#define RG_SOAK_DATA_H

#include "retrogym/retrogym.h"

/* A system the soak runs, its core and the integration made for it. */
typedef struct soak_system {
    const char *system; /* "Nes" */
    const char *core;   /* the core the soak names for it */
    const char *ext;    /* the ROM's extension */
    int available;      /* the core is installed and the integration was written */
    char game[64];      /* "SoakTest-Nes" */
    long load_kib;      /* heap memory each load of the core leaves allocated (soak_calibrate) */
    int reloadable;     /* load_kib is below SOAK_LOAD_LEAK_KIB: envs of it may be created and power-cycled */
} soak_system;

/* A core that leaves this much or more behind per load is a third-party leak the soak cannot tell from ours. */
#define SOAK_LOAD_LEAK_KIB 64

extern soak_system soak_systems[];
extern const unsigned soak_system_count;

/*
 * Writes root/stable/SoakTest-<System> for every system whose core is installed: the test ROM, data.json (the ROM's
 * frame counter and pad byte), scenario.json (reward: counter delta; done: counter == 200, so episodes last 256
 * frames), long.json (no done), lua.json (a Lua reward and done with custom variables and strings), and Start.state
 * saved 40 frames after power-on (metadata.json names it). Prints what it skips. @return RG_OK or an error code
 */
int soak_data_write(const char *root, rg_integration_paths *paths);

/*
 * Measures, for every available system, the heap memory (mallinfo2) one load of its core leaves allocated: the test
 * ROM opened, run 10 frames and freed 2 times to warm up, then 6 times measured. Resident memory would not show it:
 * leaked blocks first fill memory the process had already freed. Some Debian cores leak on every load (nestopia's
 * retro_load_game never deletes a stream holding its ~1 MB game database; bsnes-mercury's static constructors and
 * beetle-pce-fast's retro_load_game leave 250-500 KiB); those are kept out of the soak's create/free and power-on
 * cycles (they still run in long-lived envs and pools). Prints a line per system.
 */
void soak_calibrate(void);

#endif
