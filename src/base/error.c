#define _POSIX_C_SOURCE 200809L
#include "base.h"

#include <stdio.h>
#include <string.h>

#define RG_ERROR_MAX 1024

static _Thread_local char last_message[RG_ERROR_MAX];

int rg__error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return code;
}

int rg__error_context(int code, const char *fmt, ...)
{
    char prefix[RG_ERROR_MAX];
    char previous[RG_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(previous, last_message, sizeof previous);
    /* Truncation of an over-long message is acceptable; build it in two steps to say so to the compiler. */
    size_t n = strlen(prefix);
    if (n > sizeof last_message - 3)
        n = sizeof last_message - 3;
    memcpy(last_message, prefix, n);
    memcpy(last_message + n, ": ", 2);
    size_t room = sizeof last_message - n - 2;
    size_t m = strnlen(previous, room - 1);
    memcpy(last_message + n + 2, previous, m);
    last_message[n + 2 + m] = 0;
    return code;
}

const char *rg_error_last(void)
{
    return last_message;
}

static const struct {
    int code;
    const char *name;
    const char *text;
} codes[] = {
    {RG_OK, "RG_OK", "success"},
    {RG_ENOMEM, "RG_ENOMEM", "out of memory"},
    {RG_EINVAL, "RG_EINVAL", "invalid argument"},
    {RG_ENOTFOUND, "RG_ENOTFOUND", "not found"},
    {RG_EIO, "RG_EIO", "input/output error"},
    {RG_EUNSUPPORTED, "RG_EUNSUPPORTED", "not supported"},
    {RG_ECORE, "RG_ECORE", "emulator core failure"},
    {RG_ESTATE, "RG_ESTATE", "bad save state"},
    {RG_EMISUSE, "RG_EMISUSE", "misuse of the API"},
    {RG_ERANGE, "RG_ERANGE", "out of range"},
    {RG_ECORRUPT, "RG_ECORRUPT", "malformed input data"},
    {RG_ETOOBIG, "RG_ETOOBIG", "input too large"},
    {RG_EBUFFER, "RG_EBUFFER", "buffer too small"},
    {RG_ETIMEOUT, "RG_ETIMEOUT", "script budget exceeded (instructions or time)"},
};

const char *rg_error_name(int code)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].code == code)
            return codes[i].name;
    return "RG_E?";
}

const char *rg_strerror(int code)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].code == code)
            return codes[i].text;
    return "unknown error";
}
