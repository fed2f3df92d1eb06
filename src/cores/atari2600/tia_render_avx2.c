/* tia_render.c's second instance, for CPUs with AVX2 (a26.h: the machine picks it at each call where the CPU has
 * AVX2): the same source, the whole file compiled for AVX2 (VEX encodings, GCC's 256-bit vectorisation of its loops).
 * Measured on Cascade Lake against the baseline instance (bench_a26 --ours, 5 alternating rounds of 1200 frames),
 * drawn every frame: Ms. Pac-Man +5.2%, Pitfall +4.1%, Robotank +3.5%, Seaquest +3.3%, Pong +2.2%. Hand-written AVX2
 * stores in its fill added nothing (within 0.6%), nor did the fill alone in an AVX2 function with the rest of the
 * file baseline (0-2%). */
#include "cores/atari2600/a26.h"

#if RG__TIA_AVX2
#pragma GCC target("avx2")
#define RG__TIA_RENDER_AVX2 1
#include "cores/atari2600/tia_render.c"
#endif
