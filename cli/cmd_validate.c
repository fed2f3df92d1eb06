/* `retrogym validate [GAME|PATH...]`: the integration checks of Gym Retro's test-suite. */
#include "cli.h"

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
    "options:\n" CLI_DATA_OPTIONS_HELP
    "  --quiet                 print errors and the summary only\n";

static void print_diags(const rg_diags *d, size_t from, int quiet)
{
    for (size_t i = from; i < rg_diags_count(d); i++) {
        const rg_diag *g = rg_diags_at(d, i);
        if (quiet && g->severity != RG_SEVERITY_ERROR)
            continue;
        fprintf(cli_out, "%s: %s: %s\n", g->file, g->severity == RG_SEVERITY_ERROR ? "error" : "warning",
                g->message);
    }
}

/* Checks one target; returns 0, or 1 after printing a failure (the game not found, out of memory). */
static int check_one(rg_datapaths *dp, unsigned flags, const char *target, rg_diags *d, int quiet)
{
    size_t from = rg_diags_count(d);
    int rc = strchr(target, '/') ? rg_validate_dir(target, d) : rg_validate_game(dp, target, flags, d);
    print_diags(d, from, quiet);
    if (rc != RG_OK)
        return cli_fail("validate %s: %s", target, rg_error_last());
    return 0;
}

int cmd_validate(int argc, char **argv)
{
    cli_data_args a = {0};
    const char *targets[256];
    size_t n_targets = 0;
    int quiet = 0;
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
        else if (argv[i][0] == '-')
            return cli_fail("validate: unknown option \"%s\"", argv[i]);
        else if (n_targets == sizeof targets / sizeof targets[0])
            return cli_fail("validate: too many arguments");
        else
            targets[n_targets++] = argv[i];
    }
    rg_datapaths *dp;
    unsigned flags;
    if (cli_data_open(&a, n_targets ? RG_INTEGRATIONS_DEFAULT : RG_INTEGRATIONS_ALL, &dp, &flags) != 0)
        return 1;
    rg_diags *d = NULL;
    rg_strlist *games = NULL;
    int failed = 0;
    size_t checked = 0;
    if (rg_diags_create(&d) != RG_OK) {
        failed = cli_fail("%s", rg_error_last());
    } else if (n_targets == 0) {
        if (rg_data_list_games(dp, flags, &games) != RG_OK)
            failed = cli_fail("%s", rg_error_last());
        for (size_t i = 0; !failed && i < rg_strlist_count(games); i++, checked++)
            failed = check_one(dp, flags, rg_strlist_at(games, i), d, quiet);
    } else {
        for (size_t i = 0; i < n_targets; i++, checked++)
            failed |= check_one(dp, flags, targets[i], d, quiet);
    }
    size_t errors = rg_diags_severity_count(d, RG_SEVERITY_ERROR);
    size_t warnings = rg_diags_severity_count(d, RG_SEVERITY_WARNING);
    if (!failed || checked)
        fprintf(cli_out, "%zu game%s checked: %zu error%s, %zu warning%s\n", checked, checked == 1 ? "" : "s",
                errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
    rg_strlist_free(games);
    rg_diags_free(d);
    rg_datapaths_free(dp);
    return failed || errors ? 1 : 0;
}
