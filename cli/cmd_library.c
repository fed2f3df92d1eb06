/* `retrogym library`: every integration over the data roots, whether its ROM is there, the core that would run it
 * and that core's origin, with --check whether its default state starts (each game in a child process with a
 * timeout), a per-system summary and what to install or import for the rest. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "start_check.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: retrogym library [options]\n"
    "\n"
    "Lists every integration of the data roots (default: all integration folders): its system, the folder and the\n"
    "origin of its root (given, env var, user, own, stable-retro), whether its ROM is imported, the core that would\n"
    "run it and that core's origin (own, Debian, RetroArch, stable-retro, env var); then a summary per system and\n"
    "core origin (integrations, with ROM, that start) and what to install or import for the rest.\n"
    "\n"
    "options:\n"
    "  --check                 start each game that has a ROM and a core from its default state and run a few\n"
    "                          frames, in a child process per game (column start: ok, the error, or timeout)\n"
    "  --frames N              frames run by --check (default 30)\n"
    "  --timeout SEC           seconds a game may take under --check (default 30)\n"
    "  --system NAME           only the games of one system\n"
    "  --summary               only the summary table and the advice\n" CLI_DATA_OPTIONS_HELP;

typedef struct lib_args {
    cli_data_args data;
    int check, summary;
    uint64_t frames, timeout;
    const char *system;
} lib_args;

/* One row of the summary: a system and a core origin. */
typedef struct sum_row {
    char system[32];
    char origin[32];
    size_t games, with_rom, start;
} sum_row;

static sum_row *row_for(sum_row *rows, size_t *n, size_t cap, const char *system, const char *origin)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(rows[i].system, system) == 0 && strcmp(rows[i].origin, origin) == 0)
            return &rows[i];
    if (*n == cap)
        return NULL;
    sum_row *r = &rows[(*n)++];
    memset(r, 0, sizeof *r);
    snprintf(r->system, sizeof r->system, "%s", system);
    snprintf(r->origin, sizeof r->origin, "%s", origin);
    return r;
}

static int cmp_row(const void *x, const void *y)
{
    const sum_row *a = x, *b = y;
    int c = strcmp(a->system, b->system);
    return c ? c : strcmp(a->origin, b->origin);
}

int cmd_library(int argc, char **argv)
{
    lib_args a = {.frames = 30, .timeout = 30};
    const char *subject = NULL;
    const cli_opt opts[] = {
        {"--check", CLI_OPT_FLAG, &a.check, NULL},
        {"--summary", CLI_OPT_FLAG, &a.summary, NULL},
        {"--frames", CLI_OPT_U64, &a.frames, NULL},
        {"--timeout", CLI_OPT_U64, &a.timeout, NULL},
        {"--system", CLI_OPT_STR, &a.system, NULL},
    };
    const cli_command cmd = {"library", help, opts, sizeof opts / sizeof opts[0], &subject, "argument", &a.data};
    int rc = cli_parse_command(&cmd, argc, argv);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (subject)
        return cli_fail("library: unexpected argument \"%s\"", subject);
    if (a.timeout == 0 || a.timeout > 3600)
        return cli_fail("library: --timeout must be 1..3600 seconds");
    const rg_system_info *only = NULL;
    if (a.system && rg_system_find(&only, a.system) != RG_OK)
        return cli_fail("library: %s", rg_error_last());
    rg_integration_paths *dp;
    unsigned flags;
    if (cli_data_open(&a.data, RG_INTEGRATIONS_ALL, &dp, &flags) != 0)
        return 1;
    rg_integration_library *lib;
    if (rg_integration_library_create(dp, flags, &lib) != RG_OK) {
        rg_integration_paths_free(dp);
        return cli_fail("%s", rg_error_last());
    }
    size_t cap = 64, n_rows = 0, no_rom = 0;
    sum_row rows[64];
    if (!a.summary)
        fprintf(cli_out, "%-44s %-10s %-13s %-12s %-4s %-26s %-12s %s\n", "game", "system", "integration", "root",
                "rom", "core", "core origin", a.check ? "start" : "state");
    for (size_t i = 0; i < rg_integration_library_count(lib); i++) {
        const rg_integration_library_game *g = rg_integration_library_at(lib, i);
        if (only && strcmp(g->system, only->name) != 0)
            continue;
        cli_start_result res = {0};
        if (a.check && g->rom && g->core)
            cli_start_check(dp, flags, g->game, NULL, a.frames, a.timeout, &res);
        else if (a.check)
            snprintf(res.message, sizeof res.message, "-");
        const char *core = g->core;
        const char *origin = g->core_origin ? g->core_origin : "none";
        char used_path[4096];
        /* the start state sent it to another core */
        if (res.outcome == CLI_START_OK && strcmp(res.core, g->core) != 0) {
            core = res.core;
            origin = rg_core_resolve(core, used_path, sizeof used_path) == RG_OK ? rg_core_origin(used_path) : "own";
        }
        if (!a.summary)
            fprintf(cli_out, "%-44s %-10s %-13s %-12s %-4s %-26s %-12s %s\n", g->game, *g->system ? g->system : "?",
                    g->integration, rg_integration_origin_name(g->origin), g->rom ? "yes" : "no", core ? core : "-",
                    origin, a.check ? res.message : g->state ? g->state : "-");
        if (!g->rom)
            no_rom++;
        sum_row *r = row_for(rows, &n_rows, cap, *g->system ? g->system : "?", origin);
        if (r) {
            r->games++;
            r->with_rom += g->rom != NULL;
            r->start += res.outcome == CLI_START_OK;
        }
    }
    if (n_rows > 1)
        qsort(rows, n_rows, sizeof rows[0], cmp_row);
    fprintf(cli_out, "%s%-10s %-13s %12s %9s %6s\n", a.summary ? "" : "\n", "system", "core origin", "integrations",
            "with ROM", "start");
    size_t tot[3] = {0, 0, 0};
    for (size_t i = 0; i < n_rows; i++) {
        char start[16] = "-";
        if (a.check)
            snprintf(start, sizeof start, "%zu", rows[i].start);
        fprintf(cli_out, "%-10s %-13s %12zu %9zu %6s\n", rows[i].system, rows[i].origin, rows[i].games,
                rows[i].with_rom, start);
        tot[0] += rows[i].games;
        tot[1] += rows[i].with_rom;
        tot[2] += rows[i].start;
    }
    char start[16] = "-";
    if (a.check)
        snprintf(start, sizeof start, "%zu", tot[2]);
    fprintf(cli_out, "%-10s %-13s %12zu %9zu %6s\n", "all", "", tot[0], tot[1], start);
    /* What to do for the rest: a core per system without one, then the ROMs. */
    int advice = 0;
    for (size_t i = 0; i < rg_integration_library_count(lib); i++) {
        const rg_integration_library_game *g = rg_integration_library_at(lib, i);
        if (g->core || !g->hint || (only && strcmp(g->system, only->name) != 0))
            continue;
        int first = 1;
        for (size_t j = 0; j < i && first; j++) {
            const rg_integration_library_game *h = rg_integration_library_at(lib, j);
            if (!h->core && strcmp(h->system, g->system) == 0)
                first = 0;
        }
        if (first) {
            fprintf(cli_out, "%sno core for %s on this machine: %s\n", advice ? "" : "\n", g->system, g->hint);
            advice = 1;
        }
    }
    if (no_rom) {
        char roots[2048];
        rg_integration_paths_roots_text(dp, roots, sizeof roots);
        fprintf(cli_out, "%s%zu integration%s without a ROM: import your ROMs with retrogym import PATH (searched %s)\n",
                advice ? "" : "\n", no_rom, no_rom == 1 ? "" : "s", roots);
    }
    rg_integration_library_free(lib);
    rg_integration_paths_free(dp);
    return 0;
}
