/* `retrogym import PATH...`: copies known ROMs into their integration folders (Gym Retro's `retro.import`). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

static const char help[] =
    "usage: retrogym import [PATH...] [options]\n"
    "\n"
    "Looks through files, folders (recursively) and .zip archives (and zips inside them) for ROMs whose SHA-1\n"
    "is listed in a game's rom.sha, in any integration folder of the data roots, and writes each one as\n"
    "rom.<ext> into that game's folder; for a game of retrogym's own data or of an installed stable-retro, into\n"
    "the same place under the user root ($XDG_DATA_HOME/retrogym or ~/.local/share/retrogym), which every\n"
    "command and the Python package search. Default PATH: the current folder. Prints \"Importing GAME\" per ROM\n"
    "and \"Imported N games\"; skipped files, archive members and ROMs that match a game by name but not by hash\n"
    "(another dump) are reported on stderr. Candidates over 32 MiB are skipped.\n"
    "\n"
    "options:\n"
    "  --force GAME            adopt a ROM for GAME whatever its hash: a candidate named like the game, or the\n"
    "                          one file given (written as that game's rom.<ext>)\n"
    "  --data-path DIR         data root(s), ':'-separated (default: $RETROGYM_DATA_PATH, the user root, our own\n"
    "                          data, an installed stable-retro's)\n"
    "  --custom-path DIR       a custom integration folder whose games are imported too (repeatable)\n"
    "  --quiet                 no progress, no per-ROM lines, no warnings: only the summary\n";

typedef struct import_ui {
    int tty;          /* stderr is a terminal: a progress line is drawn there */
    int quiet;
    int line_drawn;   /* a progress line is on screen and must be cleared before other output */
    double last_draw; /* seconds (monotonic) of the last drawing */
} import_ui;

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void clear_line(import_ui *ui)
{
    if (ui->line_drawn) {
        fputs("\r\033[K", stderr);
        ui->line_drawn = 0;
    }
}

static void on_progress(size_t done, size_t total, const char *current, void *user)
{
    import_ui *ui = user;
    if (ui->quiet || !ui->tty)
        return;
    double now = seconds();
    if (done != total && now - ui->last_draw < 0.05) /* at most 20 drawings a second */
        return;
    ui->last_draw = now;
    enum { WIDTH = 30 };
    size_t fill = total ? done * WIDTH / total : WIDTH;
    char bar[WIDTH + 1];
    memset(bar, '#', fill);
    memset(bar + fill, '.', WIDTH - fill);
    bar[WIDTH] = '\0';
    const char *name = strrchr(current, '/');
    name = name ? name + 1 : current;
    fprintf(stderr, "\r\033[K[%s] %zu/%zu %.40s", bar, done, total, name);
    fflush(stderr);
    ui->line_drawn = 1;
}

static void on_warning(const char *message, void *user)
{
    import_ui *ui = user;
    if (ui->quiet)
        return;
    clear_line(ui);
    fprintf(stderr, "retrogym: warning: %s\n", message);
}

static void on_near(const char *game, const char *candidate, const char *sha1, void *user)
{
    import_ui *ui = user;
    if (ui->quiet)
        return;
    clear_line(ui);
    fprintf(stderr, "retrogym: %s is named like %s but its SHA-1 %.12s... is not in the game's rom.sha (another "
            "dump?); adopt it with: retrogym import --force %s PATH\n", candidate, game, sha1, game);
}

static void on_imported(const char *game, const char *path, void *user)
{
    import_ui *ui = user;
    (void)path;
    if (ui->quiet)
        return;
    clear_line(ui);
    fprintf(cli_out, "Importing %s\n", game);
    fflush(cli_out);
}

int cmd_import(int argc, char **argv)
{
    cli_data_args a = {0};
    const char *paths[1024];
    size_t n_paths = 0;
    import_ui ui = {.tty = isatty(STDERR_FILENO)};
    const char *force = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(help, cli_out);
            return 0;
        }
        if (strcmp(argv[i], "--integrations") == 0)
            return cli_fail("import: --integrations does not apply (every integration folder is searched)");
        int r = cli_data_option(&a, argc, argv, &i);
        if (r < 0)
            return 1;
        if (r > 0)
            continue;
        if (strcmp(argv[i], "--quiet") == 0)
            ui.quiet = 1;
        else if (strcmp(argv[i], "--force") == 0 && i + 1 < argc)
            force = argv[++i];
        else if (strcmp(argv[i], "--force") == 0)
            return cli_fail("--force needs a game");
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_fail("import: unknown option \"%s\"", argv[i]);
        else if (n_paths == sizeof paths / sizeof paths[0])
            return cli_fail("import: too many paths");
        else
            paths[n_paths++] = argv[i];
    }
    if (n_paths == 0)
        paths[n_paths++] = ".";
    rg_integration_paths *dp;
    unsigned flags;
    if (cli_data_open(&a, RG_INTEGRATIONS_ALL, &dp, &flags) != 0)
        return 1;
    rg_integration_import_options opts = RG_INTEGRATION_IMPORT_OPTIONS_INIT;
    opts.progress = on_progress;
    opts.warning = on_warning;
    opts.imported = on_imported;
    opts.near = on_near;
    opts.force_game = force;
    opts.user = &ui;
    rg_integration_import_report rep = {0};
    int rc = rg_integration_import(dp, paths, n_paths, &opts, &rep);
    clear_line(&ui);
    rg_integration_paths_free(dp);
    fprintf(cli_out, "Imported %zu games\n", rep.imported); /* Gym Retro's wording, whatever the number */
    if (!ui.quiet)
        fprintf(stderr, "retrogym: %zu file%s found, %zu candidate%s hashed, %zu skipped, %zu known hashes, %zu "
                "named like a game but another dump%s\n", rep.files, rep.files == 1 ? "" : "s", rep.scanned,
                rep.scanned == 1 ? "" : "s", rep.skipped, rep.known, rep.near,
                force ? (rep.forced ? ", adopted by --force" : "; --force adopted nothing") : "");
    if (rc == RG_OK && force && rep.forced == 0 && rep.imported == 0)
        return cli_fail("import: --force %s: no candidate named like the game (or give its file alone)", force);
    if (rc != RG_OK)
        return cli_fail("import: %s", rg_error_last());
    return 0;
}
