/* Internal helpers shared by every layer: errors, logging, files, temporary folders. */
#ifndef RG_SRC_BASE_BASE_H
#define RG_SRC_BASE_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct stat;

#include "retrogym/error.h"
#include "retrogym/log.h"

#if defined(__GNUC__)
#define RG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RG_PRINTF(f, a)
#endif

/* Records a message for rg_error_last() on this thread and returns code (so: return rg__error(RG_EINVAL, ...)). */
int rg__error(int code, const char *fmt, ...) RG_PRINTF(2, 3);
/* Prefixes the current message: "context: previous message". Returns code. */
int rg__error_context(int code, const char *fmt, ...) RG_PRINTF(2, 3);

/* A log destination with its level filter. */
typedef struct rg__logger {
    rg_log_fn fn;
    void *user;
    rg_log_level level;
} rg__logger;

static inline int rg__log_enabled(const rg__logger *lg, rg_log_level level)
{
    return lg->fn != NULL && level >= lg->level && level < RG_LOG_NONE;
}
void rg__log(const rg__logger *lg, rg_log_level level, const char *fmt, ...) RG_PRINTF(3, 4);
void rg__logv(const rg__logger *lg, rg_log_level level, const char *fmt, va_list ap);

/* Every open of an input file goes through here. Opens path for reading without blocking on a FIFO or a device
 * (O_NONBLOCK, cleared after the check) and refuses anything but a regular file: "X is not a regular file" (RG_EIO).
 * RG_ENOTFOUND when missing. *fd is closed by the caller; *st (may be NULL) gets its fstat. */
int rg__open_input(const char *path, int *fd, struct stat *st);
/* The same as a stdio stream ("rb"), closed with fclose. */
int rg__fopen_input(const char *path, FILE **f);
/* Whether path opens as a regular file (RG_OK), with the error of rg__open_input otherwise. */
int rg__check_input(const char *path);
/* Reads a whole regular file. RG_ENOTFOUND, RG_EIO, RG_ETOOBIG (over max_size), RG_ENOMEM. *data is freed with free(). */
int rg__read_file(const char *path, size_t max_size, uint8_t **data, size_t *size);
/* Writes a file through a temporary file in the same folder, renamed over path on success. */
int rg__write_file_atomic(const char *path, const void *data, size_t size);
/* Copies a file to dst (created with mode 0700). */
int rg__copy_file(const char *src, const char *dst);

/* Creates a private folder under $TMPDIR (or /tmp) named prefix-XXXXXX; *path is freed with free(). */
int rg__tempdir_create(char **path, const char *prefix);
/* The same, with a lock file inside held through *lock_fd (close it after removing the folder): the folders of
 * processes that ended without removing theirs (killed, crashed) are found by rg__tempdir_sweep. */
int rg__tempdir_create_locked(char **path, int *lock_fd, const char *prefix);
/* Removes $TMPDIR/prefix-* folders of ours whose lock nobody holds and that are at least min_age seconds old.
 * Returns how many were removed. */
size_t rg__tempdir_sweep(const char *prefix, long min_age);
/* Removes a folder tree this process created (files and folders, no symlink following). */
void rg__remove_tree(const char *path);

/* The first of candidates (paths relative to the folder of the shared library or executable holding the library's
 * code) that is a folder, as a canonical path freed with free(); NULL when none is (or out of memory). */
char *rg__own_dir(const char *const *candidates, size_t n);

/* strdup that reports RG_ENOMEM through *rc when it fails (leaves *rc untouched on success). */
char *rg__strdup(const char *s, int *rc);
/* snprintf into a fresh buffer. */
char *rg__asprintf(const char *fmt, ...) RG_PRINTF(1, 2);

/* Makes room for `need` elements of `elem` bytes in *items (a pointer to the array pointer), doubling *cap.
 * RG_ENOMEM leaves the array as it was. */
int rg__reserve(void *items, size_t *cap, size_t need, size_t elem);

/* The length of the longest start of [ptr, ptr + len) that is readable memory of this process (readable.c): len
 * when all of it is (or when that cannot be known), 0 when its first byte is not or ptr is NULL. */
size_t rg__readable_prefix(const void *ptr, size_t len);
/* The same for n ranges at once (one read of the process's mappings): each len[i] cut to its readable start. */
void rg__readable_clip(const void *const *ptr, size_t *len, size_t n);

/* A double truncated to int64 as C would, with 0 for NaN and values outside int64 (no undefined behaviour). */
static inline int64_t rg__double_to_i64(double d)
{
    return (d > -9223372036854775808.0 && d < 9223372036854775808.0) ? (int64_t)d : 0;
}

/* Snapshot streams. A writer with p == NULL only counts (len is the size needed); overflow marks a short buffer. */
typedef struct rg__wbuf {
    uint8_t *p;
    size_t len, cap;
    int overflow;
} rg__wbuf;
void rg__w_bytes(rg__wbuf *w, const void *src, size_t n);
void rg__w_u64(rg__wbuf *w, uint64_t v);
void rg__w_str(rg__wbuf *w, const char *s);
/* A reader: any read past the end sets bad and returns NULL/0. */
typedef struct rg__rbuf {
    const uint8_t *p;
    size_t len, pos;
    int bad;
} rg__rbuf;
const void *rg__r_bytes(rg__rbuf *r, size_t n);
uint64_t rg__r_u64(rg__rbuf *r);
int rg__r_str(rg__rbuf *r, char *buf, size_t cap);

/* A list of one-line messages (warnings of a loader), each at most 511 characters. */
typedef struct rg__messages {
    char **items;
    size_t count, cap;
} rg__messages;
int rg__messages_add(rg__messages *m, const char *fmt, ...) RG_PRINTF(2, 3);
int rg__messages_addv(rg__messages *m, const char *fmt, va_list ap);
void rg__messages_clear(rg__messages *m);

#endif
