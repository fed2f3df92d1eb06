/* retrogym playback: plays a movie through the real environment (stable-retro's playback_movie), checks the rewards
 * recorded with it, and writes a video with sound, PNGs, CSV, NumPy arrays or JSON of what it saw. */
#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: retrogym playback MOVIE [options]\n"
    "\n"
    "Plays a movie (.bk2 from retrogym, stable-retro or BizHawk; FCEUX .fm2 with --game) through the game's\n"
    "environment: the game the movie names, its start state (Core.bin; power-on without one), every frame one\n"
    "step with the movie's buttons (frame 0 is the reset). Prints the game, frames and total reward; when the movie\n"
    "was recorded by retrogym, checks the reward and done of every frame against the recording (exit status 1 when\n"
    "they differ). The outputs hold one entry per step, i.e. per frame after the first (as stable-retro's).\n"
    "\n"
    "options:\n"
    "  --video FILE         write a video with sound (e.g. out.mp4; H.264 + AAC) through ffmpeg\n"
    "  --png-every N        write every N-th frame as PNG (frame 0 included) into --png-dir\n"
    "  --png-dir DIR        folder of the PNGs (default: the current folder); named <movie>-<frame>.png\n"
    "  --csv FILE           one row per step: frame, reward(s), done, the game's variables\n"
    "  --npz FILE           NumPy arrays: obs (steps x H x W x 3 uint8), rewards (float32), dones (bool),\n"
    "                       actions (steps x players*buttons uint8)\n"
    "  --info-json FILE     a JSON list of the variables after each step\n"
    "  --scenario NAME      scenario of the game (default: scenario); rewards are only checked with the one recorded\n"
    "  --game NAME          play this game instead of the one the movie names (needed for .fm2)\n"
    "  --core NAME|PATH     core to use (default: the one that recorded the movie when installed, else the\n"
    "                       system's preferred installed core)\n"
    "  --core-option K=V    answer the core's option K with V (repeatable)\n"
    "  --no-verify          do not check the recorded rewards\n"
    "  --quiet              print nothing but errors\n" CLI_DATA_OPTIONS_HELP
    "                       (playback searches every integration type unless --integrations is given)\n";

typedef struct pb_args {
    const char *movie, *video, *png_dir, *csv, *npz, *json, *scenario, *game, *core;
    uint64_t png_every;
    int quiet, no_verify, png_every_given;
    cli_core_options core_options;
    cli_data_args data;
} pb_args;

static int parse_args(pb_args *a, int argc, char **argv)
{
    const cli_opt opts[] = {
        {"--quiet", CLI_OPT_FLAG, &a->quiet, NULL},
        {"--no-verify", CLI_OPT_FLAG, &a->no_verify, NULL},
        {"--video", CLI_OPT_STR, &a->video, NULL},
        {"--png-dir", CLI_OPT_STR, &a->png_dir, NULL},
        {"--csv", CLI_OPT_STR, &a->csv, NULL},
        {"--npz", CLI_OPT_STR, &a->npz, NULL},
        {"--info-json", CLI_OPT_STR, &a->json, NULL},
        {"--scenario", CLI_OPT_STR, &a->scenario, NULL},
        {"--game", CLI_OPT_STR, &a->game, NULL},
        {"--core", CLI_OPT_STR, &a->core, NULL},
        {"--png-every", CLI_OPT_U64, &a->png_every, &a->png_every_given},
        {"--core-option", CLI_OPT_CORE_OPTION, &a->core_options, NULL},
    };
    const cli_command cmd = {"playback", help, opts, sizeof opts / sizeof opts[0], &a->movie, "movie", &a->data};
    int rc = cli_parse_command(&cmd, argc, argv);
    if (rc != 0)
        return rc;
    if (a->png_every_given && a->png_every == 0)
        return cli_fail("--png-every: 0 is not a number of frames (1 or more)");
    if (!a->movie)
        return cli_fail("playback: which movie? (retrogym playback MOVIE.bk2)");
    if (a->png_dir && !a->png_every)
        return cli_fail("playback: --png-dir goes with --png-every");
    return 0;
}

void cli_log_stderr(rg_log_level level, const char *message, void *user)
{
    (void)user;
    fprintf(stderr, "%s: %s\n", rg_log_level_name(level), message);
}

/* ---- the outputs ---- */

typedef struct outputs {
    cli_video *video;
    cli_npz *npz;
    cli_npy *obs, *rewards, *dones, *actions;
    rg_outfile *csv_file, *json_file; /* written through temporary files: a failure leaves no partial output */
    FILE *csv, *json;
    char **names; /* CSV columns: the variables after the reset */
    size_t n_names;
    const char *png_dir;
    char stem[256];
} outputs;

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* CSV cells are variable names and numbers; a name with a comma or quote is quoted. */
static void csv_cell(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static const char *movie_stem(const char *path, char *buf, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(buf, cap, "%s", base);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
    return buf;
}

static int open_outputs(outputs *o, const pb_args *a, rg_env *env, uint64_t steps)
{
    unsigned h, w, c;
    rg_env_obs_shape(env, &h, &w, &c);
    unsigned players = rg_env_players(env);
    movie_stem(a->movie, o->stem, sizeof o->stem);
    o->png_dir = a->png_dir ? a->png_dir : ".";
    if (a->video) {
        rg_emu *emu = rg_env_emu(env);
        if (cli_video_open(&o->video, a->video, w, h, rg_emu_fps(emu), rg_emu_sample_rate(emu)) != 0)
            return 1;
    }
    if (a->npz) {
        uint64_t obs_shape[4] = {steps, h, w, c}, rew_shape[2] = {steps, players},
                 act_shape[2] = {steps, (uint64_t)players * rg_env_num_buttons(env)};
        if (cli_npz_open(&o->npz, a->npz) != 0 || cli_npz_array(o->npz, "obs", "|u1", obs_shape, 4, &o->obs) != 0 ||
            cli_npz_array(o->npz, "rewards", "<f4", rew_shape, players > 1 ? 2 : 1, &o->rewards) != 0 ||
            cli_npz_array(o->npz, "dones", "|b1", rew_shape, 1, &o->dones) != 0 ||
            cli_npz_array(o->npz, "actions", "|u1", act_shape, 2, &o->actions) != 0)
            return 1;
    }
    if (a->csv) {
        if (rg_outfile_open(&o->csv_file, a->csv) != RG_OK)
            return cli_fail("--csv: %s", rg_error_last());
        o->csv = rg_outfile_stream(o->csv_file);
        o->n_names = rg_env_info_count(env);
        o->names = calloc(o->n_names ? o->n_names : 1, sizeof *o->names);
        if (!o->names)
            return cli_fail("out of memory");
        fputs("frame", o->csv);
        for (unsigned p = 0; p < players; p++)
            fprintf(o->csv, players == 1 ? ",reward" : ",reward_p%u", p + 1);
        fputs(",done", o->csv);
        for (size_t i = 0; i < o->n_names; i++) {
            const char *name = "";
            int64_t v;
            rg_env_info_at(env, i, &name, &v);
            if (!(o->names[i] = strdup(name)))
                return cli_fail("out of memory");
            fputc(',', o->csv);
            csv_cell(o->csv, name);
        }
        fputc('\n', o->csv);
    }
    if (a->json) {
        if (rg_outfile_open(&o->json_file, a->json) != RG_OK)
            return cli_fail("--info-json: %s", rg_error_last());
        o->json = rg_outfile_stream(o->json_file);
        fputc('[', o->json);
    }
    return 0;
}

static int png_frame(const outputs *o, rg_env *env, const uint8_t *obs, uint64_t frame)
{
    unsigned h, w, c;
    rg_env_obs_shape(env, &h, &w, &c);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%06llu.png", o->png_dir, o->stem, (unsigned long long)frame);
    return cli_write_png(path, obs, w, h);
}

static int write_step(outputs *o, rg_env *env, const rg_movie *m, uint64_t frame, const uint8_t *obs, size_t size,
                      const rg_step_result *r)
{
    unsigned players = rg_env_players(env);
    int done = r->terminated || r->truncated;
    if (o->video) {
        const int16_t *samples;
        size_t n;
        rg_emu_audio(rg_env_emu(env), &samples, &n);
        if (cli_video_frame(o->video, obs) != 0 || cli_video_audio(o->video, samples, n) != 0)
            return 1;
    }
    if (o->npz) {
        uint8_t flag = (uint8_t)done, act[RG_SCENARIO_MAX_PLAYERS * RG_MAX_BUTTONS];
        unsigned nb = rg_env_num_buttons(env);
        for (unsigned p = 0; p < players; p++) {
            uint16_t mask = 0;
            rg_movie_frame_buttons(m, frame, p, &mask);
            for (unsigned i = 0; i < nb; i++)
                act[p * nb + i] = (uint8_t)(mask >> i & 1);
        }
        if (cli_npy_write(o->obs, obs, size) != 0 ||
            cli_npy_write(o->rewards, r->rewards, players * sizeof(float)) != 0 ||
            cli_npy_write(o->dones, &flag, 1) != 0 || cli_npy_write(o->actions, act, (size_t)players * nb) != 0)
            return 1;
    }
    size_t n_info = rg_env_info_count(env);
    if (o->csv) {
        fprintf(o->csv, "%llu", (unsigned long long)frame);
        for (unsigned p = 0; p < players; p++)
            fprintf(o->csv, ",%.9g", (double)r->rewards[p]);
        fprintf(o->csv, ",%d", done);
        for (size_t k = 0; k < o->n_names; k++) { /* the same columns on every row; a variable gone: empty */
            const char *name;
            int64_t v;
            int found = 0;
            if (k < n_info && rg_env_info_at(env, k, &name, &v) == RG_OK && strcmp(name, o->names[k]) == 0)
                found = 1;
            for (size_t i = 0; !found && i < n_info; i++)
                found = rg_env_info_at(env, i, &name, &v) == RG_OK && strcmp(name, o->names[k]) == 0;
            if (found)
                fprintf(o->csv, ",%lld", (long long)v);
            else
                fputc(',', o->csv);
        }
        fputc('\n', o->csv);
    }
    if (o->json) {
        fputs(frame > 1 ? ",\n{" : "\n{", o->json);
        int first = 1;
        for (size_t i = 0; i < n_info; i++) {
            const char *name;
            int64_t v;
            if (rg_env_info_at(env, i, &name, &v) != RG_OK)
                continue; /* not readable: left out, as the environment's info does */
            fputs(first ? "" : ", ", o->json);
            json_string(o->json, name);
            fprintf(o->json, ": %lld", (long long)v);
            first = 0;
        }
        fputc('}', o->json);
    }
    return 0;
}

/* ok: the playback ran to its end (outputs complete, even when the rewards differ from the recording's): they are
 * kept; otherwise they are dropped and the previous files stay. */
static int close_outputs(outputs *o, int ok)
{
    int rc = 0;
    if (o->video) {
        if (ok)
            rc |= cli_video_finish(o->video);
        else
            cli_video_abort(o->video);
    }
    if (o->npz) {
        if (ok)
            rc |= cli_npz_finish(o->npz);
        else
            cli_npz_abort(o->npz);
    }
    if (o->json_file && ok)
        fputs("\n]\n", o->json);
    const struct {
        rg_outfile *file;
        const char *option;
    } text[] = {{o->csv_file, "--csv"}, {o->json_file, "--info-json"}};
    for (size_t i = 0; i < 2; i++) {
        if (!text[i].file)
            continue;
        if (!ok)
            rg_outfile_abort(text[i].file);
        else if (rg_outfile_commit(text[i].file) != RG_OK)
            rc |= cli_fail("%s: %s", text[i].option, rg_error_last());
    }
    o->csv_file = o->json_file = NULL;
    for (size_t i = 0; i < o->n_names; i++)
        free(o->names[i]);
    free(o->names);
    return rc;
}

/* ---- checking the recorded rewards ---- */

typedef struct verify {
    rg_movie_scores *scores;
    uint64_t checked, differ, first_bad;
    char first_msg[256];
} verify;

static void check_frame(verify *v, uint64_t frame, const float *rewards, int done, unsigned players)
{
    float want[RG_SCENARIO_MAX_PLAYERS];
    int want_done;
    if (!v->scores || rg_movie_scores_at(v->scores, frame, want, &want_done) != RG_OK)
        return;
    v->checked++;
    int same = (want_done != 0) == (done != 0);
    for (unsigned p = 0; p < players; p++)
        same &= want[p] == rewards[p];
    if (same)
        return;
    if (v->differ++ == 0) {
        v->first_bad = frame;
        snprintf(v->first_msg, sizeof v->first_msg, "frame %llu: recorded reward %g%s, now %g%s",
                 (unsigned long long)frame, (double)want[0], want_done ? " and done" : "", (double)rewards[0],
                 done ? " and done" : "");
    }
}

/* The core that recorded the movie, when the user named none and it is installed. */
static const char *pick_core(const pb_args *a, const rg_movie_scores *scores, const rg_system_info *sys)
{
    if (a->core || !scores || !*rg_movie_scores_core(scores))
        return a->core;
    const char *core = rg_movie_scores_core(scores);
    char path[4096];
    if (rg_core_resolve(core, path, sizeof path) == RG_OK)
        return core;
    /* Only worth a word when another core would be picked: the state may not load there. */
    if (sys->n_cores == 0 || strcmp(sys->cores[0], core) != 0)
        fprintf(stderr, "retrogym: warning: the movie was recorded with core %s, which is not installed\n", core);
    return NULL;
}

int cmd_playback(int argc, char **argv)
{
    pb_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(&a, argc, argv);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    rg_movie *m = NULL;
    if (rg_movie_open_read(&m, a.movie) != RG_OK)
        return cli_fail("%s", rg_error_last());
    if (rg_movie_frame_count(m) == 0) {
        rg_movie_free(m);
        return cli_fail("%s holds no frames", a.movie);
    }
    if (!a.game && !*rg_movie_game(m)) {
        rg_movie_free(m);
        return cli_fail("%s names no game (an FM2 movie?): say which with --game NAME", a.movie);
    }
    verify v;
    memset(&v, 0, sizeof v);
    if (!a.no_verify && rg_movie_format_of(m) == RG_MOVIE_BK2) { /* an FM2 has no place for them */
        int src = rg_movie_scores_read(&v.scores, a.movie);
        if (src != RG_OK && src != RG_ENOTFOUND) {
            rg_movie_free(m);
            return cli_fail("%s", rg_error_last());
        }
    }
    rg_integration_paths *dp = NULL;
    unsigned flags;
    rg_env *env = NULL;
    outputs out;
    int finished = 0; /* the playback reached the movie's end */
    memset(&out, 0, sizeof out);
    uint8_t *obs = NULL;
    if (cli_data_open(&a.data, RG_INTEGRATIONS_ALL, &dp, &flags) != 0) {
        rc = 1;
        goto done;
    }
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = a.game;
    o.scenario = a.scenario;
    o.paths = dp;
    o.integrations = flags;
    o.core = pick_core(&a, v.scores, rg_movie_system(m));
    o.core_options = a.core_options.items;
    o.n_core_options = a.core_options.count;
    o.log = cli_log_stderr;
    if (rg_env_create_playback(&env, m, &o, a.video ? RG_PLAYBACK_AUDIO : 0) != RG_OK) {
        rc = cli_fail("%s: %s", a.movie, rg_error_last());
        goto done;
    }
    uint64_t frames = rg_movie_frame_count(m), steps = frames - 1;
    size_t size = rg_env_obs_size(env);
    if (!(obs = malloc(size))) {
        rc = cli_fail("out of memory");
        goto done;
    }
    if (rg_env_reset(env, 0, 0, obs, size) != RG_OK) {
        rc = cli_fail("reset: %s", rg_error_last());
        goto done;
    }
    unsigned players = rg_env_players(env);
    float rewards[RG_SCENARIO_MAX_PLAYERS], total[RG_SCENARIO_MAX_PLAYERS] = {0};
    rg_scenario *sc = rg_env_scenario(env);
    for (unsigned p = 0; p < players; p++)
        rewards[p] = rg_scenario_reward(sc, p);
    check_frame(&v, 0, rewards, rg_scenario_done(sc), players);
    if ((rc = open_outputs(&out, &a, env, steps)) != 0)
        goto done;
    if (a.png_every && (rc = png_frame(&out, env, obs, 0)) != 0)
        goto done;
    cli_progress bar;
    cli_progress_start(&bar, "playback", steps);
    uint64_t done_at = 0;
    for (uint64_t f = 1; f < frames; f++) {
        rg_step_result r;
        if (rg_env_playback_step(env, m, f, obs, size, &r) != RG_OK) {
            cli_progress_end(&bar);
            rc = cli_fail("frame %llu: %s", (unsigned long long)f, rg_error_last());
            goto done;
        }
        for (unsigned p = 0; p < players; p++)
            total[p] += r.rewards[p];
        if (r.terminated && !done_at)
            done_at = f;
        check_frame(&v, f, r.rewards, r.terminated, players);
        if (write_step(&out, env, m, f, obs, size, &r) != 0 ||
            (a.png_every && f % a.png_every == 0 && png_frame(&out, env, obs, f) != 0)) {
            cli_progress_end(&bar);
            rc = 1;
            goto done;
        }
        cli_progress_update(&bar, f);
    }
    cli_progress_end(&bar);
    finished = 1;
    if (!a.quiet) {
        fprintf(cli_out, "%s: %s (%s, %u player%s), %llu frames, core %s\n", a.movie, rg_env_game(env),
                rg_env_system(env)->name, players, players == 1 ? "" : "s", (unsigned long long)frames,
                rg_emu_core_name(rg_env_emu(env)));
        fputs("  reward", cli_out);
        for (unsigned p = 0; p < players; p++)
            fprintf(cli_out, " %g", (double)total[p]);
        if (done_at)
            fprintf(cli_out, ", done at frame %llu\n", (unsigned long long)done_at);
        else
            fputs(", not done\n", cli_out);
        if (a.no_verify)
            fputs("  recorded rewards: not checked (--no-verify)\n", cli_out);
        else if (!v.scores)
            fputs("  recorded rewards: none in this movie (not recorded by retrogym)\n", cli_out);
        else if (!v.differ)
            fprintf(cli_out, "  recorded rewards: identical on all %llu frames checked\n",
                    (unsigned long long)v.checked);
    }
    if (v.differ)
        rc = cli_fail("the playback differs from the recording on %llu of %llu frames; first at %s%s",
                      (unsigned long long)v.differ, (unsigned long long)v.checked, v.first_msg,
                      a.scenario ? " (another scenario than the recording's?)" : "");
done:
    rc |= close_outputs(&out, finished);
    free(obs);
    rg_env_free(env);
    rg_integration_paths_free(dp);
    rg_movie_scores_free(v.scores);
    rg_movie_free(m);
    return rc ? 1 : 0;
}
