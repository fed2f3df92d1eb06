#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *cli_out;

static const char usage[] =
    "usage: retrogym <command> [options]\n"
    "\n"
    "commands:\n"
    "  cores            list the emulator cores found, their version, systems and extensions\n"
    "  run ROM          run a ROM headless and report frames/s\n"
    "  play GAME        play an integrated game with its scenario (reward, done) under scripted or random input\n"
    "  games            list the integrated games\n"
    "  states GAME      list a game's save states\n"
    "  scenarios GAME   list a game's scenarios\n"
    "  validate [GAME|PATH...]\n"
    "                   check integrations (files, data.json, scenarios, default state, ROM hash)\n"
    "  import [PATH...] copy known ROMs from files, folders and zip archives into their game folders\n"
    "  playback MOVIE   play a movie (.bk2, .fm2) through its game: check its rewards, write video with sound, PNGs,\n"
    "                   CSV, NumPy arrays, JSON\n"
    "  record GAME      play a game headless with a random or Brute agent and record each episode as a movie\n"
    "  library          every integration: ROM imported?, the core that runs it and its origin; --check starts each\n"
    "  ui [GAME|ROM|MOVIE]\n"
    "                   the Integration UI in a browser: play, save states, search memory, variables, scenario\n"
    "\n"
    "Run 'retrogym <command> --help' for a command's options.\n";

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("retrogym: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* Cores write to fd 1 on their own (gambatte prints at load). Our results go to a duplicate of the original
 * stdout, and fd 1 is pointed at stderr, so the output of a command stays clean. */
static void keep_stdout_clean(void)
{
    int fd = dup(STDOUT_FILENO);
    cli_out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!cli_out) {
        cli_out = stdout;
        return;
    }
    fflush(stdout);
    dup2(STDERR_FILENO, STDOUT_FILENO);
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("retrogym %s\n", rg_version());
        return 0;
    }
    keep_stdout_clean();
    if (cli_global_options(&argc, argv) != 0)
        return 1;
    cli_discover();
    int rc;
    if (strcmp(argv[1], "cores") == 0)
        rc = cmd_cores(argc - 1, argv + 1);
    else if (strcmp(argv[1], "run") == 0)
        rc = cmd_run(argc - 1, argv + 1);
    else if (strcmp(argv[1], "play") == 0)
        rc = cmd_play(argc - 1, argv + 1);
    else if (strcmp(argv[1], "games") == 0)
        rc = cmd_games(argc - 1, argv + 1);
    else if (strcmp(argv[1], "states") == 0)
        rc = cmd_states(argc - 1, argv + 1);
    else if (strcmp(argv[1], "scenarios") == 0)
        rc = cmd_scenarios(argc - 1, argv + 1);
    else if (strcmp(argv[1], "validate") == 0)
        rc = cmd_validate(argc - 1, argv + 1);
    else if (strcmp(argv[1], "import") == 0)
        rc = cmd_import(argc - 1, argv + 1);
    else if (strcmp(argv[1], "playback") == 0)
        rc = cmd_playback(argc - 1, argv + 1);
    else if (strcmp(argv[1], "record") == 0)
        rc = cmd_record(argc - 1, argv + 1);
    else if (strcmp(argv[1], "library") == 0)
        rc = cmd_library(argc - 1, argv + 1);
    else if (strcmp(argv[1], "ui") == 0)
        rc = cmd_ui(argc - 1, argv + 1);
    else
        rc = cli_fail("unknown command \"%s\" (try retrogym --help)", argv[1]);
    if (fflush(cli_out) != 0 && rc == 0)
        rc = cli_fail("cannot write the output");
    return rc;
}
