/* A progress bar on stderr for long commands; nothing at all when stderr is not a terminal (logs, pipes, tests). */
#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(cli_progress *p, const char *label, uint64_t total)
{
    p->on = isatty(STDERR_FILENO) && total > 0;
    p->total = total;
    p->shown = (uint64_t)-1;
    p->label = label;
    cli_progress_update(p, 0);
}

void cli_progress_update(cli_progress *p, uint64_t done)
{
    if (!p->on)
        return;
    if (done > p->total)
        done = p->total;
    uint64_t per_mille = done * 1000 / p->total;
    double t = now();
    /* Redraw when the figure changes, at most ten times a second (but always the first and the last). */
    if (per_mille == p->shown || (p->shown != (uint64_t)-1 && done < p->total && t - p->drawn < 0.1))
        return;
    p->shown = per_mille;
    p->drawn = t;
    enum { WIDTH = 40 };
    char bar[WIDTH + 1];
    unsigned full = (unsigned)(done * WIDTH / p->total);
    for (unsigned i = 0; i < WIDTH; i++)
        bar[i] = i < full ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r%s [%s] %5.1f%% %llu/%llu", p->label, bar, (double)per_mille / 10.0,
            (unsigned long long)done, (unsigned long long)p->total);
    fflush(stderr);
}

void cli_progress_end(cli_progress *p)
{
    if (!p->on)
        return;
    fputs("\r\033[K", stderr); /* clear the line */
    fflush(stderr);
    p->on = 0;
}
