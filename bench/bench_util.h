/* Small helpers shared by the C benchmarks. */
#ifndef RG_BENCH_UTIL_H
#define RG_BENCH_UTIL_H

#include <time.h>

#include "retrogym/retrogym.h"

/* Seconds on the given clock (CLOCK_MONOTONIC: elapsed; CLOCK_THREAD_CPUTIME_ID: this thread's CPU time). */
static inline double bench_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A log callback that drops everything (cores' chatter would disturb the timing output). */
static inline void bench_quiet(rg_log_level l, const char *m, void *u)
{
    (void)l, (void)m, (void)u;
}

/* qsort comparison of doubles, for medians. */
static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
