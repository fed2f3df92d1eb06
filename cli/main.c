#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *cli_out;

/* The commands: name, its arguments in the usage line, handler, help (continuation lines after '\n'). */
typedef struct cli_dispatch {
    const char *name;
    const char *args;
    int (*run)(int argc, char **argv);
    const char *help;
} cli_dispatch;

static const cli_dispatch commands[] = {
    {"cores", "", cmd_cores, "list the emulator cores found, their version, systems and extensions"},
    {"run", "ROM", cmd_run, "run a ROM headless and report frames/s"},
    {"play", "GAME", cmd_play,
     "play an integrated game with its scenario (reward, done) under scripted or random input"},
    {"games", "", cmd_games, "list the integrated games"},
    {"states", "GAME", cmd_states, "list a game's save states"},
    {"scenarios", "GAME", cmd_scenarios, "list a game's scenarios"},
    {"validate", "[GAME|PATH...]", cmd_validate,
     "check integrations (files, data.json, scenarios, default state, ROM hash)"},
    {"import", "[PATH...]", cmd_import, "copy known ROMs from files, folders and zip archives into their game folders"},
    {"playback", "MOVIE", cmd_playback,
     "play a movie (.bk2, .fm2) through its game: check its rewards, write video with sound, PNGs,\n"
     "CSV, NumPy arrays, JSON"},
    {"record", "GAME", cmd_record,
     "play a game headless with a random or Brute agent and record each episode as a movie"},
    {"library", "", cmd_library,
     "every integration: ROM imported?, the core that runs it and its origin; --check starts each"},
    {"ui", "[GAME|ROM|MOVIE]", cmd_ui,
     "the Integration UI in a browser: play, save states, search memory, variables, scenario"},
};

#define USAGE_COLUMN 16 /* width of "name args" before the help text */

/* The top-level usage, written from the command table. */
static void print_usage(FILE *f)
{
    fputs("usage: retrogym <command> [options]\n\ncommands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const cli_dispatch *c = &commands[i];
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", c->name, *c->args ? " " : "", c->args);
        if (strlen(head) <= USAGE_COLUMN)
            fprintf(f, "  %-*s ", USAGE_COLUMN, head);
        else
            fprintf(f, "  %s\n%*s", head, USAGE_COLUMN + 3, "");
        for (const char *h = c->help; *h;) {
            size_t n = strcspn(h, "\n");
            fprintf(f, "%.*s\n", (int)n, h);
            h += n;
            if (*h == '\n' && *++h)
                fprintf(f, "%*s", USAGE_COLUMN + 3, "");
        }
    }
    fputs("\nRun 'retrogym <command> --help' for a command's options.\n", f);
}

static const cli_dispatch *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

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
        print_usage(argc < 2 ? stderr : stdout);
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
    const cli_dispatch *cmd = find_command(argv[1]);
    int rc = cmd ? cmd->run(argc - 1, argv + 1)
                 : cli_fail("unknown command \"%s\" (try retrogym --help)", argv[1]);
    if (fflush(cli_out) != 0 && rc == 0)
        rc = cli_fail("cannot write the output");
    return rc;
}
