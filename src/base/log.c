#include "base.h"

#include <stdio.h>

const char *rg_log_level_name(rg_log_level level)
{
    switch (level) {
    case RG_LOG_DEBUG: return "debug";
    case RG_LOG_INFO: return "info";
    case RG_LOG_WARN: return "warn";
    case RG_LOG_ERROR: return "error";
    case RG_LOG_NONE: return "none";
    }
    return "?";
}

void rg__logv(const rg__logger *lg, rg_log_level level, const char *fmt, va_list ap)
{
    if (!rg__log_enabled(lg, level))
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* Cores end their lines with '\n'; callers get bare messages. */
    size_t n = 0;
    while (msg[n])
        n++;
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    lg->fn(level, msg, lg->user);
}

void rg__log(const rg__logger *lg, rg_log_level level, const char *fmt, ...)
{
    if (!rg__log_enabled(lg, level))
        return;
    va_list ap;
    va_start(ap, fmt);
    rg__logv(lg, level, fmt, ap);
    va_end(ap);
}
