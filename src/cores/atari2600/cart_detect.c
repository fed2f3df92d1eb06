/* Atari 2600 cartridge layout detection from image size and code signatures.
 *
 * The decision order and the signatures are those Stella 3.9.3 uses when a ROM is not in its property database
 * (facts about the images: which instructions touch which hot spots). Layouts we do not emulate are named in the
 * error message so the user knows why the image was refused. */
#include "cores/atari2600/cart.h"

#include <string.h>

/* Number of non-overlapping occurrences of sig in img, stopping once `enough` are found. */
static unsigned count_sig(const uint8_t *img, size_t size, const uint8_t *sig, size_t n, unsigned enough)
{
    unsigned hits = 0;
    for (size_t i = 0; i + n <= size && hits < enough;) {
        if (img[i] == sig[0] && memcmp(img + i, sig, n) == 0) {
            hits++;
            i += n;
        } else {
            i++;
        }
    }
    return hits;
}

/* True when any of the count 3-byte signatures occurs. */
static int any_sig3(const uint8_t *img, size_t size, const uint8_t (*sigs)[3], size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (count_sig(img, size, sigs[i], 3, 1) > 0)
            return 1;
    return 0;
}

/* Superchip images keep the 256 bytes of the RAM ports of every 4 KiB bank as one repeated filler byte. */
static int probably_sc(const uint8_t *img, size_t size)
{
    for (size_t bank = 0; bank + 4096 <= size; bank += 4096)
        for (size_t j = 1; j < 256; j++)
            if (img[bank + j] != img[bank])
                return 0;
    return 1;
}

/* CommaVid: stores into the RAM write port ($F400 page) indexed from $F3FF or $F400. */
static int probably_cv(const uint8_t *img, size_t size)
{
    static const uint8_t sigs[][3] = {
        {0x9D, 0xFF, 0xF3}, /* STA $F3FF,X */
        {0x99, 0x00, 0xF4}, /* STA $F400,Y */
    };
    return any_sig3(img, size, sigs, sizeof sigs / sizeof sigs[0]);
}

/* 4K with Superchip (not emulated): filler RAM area and an "SC" mark at $1FFA. */
static int probably_4ksc(const uint8_t *img, size_t size)
{
    for (size_t j = 1; j < 256; j++)
        if (img[j] != img[0])
            return 0;
    return img[size - 6] == 'S' && img[size - 5] == 'C';
}

/* Parker Brothers: absolute accesses to the slice hot spots. */
static int probably_e0(const uint8_t *img, size_t size)
{
    static const uint8_t sigs[][3] = {
        {0x8D, 0xE0, 0x1F}, /* STA $1FE0 */
        {0x8D, 0xE0, 0x5F}, /* STA $5FE0 */
        {0x8D, 0xE9, 0xFF}, /* STA $FFE9 */
        {0x0C, 0xE0, 0x1F}, /* NOP $1FE0 */
        {0xAD, 0xE0, 0x1F}, /* LDA $1FE0 */
        {0xAD, 0xE9, 0xFF}, /* LDA $FFE9 */
        {0xAD, 0xED, 0xFF}, /* LDA $FFED */
        {0xAD, 0xF3, 0xBF}, /* LDA $BFF3 */
    };
    return any_sig3(img, size, sigs, sizeof sigs / sizeof sigs[0]);
}

/* M-Network: absolute accesses to the bank hot spots. */
static int probably_e7(const uint8_t *img, size_t size)
{
    static const uint8_t sigs[][3] = {
        {0xAD, 0xE2, 0xFF}, /* LDA $FFE2 */
        {0xAD, 0xE5, 0xFF}, /* LDA $FFE5 */
        {0xAD, 0xE5, 0x1F}, /* LDA $1FE5 */
        {0xAD, 0xE7, 0x1F}, /* LDA $1FE7 */
        {0x0C, 0xE7, 0x1F}, /* NOP $1FE7 */
        {0x8D, 0xE7, 0xFF}, /* STA $FFE7 */
        {0x8D, 0xE7, 0x1F}, /* STA $1FE7 */
    };
    return any_sig3(img, size, sigs, sizeof sigs / sizeof sigs[0]);
}

/* 3E (not emulated): STA $3E followed by LDA #0. */
static int probably_3e(const uint8_t *img, size_t size)
{
    static const uint8_t sig[] = {0x85, 0x3E, 0xA9, 0x00};
    return count_sig(img, size, sig, sizeof sig, 1) > 0;
}

/* Tigervision: at least two STA $3F (one per bank switch site). */
static int probably_3f(const uint8_t *img, size_t size)
{
    static const uint8_t sig[] = {0x85, 0x3F};
    return count_sig(img, size, sig, sizeof sig, 2) >= 2;
}

/* UA Limited: accesses to $0240 / $021F,X. */
static int probably_ua(const uint8_t *img, size_t size)
{
    static const uint8_t sigs[][3] = {
        {0x8D, 0x40, 0x02}, /* STA $240 */
        {0xAD, 0x40, 0x02}, /* LDA $240 */
        {0xBD, 0x1F, 0x02}, /* LDA $21F,X */
    };
    return any_sig3(img, size, sigs, sizeof sigs / sizeof sigs[0]);
}

/* Activision: typical code around the cross-bank subroutine calls. */
static int probably_fe(const uint8_t *img, size_t size)
{
    static const uint8_t sigs[][5] = {
        {0x20, 0x00, 0xD0, 0xC6, 0xC5}, /* JSR $D000; DEC $C5 */
        {0x20, 0xC3, 0xF8, 0xA5, 0x82}, /* JSR $F8C3; LDA $82 */
        {0xD0, 0xFB, 0x20, 0x73, 0xFE}, /* BNE -5; JSR $FE73 */
        {0x20, 0x00, 0xF0, 0x84, 0xD6}, /* JSR $F000; STY $D6 */
    };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (count_sig(img, size, sigs[i], 5, 1) > 0)
            return 1;
    return 0;
}

/* 0840 (not emulated): repeated accesses to $0800/$0840. */
static int probably_0840(const uint8_t *img, size_t size)
{
    static const uint8_t sig3[][3] = {
        {0xAD, 0x00, 0x08}, /* LDA $0800 */
        {0xAD, 0x40, 0x08}, /* LDA $0840 */
        {0x2C, 0x00, 0x08}, /* BIT $0800 */
    };
    static const uint8_t sig4[][4] = {
        {0x0C, 0x00, 0x08, 0x4C}, /* NOP $0800; JMP */
        {0x0C, 0xFF, 0x0F, 0x4C}, /* NOP $0FFF; JMP */
    };
    for (size_t i = 0; i < sizeof sig3 / sizeof sig3[0]; i++)
        if (count_sig(img, size, sig3[i], 3, 2) >= 2)
            return 1;
    for (size_t i = 0; i < sizeof sig4 / sizeof sig4[0]; i++)
        if (count_sig(img, size, sig4[i], 4, 2) >= 2)
            return 1;
    return 0;
}

static int unsupported(size_t size, const char *what)
{
    return rg__error(RG__A26_CART_EFORMAT, "atari2600: this %zu-byte image looks like %s, which is not supported",
                     size, what);
}

static int detect_8k(const uint8_t *rom, rg__a26_cart_type *type)
{
    const size_t size = 8192;
    static const uint8_t sta_1ff9[] = {0x8D, 0xF9, 0x1F}; /* F8 code switching banks; rules out FE */
    if (probably_sc(rom, size))
        *type = RG__A26_CART_F8SC;
    else if (memcmp(rom, rom + 4096, 4096) == 0)
        *type = RG__A26_CART_4K;
    else if (probably_e0(rom, size))
        *type = RG__A26_CART_E0;
    else if (probably_3e(rom, size))
        return unsupported(size, "a 3E (Tigervision with RAM) cartridge");
    else if (probably_3f(rom, size))
        *type = RG__A26_CART_3F;
    else if (probably_ua(rom, size))
        *type = RG__A26_CART_UA;
    else if (probably_fe(rom, size) && count_sig(rom, size, sta_1ff9, 3, 2) < 2)
        *type = RG__A26_CART_FE;
    else if (probably_0840(rom, size))
        return unsupported(size, "an 0840 (EconoBanking) cartridge");
    else
        *type = RG__A26_CART_F8;
    return RG_OK;
}

int rg__a26_cart_detect(const uint8_t *rom, size_t size, rg__a26_cart_type *type)
{
    if (type == NULL || (rom == NULL && size > 0))
        return rg__error(RG_EINVAL, "atari2600: no ROM image");
    if (size == 0)
        return rg__error(RG__A26_CART_EFORMAT, "atari2600: the ROM image is empty");
    if (size % 8448 == 0 || size == 6144)
        return unsupported(size, "a Starpath Supercharger (AR) tape image");
    if (size < 2048)
        return rg__error(RG__A26_CART_EFORMAT,
                         "atari2600: the ROM image has %zu bytes; images under 2048 bytes are not supported", size);
    switch (size) {
    case 2048:
        *type = probably_cv(rom, size) ? RG__A26_CART_CV : RG__A26_CART_2K;
        return RG_OK;
    case 4096:
        if (memcmp(rom, rom + 2048, 2048) == 0)
            *type = probably_cv(rom, size) ? RG__A26_CART_CV : RG__A26_CART_2K;
        else if (probably_cv(rom, size))
            *type = RG__A26_CART_CV;
        else if (probably_4ksc(rom, size))
            return unsupported(size, "a 4K cartridge with Superchip RAM (4KSC)");
        else
            *type = RG__A26_CART_4K;
        return RG_OK;
    case 8192:
        return detect_8k(rom, type);
    case 12288:
        *type = RG__A26_CART_FA;
        return RG_OK;
    case 16384:
        if (probably_sc(rom, size))
            *type = RG__A26_CART_F6SC;
        else if (probably_e7(rom, size))
            *type = RG__A26_CART_E7;
        else if (probably_3e(rom, size))
            return unsupported(size, "a 3E (Tigervision with RAM) cartridge");
        else
            *type = RG__A26_CART_F6;
        return RG_OK;
    case 32768:
        if (probably_sc(rom, size))
            *type = RG__A26_CART_F4SC;
        else if (probably_3e(rom, size))
            return unsupported(size, "a 3E (Tigervision with RAM) cartridge");
        else if (probably_3f(rom, size))
            *type = RG__A26_CART_3F;
        else
            *type = RG__A26_CART_F4; /* Stella also probes ARM-based DPC+/CDF/BUS/CTY/FA2 here */
        return RG_OK;
    default:
        break;
    }
    if (size >= 10240 && size <= 10496)
        return unsupported(size, "a DPC (Pitfall II) cartridge");
    if (size == 24 * 1024 || size == 28 * 1024 || size == 29 * 1024)
        return unsupported(size, "an FA2 or DPC+ (ARM) cartridge");
    /* Larger images: only the Tigervision layout scales with size among the ones we emulate. */
    if (size % 2048 == 0 && size <= 256u * 2048u && !probably_3e(rom, size) && probably_3f(rom, size)) {
        *type = RG__A26_CART_3F;
        return RG_OK;
    }
    return rg__error(RG__A26_CART_EFORMAT,
                     "atari2600: no supported cartridge layout fits this %zu-byte image (supported: 2K, 4K, CV, "
                     "F8/FE/E0/3F/UA 8K, FA 12K, F6/E7 16K, F4 32K, F8/F6/F4 with Superchip, 3F in multiples of 2K)",
                     size);
}
