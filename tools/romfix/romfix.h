/* romfix: header checksum rules of the consoles our test ROMs target.
 *
 * Used by the ROM build (tools/romfix/romfix_main.c patches an image in place) and by the unit test that checks
 * every committed test ROM offline (recomputing a checksum over a correct image must change nothing).
 * The rules are written out in docs/testing.md, "Header checksums of the test ROMs". */
#ifndef RG_TOOLS_ROMFIX_H
#define RG_TOOLS_ROMFIX_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    ROMFIX_GB,   /* $014D header checksum and $014E-F global checksum */
    ROMFIX_GBA,  /* 0xBD complement check */
    ROMFIX_SMS,  /* "TMR SEGA" header checksum at $7FFA (also Game Gear) */
    ROMFIX_SNES, /* LoROM checksum and complement at $7FDC */
    ROMFIX_MD    /* ROM end address at $1A4 and checksum at $18E */
} romfix_kind;

/* Parses "gb", "gba", "sms", "gg", "snes", "md". Returns 0 on success, -1 for an unknown name. */
int romfix_parse_kind(const char *name, romfix_kind *out);

/* Rewrites the checksum fields of image in place. Returns 0, or -1 when the image is too small or malformed
 * for that kind (the reason is copied into why, which may be NULL). */
int romfix_apply(romfix_kind kind, uint8_t *image, size_t size, const char **why);

/* Returns 1 when the image already carries correct checksum fields, 0 when not, -1 when it is malformed. */
int romfix_check(romfix_kind kind, const uint8_t *image, size_t size, const char **why);

#endif
