/* The CPU loop for E0 carts (Parker Bros): four 1 KiB slices through pointers; only $1FE0-$1FFF can switch. */
#include "cores/atari2600/a26_cpu_attr.h"
#define BUS_KIND BUS_E0
#define M6502_FN rg__a26_cpu_run_e0
#include "cores/atari2600/a26_cpu_loop.h"
