/* The CPU loop for the 4K-bank carts without snooping (F8, F6, F4 with or without SuperChip RAM, FA): the selected
 * bank's ROM copied into the machine's 4 KiB window buffer, refreshed after every access that may switch. */
#include "cores/atari2600/a26_cpu_attr.h"
#define BUS_KIND BUS_4K
#define M6502_FN rg__a26_cpu_run_4k
#include "cores/atari2600/a26_cpu_loop.h"
