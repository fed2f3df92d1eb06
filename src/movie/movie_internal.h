/* The movie layer's shared pieces: the handle, the button columns of the key line, line iteration. */
#ifndef RG_SRC_MOVIE_MOVIE_INTERNAL_H
#define RG_SRC_MOVIE_MOVIE_INTERNAL_H

#include "retrogym/movie.h"

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>

/* One "Key Value" header line. */
typedef struct rg__movie_hline {
    char *key;
    char *value;
} rg__movie_hline;

struct rg_movie {
    int writing;
    int closed;
    rg_movie_format format;
    const rg_system_info *sys; /* NULL until a movie being written is configured */
    char *path;                /* writing: where close writes */
    char *game;
    unsigned players;
    uint64_t max_frames;

    uint16_t *masks;           /* frames * players, frame-major */
    uint8_t *cmds;             /* one per frame */
    size_t frames, cap_masks, cap_cmds;
    size_t pos;                /* frames stepped over */
    uint16_t keys[RG_MOVIE_MAX_PLAYERS];
    unsigned cur_cmds;

    uint8_t *state;
    size_t state_size;

    rg__movie_hline *header;
    size_t n_header, cap_header;
};

/* Resolved limits (defaults filled in). */
typedef struct rg__movie_caps {
    size_t file, log, header, state;
    uint64_t frames;
} rg__movie_caps;

/* ---- movie.c ---- */
rg_movie *rg__movie_new(void);
/* Appends a frame (grows the arrays). RG_ETOOBIG past max_frames. */
int rg__movie_push_frame(rg_movie *m, const uint16_t *masks, unsigned cmds);
/* Adds or replaces a header line (value may be NULL for ""). replace: overwrite an existing key in place. */
int rg__movie_header_set(rg_movie *m, const char *key, size_t key_len, const char *value, size_t value_len,
                         int replace);

/* ---- movie_keys.c: the columns of a system ---- */
#define RG__MOVIE_MAX_COLUMNS RG_MAX_BUTTONS

typedef struct rg__movie_column {
    unsigned id;          /* joypad id */
    char mnemonic;
    const char *name;     /* key line name: "Start" */
    int stable;           /* stable-retro writes it */
} rg__movie_column;

/* The system's buttons in stable-retro's write order (descending joypad id). Returns the count. */
size_t rg__movie_columns(const rg_system_info *sys, rg__movie_column *cols);
/* Mask of the ids stable-retro records for this system. */
uint16_t rg__movie_stable_mask(const rg_system_info *sys);
/* The joypad id a key-line button name stands for on this system ("Start", "START", BizHawk's "B1"), or -1. */
int rg__movie_button_by_name(const rg_system_info *sys, const char *name, size_t len);
/* The platform code stable-retro writes (GEN, SNES, NES, A26, else the system name). */
const char *rg__movie_platform_code(const rg_system_info *sys);
/* The system of a header Platform value (stable-retro's and BizHawk's codes, or a system name). */
int rg__movie_platform_system(const char *platform, const rg_system_info **sys);

/* ---- text lines ---- */
typedef struct rg__lines {
    const char *p, *end;
    size_t number; /* 1-based number of the line last returned */
} rg__lines;

/* Next line without its "\n" or "\r\n". Returns 0 at the end. */
int rg__lines_next(rg__lines *it, const char **line, size_t *len);
/* Rejects text holding NUL bytes (what: "Input Log.txt"). */
int rg__text_check(const char *what, const char *data, size_t size);
/* A printable, bounded copy of a byte string for messages ("?" for other bytes). */
void rg__movie_printable(char *dst, size_t cap, const char *src, size_t len);

/* ---- bk2_read.c, bk2_log.c, fm2_read.c, bk2_write.c ---- */
int rg__bk2_read(rg_movie *m, const uint8_t *data, size_t size, const char *name, const rg__movie_caps *caps);
/* One more entry of a .bk2 file, by exact name (another layer's, e.g. the environment's retrogym.txt), through the
 * bounded reader of the movie's own entries: at most cap bytes declared or inflated (RG_ETOOBIG), NUL-terminated
 * text (malloc'd). RG_ENOTFOUND: no such file, or no such entry (the message calls it `what`); RG_ECORRUPT: not a
 * zip, a damaged entry; RG_EIO. */
int rg__bk2_read_extra(const char *path, const char *entry, const char *what, size_t cap, char **text, size_t *size);
int rg__bk2_parse_log(rg_movie *m, const char *text, size_t size);
/* The same as the log inflates, chunk by chunk: memory is the frames plus one line (at most RG__BK2_MAX_LINE bytes),
 * never the whole text. begin; feed every chunk in order; end; free (always). */
#define RG__BK2_MAX_LINE (1u << 20)
typedef struct rg__bk2_log {
    void *layout; /* the columns, from the key line */
    int have_layout, ended, pending_open;
    char *key;    /* the key line */
    size_t key_len, key_no, line_no, offset;
    char *pending; /* a line cut by the end of a chunk */
    size_t pending_len, pending_cap;
} rg__bk2_log;
int rg__bk2_log_begin(rg__bk2_log *st);
int rg__bk2_log_feed(rg_movie *m, rg__bk2_log *st, const char *data, size_t size);
int rg__bk2_log_end(rg_movie *m, rg__bk2_log *st);
void rg__bk2_log_free(rg__bk2_log *st);
int rg__fm2_read(rg_movie *m, const char *text, size_t size, const char *name);
/* The two text entries exactly as stable-retro writes them (malloc'd). */
int rg__bk2_header_text(const rg_movie *m, char **text, size_t *len);
int rg__bk2_log_text(const rg_movie *m, char **text, size_t *len);
/* The whole zip in memory. */
int rg__bk2_zip(const rg_movie *m, uint8_t **data, size_t *size);
/* The same with one more text entry after the others (entry NULL: none). */
int rg__bk2_zip_extra(const rg_movie *m, const char *entry, const char *text, uint8_t **data, size_t *size);

#endif
