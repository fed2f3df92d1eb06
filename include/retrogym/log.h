/**
 * @file log.h
 * Log levels and the log callback type. The library never prints: messages from retrogym and from the emulator
 * cores it hosts go to a callback given per emulator instance, filtered by level before they are formatted.
 */
#ifndef RETROGYM_LOG_H
#define RETROGYM_LOG_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Levels, the same numbers as libretro's `retro_log_level`. */
typedef enum {
    RG_LOG_DEBUG = 0,
    RG_LOG_INFO = 1,
    RG_LOG_WARN = 2,
    RG_LOG_ERROR = 3,
    RG_LOG_NONE = 4 /**< as a filter level: drop everything */
} rg_log_level;

/**
 * Receives one formatted message (no trailing newline). Called on the thread that drives the instance.
 * @param user_data the pointer given with the callback
 */
typedef void (*rg_log_fn)(rg_log_level level, const char *message, void *user_data);

/** "debug", "info", "warn", "error" or "none". */
RG_API const char *rg_log_level_name(rg_log_level level);

#ifdef __cplusplus
}
#endif
#endif
