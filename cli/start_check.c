/* Starting a game in a forked child with a timeout: the child creates the env, resets it, runs a few frames and
 * writes one line to a pipe ("ok CORE" or "error MESSAGE"); a child that dies or outlives the timeout is what a
 * third-party core did to it (a crash on a damaged state, a hang), and the parent goes on. */
#define _POSIX_C_SOURCE 200809L
#include "start_check.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* In the child: create, reset, run frames; one line to fd: "ok CORE" or "error MESSAGE". */
static void child_start(int fd, const rg_integration_paths *dp, unsigned flags, const char *game, const char *state,
                        uint64_t frames)
{
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = game;
    if (state)
        o.state = state;
    o.paths = dp;
    o.integrations = flags;
    o.log_level = RG_LOG_NONE;
    rg_env *env = NULL;
    char line[600];
    int rc = rg_env_create(&env, &o);
    uint8_t *obs = NULL;
    if (rc == RG_OK && !(obs = malloc(rg_env_obs_size(env) ? rg_env_obs_size(env) : 1)))
        rc = RG_ENOMEM;
    if (rc == RG_OK)
        rc = rg_env_reset(env, 1, 0, obs, rg_env_obs_size(env));
    int64_t action[64] = {0};
    size_t n = env ? rg_env_action_length(env) : 0;
    for (uint64_t i = 0; rc == RG_OK && i < frames && n <= 64; i++) {
        rg_step_result r;
        rc = rg_env_step(env, action, n, obs, rg_env_obs_size(env), &r);
        if (rc == RG_OK && (r.terminated || r.truncated))
            rc = rg_env_reset(env, 0, 0, obs, rg_env_obs_size(env));
    }
    if (rc == RG_OK)
        snprintf(line, sizeof line, "ok %s\n", rg_emu_core_name(rg_env_emu(env)));
    else
        snprintf(line, sizeof line, "error %s\n", rg_error_last());
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
    free(obs);
    rg_env_free(env);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_start_check(const rg_integration_paths *dp, unsigned flags, const char *game, const char *state, uint64_t frames,
                     uint64_t timeout_s, cli_start_result *res)
{
    int fds[2];
    res->outcome = CLI_START_REFUSED;
    res->core[0] = '\0';
    if (pipe(fds) != 0) {
        snprintf(res->message, sizeof res->message, "cannot make a pipe");
        return;
    }
    fflush(cli_out);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(res->message, sizeof res->message, "cannot start a child process");
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        /* a crash is reported by the parent: no core dump, the default action even under a sanitizer */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        signal(SIGILL, SIG_DFL);
        signal(SIGFPE, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        child_start(fds[1], dp, flags, game, state, frames);
        _exit(0);
    }
    close(fds[1]);
    char buf[600];
    size_t used = 0;
    double deadline = now_s() + (double)timeout_s;
    int timed_out = 0;
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd p = {fds[0], POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r <= 0)
            continue;
        ssize_t n = read(fds[0], buf + used, sizeof buf - 1 - used);
        if (n <= 0)
            break;
        used += (size_t)n;
        if (used == sizeof buf - 1)
            break;
    }
    buf[used] = '\0';
    close(fds[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ;
    buf[strcspn(buf, "\n")] = '\0';
    if (timed_out) {
        res->outcome = CLI_START_HUNG;
        snprintf(res->message, sizeof res->message, "timeout after %llu s", (unsigned long long)timeout_s);
    } else if (strncmp(buf, "ok ", 3) == 0) {
        res->outcome = CLI_START_OK;
        snprintf(res->core, sizeof res->core, "%.63s", buf + 3);
        snprintf(res->message, sizeof res->message, "ok");
    } else if (strncmp(buf, "error ", 6) == 0) {
        snprintf(res->message, sizeof res->message, "%.399s", buf + 6);
    } else if (WIFSIGNALED(status)) {
        res->outcome = CLI_START_CRASHED;
        snprintf(res->message, sizeof res->message, "crashed (signal %d)", WTERMSIG(status));
    } else {
        res->outcome = CLI_START_CRASHED;
        snprintf(res->message, sizeof res->message, "the check stopped without a result (exit status %d)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}
