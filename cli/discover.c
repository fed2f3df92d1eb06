/* Finding an installed stable-retro through the Python the CLI was built with (docs/integrations.md, "Discovery"):
 * its package folder goes into $RETROGYM_STABLE_RETRO, from which the library takes a data root (<pkg>/data) and a
 * core folder (<pkg>/cores). Asked once per run, only when the variable is unset; nothing is cached on disk. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef RG_CLI_PYTHON
#define RG_CLI_PYTHON "python3"
#endif

/* Prints the folder of the first importable stable-retro package, without importing it. */
static const char probe[] =
    "import importlib.util as u\n"
    "for n in ('stable_retro',):\n"
    "    s = u.find_spec(n)\n"
    "    if s is not None and s.submodule_search_locations:\n"
    "        print(list(s.submodule_search_locations)[0]); break\n";

/* The Python asked: $RETROGYM_PYTHON, else the one configured at build time. */
const char *cli_python(void)
{
    const char *p = getenv("RETROGYM_PYTHON");
    return p && *p ? p : RG_CLI_PYTHON;
}

/* Runs the probe; the folder (one line) into out, "" when none or the Python cannot run. */
static void ask_python(char *out, size_t cap)
{
    out[0] = '\0';
    int fds[2];
    if (pipe(fds) != 0)
        return;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        dup2(fds[1], STDOUT_FILENO);
        for (int fd = 3; fd < 1024; fd++) /* none of ours (the command's output) stays open in the Python */
            close(fd);
        setpgid(0, 0);                    /* its own group: a timeout kills whatever it started */
        execlp(cli_python(), cli_python(), "-c", probe, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t used = 0;
    ssize_t n;
    int timed_out = 0;
    for (;;) { /* a Python that hangs (a broken site hook) is given 10 seconds */
        struct pollfd p = {fds[0], POLLIN, 0};
        int r = poll(&p, 1, 10000);
        if (r == 0) {
            timed_out = 1;
            break;
        }
        if (r < 0)
            continue;
        if (used + 1 >= cap || (n = read(fds[0], out + used, cap - used - 1)) <= 0)
            break;
        used += (size_t)n;
    }
    out[used] = '\0';
    close(fds[0]);
    if (timed_out) {
        kill(-pid, SIGKILL);
        fprintf(stderr, "retrogym: warning: %s did not say within 10 s where stable-retro is; going on without it "
                "(set RETROGYM_STABLE_RETRO to its folder, or empty)\n", cli_python());
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ;
    if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        out[0] = '\0';
    out[strcspn(out, "\r\n")] = '\0';
}

void cli_discover(void)
{
    if (getenv(RG_INTEGRATION_STABLE_RETRO_ENV))
        return; /* set (even empty: discovery turned off) */
    char folder[4096];
    ask_python(folder, sizeof folder);
    setenv(RG_INTEGRATION_STABLE_RETRO_ENV, folder, 1);
}

int cli_global_options(int *argc, char **argv)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--core-path") != 0) {
            argv[out++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc)
            return cli_fail("--core-path needs a folder");
        const char *old = getenv("RETROGYM_CORE_PATH");
        size_t n = strlen(argv[i + 1]) + (old ? strlen(old) : 0) + 2;
        char *v = malloc(n);
        if (!v)
            return cli_fail("out of memory");
        snprintf(v, n, "%s%s%s", argv[i + 1], old && *old ? ":" : "", old ? old : "");
        setenv("RETROGYM_CORE_PATH", v, 1);
        free(v);
        i++;
    }
    argv[out] = NULL;
    *argc = out;
    return 0;
}
