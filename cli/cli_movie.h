/* The movie commands (playback, record) and their outputs: video through ffmpeg, NumPy arrays, a progress bar. */
#ifndef RG_CLI_CLI_MOVIE_H
#define RG_CLI_CLI_MOVIE_H

#include "cli.h"

int cmd_playback(int argc, char **argv);
int cmd_record(int argc, char **argv);

/* ---- progress.c: a one-line bar on stderr, drawn only when stderr is a terminal ---- */
typedef struct cli_progress {
    int on;
    uint64_t total, shown;
    double drawn; /* when it was last drawn (seconds) */
    const char *label;
} cli_progress;
void cli_progress_start(cli_progress *p, const char *label, uint64_t total);
void cli_progress_update(cli_progress *p, uint64_t done);
void cli_progress_end(cli_progress *p);

/* ---- video_ffmpeg.c: a video with sound, written by the ffmpeg program ---- */
typedef struct cli_video cli_video;
/* Starts ffmpeg encoding RGB24 frames of width x height at fps into a temporary file; audio (interleaved stereo
 * int16 at `rate` Hz; rate 0: none) is kept in a temporary WAV, both joined into `path` by cli_video_finish.
 * 0, or 1 after printing the error (ffmpeg missing included). */
int cli_video_open(cli_video **out, const char *path, unsigned width, unsigned height, double fps, double rate);
int cli_video_frame(cli_video *v, const uint8_t *rgb);
int cli_video_audio(cli_video *v, const int16_t *samples, size_t frames);
/* Ends the encoding and writes `path` (ffmpeg's messages shown when it fails); frees v. */
int cli_video_finish(cli_video *v);
/* Stops everything, removes the temporary files, writes nothing; frees v (NULL allowed). */
void cli_video_abort(cli_video *v);
/* Whether a program is found on $PATH. */
int cli_have_program(const char *name);

/* ---- npz_write.c: NumPy .npz (a zip of uncompressed .npy v1.0 arrays), arrays streamed through files ---- */
typedef struct cli_npz cli_npz;
/* dtype: a NumPy type string such as "|u1", "<f4", "|b1". */
typedef struct cli_npy cli_npy;
int cli_npz_open(cli_npz **out, const char *path);
/* Adds an array of the given shape; its data is then appended with cli_npy_write, exactly the shape's bytes. */
int cli_npz_array(cli_npz *z, const char *name, const char *dtype, const uint64_t *shape, unsigned ndim,
                  cli_npy **out);
int cli_npy_write(cli_npy *a, const void *data, size_t size);
/* Checks every array is complete and writes the .npz; frees z. */
int cli_npz_finish(cli_npz *z);
void cli_npz_abort(cli_npz *z);

/* ---- options shared by playback and record ---- */
/* Log messages of the library and the cores on stderr, warnings and errors only. */
void cli_log_stderr(rg_log_level level, const char *message, void *user);

#endif
