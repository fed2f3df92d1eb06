/* The CPU loop for FE carts (Activision: Robot Tank, Decathlon): the 4K-bank path for the cart; below $1000 the cart
 * sees only $01FE and the access after it. */
#include "cores/atari2600/a26_cpu_attr.h"
#define BUS_KIND BUS_FE
#define M6502_FN rg__a26_cpu_run_fe
#include "cores/atari2600/a26_cpu_loop.h"
