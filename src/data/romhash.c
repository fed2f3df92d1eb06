/* ROM SHA-1 as Gym Retro computes it, and rom.sha files (docs/integrations.md, "rom.sha and ROM hashes"). */
#define _POSIX_C_SOURCE 200809L
#include "data_internal.h"

#include <nettle/sha1.h>
#include <stdlib.h>
#include <string.h>

#define INES_HEADER 16

int rg_integration_rom_sha1(const void *data, size_t size, const char *name, char hex[RG_INTEGRATION_SHA1_HEX + 1])
{
    if ((!data && size) || !hex)
        return rg__error(RG_EINVAL, "rg_integration_rom_sha1: NULL argument");
    const uint8_t *p = data;
    if (name && rg__ends_with_ci(name, ".nes")) {
        size_t skip = size < INES_HEADER ? size : INES_HEADER;
        p += skip;
        size -= skip;
    }
    struct sha1_ctx ctx;
    uint8_t digest[SHA1_DIGEST_SIZE];
    sha1_init(&ctx);
    if (size)
        sha1_update(&ctx, size, p);
    sha1_digest(&ctx, sizeof digest, digest);
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < SHA1_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[RG_INTEGRATION_SHA1_HEX] = '\0';
    return RG_OK;
}

int rg_integration_rom_sha1_file(const char *path, char hex[RG_INTEGRATION_SHA1_HEX + 1])
{
    if (!path || !hex)
        return rg__error(RG_EINVAL, "rg_integration_rom_sha1_file: NULL argument");
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, RG_INTEGRATION_ROM_MAX_SIZE, &data, &size);
    if (rc == RG_ETOOBIG)
        return rg__error(rc, "ROM is too big: %s is over %u bytes", path, RG_INTEGRATION_ROM_MAX_SIZE);
    if (rc != RG_OK)
        return rc;
    rc = rg_integration_rom_sha1(data, size, path, hex);
    free(data);
    return rc;
}

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int rg_integration_romsha_parse(const char *text, size_t len, rg_strlist **out)
{
    if (!out || (!text && len))
        return rg__error(RG_EINVAL, "rg_integration_romsha_parse: NULL argument");
    *out = NULL;
    rg_strlist *l;
    int rc = rg__strlist_new(&l);
    if (rc != RG_OK)
        return rc;
    size_t pos = 0, line = 1;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte-order mark */
        pos = 3;
    for (; rc == RG_OK && pos < len; line++) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        size_t a = pos, b = end;
        while (a < b && is_blank((unsigned char)text[a]))
            a++;
        while (b > a && is_blank((unsigned char)text[b - 1]))
            b--;
        pos = end + 1;
        if (a == b)
            continue;
        char hex[RG_INTEGRATION_SHA1_HEX + 1];
        int ok = b - a == RG_INTEGRATION_SHA1_HEX;
        for (size_t i = 0; ok && i < RG_INTEGRATION_SHA1_HEX; i++) {
            int v = hexval((unsigned char)text[a + i]);
            ok = v >= 0;
            hex[i] = "0123456789abcdef"[v & 15];
        }
        hex[RG_INTEGRATION_SHA1_HEX] = '\0';
        if (!ok) {
            size_t n = b - a;
            char shown[48];
            size_t k = n < sizeof shown - 1 ? n : sizeof shown - 1;
            for (size_t i = 0; i < k; i++) {
                unsigned char c = (unsigned char)text[a + i];
                shown[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
            }
            shown[k] = '\0';
            rc = rg__error(RG_ECORRUPT, "rom.sha line %zu is not a SHA-1 (40 hex digits): \"%s%s\"", line, shown,
                           n >= sizeof shown ? "..." : "");
        } else if (!rg__strlist_contains(l, hex)) {
            rc = rg__strlist_push(l, hex);
        }
    }
    if (rc != RG_OK) {
        rg_strlist_free(l);
        return rc;
    }
    *out = l;
    return RG_OK;
}

int rg_integration_romsha_load(const char *path, rg_strlist **out)
{
    if (!path || !out)
        return rg__error(RG_EINVAL, "rg_integration_romsha_load: NULL argument");
    *out = NULL;
    uint8_t *data;
    size_t size;
    int rc = rg__read_file(path, RG__ROMSHA_MAX_SIZE, &data, &size);
    if (rc != RG_OK)
        return rc;
    rc = rg_integration_romsha_parse((const char *)data, size, out);
    free(data);
    if (rc == RG_ECORRUPT)
        rg__error_context(rc, "%s", path);
    return rc;
}
