#include "romfix.h"

#include <stdlib.h>
#include <string.h>

int romfix_parse_kind(const char *name, romfix_kind *out)
{
    static const struct { const char *name; romfix_kind kind; } names[] = {
        {"gb", ROMFIX_GB}, {"gbc", ROMFIX_GB}, {"gba", ROMFIX_GBA}, {"sms", ROMFIX_SMS},
        {"gg", ROMFIX_SMS}, {"snes", ROMFIX_SNES}, {"md", ROMFIX_MD},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].kind;
            return 0;
        }
    }
    return -1;
}

static int fail(const char **why, const char *msg)
{
    if (why)
        *why = msg;
    return -1;
}

static void put_be16(uint8_t *p, unsigned v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put_le16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static int fix_gb(uint8_t *img, size_t size, const char **why)
{
    if (size < 0x8000)
        return fail(why, "Game Boy image smaller than 32 KiB");
    uint8_t x = 0;
    for (size_t i = 0x134; i <= 0x14C; i++)
        x = (uint8_t)(x - img[i] - 1);
    img[0x14D] = x;
    unsigned sum = 0;
    for (size_t i = 0; i < size; i++)
        if (i != 0x14E && i != 0x14F)
            sum += img[i];
    put_be16(img + 0x14E, sum & 0xFFFF);
    return 0;
}

static int fix_gba(uint8_t *img, size_t size, const char **why)
{
    if (size < 0xC0)
        return fail(why, "GBA image smaller than its 192-byte header");
    if (img[0xB2] != 0x96)
        return fail(why, "GBA header lacks the fixed 0x96 at 0xB2");
    unsigned sum = 0;
    for (size_t i = 0xA0; i <= 0xBC; i++)
        sum += img[i];
    img[0xBD] = (uint8_t)(0u - sum - 0x19u);
    return 0;
}

static int fix_sms(uint8_t *img, size_t size, const char **why)
{
    if (size < 0x8000)
        return fail(why, "SMS/GG image smaller than 32 KiB");
    if (memcmp(img + 0x7FF0, "TMR SEGA", 8) != 0)
        return fail(why, "SMS/GG header lacks \"TMR SEGA\" at $7FF0");
    if ((img[0x7FFF] & 0x0F) != 0x0C)
        return fail(why, "only the 32 KiB size code (C) is supported");
    unsigned sum = 0;
    for (size_t i = 0; i < 0x7FF0; i++)
        sum += img[i];
    put_le16(img + 0x7FFA, sum & 0xFFFF);
    return 0;
}

static int fix_snes(uint8_t *img, size_t size, const char **why)
{
    if (size < 0x8000 || (size & (size - 1)) != 0)
        return fail(why, "SNES LoROM image must be a power of two of at least 32 KiB");
    put_le16(img + 0x7FDC, 0xFFFF);
    put_le16(img + 0x7FDE, 0x0000);
    unsigned sum = 0;
    for (size_t i = 0; i < size; i++)
        sum += img[i];
    sum &= 0xFFFF;
    put_le16(img + 0x7FDE, sum);
    put_le16(img + 0x7FDC, sum ^ 0xFFFF);
    return 0;
}

static int fix_md(uint8_t *img, size_t size, const char **why)
{
    if (size < 0x200 || (size & 1) != 0)
        return fail(why, "Mega Drive image must be even-sized and hold the $200-byte header");
    if (memcmp(img + 0x100, "SEGA", 4) != 0)
        return fail(why, "Mega Drive header must start with \"SEGA\" at $100");
    put_be32(img + 0x1A4, (uint32_t)(size - 1));
    unsigned sum = 0;
    for (size_t i = 0x200; i < size; i += 2)
        sum += ((unsigned)img[i] << 8) | img[i + 1];
    put_be16(img + 0x18E, sum & 0xFFFF);
    return 0;
}

int romfix_apply(romfix_kind kind, uint8_t *image, size_t size, const char **why)
{
    switch (kind) {
    case ROMFIX_GB: return fix_gb(image, size, why);
    case ROMFIX_GBA: return fix_gba(image, size, why);
    case ROMFIX_SMS: return fix_sms(image, size, why);
    case ROMFIX_SNES: return fix_snes(image, size, why);
    case ROMFIX_MD: return fix_md(image, size, why);
    }
    return fail(why, "unknown kind");
}

int romfix_check(romfix_kind kind, const uint8_t *image, size_t size, const char **why)
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return fail(why, "out of memory");
    memcpy(copy, image, size);
    int rc = romfix_apply(kind, copy, size, why);
    if (rc == 0)
        rc = memcmp(copy, image, size) == 0 ? 1 : 0;
    free(copy);
    return rc;
}
