/* `retrogym validate [GAME|PATH...]`: the integration checks of Gym Retro's test-suite. */
#include "cli.h"
#include "start_check.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: retrogym validate [GAME|PATH...] [options]\n"
    "\n"
    "Checks integrations the way Gym Retro's test-suite does: required files (data.json, scenario.json,\n"
    "metadata.json, a state, rom.sha), data.json variables and types, every scenario, the default state, and\n"
    "when a ROM is present its SHA-1 and extension. Warnings listed in metadata.json's \"whitelist\" are\n"
    "expected; a listed warning that no longer occurs is an error.\n"
    "\n"
    "A GAME is looked up over the integrations (files found first win); an argument containing '/' is a game\n"
    "folder checked on its own. Without arguments every game of the integrations is checked (default: all).\n"
    "Findings go to stdout as FILE: error|warning: MESSAGE; the exit status is 1 when there is an error.\n"
    "\n"
    "With --states every state of each game is also loaded on the core the environment would pick and run for\n"
    "a few frames, each in a child process with a timeout: ok, refused (the error), crashed (the signal) or\n"
    "hung; the exit status is also 1 when a state crashed or hung the core. Games without a ROM are skipped.\n"
    "\n"
    "options:\n" CLI_DATA_OPTIONS_HELP
    "  --quiet                 print errors and the summary only\n"
    "  --states                load each state in a child process (see above)\n"
    "  --frames N              frames run after loading a state (default 10)\n"
    "  --timeout SEC           seconds a state may take to load and run (default 30)\n";

/* --states: the tally over all games. */
typedef struct state_tally {
    size_t checked, ok, refused, crashed, hung, no_rom;
} state_tally;

/* Loads every state of a game in a child process; prints one line per state (ok lines unless quiet). Returns 0, or
 * 1 after printing a failure to list the states. */
static int check_states(rg_integration_paths *dp, unsigned flags, const char *game, uint64_t frames, uint64_t timeout,
                        int quiet, state_tally *t)
{
    char *rom = NULL;
    if (rg_integration_rom_path(dp, game, flags, &rom) != RG_OK) { /* nothing can load its states: one line, no children */
        t->no_rom++;
        if (!quiet)
            fprintf(cli_out, "%s: states not loaded: no ROM imported\n", game);
        return 0;
    }
    free(rom);
    rg_strlist *states = NULL;
    if (rg_integration_list_states(dp, game, flags, &states) != RG_OK)
        return cli_fail("validate --states %s: %s", game, rg_error_last());
    for (size_t i = 0; i < rg_strlist_count(states); i++) {
        const char *state = rg_strlist_at(states, i);
        cli_start_result r = {0};
        cli_start_check(dp, flags, game, state, frames, timeout, &r);
        t->checked++;
        switch (r.outcome) {
        case CLI_START_OK:
            t->ok++;
            if (!quiet)
                fprintf(cli_out, "%s/%s.state: ok on %s\n", game, state, r.core);
            break;
        case CLI_START_CRASHED:
            t->crashed++;
            fprintf(cli_out, "%s/%s.state: error: crashed the core: %s\n", game, state, r.message);
            break;
        case CLI_START_HUNG:
            t->hung++;
            fprintf(cli_out, "%s/%s.state: error: hung the core: %s\n", game, state, r.message);
            break;
        default:
            t->refused++;
            fprintf(cli_out, "%s/%s.state: refused: %s\n", game, state, r.message);
            break;
        }
    }
    rg_strlist_free(states);
    return 0;
}

static void print_diags(const rg_integration_diags *d, size_t from, int quiet)
{
    for (size_t i = from; i < rg_integration_diags_count(d); i++) {
        const rg_integration_diag *g = rg_integration_diags_at(d, i);
        if (quiet && g->severity != RG_INTEGRATION_SEVERITY_ERROR)
            continue;
        fprintf(cli_out, "%s: %s: %s\n", g->file, g->severity == RG_INTEGRATION_SEVERITY_ERROR ? "error" : "warning",
                g->message);
    }
}

/* Checks one target; returns 0, or 1 after printing a failure (the game not found, out of memory). */
static int check_one(rg_integration_paths *dp, unsigned flags, const char *target, rg_integration_diags *d, int quiet,
                     const uint64_t *states_check, state_tally *t)
{
    size_t from = rg_integration_diags_count(d);
    int rc = strchr(target, '/') ? rg_integration_validate_dir(target, d) : rg_integration_validate_game(dp, target, flags, d);
    print_diags(d, from, quiet);
    if (rc != RG_OK)
        return cli_fail("validate %s: %s", target, rg_error_last());
    if (states_check && strchr(target, '/'))
        return cli_fail("validate --states: %s: name the game (with --custom-path for a folder of your own)", target);
    if (states_check)
        return check_states(dp, flags, target, states_check[0], states_check[1], quiet, t);
    return 0;
}

int cmd_validate(int argc, char **argv)
{
    cli_data_args a = {0};
    const char *targets[256];
    size_t n_targets = 0;
    int quiet = 0, states = 0;
    uint64_t frames = 10, timeout = 30;
    state_tally t = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(help, cli_out);
            return 0;
        }
        int r = cli_data_option(&a, argc, argv, &i);
        if (r < 0)
            return 1;
        if (r > 0)
            continue;
        if (strcmp(argv[i], "--quiet") == 0)
            quiet = 1;
        else if (strcmp(argv[i], "--states") == 0)
            states = 1;
        else if ((strcmp(argv[i], "--frames") == 0 || strcmp(argv[i], "--timeout") == 0) && i + 1 < argc) {
            int is_frames = argv[i][2] == 'f';
            uint64_t v;
            if (cli_parse_u64(argv[i + 1], &v) != 0 || (is_frames ? v > 100000 : v == 0 || v > 3600))
                return cli_fail("validate: %s must be %s", argv[i], is_frames ? "0..100000" : "1..3600 seconds");
            *(is_frames ? &frames : &timeout) = v;
            i++;
        } else if (argv[i][0] == '-')
            return cli_fail("validate: unknown option \"%s\"", argv[i]);
        else if (n_targets == sizeof targets / sizeof targets[0])
            return cli_fail("validate: too many arguments");
        else
            targets[n_targets++] = argv[i];
    }
    const uint64_t states_check[2] = {frames, timeout};
    const uint64_t *sc = states ? states_check : NULL;
    rg_integration_paths *dp;
    unsigned flags;
    if (cli_data_open(&a, n_targets ? RG_INTEGRATIONS_DEFAULT : RG_INTEGRATIONS_ALL, &dp, &flags) != 0)
        return 1;
    rg_integration_diags *d = NULL;
    rg_strlist *games = NULL;
    int failed = 0;
    size_t checked = 0;
    if (rg_integration_diags_create(&d) != RG_OK) {
        failed = cli_fail("%s", rg_error_last());
    } else if (n_targets == 0) {
        if (rg_integration_list_games(dp, flags, &games) != RG_OK)
            failed = cli_fail("%s", rg_error_last());
        for (size_t i = 0; !failed && i < rg_strlist_count(games); i++, checked++)
            failed = check_one(dp, flags, rg_strlist_at(games, i), d, quiet, sc, &t);
    } else {
        for (size_t i = 0; i < n_targets; i++, checked++)
            failed |= check_one(dp, flags, targets[i], d, quiet, sc, &t);
    }
    size_t errors = rg_integration_diags_severity_count(d, RG_INTEGRATION_SEVERITY_ERROR);
    size_t warnings = rg_integration_diags_severity_count(d, RG_INTEGRATION_SEVERITY_WARNING);
    if (!failed || checked)
        fprintf(cli_out, "%zu game%s checked: %zu error%s, %zu warning%s\n", checked, checked == 1 ? "" : "s",
                errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
    if (states)
        fprintf(cli_out, "%zu state%s loaded: %zu ok, %zu refused, %zu crashed, %zu hung%s\n", t.checked,
                t.checked == 1 ? "" : "s", t.ok, t.refused, t.crashed, t.hung,
                t.no_rom ? " (games without a ROM skipped)" : "");
    rg_strlist_free(games);
    rg_integration_diags_free(d);
    rg_integration_paths_free(dp);
    return failed || errors || t.crashed || t.hung ? 1 : 0;
}
