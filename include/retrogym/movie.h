/**
 * @file movie.h
 * Movies (replays): the start state and the buttons of every frame, in stable-retro's `.bk2` format
 * (docs/formats.md, "Movies"), written byte for byte as stable-retro writes them; read from stable-retro, from BizHawk
 * (`LogKey:` lines, movies without `Core.bin`) and from FCEUX `.fm2` (NES, read only). See docs/compat.md "Movies
 * (.bk2)".
 *
 * A movie is a cursor over frames, like stable-retro's `Movie`:
 * @code
 *   rg_movie *m;                                   // reading
 *   if (rg_movie_open_read(&m, "run.bk2") != RG_OK) { puts(rg_error_last()); return; }
 *   while (rg_movie_step(m) == 1)                  // 1: the next frame is current; 0: the end
 *       rg_emu_set_buttons(emu, 0, rg_movie_buttons(m, 0)), rg_emu_run(emu);
 *   rg_movie_free(m);
 *
 *   rg_movie_open_write(&m, "out.bk2", "Nes", "StarCatcher-Nes", 1);   // writing
 *   rg_movie_set_state(m, state, state_size);      // optional: Core.bin (none = power-on start)
 *   rg_movie_set_buttons(m, 0, mask);              // the buttons of the next frame ...
 *   rg_movie_step(m);                              // ... appended as a frame
 *   rg_movie_close(m);                             // writes the file (a temporary file renamed over the path)
 *   rg_movie_free(m);
 * @endcode
 * Buttons are masks of libretro joypad ids (bit i = id i), as rg_emu_set_buttons takes them; ids the system has no
 * button for are dropped. Nothing is written before rg_movie_close or rg_movie_save, and a failed write leaves
 * neither the file nor a temporary file behind. One handle per thread at a time.
 */
#ifndef RETROGYM_MOVIE_H
#define RETROGYM_MOVIE_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>

#include "system.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rg_movie rg_movie;

/** Most players a movie can hold (the emulator's input ports). stable-retro itself handles at most 2. */
#define RG_MOVIE_MAX_PLAYERS 8

/** The format a movie was read from. */
typedef enum rg_movie_format {
    RG_MOVIE_BK2 = 0, /**< zip with Header.txt, Input Log.txt, Core.bin (stable-retro, BizHawk); all writing */
    RG_MOVIE_FM2 = 1  /**< FCEUX text movie (NES) */
} rg_movie_format;

/** Console commands of a frame (the BK2 command field `|..|`, FM2's command number). */
enum {
    RG_MOVIE_CMD_RESET = 1, /**< soft reset before the frame (BK2 `r`, FM2 1) */
    RG_MOVIE_CMD_POWER = 2  /**< power cycle before the frame (BK2 `P`, FM2 2) */
};

/** The limits layout this header declares. The readers accept versions RG_MOVIE_LIMITS_VERSION_OLDEST ..
 *  RG_MOVIE_LIMITS_VERSION and refuse others with RG_EINVAL. */
#define RG_MOVIE_LIMITS_VERSION 1
#define RG_MOVIE_LIMITS_VERSION_OLDEST 1

/** Bounds on what a reader accepts; zero fields mean the defaults given. Exceeding one is RG_ETOOBIG. Start from
 *  RG_MOVIE_LIMITS_INIT or rg_movie_limits_init(). */
typedef struct rg_movie_limits {
    unsigned version;        /**< RG_MOVIE_LIMITS_VERSION */
    size_t max_file_size;    /**< the movie file itself; default 256 MiB */
    size_t max_log_size;     /**< Input Log.txt (or the .fm2 text) inflated; default 256 MiB */
    size_t max_header_size;  /**< Header.txt inflated; default 1 MiB */
    size_t max_state_size;   /**< Core.bin inflated; default 256 MiB */
    uint64_t max_frames;     /**< frames; default 50,000,000 (9 days at 60 fps) */
} rg_movie_limits;

/** The defaults, as an initialiser: `rg_movie_limits l = RG_MOVIE_LIMITS_INIT;` (every bound its default). */
#define RG_MOVIE_LIMITS_INIT {.version = RG_MOVIE_LIMITS_VERSION}

/** The same defaults set on an existing struct (also from C++ and bindings). Inline: it writes the struct as this
 *  header declares it. */
static inline void rg_movie_limits_init(rg_movie_limits *l)
{
    l->version = RG_MOVIE_LIMITS_VERSION;
    l->max_file_size = 0;
    l->max_log_size = 0;
    l->max_header_size = 0;
    l->max_state_size = 0;
    l->max_frames = 0;
}

/* ---- opening and closing ---- */

/**
 * Reads a whole movie: a `.bk2` (zip) or an FCEUX `.fm2`, told apart by content (the extension only words the
 * error). The platform must be a system retrogym knows; the player count comes from the key line (`P<n>`).
 * @return RG_OK; RG_ENOTFOUND, RG_EIO (the file); RG_ECORRUPT (not a zip or FM2, a damaged or truncated archive or
 *         entry, a missing or duplicated Header.txt / Input Log.txt, a line of the wrong width, text that is neither
 *         a frame nor a marker, NUL bytes); RG_ETOOBIG (over a limit: file, entry declared or inflated size, frames,
 *         players); RG_EUNSUPPORTED (an unknown platform, an FM2 in binary form or starting from an FCEUX savestate,
 *         an encrypted entry); RG_ENOMEM
 */
RG_API int rg_movie_open_read(rg_movie **out, const char *path);
/** rg_movie_open_read with limits (NULL: the defaults). */
RG_API int rg_movie_open_read_limits(rg_movie **out, const char *path, const rg_movie_limits *limits);
/** Reads a movie held in memory (copied as needed; `name` only words messages and may be NULL). */
RG_API int rg_movie_open_memory(rg_movie **out, const void *data, size_t size, const char *name,
                                const rg_movie_limits *limits);

/**
 * Starts a movie to be written at `path` by rg_movie_close. `system` is a system name ("Nes"); NULL defers it to
 * rg_movie_configure (as stable-retro's Movie(path, True, players) then configure() does). `game` becomes the
 * header's GameName (NULL: empty). Nothing is created on disk yet, but the folder must exist.
 * @return RG_OK; RG_EINVAL (NULL path, players outside 1..RG_MOVIE_MAX_PLAYERS, a game name with a line break);
 *         RG_ENOTFOUND (unknown system, missing folder); RG_ENOMEM
 */
RG_API int rg_movie_open_write(rg_movie **out, const char *path, const char *system, const char *game,
                               unsigned players);

/**
 * Sets the system and game name of a movie being written, before its first frame (stable-retro's configure).
 * @return RG_OK; RG_EMISUSE (reading, closed, or frames already recorded); RG_ENOTFOUND; RG_EINVAL
 */
RG_API int rg_movie_configure(rg_movie *m, const char *system, const char *game);

/**
 * Finishes a movie. Writing: writes the file through a temporary file in the same folder renamed over the path.
 * On failure nothing is left on disk and the movie stays open with all its frames (fix the cause and close again,
 * or rg_movie_save elsewhere). Reading: only marks it closed. Closing twice is RG_OK.
 * @return RG_OK; RG_EIO; RG_EMISUSE (writing without a system); RG_ENOMEM
 */
RG_API int rg_movie_close(rg_movie *m);

/** Frees a movie; a movie being written that was not closed is discarded (nothing is written). NULL is allowed. */
RG_API void rg_movie_free(rg_movie *m);

/**
 * Writes the movie as it is now (frames recorded or read so far, state, game) as a stable-retro `.bk2` at `path`,
 * atomically, without closing it. A movie read from FM2 or BizHawk is converted.
 * @return RG_OK; RG_EIO; RG_EMISUSE (no system yet); RG_EINVAL; RG_ENOMEM
 */
RG_API int rg_movie_save(const rg_movie *m, const char *path);

/* ---- what the movie is ---- */

/** The system (NULL while a movie being written is not configured). */
RG_API const rg_system_info *rg_movie_system(const rg_movie *m);
/** The game name (header GameName; "" when none, e.g. FM2). Borrowed until the next configure or free. */
RG_API const char *rg_movie_game(const rg_movie *m);
RG_API unsigned rg_movie_players(const rg_movie *m);
RG_API rg_movie_format rg_movie_format_of(const rg_movie *m);
/** Nonzero for a movie opened with rg_movie_open_write. */
RG_API int rg_movie_is_writing(const rg_movie *m);
/** Frames in the movie: all of them when reading, those recorded so far when writing. */
RG_API uint64_t rg_movie_frame_count(const rg_movie *m);
/** Frames stepped over so far (reading: the current frame is position - 1). */
RG_API uint64_t rg_movie_position(const rg_movie *m);
/**
 * A header value (BK2 Header.txt "Key Value" lines, FM2 "key value" lines; for a movie being written, the lines it
 * will write), or NULL when absent. The last line of a key wins. Borrowed until the next configure or free.
 */
RG_API const char *rg_movie_header(const rg_movie *m, const char *key);

/* ---- the cursor ---- */

/**
 * Reading: makes the next frame current (its buttons then answer rg_movie_buttons / rg_movie_get_key).
 * Writing: appends the buttons and commands set since the last step as a frame, then clears them.
 * @return 1 when a frame was read or written; 0 at the end of a movie being read (the current buttons stay as they
 *         were); RG_EMISUSE (closed; writing before a system is configured); RG_ETOOBIG (writing past max frames);
 *         RG_ENOMEM
 */
RG_API int rg_movie_step(rg_movie *m);

/** Buttons of a player for the current frame (reading) or the next frame (writing); 0 for a bad player. */
RG_API uint16_t rg_movie_buttons(const rg_movie *m, unsigned player);
/** Commands (RG_MOVIE_CMD_*) of the current or next frame. */
RG_API unsigned rg_movie_commands(const rg_movie *m);
/**
 * Sets the buttons of a player (bits of ids without a button are dropped). Writing: for the next frame. Reading:
 * changes the current buttons only, until the next step (as stable-retro's set_key does).
 * @return RG_OK; RG_EINVAL (player >= players); RG_EMISUSE (closed)
 */
RG_API int rg_movie_set_buttons(rg_movie *m, unsigned player, uint16_t mask);
/** Sets the commands of the next frame (writing) or the current one (reading). @return RG_OK, RG_EMISUSE */
RG_API int rg_movie_set_commands(rg_movie *m, unsigned commands);
/** One button: 1 pressed, 0 not (also for a bad id or player). stable-retro's get_key(button, player). */
RG_API int rg_movie_get_key(const rg_movie *m, unsigned button, unsigned player);
/** stable-retro's set_key(button, pressed, player). @return RG_OK; RG_EINVAL (button >= 16, bad player) */
RG_API int rg_movie_set_key(rg_movie *m, unsigned button, int pressed, unsigned player);

/** Buttons of any frame (0-based), without moving the cursor. @return RG_OK; RG_ERANGE; RG_EINVAL */
RG_API int rg_movie_frame_buttons(const rg_movie *m, uint64_t frame, unsigned player, uint16_t *mask);
/** Commands of any frame. @return RG_OK; RG_ERANGE */
RG_API int rg_movie_frame_commands(const rg_movie *m, uint64_t frame, unsigned *commands);

/* ---- start state ---- */

/**
 * The start state (`Core.bin`, the raw emulator state at frame 0), borrowed until the next set_state or free;
 * size 0 (data NULL) when the movie starts at power-on.
 */
RG_API int rg_movie_state(const rg_movie *m, const uint8_t **data, size_t *size);
/** Replaces the start state (copied; size 0 removes it). @return RG_OK; RG_ENOMEM; RG_EINVAL; RG_EMISUSE (closed) */
RG_API int rg_movie_set_state(rg_movie *m, const void *data, size_t size);

/* ---- the key line ---- */

/**
 * How a system's buttons appear in a `.bk2`: the one-character mnemonic of the frame lines and the name of the key
 * line (`P1 <name>`). `stable` is nonzero for the buttons stable-retro records; the others (Atari RESET, SMS PAUSE,
 * PC Engine I-VI and RUN) are retrogym's extension, written only by movies that press them.
 * @return RG_OK; RG_ENOTFOUND when the id has no button on the system
 */
RG_API int rg_movie_button_mnemonic(const rg_system_info *sys, unsigned id, char *mnemonic, const char **name,
                                    int *stable);

/* ---- the rewards recorded with a movie (its retrogym.txt entry, written by a recording rg_env) ---- */

typedef struct rg_movie_scores rg_movie_scores;

/**
 * Reads the rewards and done a recording environment stored in a movie file (its retrogym.txt entry), through the
 * bounded .bk2 reader (the entry at most 64 MiB).
 * @return RG_OK; RG_ENOTFOUND (no such file, or a movie without them: stable-retro's, BizHawk's, FM2); RG_ECORRUPT
 *         (not a zip, a malformed entry); RG_ETOOBIG (entry over 64 MiB); RG_EIO; RG_ENOMEM
 */
RG_API int rg_movie_scores_read(rg_movie_scores **out, const char *movie_path);
RG_API void rg_movie_scores_free(rg_movie_scores *s);
RG_API unsigned rg_movie_scores_players(const rg_movie_scores *s);
/** Frames covered: first .. frames - 1 (frames before `first` were run before the recording started). */
RG_API uint64_t rg_movie_scores_first(const rg_movie_scores *s);
RG_API uint64_t rg_movie_scores_frames(const rg_movie_scores *s);
/** The core that recorded the movie ("" when unknown). Borrowed until free. */
RG_API const char *rg_movie_scores_core(const rg_movie_scores *s);
/**
 * The reward of each player (rewards[players], players at most RG_SCENARIO_MAX_PLAYERS of scenario.h) and done
 * after a frame.
 * @return RG_OK; RG_ERANGE (a frame outside first .. frames - 1)
 */
RG_API int rg_movie_scores_at(const rg_movie_scores *s, uint64_t frame, float *rewards, int *done);

#ifdef __cplusplus
}
#endif
#endif
