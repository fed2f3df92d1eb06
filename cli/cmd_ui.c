/* retrogym ui [GAME|ROM|MOVIE] [--port N] [--host ADDR] [--data-root DIR]: the Integration UI (docs/ui.md). The
 * server is the Python package's (python -m retrogym.ui, aiohttp); this command runs it with the Python the CLI
 * was configured with (cli/discover.c: $RETROGYM_PYTHON, else the build's), passing the arguments on. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char ui_usage[] =
    "usage: retrogym ui [GAME|ROM|MOVIE] [--port N] [--host ADDR] [--data-root DIR]\n"
    "\n"
    "Starts the Integration UI: a local web server; open the URL it prints (it holds a random token) in a browser.\n"
    "  GAME             an integrated game to open, e.g. StarCatcher-Nes\n"
    "  ROM              a ROM file: opened as its game when integrated, else offered for integration\n"
    "  MOVIE            a .bk2 movie: its game, from the movie's start state\n"
    "  --port N         port to listen on (default: a free one)\n"
    "  --host ADDR      address to listen on (default 127.0.0.1; reach it over SSH with ssh -L)\n"
    "  --data-root DIR  writable data root (default: the user root); new integrations go in its custom/ folder\n"
    "Runs python -m retrogym.ui with the Python the CLI was built with (set RETROGYM_PYTHON to use another); it\n"
    "needs the retrogym package and aiohttp (pip install 'retrogym[ui]').\n";

int cmd_ui(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            fputs(ui_usage, cli_out);
            return 0;
        }
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args)
        return cli_fail("out of memory");
    const char *python = cli_python();
    size_t n = 0;
    args[n++] = (char *)python;
    args[n++] = "-m";
    args[n++] = "retrogym.ui";
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    /* The server prints its URL on stdout: give the Python the real stdout back (main pointed fd 1 at stderr). */
    fflush(cli_out);
    if (cli_out != stdout && dup2(fileno(cli_out), STDOUT_FILENO) < 0) {
        free(args);
        return cli_fail("cannot restore stdout: %s", strerror(errno));
    }
    execvp(python, args);
    int err = errno;
    free(args);
    return cli_fail("cannot run %s (%s): the UI runs in Python; set RETROGYM_PYTHON to a Python with retrogym and "
                    "aiohttp installed", python, strerror(err));
}
