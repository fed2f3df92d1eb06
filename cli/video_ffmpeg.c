/* Videos with sound through the ffmpeg program (Debian package ffmpeg), run as a child process. Frames go to it as
 * raw RGB24 on a pipe and are encoded (H.264, yuv420p, crf 17, stable-retro's settings) into a temporary Matroska
 * file while the audio collects in a temporary WAV; a second ffmpeg run joins both into the output (AAC audio). Two
 * passes keep it simple and robust: no sockets, no second pipe to keep in step with the first. */
#define _POSIX_C_SOURCE 200809L
#include "cli_movie.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct cli_video {
    char *path;
    char dir[4096];        /* private temporary folder */
    char video[4200], wav[4200], log[4200];
    FILE *audio;           /* NULL without sound */
    unsigned rate;
    uint64_t audio_frames;
    pid_t pid;             /* the encoder of the first pass, -1 when none */
    int fd;                /* its stdin */
    size_t frame_size;
};

int cli_have_program(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return 0;
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        char file[4096];
        snprintf(file, sizeof file, "%.*s/%s", (int)len, len ? path : ".", name);
        struct stat st;
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, X_OK) == 0)
            return 1;
        path += len + (end != NULL);
    }
    return 0;
}

/* Runs ffmpeg with argv, stdin from fd_in (-1: /dev/null), stdout and stderr into the log file. */
static int spawn(cli_video *v, char *const argv[], int fd_in, int close_in_child, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (fd_in >= 0)
        posix_spawn_file_actions_adddup2(&fa, fd_in, STDIN_FILENO);
    else
        posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (close_in_child >= 0)
        posix_spawn_file_actions_addclose(&fa, close_in_child);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, v->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    int err = posix_spawnp(pid, "ffmpeg", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0)
        return cli_fail("--video: cannot run ffmpeg: %s", strerror(err));
    return 0;
}

/* The last lines ffmpeg wrote, on stderr. */
static void show_log(const cli_video *v)
{
    FILE *f = fopen(v->log, "r");
    if (!f)
        return;
    char buf[4096];
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0, SEEK_SET);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    fprintf(stderr, "ffmpeg said:\n%s%s", buf, n && buf[n - 1] != '\n' ? "\n" : "");
}

static int wait_ok(cli_video *v, pid_t pid, const char *what)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return cli_fail("--video: waiting for ffmpeg: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    show_log(v);
    return cli_fail("--video: ffmpeg failed while %s (%s %d)", what, WIFEXITED(status) ? "exit status" : "signal",
                    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A 44-byte PCM WAV header: stereo, 16 bits, sizes from the sample frames written. */
static void wav_header(uint8_t h[44], unsigned rate, uint64_t frames)
{
    uint64_t data = frames * 4;
    if (data > 0xFFFFFFFFu - 36)
        data = 0xFFFFFFFFu - 36; /* longer than a WAV can say (over 6 hours): ffmpeg still reads to the end */
    memcpy(h, "RIFF", 4);
    put_u32(h + 4, (uint32_t)(36 + data));
    memcpy(h + 8, "WAVEfmt ", 8);
    put_u32(h + 16, 16);
    h[20] = 1; /* PCM */
    h[21] = 0;
    h[22] = 2; /* channels */
    h[23] = 0;
    put_u32(h + 24, rate);
    put_u32(h + 28, rate * 4);
    h[32] = 4; /* block align */
    h[33] = 0;
    h[34] = 16;
    h[35] = 0;
    memcpy(h + 36, "data", 4);
    put_u32(h + 40, (uint32_t)data);
}

static void cleanup(cli_video *v)
{
    if (v->audio)
        fclose(v->audio);
    v->audio = NULL;
    unlink(v->video);
    unlink(v->wav);
    unlink(v->log);
    rmdir(v->dir);
}

int cli_video_open(cli_video **out, const char *path, unsigned width, unsigned height, double fps, double rate)
{
    *out = NULL;
    if (!cli_have_program("ffmpeg"))
        return cli_fail("--video needs the ffmpeg program, which is not installed (Debian: apt-get install ffmpeg)");
    if (width == 0 || height == 0 || !(fps > 0))
        return cli_fail("--video: no picture to encode");
    cli_video *v = calloc(1, sizeof *v);
    if (!v || !(v->path = strdup(path))) {
        free(v);
        return cli_fail("out of memory");
    }
    v->pid = -1;
    v->fd = -1;
    v->frame_size = (size_t)width * height * 3;
    const char *tmp = getenv("TMPDIR");
    snprintf(v->dir, sizeof v->dir, "%s/retrogym-video-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(v->dir)) {
        int rc = cli_fail("--video: cannot create a temporary folder in %s: %s", tmp && *tmp ? tmp : "/tmp",
                          strerror(errno));
        free(v->path);
        free(v);
        return rc;
    }
    snprintf(v->video, sizeof v->video, "%s/video.mkv", v->dir);
    snprintf(v->wav, sizeof v->wav, "%s/audio.wav", v->dir);
    snprintf(v->log, sizeof v->log, "%s/ffmpeg.log", v->dir);
    if (rate >= 1.0) {
        v->rate = (unsigned)(rate + 0.5); /* WAV wants whole Hz; the SNES's 32040.5 is 0.002% off */
        uint8_t h[44];
        wav_header(h, v->rate, 0);
        if (!(v->audio = fopen(v->wav, "wb")) || fwrite(h, 1, sizeof h, v->audio) != sizeof h) {
            cleanup(v);
            free(v->path);
            free(v);
            return cli_fail("--video: cannot write a temporary WAV file");
        }
    }
    char size[64], rate_s[64];
    snprintf(size, sizeof size, "%ux%u", width, height);
    snprintf(rate_s, sizeof rate_s, "%.6f", fps);
    char *argv[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                    "-s", size, "-r", rate_s, "-i", "pipe:0", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v",
                    "libx264", "-preset", "slow", "-crf", "17", "-pix_fmt", "yuv420p", v->video, NULL};
    int fds[2];
    if (pipe(fds) != 0) {
        cleanup(v);
        free(v->path);
        free(v);
        return cli_fail("--video: pipe: %s", strerror(errno));
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    signal(SIGPIPE, SIG_IGN); /* a dying ffmpeg shows up as a failed write, not as our death */
    int rc = spawn(v, argv, fds[0], fds[1], &v->pid);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        cleanup(v);
        free(v->path);
        free(v);
        return rc;
    }
    v->fd = fds[1];
    *out = v;
    return 0;
}

int cli_video_frame(cli_video *v, const uint8_t *rgb)
{
    size_t done = 0;
    while (done < v->frame_size) {
        ssize_t n = write(v->fd, rgb + done, v->frame_size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(v->fd);
            v->fd = -1;
            int rc = wait_ok(v, v->pid, "encoding");
            v->pid = -1;
            return rc ? rc : cli_fail("--video: ffmpeg stopped reading frames");
        }
        done += (size_t)n;
    }
    return 0;
}

int cli_video_audio(cli_video *v, const int16_t *samples, size_t frames)
{
    if (!v->audio || frames == 0)
        return 0;
    /* WAV is little-endian, like the machines this runs on; swap elsewhere. */
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe != 1) {
        for (size_t i = 0; i < frames * 2; i++) {
            uint8_t b[2] = {(uint8_t)((uint16_t)samples[i] & 0xFF), (uint8_t)((uint16_t)samples[i] >> 8)};
            if (fwrite(b, 1, 2, v->audio) != 2)
                return cli_fail("--video: cannot write the temporary WAV file");
        }
    } else if (fwrite(samples, 4, frames, v->audio) != frames) {
        return cli_fail("--video: cannot write the temporary WAV file");
    }
    v->audio_frames += frames;
    return 0;
}

int cli_video_finish(cli_video *v)
{
    int rc = 0;
    close(v->fd);
    v->fd = -1;
    if (v->pid > 0)
        rc = wait_ok(v, v->pid, "encoding");
    v->pid = -1;
    int sound = v->audio && v->audio_frames > 0;
    if (rc == 0 && v->audio) {
        uint8_t h[44];
        wav_header(h, v->rate, v->audio_frames);
        if (fseek(v->audio, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof h, v->audio) != sizeof h ||
            fclose(v->audio) != 0)
            rc = cli_fail("--video: cannot write the temporary WAV file");
        v->audio = NULL;
    }
    if (rc == 0) {
        char *with_sound[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", v->video, "-i", v->wav,
                              "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-b:a", "128k", v->path,
                              NULL};
        char *silent[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", v->video, "-c", "copy",
                          v->path, NULL};
        pid_t pid;
        rc = spawn(v, sound ? with_sound : silent, -1, -1, &pid);
        if (rc == 0)
            rc = wait_ok(v, pid, sound ? "adding the sound" : "writing the file");
        if (rc != 0)
            unlink(v->path);
    }
    cleanup(v);
    free(v->path);
    free(v);
    return rc;
}

void cli_video_abort(cli_video *v)
{
    if (!v)
        return;
    if (v->fd >= 0)
        close(v->fd);
    if (v->pid > 0) {
        kill(v->pid, SIGTERM);
        waitpid(v->pid, NULL, 0);
    }
    cleanup(v);
    free(v->path);
    free(v);
}
