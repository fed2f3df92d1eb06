/* retrogym record: plays a game headless with a simple agent and records every episode as a movie. */
#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
    "usage: retrogym record GAME [options]\n"
    "\n"
    "Plays GAME headless and records every episode as a movie (.bk2, stable-retro's format) named\n"
    "<game>-<state>-<NNNNNN>.bk2 in the output folder, numbered after the files already there. Actions are\n"
    "DISCRETE (one of the game's button combinations per step). Play a movie back with 'retrogym playback'.\n"
    "\n"
    "options:\n"
    "  --agent random|brute  random: a uniformly random action every step (default); brute: Machado et al.'s\n"
    "                        \"Brute\" (a tree of the action sequences tried, each episode replaying the best one\n"
    "                        with occasional random actions; it needs a deterministic game, so no sticky actions)\n"
    "  --episodes N          episodes to play (default 1)\n"
    "  --max-steps N         steps per episode at most (default 4500)\n"
    "  --frameskip K         frames per step (default 4)\n"
    "  --seed N              seed of the agent and the environment (default 0)\n"
    "  --out DIR             folder of the movies (default: the current folder; created if missing)\n"
    "  --state NAME          start state (default: metadata.json's; 'none' for power-on)\n"
    "  --scenario NAME       scenario of the game (default: scenario)\n"
    "  --players N           players (default 1)\n"
    "  --core NAME|PATH      core to use\n"
    "  --core-option K=V     answer the core's option K with V (repeatable)\n"
    "  --quiet               print nothing but errors\n" CLI_DATA_OPTIONS_HELP;

typedef struct rec_args {
    const char *game, *state, *scenario, *core, *out, *agent;
    uint64_t episodes, max_steps, frameskip, seed, players;
    int quiet;
    cli_core_options core_options;
    cli_data_args data;
} rec_args;

static int parse_args(rec_args *a, int argc, char **argv)
{
    a->episodes = 1;
    a->max_steps = 4500;
    a->frameskip = 4;
    a->players = 1;
    a->out = ".";
    a->agent = "random";
    const cli_opt opts[] = {
        {"--quiet", CLI_OPT_FLAG, &a->quiet, NULL},
        {"--episodes", CLI_OPT_U64, &a->episodes, NULL},
        {"--max-steps", CLI_OPT_U64, &a->max_steps, NULL},
        {"--frameskip", CLI_OPT_U64, &a->frameskip, NULL},
        {"--seed", CLI_OPT_U64, &a->seed, NULL},
        {"--players", CLI_OPT_U64, &a->players, NULL},
        {"--state", CLI_OPT_STR, &a->state, NULL},
        {"--scenario", CLI_OPT_STR, &a->scenario, NULL},
        {"--core", CLI_OPT_STR, &a->core, NULL},
        {"--out", CLI_OPT_STR, &a->out, NULL},
        {"--agent", CLI_OPT_STR, &a->agent, NULL},
        {"--core-option", CLI_OPT_CORE_OPTION, &a->core_options, NULL},
    };
    const cli_command cmd = {"record", help, opts, sizeof opts / sizeof opts[0], &a->game, "game", &a->data};
    int rc = cli_parse_command(&cmd, argc, argv);
    if (rc != 0)
        return rc;
    if (!a->game)
        return cli_fail("record: which game? (see retrogym games)");
    if (strcmp(a->agent, "random") != 0 && strcmp(a->agent, "brute") != 0)
        return cli_fail("record: unknown agent \"%s\" (random or brute)", a->agent);
    if (a->episodes == 0 || a->max_steps == 0)
        return cli_fail("record: --episodes and --max-steps must be at least 1");
    if (a->frameskip == 0 || a->frameskip > 1000)
        return cli_fail("record: --frameskip must be 1..1000");
    if (a->players == 0 || a->players > RG_SCENARIO_MAX_PLAYERS)
        return cli_fail("record: --players must be 1..%d", RG_SCENARIO_MAX_PLAYERS);
    return 0;
}

static uint64_t next_random(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
    return (double)(next_random(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- Brute (Machado et al. 2018): a trie of action sequences. Each node keeps the best return of the episodes
 * that went through it and how often it was visited; an episode follows the best child, but takes a random action
 * with probability 0.005 / ln(visits + 2), and random actions once it leaves the tree. ---- */

#define BRUTE_EXPLORATION 0.005

/* Natural logarithm for x >= 1 (the CLI does not link libm): x = m * 2^e with m in [1, 2), then
 * ln m = 2 atanh((m - 1) / (m + 1)) by its series, which converges fast for m there. */
static double ln(double x)
{
    int e = 0;
    while (x >= 2.0) {
        x /= 2.0;
        e++;
    }
    double y = (x - 1.0) / (x + 1.0), y2 = y * y, term = y, sum = 0.0;
    for (int k = 1; k < 40; k += 2) {
        sum += term / k;
        term *= y2;
    }
    return e * 0.69314718055994530942 + 2.0 * sum;
}

typedef struct brute_node {
    double value;  /* best return through this node; -inf before any */
    uint64_t visits;
    int32_t *kids; /* n_actions child indices, -1: none; NULL until the first child */
} brute_node;

typedef struct brute {
    brute_node *nodes;
    size_t n, cap;
    uint64_t n_actions;
    int64_t *path; /* the episode's actions */
    size_t path_len, path_cap;
} brute;

static int32_t brute_new(brute *b)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        brute_node *grown = realloc(b->nodes, cap * sizeof *grown);
        if (!grown)
            return -1;
        b->nodes = grown;
        b->cap = cap;
    }
    b->nodes[b->n] = (brute_node){-INFINITY, 0, NULL};
    return (int32_t)b->n++;
}

static void brute_free(brute *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->nodes[i].kids);
    free(b->nodes);
    free(b->path);
}

/* The action at `node` (-1: outside the tree). */
static int64_t brute_choose(const brute *b, int32_t node, uint64_t *rng)
{
    if (node < 0)
        return (int64_t)(next_random(rng) % b->n_actions);
    const brute_node *nd = &b->nodes[node];
    if (uniform(rng) < BRUTE_EXPLORATION / ln((double)nd->visits + 2.0) || !nd->kids)
        return (int64_t)(next_random(rng) % b->n_actions);
    double best = -INFINITY;
    uint64_t ties = 0;
    int64_t pick = 0;
    for (uint64_t a = 0; a < b->n_actions; a++) { /* best value, ties broken at random (reservoir of one) */
        double v = nd->kids[a] >= 0 ? b->nodes[nd->kids[a]].value : -INFINITY;
        if (v > best) {
            best = v;
            ties = 1;
            pick = (int64_t)a;
        } else if (v == best && next_random(rng) % ++ties == 0) {
            pick = (int64_t)a;
        }
    }
    return pick;
}

static int32_t brute_child(const brute *b, int32_t node, int64_t action)
{
    if (node < 0 || !b->nodes[node].kids)
        return -1;
    return b->nodes[node].kids[action];
}

/* Adds the episode's actions to the tree and raises the values along them to its return. */
static int brute_update(brute *b, double ret)
{
    int32_t node = 0;
    for (size_t i = 0;; i++) {
        brute_node *nd = &b->nodes[node];
        if (ret > nd->value)
            nd->value = ret;
        nd->visits++;
        if (i == b->path_len)
            return 0;
        if (!nd->kids) {
            if (!(nd->kids = malloc(b->n_actions * sizeof *nd->kids)))
                return -1;
            for (uint64_t a = 0; a < b->n_actions; a++)
                nd->kids[a] = -1;
        }
        int32_t next = nd->kids[b->path[i]];
        if (next < 0) {
            if ((next = brute_new(b)) < 0)
                return -1;
            b->nodes[node].kids[b->path[i]] = next; /* nodes may have moved */
        }
        node = next;
    }
}

/* ---- the episodes ---- */

static void movie_name(char *buf, size_t cap, const char *dir, rg_env *env, uint64_t id)
{
    const char *state = rg_env_state_name(env);
    size_t len = strlen(state ? state : "");
    if (len > 6 && strcmp(state + len - 6, ".state") == 0)
        len -= 6;
    snprintf(buf, cap, "%s/%s-%.*s-%06llu.bk2", dir, rg_env_game(env), len ? (int)len : 4, len ? state : "none",
             (unsigned long long)id);
}

int cmd_record(int argc, char **argv)
{
    rec_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(&a, argc, argv);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (access(a.out, F_OK) != 0 && mkdir(a.out, 0777) != 0)
        return cli_fail("--out %s: cannot create the folder: %s", a.out, strerror(errno));
    rg_integration_paths *dp;
    unsigned flags;
    if (cli_data_open(&a.data, RG_INTEGRATIONS_DEFAULT, &dp, &flags) != 0)
        return 1;
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = a.game;
    o.state = a.state && strcmp(a.state, "none") == 0 ? RG_STATE_NONE : a.state;
    o.scenario = a.scenario;
    o.actions = RG_ACTIONS_DISCRETE;
    o.players = (unsigned)a.players;
    o.paths = dp;
    o.integrations = flags;
    o.core = a.core;
    o.core_options = a.core_options.items;
    o.n_core_options = a.core_options.count;
    o.frameskip = (unsigned)a.frameskip;
    o.max_episode_steps = a.max_steps;
    o.log = cli_log_stderr;
    rg_env *env = NULL;
    brute br;
    memset(&br, 0, sizeof br);
    if (rg_env_create(&env, &o) != RG_OK) {
        rc = cli_fail("%s", rg_error_last());
        goto done;
    }
    uint64_t id = 0;
    char path[4096];
    do /* after the files already there */
        movie_name(path, sizeof path, a.out, env, id++);
    while (access(path, F_OK) == 0);
    if (rg_env_record_dir(env, a.out, id - 1) != RG_OK) {
        rc = cli_fail("%s", rg_error_last());
        goto done;
    }
    br.n_actions = rg_env_discrete_count(env);
    int brute_on = strcmp(a.agent, "brute") == 0;
    if (br.n_actions == 0 || br.n_actions > INT32_MAX) {
        rc = cli_fail("%s has no usable action set", a.game);
        goto done;
    }
    if (brute_on && (brute_new(&br) != 0 || !(br.path = malloc(a.max_steps * sizeof *br.path)))) {
        rc = cli_fail("out of memory");
        goto done;
    }
    uint64_t rng = a.seed ^ 0x5DEECE66Dull;
    double best = -INFINITY;
    cli_progress bar;
    cli_progress_start(&bar, "record", a.episodes);
    for (uint64_t e = 0; e < a.episodes; e++) {
        /* Brute wants the same game every time: the env's generator (no-op starts) is reseeded alike. */
        if (rg_env_reset(env, 1, brute_on ? a.seed : a.seed + e, NULL, 0) != RG_OK) {
            cli_progress_end(&bar);
            rc = cli_fail("reset: %s", rg_error_last());
            goto done;
        }
        const char *file = rg_env_movie_path(env);
        snprintf(path, sizeof path, "%s", file ? file : "?");
        double ret = 0;
        uint64_t steps = 0;
        int32_t node = 0;
        br.path_len = 0;
        rg_step_result r = {0};
        while (!r.terminated && !r.truncated) {
            int64_t act = brute_on ? brute_choose(&br, node, &rng)
                                   : (int64_t)(next_random(&rng) % br.n_actions);
            if (rg_env_step(env, &act, 1, NULL, 0, &r) != RG_OK) {
                cli_progress_end(&bar);
                rc = cli_fail("episode %llu, step %llu: %s", (unsigned long long)e + 1,
                              (unsigned long long)steps + 1, rg_error_last());
                goto done;
            }
            ret += r.rewards[0];
            steps++;
            if (brute_on) {
                br.path[br.path_len++] = act;
                node = brute_child(&br, node, act);
            }
        }
        if (brute_on && brute_update(&br, ret) != 0) {
            cli_progress_end(&bar);
            rc = cli_fail("out of memory");
            goto done;
        }
        if (ret > best)
            best = ret;
        cli_progress_update(&bar, e + 1);
        if (!a.quiet) {
            cli_progress_end(&bar);
            fprintf(cli_out, "episode %llu: %llu steps, reward %g, %s -> %s\n", (unsigned long long)e + 1,
                    (unsigned long long)steps, ret, r.terminated ? "done" : "step limit", path);
            fflush(cli_out);
            cli_progress_start(&bar, "record", a.episodes);
            cli_progress_update(&bar, e + 1);
        }
    }
    cli_progress_end(&bar);
    if (!a.quiet && a.episodes > 1)
        fprintf(cli_out, "best reward %g over %llu episodes\n", best, (unsigned long long)a.episodes);
    if (rg_env_record_stop(env) != RG_OK)
        rc = cli_fail("%s", rg_error_last());
done:
    brute_free(&br);
    rg_env_free(env);
    rg_integration_paths_free(dp);
    return rc;
}
