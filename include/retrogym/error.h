/**
 * @file error.h
 * Error codes and the thread-local error message.
 *
 * Every retrogym function that can fail returns an `int`: `RG_OK` (0) on success or a negative `RG_E*` code. The
 * failing function also records a one-line message for the calling thread, readable with rg_error_last() until the
 * next failing call on that thread. Codes are append-only.
 */
#ifndef RETROGYM_ERROR_H
#define RETROGYM_ERROR_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    RG_OK = 0,
    RG_ENOMEM = -1,        /**< out of memory */
    RG_EINVAL = -2,        /**< bad argument (NULL, out of range, unknown name) */
    RG_ENOTFOUND = -3,     /**< a file, core, symbol or system was not found */
    RG_EIO = -4,           /**< reading or writing a file failed */
    RG_EUNSUPPORTED = -5,  /**< a core or feature is missing (e.g. a core that cannot serialize) */
    RG_ECORE = -6,         /**< the emulator core refused or failed (load, run, symbols, API version) */
    RG_ESTATE = -7,        /**< a save state is corrupt, truncated or does not fit the core */
    RG_EMISUSE = -8,       /**< wrong call order or a freed/closed object */
    RG_ERANGE = -9,        /**< a value out of its range: an address not mapped, an index, id or frame outside
                                what exists */
    RG_ECORRUPT = -10,     /**< malformed input data (ROM, JSON, archive) */
    RG_ETOOBIG = -11,      /**< input larger than the configured limit */
    RG_EBUFFER = -12,      /**< the caller's buffer is too small (the message gives the size needed) */
    RG_ETIMEOUT = -13      /**< a script ran past its instruction or wall-clock budget (rg_script_limits) */
};

/** The message of the last failure on this thread ("" if none). Valid until the next retrogym call on the thread. */
RG_API const char *rg_error_last(void);

/** The symbolic name of an error code, e.g. "RG_ENOTFOUND"; "RG_E?" for unknown codes. */
RG_API const char *rg_error_name(int code);

/** A short description of an error code. */
RG_API const char *rg_strerror(int code);

#ifdef __cplusplus
}
#endif
#endif
