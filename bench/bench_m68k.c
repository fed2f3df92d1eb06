/* 68000 interpreter speed: instructions per second on a loop of mixed code (moves, ALU, shift, MULU, branches,
 * DBRA) over a 64 KiB RAM bus, and the emulated clock rate against a 7.67 MHz Genesis 68000.
 * Usage: bench_m68k [seconds] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../tests/cpu/m68k_testbus.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 2.0;
    static mbus b;
    mbus_load_mixed(&b);
    rg_m68k c;
    mbus_start(&c, &b, 0x1000, 0xFF00);
    b.iack_vector = -1;
    long long instr = 0;
    double t0 = now(), t1;
    do {
        b.steps = 1000000;
        mbus_run(&c, &b);
        instr += 1000000;
        t1 = now();
    } while (t1 - t0 < secs);
    double ips = (double)instr / (t1 - t0);
    printf("bench_m68k: %.1f M instructions/s, %.1f M clocks/s (%.1fx a 7.67 MHz 68000)\n", ips * 1e-6,
           (double)c.cycles / (t1 - t0) * 1e-6, (double)c.cycles / (t1 - t0) / 7.67e6);
    return 0;
}
