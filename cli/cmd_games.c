/* `retrogym games`, `retrogym states GAME`, `retrogym scenarios GAME`: listings of the integration data. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char games_help[] =
    "usage: retrogym games [options]\n"
    "\n"
    "Lists the integrated games (folders holding a rom.sha), sorted, one per line.\n"
    "\n"
    "options:\n"
    "  --long, -l              also the origin of the root holding each game (given, env var, user, own,\n"
    "                          stable-retro) and whether its ROM is imported (see also retrogym library)\n"
    CLI_DATA_OPTIONS_HELP;

static const char states_help[] =
    "usage: retrogym states GAME [options]\n"
    "\n"
    "Lists the save states of a game (*.state without the extension, not those starting with '_'), sorted.\n"
    "\n"
    "options:\n" CLI_DATA_OPTIONS_HELP;

static const char scenarios_help[] =
    "usage: retrogym scenarios GAME [options]\n"
    "\n"
    "Lists the scenarios of a game (*.json files with reward, rewards or done), sorted.\n"
    "\n"
    "options:\n" CLI_DATA_OPTIONS_HELP;

typedef enum { LIST_GAMES, LIST_STATES, LIST_SCENARIOS } list_kind;

static int run_list(list_kind kind, int argc, char **argv)
{
    static const char *const names[] = {"games", "states", "scenarios"};
    static const char *const helps[] = {games_help, states_help, scenarios_help};
    cli_data_args a = {0};
    const char *game = NULL;
    int long_form = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(helps[kind], cli_out);
            return 0;
        }
        if (kind == LIST_GAMES && (strcmp(argv[i], "--long") == 0 || strcmp(argv[i], "-l") == 0)) {
            long_form = 1;
            continue;
        }
        int r = cli_data_option(&a, argc, argv, &i);
        if (r < 0)
            return 1;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' || kind == LIST_GAMES || game)
            return cli_fail("%s: unexpected argument \"%s\"", names[kind], argv[i]);
        game = argv[i];
    }
    if (kind != LIST_GAMES && !game)
        return cli_fail("%s: missing GAME (see retrogym %s --help)", names[kind], names[kind]);
    rg_integration_paths *dp;
    unsigned flags;
    if (cli_data_open(&a, RG_INTEGRATIONS_DEFAULT, &dp, &flags) != 0)
        return 1;
    rg_strlist *list = NULL;
    int rc = RG_OK;
    if (long_form) {
        rg_integration_library *lib;
        rc = rg_integration_library_create(dp, flags, &lib);
        rg_integration_paths_free(dp);
        if (rc != RG_OK)
            return cli_fail("%s", rg_error_last());
        for (size_t i = 0; i < rg_integration_library_count(lib); i++) {
            const rg_integration_library_game *g = rg_integration_library_at(lib, i);
            fprintf(cli_out, "%-44s %-13s %s\n", g->game, rg_integration_origin_name(g->origin), g->rom ? "rom" : "no rom");
        }
        rg_integration_library_free(lib);
        return 0;
    }
    if (kind == LIST_GAMES) {
        rc = rg_integration_list_games(dp, flags, &list);
    } else {
        char *dir = NULL;
        rc = rg_integration_game_folder(dp, game, flags, &dir); /* "unknown game G (searched ...)", as make says */
        free(dir);
        if (rc == RG_OK)
            rc = kind == LIST_STATES ? rg_integration_list_states(dp, game, flags, &list)
                                     : rg_integration_list_scenarios(dp, game, flags, &list);
    }
    rg_integration_paths_free(dp);
    if (rc != RG_OK)
        return cli_fail("%s", rg_error_last());
    for (size_t i = 0; i < rg_strlist_count(list); i++)
        fprintf(cli_out, "%s\n", rg_strlist_at(list, i));
    rg_strlist_free(list);
    return 0;
}

int cmd_games(int argc, char **argv)
{
    return run_list(LIST_GAMES, argc, argv);
}

int cmd_states(int argc, char **argv)
{
    return run_list(LIST_STATES, argc, argv);
}

int cmd_scenarios(int argc, char **argv)
{
    return run_list(LIST_SCENARIOS, argc, argv);
}
