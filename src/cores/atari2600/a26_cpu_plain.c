/* The CPU loop for plain 2K/4K images: ROM reads from the machine's 4 KiB copy of the window, writes ignored. Compiled
 * with GCC's guessed branch probabilities: without them (as the bank-switching loops are) Pong was 10% slower. */
#define BUS_KIND BUS_PLAIN
#define M6502_FN rg__a26_cpu_run_plain
#include "cores/atari2600/a26_cpu_loop.h"
