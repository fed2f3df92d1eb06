/* The CPU loop for the carts without a kind of their own (3F, E7, CV, UA): every cartridge
 * access through the cart's fast path or its slow one, every access below $1000 shown to carts that snoop. */
#define BUS_KIND BUS_ANY
#define M6502_FN rg__a26_cpu_run_any
#include "cores/atari2600/a26_cpu_loop.h"
