/* retrogym play: runs an integrated game with its scenario (reward, done) under scripted or random input. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: retrogym play GAME [options]\n"
    "\n"
    "Plays an integrated game (e.g. StarCatcher-Nes) from its start state and scores it with its scenario, the\n"
    "way an environment does: load the state, one frame with no buttons, reset the scenario, then one scenario\n"
    "update per frame. Prints each episode's length, total reward and the game variables at its end.\n"
    "\n"
    "options:\n"
    "  --state NAME         start state (default: metadata.json's default; 'none' for power-on)\n"
    "  --scenario NAME      scenario file in the game folder, without .json (default: scenario)\n"
    "  --frames N           frames per episode at most (default 18000)\n"
    "  --episodes N         episodes to play (default 1)\n"
    "  --buttons SPEC       scripted input as in 'retrogym run' (frames count from the episode's first step)\n"
    "  --random SEED        random DISCRETE actions from the game's action groups (instead of --buttons)\n"
    "  --repeat N           hold each random action N frames (default 4)\n"
    "  --input FILE         one line per step: the button mask of port 0, optionally followed by those of ports 1..7\n"
    "                       (decimal or 0x hex); the episode ends when the file does\n"
    "  --trace              print every step: frame, reward of players 1 and 2, done, the variables\n"
    "  --png FILE           write the last frame as PNG\n"
    "  --core NAME          core to use\n"
    "  --core-option K=V    answer the core's option K with V (repeatable)\n" CLI_DATA_OPTIONS_HELP;

typedef struct play_args {
    const char *game, *state, *scenario, *png, *core, *input;
    int trace;
    uint64_t frames, episodes, repeat, seed;
    int random;
    cli_core_options core_options;
    const char *button_text[CLI_MAX_BUTTON_SPECS];
    cli_list buttons;
    cli_data_args data;
} play_args;

static int parse_args(play_args *a, int argc, char **argv)
{
    a->frames = 18000;
    a->episodes = 1;
    a->repeat = 4;
    a->scenario = "scenario";
    a->buttons = (cli_list){a->button_text, 0, CLI_MAX_BUTTON_SPECS};
    const cli_opt opts[] = {
        {"--trace", CLI_OPT_FLAG, &a->trace, NULL},
        {"--frames", CLI_OPT_U64, &a->frames, NULL},
        {"--episodes", CLI_OPT_U64, &a->episodes, NULL},
        {"--repeat", CLI_OPT_U64, &a->repeat, NULL},
        {"--random", CLI_OPT_U64, &a->seed, &a->random},
        {"--state", CLI_OPT_STR, &a->state, NULL},
        {"--scenario", CLI_OPT_STR, &a->scenario, NULL},
        {"--png", CLI_OPT_STR, &a->png, NULL},
        {"--core", CLI_OPT_STR, &a->core, NULL},
        {"--input", CLI_OPT_STR, &a->input, NULL},
        {"--buttons", CLI_OPT_LIST, &a->buttons, NULL},
        {"--core-option", CLI_OPT_CORE_OPTION, &a->core_options, NULL},
    };
    const cli_command cmd = {"play", help, opts, sizeof opts / sizeof opts[0], &a->game, "game", &a->data};
    int rc = cli_parse_command(&cmd, argc, argv);
    if (rc != 0)
        return rc;
    if (!a->game)
        return cli_fail("play: which game? (see retrogym games)");
    if ((a->random != 0) + (a->buttons.count != 0) + (a->input != NULL) > 1)
        return cli_fail("play: --random, --buttons and --input exclude each other");
    if (a->repeat == 0 || a->episodes == 0)
        return cli_fail("play: --repeat and --episodes must be at least 1");
    return 0;
}

/* Everything an episode needs, opened from the integration folder. */
typedef struct game {
    rg_emu *emu;
    rg_gamedata *gd;
    rg_scenario *sc;
    rg_actionset *as;
    uint8_t *state;
    size_t state_len;
} play_game;

static void close_game(play_game *g)
{
    rg_actionset_free(g->as);
    rg_scenario_free(g->sc);
    rg_gamedata_free(g->gd);
    rg_emu_free(g->emu);
    free(g->state);
}

static int game_file(const rg_integration_paths *dp, const char *game, const char *name, const char *ext, unsigned flags,
                     char **path)
{
    char file[512];
    size_t n = strlen(name), e = strlen(ext);
    snprintf(file, sizeof file, "%s%s", name, n > e && strcmp(name + n - e, ext) == 0 ? "" : ext);
    return rg_integration_file_path(dp, game, file, flags, path);
}

/* Opens the game on a core (NULL: the system's preferred installed one). 0; 1 after printing the error; 2 when the
 * start state does not load in that core (nothing printed; the message is rg_error_last()). */
static int open_game_on(play_game *g, const play_args *a, const rg_integration_paths *dp, unsigned flags, const char *core)
{
    char *rom = NULL, *data = NULL, *scen = NULL, *state = NULL, *state_name = NULL;
    int rc = 1;
    if (rg_integration_rom_path(dp, a->game, flags, &rom) != RG_OK) {
        cli_fail("%s", rg_error_last());
        goto out;
    }
    /* The start state: named, metadata.json's default, or none ("none", or no default: power-on). A damaged
     * metadata.json is an error. */
    const char *want = a->state;
    if (!want) {
        int drc = rg_integration_default_state(dp, a->game, 1, flags, &state_name);
        if (drc == RG_OK) {
            want = state_name;
        } else if (drc != RG_ENOTFOUND) {
            cli_fail("%s", rg_error_last());
            goto out;
        }
    }
    if (want && strcmp(want, "none") != 0 && game_file(dp, a->game, want, ".state", flags, &state) != RG_OK) {
        cli_fail("game %s has no state \"%s\" (see retrogym states %s)", a->game, want, a->game);
        goto out;
    }
    /* No core named: the one that saved the start state, when its file says so (as rg_env_create picks it). */
    const rg_system_info *game_sys;
    if (!core && state && rg_integration_game_system(a->game, &game_sys) == RG_OK)
        core = rg_core_for_state_file(state, game_sys);
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = core;
    o.core_options = a->core_options.items;
    o.n_core_options = a->core_options.count;
    if (rg_emu_open(&g->emu, rom, &o) != RG_OK || rg_gamedata_create(&g->gd) != RG_OK ||
        rg_scenario_create(&g->sc) != RG_OK) {
        cli_fail("%s", rg_error_last());
        goto out;
    }
    rg_gamedata_bind_emu(g->gd, g->emu);
    if (game_file(dp, a->game, "data", ".json", flags, &data) == RG_OK &&
        rg_gamedata_load_file(g->gd, data, 0) != RG_OK) {
        cli_fail("%s", rg_error_last());
        goto out;
    }
    if (game_file(dp, a->game, a->scenario, ".json", flags, &scen) != RG_OK) {
        cli_fail("game %s has no %s.json", a->game, a->scenario); /* rg_env_create's words */
        goto out;
    }
    if (rg_scenario_load_file(g->sc, scen, 0) != RG_OK ||
        rg_actionset_create(&g->as, rg_emu_system(g->emu), g->sc) != RG_OK) {
        cli_fail("%s", rg_error_last());
        goto out;
    }
    for (size_t i = 0; i < rg_gamedata_warning_count(g->gd); i++)
        fprintf(stderr, "retrogym: warning: data.json: %s\n", rg_gamedata_warning(g->gd, i));
    for (size_t i = 0; i < rg_scenario_warning_count(g->sc); i++)
        fprintf(stderr, "retrogym: warning: %s: %s\n", a->scenario, rg_scenario_warning(g->sc, i));
    if (state) {
        /* Keep the state in memory: every episode starts from it. */
        int lrc = rg_emu_state_load_file(g->emu, state);
        if (lrc == RG_ESTATE) {
            rc = 2;
            goto out;
        }
        if (lrc != RG_OK || rg_emu_state_size(g->emu, &g->state_len) != RG_OK ||
            !(g->state = malloc(g->state_len)) ||
            rg_emu_state_save(g->emu, g->state, g->state_len, &g->state_len) != RG_OK) {
            cli_fail("state %s: %s", want, rg_error_last());
            goto out;
        }
    }
    rc = 0;
out:
    free(rom);
    free(data);
    free(scen);
    free(state);
    free(state_name);
    return rc;
}

/* As rg_env_create: a start state the chosen core refuses (its file names no core we know, or it is damaged) is
 * tried with the system's other installed cores, unless --core names one. */
static int open_game(play_game *g, const play_args *a, const rg_integration_paths *dp, unsigned flags)
{
    int rc = open_game_on(g, a, dp, flags, a->core);
    if (rc != 2)
        return rc;
    char first_error[512];
    snprintf(first_error, sizeof first_error, "%s", rg_error_last());
    const rg_system_info *sys = g->emu ? rg_emu_system(g->emu) : NULL;
    const char *first = g->emu ? rg_emu_core_name(g->emu) : "";
    char first_core[128];
    snprintf(first_core, sizeof first_core, "%s", first);
    close_game(g);
    memset(g, 0, sizeof *g);
    for (size_t i = 0; !a->core && sys && i < sys->n_cores; i++) {
        char path[4096];
        if (strcmp(sys->cores[i], first_core) == 0 || rg_core_resolve(sys->cores[i], path, sizeof path) != RG_OK)
            continue;
        rc = open_game_on(g, a, dp, flags, sys->cores[i]);
        if (rc != 2) {
            if (rc == 0)
                fprintf(stderr, "retrogym: %s: the start state does not load in core %s, so core %s runs the game "
                        "instead (reason: %s)\n", a->game, first_core, sys->cores[i], first_error);
            return rc;
        }
        close_game(g);
        memset(g, 0, sizeof *g);
    }
    if (a->core)
        return cli_fail("%s", first_error);
    return cli_fail("%s (no other installed core of %s loads it either; the state may have been saved by another "
                    "core)", first_error, sys ? sys->name : "the system");
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void print_variables(const rg_gamedata *gd)
{
    for (size_t i = 0; i < rg_gamedata_variable_count(gd); i++) {
        rg_variable v;
        int64_t value;
        rg_gamedata_variable_at(gd, i, &v);
        if (rg_gamedata_get(gd, v.name, &value) == RG_OK)
            fprintf(cli_out, "  %s=%lld", v.name, (long long)value);
    }
    fputc('\n', cli_out);
}

/* Reads the next line of --input into the ports' masks: 1 when read, 0 at the end, -1 after an error. */
static int read_input_line(FILE *f, uint64_t step, uint16_t masks[RG_MAX_PORTS])
{
    char line[512];
    if (!fgets(line, sizeof line, f))
        return 0;
    memset(masks, 0, RG_MAX_PORTS * sizeof *masks);
    char *p = line, *end;
    for (unsigned port = 0; port < RG_MAX_PORTS; port++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\n' || *p == '\r' || *p == '\0')
            return port > 0 ? 1 : -cli_fail("--input: line %llu is empty", (unsigned long long)step + 1);
        unsigned long v = strtoul(p, &end, 0);
        if (end == p || v > 0xFFFF)
            return -cli_fail("--input: line %llu: \"%.40s\" is not a 16-bit mask", (unsigned long long)step + 1, p);
        masks[port] = (uint16_t)v;
        p = end;
    }
    return 1;
}

static int play_episode(play_game *g, const play_args *a, const button_spec *specs, size_t n_specs, uint64_t *rng,
                        uint64_t episode)
{
    FILE *input = NULL;
    if (a->random && rg_actionset_discrete_count(g->as) == 0)
        return cli_fail("--random: the game's %zu action groups make more DISCRETE actions than the limit of %llu "
                        "(2^63-1)",
                        rg_actionset_group_count(g->as), (unsigned long long)RG_ACTIONS_MAX_DISCRETE);
    if (a->input && !(input = fopen(a->input, "r")))
        return cli_fail("--input %s: cannot open", a->input);
    int rc = 0;
    if (g->state && rg_emu_state_load(g->emu, g->state, g->state_len) != RG_OK) {
        rc = cli_fail("state: %s", rg_error_last());
        goto out;
    }
    for (unsigned p = 0; p < RG_MAX_PORTS; p++)
        rg_emu_set_buttons(g->emu, p, 0);
    if (rg_emu_run(g->emu) != RG_OK || rg_scenario_reset(g->sc, g->gd) != RG_OK ||
        rg_scenario_update(g->sc, g->gd) != RG_OK) {
        rc = cli_fail("reset: %s", rg_error_last());
        goto out;
    }
    size_t next = 0;
    uint64_t frame = 0;
    uint16_t held = 0;
    for (; frame < a->frames && !rg_scenario_done(g->sc); frame++) {
        if (a->random) {
            if (frame % a->repeat == 0) {
                uint64_t action = next_random(rng) % rg_actionset_discrete_count(g->as);
                held = (uint16_t)rg_actionset_discrete(g->as, &action);
            }
            rg_emu_set_buttons(g->emu, 0, held);
        }
        if (input) {
            uint16_t masks[RG_MAX_PORTS];
            int got = read_input_line(input, frame, masks);
            if (got <= 0) {
                rc = -got;
                break;
            }
            for (unsigned p = 0; p < RG_MAX_PORTS; p++)
                rg_emu_set_buttons(g->emu, p, masks[p]);
        }
        for (; next < n_specs && specs[next].frame <= frame; next++)
            rg_emu_set_buttons(g->emu, specs[next].port, specs[next].mask);
        if (rg_emu_run(g->emu) != RG_OK || rg_scenario_update(g->sc, g->gd) != RG_OK) {
            rc = cli_fail("frame %llu: %s", (unsigned long long)frame, rg_error_last());
            goto out;
        }
        if (a->trace) {
            fprintf(cli_out, "%llu %g %g %d", (unsigned long long)frame, (double)rg_scenario_reward(g->sc, 0),
                    (double)rg_scenario_reward(g->sc, 1), rg_scenario_done(g->sc));
            print_variables(g->gd);
        }
    }
    if (rc != 0)
        goto out;
    fprintf(cli_out, "episode %llu: %llu frames, reward %g, %s\n", (unsigned long long)episode,
            (unsigned long long)frame, (double)rg_scenario_total_reward(g->sc, 0),
            rg_scenario_done(g->sc) ? "done" : "not done");
    print_variables(g->gd);
out:
    if (input)
        fclose(input);
    return rc;
}

int cmd_play(int argc, char **argv)
{
    play_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(&a, argc, argv);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    rg_integration_paths *dp;
    unsigned flags;
    if (cli_data_open(&a.data, RG_INTEGRATIONS_DEFAULT, &dp, &flags) != 0)
        return 1;
    play_game g;
    memset(&g, 0, sizeof g);
    rc = open_game(&g, &a, dp, flags);
    button_spec specs[CLI_MAX_BUTTON_SPECS];
    size_t n_specs = 0;
    for (size_t i = 0; rc == 0 && i < a.buttons.count; i++)
        rc = cli_parse_buttons(a.button_text[i], rg_emu_system(g.emu), &specs[n_specs++]);
    cli_sort_buttons(specs, n_specs);
    uint64_t rng = a.seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    for (uint64_t e = 1; rc == 0 && e <= a.episodes; e++)
        rc = play_episode(&g, &a, specs, n_specs, &rng, e);
    if (rc == 0 && a.png) {
        rg_frame f;
        rg_emu_frame(g.emu, &f);
        size_t size = (size_t)f.width * f.height * 3;
        uint8_t *rgb = malloc(size ? size : 1);
        rc = rgb && rg_emu_frame_rgb24(g.emu, rgb, size) == RG_OK ? cli_write_png(a.png, rgb, f.width, f.height)
                                                                   : cli_fail("--png: %s", rg_error_last());
        free(rgb);
    }
    close_game(&g);
    rg_integration_paths_free(dp);
    return rc;
}
