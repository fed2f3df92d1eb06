/* The Genesis cartridge (src/cores/genesis/genesis_cart.c, docs/genesis.md "Cartridge"): ROM images built here, each
 * running one 68000 program of ours that writes and reads the backup RAM at $200001/$200010, the $A130F1 register
 * (write protection, ROM over the backup RAM) and the 512 KiB bank registers $A130F3/$A130FE, and stores what it read
 * in work RAM; the results, the backup RAM through rg_emu_save_ram, states (saved, reloaded, hostile) and the reset
 * button of a bank-switched cartridge; headers the core refuses (serial EEPROM, backup RAM outside the cartridge,
 * over 4 MiB without the SSF2 mapper). With stable-retro's wheel, Genesis Plus GX runs the same images and its
 * results and backup RAM must be ours, and an environment for a serial EEPROM cartridge runs on it. */
#define _POSIX_C_SOURCE 200809L
#include "test_emu_state.h"
#include "test_support.h"

#include "base/base.h"
#include "cores/genesis/genesis.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_SIZE 24u /* our state header: magic[8], version, size, rom hash */
#define KIB 1024u
#define MIB (1024u * 1024u)

/* The program (m68k-linux-gnu-as -m68000), at $200:
 *     move.w  #$2700,sr
 *     lea     $200001,a0
 *     move.b  #$5A,(a0)          ; backup RAM byte
 *     move.b  (a0),$FF0000
 *     move.w  #$1234,$200010     ; backup RAM word
 *     move.w  $200010,$FF0002
 *     move.b  #3,$A130F1         ; write-protected
 *     move.b  #$77,(a0)          ; lost
 *     move.b  (a0),$FF0004
 *     move.b  #0,$A130F1         ; the ROM at $200000-$3FFFFF
 *     move.w  $200010,$FF0006
 *     move.b  #1,$A130F1         ; the backup RAM again, writable
 *     move.w  $200010,$FF0008
 *     move.b  #$66,$200003
 *     move.w  $0FFFF0,$FF0010    ; bank 1's last words
 *     move.b  #9,$A130F3         ; bank 1 = page 9
 *     move.w  $0FFFF0,$FF0012
 *     move.w  #8,$A130FE         ; bank 7 = page 8 (a word write)
 *     move.w  $3FFFF0,$FF0014
 *     move.w  $07FFF0,$FF0016    ; bank 0
 *     move.w  #$BEEF,$FF0018     ; done
 * loop: bra.s loop */
static const uint8_t k_prog[] = {
    0x46, 0xfc, 0x27, 0x00, 0x41, 0xf9, 0x00, 0x20, 0x00, 0x01, 0x10, 0xbc, 0x00, 0x5a, 0x13, 0xd0, 0x00, 0xff,
    0x00, 0x00, 0x33, 0xfc, 0x12, 0x34, 0x00, 0x20, 0x00, 0x10, 0x33, 0xf9, 0x00, 0x20, 0x00, 0x10, 0x00, 0xff,
    0x00, 0x02, 0x13, 0xfc, 0x00, 0x03, 0x00, 0xa1, 0x30, 0xf1, 0x10, 0xbc, 0x00, 0x77, 0x13, 0xd0, 0x00, 0xff,
    0x00, 0x04, 0x13, 0xfc, 0x00, 0x00, 0x00, 0xa1, 0x30, 0xf1, 0x33, 0xf9, 0x00, 0x20, 0x00, 0x10, 0x00, 0xff,
    0x00, 0x06, 0x13, 0xfc, 0x00, 0x01, 0x00, 0xa1, 0x30, 0xf1, 0x33, 0xf9, 0x00, 0x20, 0x00, 0x10, 0x00, 0xff,
    0x00, 0x08, 0x13, 0xfc, 0x00, 0x66, 0x00, 0x20, 0x00, 0x03, 0x33, 0xf9, 0x00, 0x0f, 0xff, 0xf0, 0x00, 0xff,
    0x00, 0x10, 0x13, 0xfc, 0x00, 0x09, 0x00, 0xa1, 0x30, 0xf3, 0x33, 0xf9, 0x00, 0x0f, 0xff, 0xf0, 0x00, 0xff,
    0x00, 0x12, 0x33, 0xfc, 0x00, 0x08, 0x00, 0xa1, 0x30, 0xfe, 0x33, 0xf9, 0x00, 0x3f, 0xff, 0xf0, 0x00, 0xff,
    0x00, 0x14, 0x33, 0xf9, 0x00, 0x07, 0xff, 0xf0, 0x00, 0xff, 0x00, 0x16, 0x33, 0xfc, 0xbe, 0xef, 0x00, 0xff,
    0x00, 0x18, 0x60, 0xfe};
#define LOOP_ADDR (0x200u + sizeof k_prog - 2u)

/* Serial EEPROM programs (m68k-linux-gnu-as -m68000, at $200; ACCLAIM defined for the second). They bit-bang I2C
 * through the board's lines: setl writes D0 = SDA, D1 = SCL in one byte at $200001 (Sega board), or SDA as D0 of a
 * byte at $200001 and SCL as D0 of a byte at $200000 (Acclaim 32 Mbit board, after a word write of 0 at $200000 maps
 * the EEPROM for reads); getsda reads D0 of $200001 (byte) or $200000 (word). Start: SDA 1, SCL 1, SDA 0, SCL 0;
 * stop: SDA 0, SCL 1, SDA 1; a bit: SDA, SCL 1, SCL 0; the acknowledge clock reads SDA with SCL high.
 *   Sega (X24C01): start, $04 (word address 2, write), six bytes $11-$66 (the 4-byte page wraps: 2, 3, 0, 1, 2, 3),
 *     stop; start, $01 (address 0, read), eight bytes read, each acknowledged but the last, stop; a word read of
 *     $200000. Results from $FF0000: the 8 acknowledge bits, the 8 bytes, the word's low byte; $BEEF at $FF0100.
 *   Acclaim (24C65): start, $A0, $0F, $FE (address $0FFE, write), six bytes (the 64-byte page wraps: $FFE, $FFF,
 *     $FC0-$FC3), stop; start, $A0, $0F, $C0, repeated start, $A1, eight bytes read, stop; the word read. Results:
 *     the 13 acknowledge bits, the 8 bytes, the word's low byte. The acknowledge bits and the word read are 0: the
 *     chip drives SDA low at the ninth clock, and after the stop its clock count still says 9 (GPGX's model). */
static const uint8_t k_i2c_sega[] = {
    0x46, 0xfc, 0x27, 0x00, 0x4b, 0xf9, 0x00, 0xff, 0x00, 0x00, 0x61, 0x00, 0x00, 0x72, 0x12, 0x3c, 0x00, 0x04,
    0x61, 0x00, 0x00, 0xaa, 0x1a, 0xc0, 0x41, 0xfa, 0x00, 0xfa, 0x7e, 0x05, 0x12, 0x18, 0x61, 0x00, 0x00, 0x9c,
    0x1a, 0xc0, 0x51, 0xcf, 0xff, 0xf6, 0x61, 0x00, 0x00, 0x6a, 0x61, 0x00, 0x00, 0x4e, 0x12, 0x3c, 0x00, 0x01,
    0x61, 0x00, 0x00, 0x86, 0x1a, 0xc0, 0x7e, 0x07, 0x61, 0x00, 0x00, 0xac, 0x1a, 0xc1, 0x70, 0x00, 0x4a, 0x47,
    0x66, 0x02, 0x70, 0x01, 0x61, 0x00, 0x00, 0xc2, 0x51, 0xcf, 0xff, 0xec, 0x61, 0x00, 0x00, 0x40, 0x30, 0x39,
    0x00, 0x20, 0x00, 0x00, 0x1a, 0xc0, 0x33, 0xfc, 0xbe, 0xef, 0x00, 0xff, 0x01, 0x00, 0x60, 0xfe, 0x13, 0xc0,
    0x00, 0x20, 0x00, 0x01, 0x4e, 0x75, 0x10, 0x39, 0x00, 0x20, 0x00, 0x01, 0x02, 0x40, 0x00, 0x01, 0x4e, 0x75,
    0x70, 0x01, 0x61, 0x00, 0xff, 0xe8, 0x70, 0x03, 0x61, 0x00, 0xff, 0xe2, 0x70, 0x02, 0x61, 0x00, 0xff, 0xdc,
    0x70, 0x00, 0x60, 0x00, 0xff, 0xd6, 0x70, 0x00, 0x61, 0x00, 0xff, 0xd0, 0x70, 0x02, 0x61, 0x00, 0xff, 0xca,
    0x70, 0x03, 0x60, 0x00, 0xff, 0xc4, 0x16, 0x00, 0x61, 0x00, 0xff, 0xbe, 0x10, 0x03, 0x00, 0x00, 0x00, 0x02,
    0x61, 0x00, 0xff, 0xb4, 0x10, 0x03, 0x60, 0x00, 0xff, 0xae, 0x78, 0x07, 0x70, 0x00, 0x09, 0x01, 0x67, 0x02,
    0x70, 0x01, 0x61, 0x00, 0xff, 0xde, 0x51, 0xcc, 0xff, 0xf2, 0x70, 0x01, 0x61, 0x00, 0xff, 0x96, 0x70, 0x03,
    0x61, 0x00, 0xff, 0x90, 0x61, 0x00, 0xff, 0x94, 0x1a, 0x00, 0x70, 0x01, 0x61, 0x00, 0xff, 0x84, 0x10, 0x05,
    0x4e, 0x75, 0x72, 0x00, 0x78, 0x07, 0x70, 0x01, 0x61, 0x00, 0xff, 0x76, 0x70, 0x03, 0x61, 0x00, 0xff, 0x70,
    0x61, 0x00, 0xff, 0x74, 0xd2, 0x01, 0x82, 0x00, 0x70, 0x01, 0x61, 0x00, 0xff, 0x62, 0x51, 0xcc, 0xff, 0xe4,
    0x4e, 0x75, 0x60, 0x00, 0xff, 0x96, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
#define I2C_SEGA_LOOP 0x268u
static const uint8_t k_i2c_acclaim[] = {
    0x46, 0xfc, 0x27, 0x00, 0x4b, 0xf9, 0x00, 0xff, 0x00, 0x00, 0x33, 0xfc, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00,
    0x61, 0x00, 0x00, 0xb2, 0x12, 0x3c, 0x00, 0xa0, 0x61, 0x00, 0x00, 0xea, 0x1a, 0xc0, 0x12, 0x3c, 0x00, 0x0f,
    0x61, 0x00, 0x00, 0xe0, 0x1a, 0xc0, 0x12, 0x3c, 0x00, 0xfe, 0x61, 0x00, 0x00, 0xd6, 0x1a, 0xc0, 0x41, 0xfa,
    0x01, 0x26, 0x7e, 0x05, 0x12, 0x18, 0x61, 0x00, 0x00, 0xc8, 0x1a, 0xc0, 0x51, 0xcf, 0xff, 0xf6, 0x61, 0x00,
    0x00, 0x96, 0x61, 0x00, 0x00, 0x7a, 0x12, 0x3c, 0x00, 0xa0, 0x61, 0x00, 0x00, 0xb2, 0x1a, 0xc0, 0x12, 0x3c,
    0x00, 0x0f, 0x61, 0x00, 0x00, 0xa8, 0x1a, 0xc0, 0x12, 0x3c, 0x00, 0xc0, 0x61, 0x00, 0x00, 0x9e, 0x1a, 0xc0,
    0x61, 0x00, 0x00, 0x58, 0x12, 0x3c, 0x00, 0xa1, 0x61, 0x00, 0x00, 0x90, 0x1a, 0xc0, 0x7e, 0x07, 0x61, 0x00,
    0x00, 0xb6, 0x1a, 0xc1, 0x70, 0x00, 0x4a, 0x47, 0x66, 0x02, 0x70, 0x01, 0x61, 0x00, 0x00, 0xcc, 0x51, 0xcf,
    0xff, 0xec, 0x61, 0x00, 0x00, 0x4a, 0x30, 0x39, 0x00, 0x20, 0x00, 0x00, 0x1a, 0xc0, 0x33, 0xfc, 0xbe, 0xef,
    0x00, 0xff, 0x01, 0x00, 0x60, 0xfe, 0x13, 0xc0, 0x00, 0x20, 0x00, 0x01, 0x14, 0x00, 0xe2, 0x0a, 0x13, 0xc2,
    0x00, 0x20, 0x00, 0x00, 0x4e, 0x75, 0x30, 0x39, 0x00, 0x20, 0x00, 0x00, 0x02, 0x40, 0x00, 0x01, 0x4e, 0x75,
    0x70, 0x01, 0x61, 0x00, 0xff, 0xde, 0x70, 0x03, 0x61, 0x00, 0xff, 0xd8, 0x70, 0x02, 0x61, 0x00, 0xff, 0xd2,
    0x70, 0x00, 0x60, 0x00, 0xff, 0xcc, 0x70, 0x00, 0x61, 0x00, 0xff, 0xc6, 0x70, 0x02, 0x61, 0x00, 0xff, 0xc0,
    0x70, 0x03, 0x60, 0x00, 0xff, 0xba, 0x16, 0x00, 0x61, 0x00, 0xff, 0xb4, 0x10, 0x03, 0x00, 0x00, 0x00, 0x02,
    0x61, 0x00, 0xff, 0xaa, 0x10, 0x03, 0x60, 0x00, 0xff, 0xa4, 0x78, 0x07, 0x70, 0x00, 0x09, 0x01, 0x67, 0x02,
    0x70, 0x01, 0x61, 0x00, 0xff, 0xde, 0x51, 0xcc, 0xff, 0xf2, 0x70, 0x01, 0x61, 0x00, 0xff, 0x8c, 0x70, 0x03,
    0x61, 0x00, 0xff, 0x86, 0x61, 0x00, 0xff, 0x94, 0x1a, 0x00, 0x70, 0x01, 0x61, 0x00, 0xff, 0x7a, 0x10, 0x05,
    0x4e, 0x75, 0x72, 0x00, 0x78, 0x07, 0x70, 0x01, 0x61, 0x00, 0xff, 0x6c, 0x70, 0x03, 0x61, 0x00, 0xff, 0x66,
    0x61, 0x00, 0xff, 0x74, 0xd2, 0x01, 0x82, 0x00, 0x70, 0x01, 0x61, 0x00, 0xff, 0x58, 0x51, 0xcc, 0xff, 0xe4,
    0x4e, 0x75, 0x60, 0x00, 0xff, 0x96, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
#define I2C_ACCLAIM_LOOP 0x2A6u

typedef struct rom_spec {
    size_t size;
    const char *domestic; /* header name at $120 */
    const char *serial;   /* $180: "GM T-xxxxxx -00" */
    int ra;               /* a backup RAM field at $1B0 */
    uint8_t type;
    uint32_t start, end;
    const uint8_t *prog; /* the program at $200 (k_prog when NULL), */
    size_t prog_len;
    uint32_t loop;       /* and the address every other vector points to */
} rom_spec;

/* Every ROM byte not written otherwise: its offset's bits 23-16 xor bits 7-0; the last word of each 512 KiB page p
 * is $A500 + p. */
static uint8_t fill_byte(size_t o)
{
    return (uint8_t)((o >> 16) ^ o);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void put_text(uint8_t *p, size_t n, const char *s)
{
    memset(p, ' ', n);
    memcpy(p, s, strlen(s) < n ? strlen(s) : n);
}

static void write_rom(const char *path, const rom_spec *r)
{
    uint8_t *rom = malloc(r->size);
    assert_non_null(rom);
    for (size_t o = 0; o < r->size; o++)
        rom[o] = fill_byte(o);
    for (size_t p = 0; p * 512u * KIB + 0x7FFF2u <= r->size; p++) {
        rom[p * 512u * KIB + 0x7FFF0u] = 0xA5;
        rom[p * 512u * KIB + 0x7FFF1u] = (uint8_t)p;
    }
    put32(rom, 0x00FFFE00u);
    put32(rom + 4, 0x200u);
    for (unsigned v = 2; v < 64; v++)
        put32(rom + 4 * v, r->prog ? r->loop : LOOP_ADDR);
    put_text(rom + 0x100, 16, "SEGA MEGA DRIVE");
    put_text(rom + 0x110, 16, "(C)RGYM 2026.NOV");
    put_text(rom + 0x120, 48, r->domestic);
    put_text(rom + 0x150, 48, r->domestic);
    put_text(rom + 0x180, 14, r->serial);
    rom[0x18E] = rom[0x18F] = 0;
    put_text(rom + 0x190, 16, "J");
    put32(rom + 0x1A0, 0);
    put32(rom + 0x1A4, (uint32_t)r->size - 1u);
    put32(rom + 0x1A8, 0xFF0000u);
    put32(rom + 0x1AC, 0xFFFFFFu);
    put_text(rom + 0x1B0, 12, "");
    if (r->ra) {
        rom[0x1B0] = 'R';
        rom[0x1B1] = 'A';
        rom[0x1B2] = r->type;
        rom[0x1B3] = 0x20;
        put32(rom + 0x1B4, r->start);
        put32(rom + 0x1B8, r->end);
    }
    put_text(rom + 0x1BC, 52, "");
    put_text(rom + 0x1F0, 16, "U");
    memcpy(rom + 0x200, r->prog ? r->prog : k_prog, r->prog ? r->prog_len : sizeof k_prog);
    test_write_file(path, rom, r->size);
    free(rom);
}

static void rom_path(char *buf, size_t cap, const char *tag)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/rg_gencart_%d_%s.md", dir && *dir ? dir : "/tmp", (int)getpid(), tag);
}

/* The program's results, $FF0000-$FF0019 as the 68000 sees them. */
static void run_program(rg_emu *emu, uint8_t out[0x1A])
{
    for (int f = 0; f < 3; f++)
        assert_int_equal(rg_emu_run(emu), RG_OK);
    assert_int_equal(rg_emu_mem_read(emu, 0xFF0000u, out, 0x1A), RG_OK);
    assert_int_equal(out[0x18] << 8 | out[0x19], 0xBEEF); /* it ran to its end */
}

/* The image of r written at path (rom_path with tag) and opened in core genesis, its program run (results in out). */
static rg_emu *run_cart(char *path, size_t cap, const char *tag, const rom_spec *r, uint8_t out[0x1A])
{
    rom_path(path, cap, tag);
    write_rom(path, r);
    rg_emu *emu = test_open(path, "genesis");
    run_program(emu, out);
    return emu;
}

/* Whether stable-retro's Genesis Plus GX is there to compare with (a line printed when not). */
static int have_gpgx(void)
{
    if (test_have_wheel_core("genesis_plus_gx"))
        return 1;
    printf("genesis_cart: stable-retro's wheel is not in .venv; Genesis Plus GX comparison skipped\n");
    return 0;
}

static unsigned word_at(const uint8_t *r, unsigned off)
{
    return (unsigned)(r[off] << 8 | r[off + 1]);
}

/* With the wheel: Genesis Plus GX runs the same image; its results (but the words read through bank registers naming
 * pages past the ROM, which GPGX reads from outside its ROM buffer, when skip_banks) and its backup RAM equal ours. */
static void against_gpgx(const char *path, const uint8_t *ours, int skip_banks, rg_emu *own)
{
    if (!have_gpgx())
        return;
    rg_emu *g = test_open(path, "genesis_plus_gx");
    uint8_t theirs[0x1A];
    run_program(g, theirs);
    for (unsigned i = 0; i < 0x1A; i++) {
        if (skip_banks && i >= 0x12 && i < 0x16)
            continue;
        if (ours[i] != theirs[i])
            fail_msg("%s: $FF%04X is $%02X in ours, $%02X in Genesis Plus GX", path, i, ours[i], theirs[i]);
    }
    test_save_ram_same(own, g); /* the backup RAM */
    rg_emu_free(g);
}

/* The save RAM (64 KiB, what names it): $FF but the bytes listed (offset, value pairs). */
static void check_save_ram(rg_emu *emu, const char *what, const unsigned *want, size_t n_want)
{
    uint8_t *s = NULL;
    size_t n = 0;
    assert_int_equal(rg_emu_save_ram(emu, &s, &n), RG_OK);
    assert_non_null(s);
    assert_int_equal(n, 0x10000u);
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0xFF;
        for (size_t k = 0; k < n_want; k += 2)
            if (want[k] == i)
                v = want[k + 1];
        if (s[i] != v)
            fail_msg("%s byte $%04zX is $%02X, not $%02X", what, i, s[i], v);
    }
}

/* The backup RAM the program leaves: byte 1 is $5A, or $77 where $A130F1 does not write-protect (SSF2's board). */
static void check_sram_bytes(rg_emu *emu, uint8_t b1)
{
    const unsigned want[] = {1, b1, 3, 0x66, 0x10, 0x12, 0x11, 0x34};
    check_save_ram(emu, "backup RAM", want, sizeof want / sizeof want[0]);
}

/* A 512 KiB ROM without a backup RAM field: 64 KiB of backup RAM at $200000 all the same (as Genesis Plus GX gives
 * any ROM of up to 2 MiB); pages past the ROM mirror it. */
static void test_small_rom_sram(void **state)
{
    (void)state;
    char path[1024];
    rom_spec r = {512u * KIB, "RG CART SMALL", "GM 00000000-00", 0, 0, 0, 0, NULL, 0, 0};
    uint8_t out[0x1A];
    rg_emu *emu = run_cart(path, sizeof path, "small", &r, out);
    assert_int_equal(out[0], 0x5A);
    assert_int_equal(word_at(out, 2), 0x1234);
    assert_int_equal(out[4], 0x5A); /* the protected write was lost */
    assert_int_equal(word_at(out, 6), LOOP_ADDR >> 16); /* ROM, mirrored: the high word of vector 4 */
    assert_int_equal(word_at(out, 8), 0x1234);                                            /* kept meanwhile */
    assert_int_equal(word_at(out, 0x10), 0xA500);
    assert_int_equal(word_at(out, 0x12), 0xA500); /* page 9 of a 512 KiB ROM: page 1 = page 0 */
    assert_int_equal(word_at(out, 0x14), 0xA500);
    assert_int_equal(word_at(out, 0x16), 0xA500);
    check_sram_bytes(emu, 0x5A);
    /* the backup RAM is state: a snapshot carries it into a fresh machine */
    size_t written = 0;
    uint8_t *snap = test_state_save(emu, &written);
    rg_emu *two = test_open(path, "genesis");
    assert_int_equal(rg_emu_state_load(two, snap, written), RG_OK);
    check_sram_bytes(two, 0x5A);
    /* a byte written through the API is what the game then reads */
    uint8_t *s = NULL;
    size_t n = 0;
    assert_int_equal(rg_emu_save_ram(two, &s, &n), RG_OK);
    s[0x11] = 0x99;
    assert_int_equal(rg_emu_reset(two), RG_OK); /* power-on: the backup RAM as a fresh console's ($FF) */
    assert_int_equal(rg_emu_save_ram(two, &s, &n), RG_OK);
    assert_int_equal(s[0x11], 0xFF);
    rg_emu_free(two);
    against_gpgx(path, out, 1, emu);
    /* hostile states: a slot showing a page past the ROM, backup RAM in a slot the cartridge has none in */
    size_t base = HEADER_SIZE + offsetof(rg__gen_state, cart);
    uint8_t before[0x1A], after[0x1A];
    assert_int_equal(rg_emu_mem_read(emu, 0xFF0000u, before, sizeof before), RG_OK);
    uint8_t *bad = malloc(written);
    assert_non_null(bad);
    memcpy(bad, snap, written);
    bad[base + offsetof(rg__gen_cart, page) + 5] = 8; /* 8 pages of 64 KiB: 0-7 */
    assert_int_equal(rg_emu_state_load(emu, bad, written), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "cart.page"));
    memcpy(bad, snap, written);
    bad[base + offsetof(rg__gen_cart, sram_slots)] = 0x01; /* slot 0 */
    assert_int_equal(rg_emu_state_load(emu, bad, written), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "cart.sram_slots"));
    memcpy(bad, snap, written);
    bad[base + offsetof(rg__gen_cart, sram_wp)] = 2;
    assert_int_equal(rg_emu_state_load(emu, bad, written), RG_ESTATE);
    assert_non_null(strstr(rg_error_last(), "cart.sram_wp"));
    assert_int_equal(rg_emu_mem_read(emu, 0xFF0000u, after, sizeof after), RG_OK);
    assert_memory_equal(before, after, sizeof before); /* the machine unchanged */
    check_sram_bytes(emu, 0x5A);
    free(bad);
    free(snap);
    rg_emu_free(emu);
    remove(path);
}

/* A 5 MiB ROM naming SUPER STREET FIGHTER2 with a backup RAM field ($200001-$203FFF, odd bytes): the bank registers
 * pick 512 KiB pages past 4 MiB, $A130F1 does nothing (the board decodes address bits 3-1 only); the reset button
 * maps the power-on pages again. */
static void test_ssf2_banks(void **state)
{
    (void)state;
    char path[1024];
    rom_spec r = {5u * MIB, "SUPER STREET FIGHTER2 THE NEW CHALLENGERS", "GM T-12056 -00", 1, 0xF8, 0x200001u,
                  0x203FFFu, NULL, 0, 0};
    uint8_t out[0x1A];
    rg_emu *emu = run_cart(path, sizeof path, "ssf2", &r, out);
    assert_int_equal(out[0], 0x5A);
    assert_int_equal(word_at(out, 2), 0x1234);
    assert_int_equal(out[4], 0x77);           /* SSF2's board has no $A130F1: no write protection, */
    assert_int_equal(word_at(out, 6), 0x1234); /* nor ROM over the backup RAM */
    assert_int_equal(word_at(out, 8), 0x1234);
    assert_int_equal(word_at(out, 0x10), 0xA501);
    assert_int_equal(word_at(out, 0x12), 0xA509); /* page 9: past 4 MiB */
    assert_int_equal(word_at(out, 0x14), 0xA508);
    assert_int_equal(word_at(out, 0x16), 0xA500);
    check_sram_bytes(emu, 0x77);
    against_gpgx(path, out, 0, emu);
    /* the reset button: the power-on pages (bank 1 shows page 1 again) */
    size_t size = 0, written = 0;
    uint8_t *snap = test_state_save(emu, &size);
    size_t page = HEADER_SIZE + offsetof(rg__gen_state, cart) + offsetof(rg__gen_cart, page);
    assert_int_equal(snap[page + 8], 9 * 8); /* bank 1 = page 9: 64 KiB page 72 */
    assert_int_equal(rg_emu_soft_reset(emu), RG_OK);
    assert_int_equal(rg_emu_state_save(emu, snap, size, &written), RG_OK);
    for (unsigned i = 0; i < 64; i++)
        assert_int_equal(snap[page + i], i);
    free(snap);
    rg_emu_free(emu);
    remove(path);
}

/* A 3 MiB ROM without a backup RAM field: none (over 2 MiB); writes to $200001 are lost, the ROM is read. */
static void test_big_rom_no_sram(void **state)
{
    (void)state;
    char path[1024];
    rom_spec r = {3u * MIB, "RG CART BIG", "GM 00000000-00", 0, 0, 0, 0, NULL, 0, 0};
    uint8_t out[0x1A];
    rg_emu *emu = run_cart(path, sizeof path, "big", &r, out);
    assert_int_equal(out[0], fill_byte(0x200001));
    assert_int_equal(word_at(out, 2), (unsigned)(fill_byte(0x200010) << 8 | fill_byte(0x200011)));
    assert_int_equal(word_at(out, 8), word_at(out, 2));
    assert_int_equal(word_at(out, 0x10), 0xA501);
    uint8_t *s = (uint8_t *)1;
    size_t n = 1;
    assert_int_equal(rg_emu_save_ram(emu, &s, &n), RG_OK);
    assert_null(s);
    assert_int_equal(n, 0);
    against_gpgx(path, out, 1, emu);
    rg_emu_free(emu);
    remove(path);
}

static int open_code(const char *path)
{
    rg_emu_options o = RG_EMU_OPTIONS_INIT;
    o.core = "genesis";
    o.log = test_quiet_log;
    rg_emu *emu = NULL;
    int rc = rg_emu_open(&emu, path, &o);
    rg_emu_free(emu);
    return rc;
}

/* Headers the core refuses with the reason (RG_EUNSUPPORTED: the environment then runs the game on the next core,
 * genesis_plus_gx) or handles as Genesis Plus GX does. */
static void test_headers(void **state)
{
    (void)state;
    char path[1024];
    rom_path(path, sizeof path, "hdr");
    /* a Codemasters J-Cart EEPROM board (not emulated) */
    rom_spec eeprom = {512u * KIB, "MICRO MACHINES 2", "GM T-120096 -00", 0, 0, 0, 0, NULL, 0, 0};
    write_rom(path, &eeprom);
    assert_int_equal(open_code(path), RG_EUNSUPPORTED);
    assert_non_null(strstr(rg_error_last(), "EEPROM"));
    assert_non_null(strstr(rg_error_last(), "Micro Machines 2"));
    /* EEPROM boards genesis_eeprom.c emulates, by product code and by a header declaring one (the Sega board) */
    rom_spec nba = {512u * KIB, "NBA JAM", "GM T-081326 -00", 0, 0, 0, 0, NULL, 0, 0};
    write_rom(path, &nba);
    assert_int_equal(open_code(path), RG_OK);
    rom_spec e8 = {512u * KIB, "RG EEPROM", "GM 00000000-00", 1, 0xE8, 0x200001u, 0x200001u, NULL, 0, 0};
    write_rom(path, &e8);
    assert_int_equal(open_code(path), RG_OK);
    rom_spec far = {512u * KIB, "RG FAR", "GM 00000000-00", 1, 0xF8, 0x400001u, 0x40FFFFu, NULL, 0, 0};
    write_rom(path, &far);
    assert_int_equal(open_code(path), RG_EUNSUPPORTED);
    assert_non_null(strstr(rg_error_last(), "$400001"));
    rom_spec big = {4u * MIB + 64u * KIB, "RG TOO BIG", "GM 00000000-00", 0, 0, 0, 0, NULL, 0, 0};
    write_rom(path, &big);
    assert_int_equal(open_code(path), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "SSF2"));
    rom_spec huge = {8u * MIB + 512u * KIB, "SUPER STREET FIGHTER2", "GM T-12056 -00", 0, 0, 0, 0, NULL, 0, 0};
    write_rom(path, &huge);
    assert_int_equal(open_code(path), RG_EINVAL);
    assert_non_null(strstr(rg_error_last(), "8 MiB"));
    /* work RAM named as backup RAM: none, the ROM is read at $200001 */
    rom_spec wram = {512u * KIB, "RG WRAM", "GM 00000000-00", 1, 0xF8, 0xFF0000u, 0xFFFFFFu, NULL, 0, 0};
    uint8_t out[0x1A];
    rg_emu *emu = run_cart(path, sizeof path, "hdr", &wram, out);
    assert_int_equal(out[0], 0xFF); /* $200001 mirrors ROM byte 1 (the stack pointer's $FF) */
    uint8_t *s = NULL;
    size_t n = 0;
    assert_int_equal(rg_emu_save_ram(emu, &s, &n), RG_OK);
    assert_int_equal(n, 0);
    rg_emu_free(emu);
    /* an address no cartridge has: 64 KiB at $200000 */
    rom_spec odd = {512u * KIB, "RG ODD", "GM 00000000-00", 1, 0xF8, 0xA00001u, 0xA03FFFu, NULL, 0, 0};
    emu = run_cart(path, sizeof path, "hdr", &odd, out);
    assert_int_equal(out[0], 0x5A);
    check_sram_bytes(emu, 0x5A);
    rg_emu_free(emu);
    remove(path);
}

/* An environment for a serial EEPROM cartridge of a board the genesis core does not emulate (Codemasters' J-Cart):
 * core genesis refuses the ROM (RG_EUNSUPPORTED), so the game runs on
 * the system's next installed core, genesis_plus_gx (skipped without the wheel). */
static void test_env_falls_back(void **state)
{
    (void)state;
    if (!test_core_installed("genesis_plus_gx")) {
        printf("genesis_cart: genesis_plus_gx not installed; fallback not tested\n");
        skip();
    }
    char root[1024], dir[1200], rom[1300];
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/rg_gencart_env-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(root));
    snprintf(dir, sizeof dir, "%s/stable", root);
    test_mkdirs(dir);
    snprintf(dir, sizeof dir, "%s/stable/RgEeprom-Genesis", root);
    test_mkdirs(dir);
    snprintf(rom, sizeof rom, "%s/rom.md", dir);
    rom_spec eeprom = {512u * KIB, "MICRO MACHINES 2", "GM T-120096 -00", 0, 0, 0, 0, NULL, 0, 0};
    write_rom(rom, &eeprom);
    char sha[RG_INTEGRATION_SHA1_HEX + 2];
    assert_int_equal(rg_integration_rom_sha1_file(rom, sha), RG_OK);
    strcat(sha, "\n");
    test_write_text(dir, "rom.sha", sha);
    test_write_text(dir, "data.json", "{\"info\": {\"done\": {\"address\": 16711704, \"type\": \">u2\"}}}");
    test_write_text(dir, "scenario.json", "{\"reward\": {\"variables\": {\"done\": {\"reward\": 1}}}}");
    rg_integration_paths *dp = NULL;
    assert_int_equal(rg_integration_paths_create(&dp, root), RG_OK);
    rg_env_options o = RG_ENV_OPTIONS_INIT;
    o.game = "RgEeprom-Genesis";
    o.paths = dp;
    o.log = test_quiet_log;
    rg_env *env = NULL;
    if (rg_env_create(&env, &o) != RG_OK)
        fail_msg("the EEPROM cartridge's environment: %s", rg_error_last());
    assert_string_equal(rg_emu_core_name(rg_env_emu(env)), "genesis_plus_gx");
    rg_env_free(env);
    o.core = "genesis"; /* named: no fallback, the reason given */
    assert_int_equal(rg_env_create(&env, &o), RG_EUNSUPPORTED);
    assert_non_null(strstr(rg_error_last(), "EEPROM"));
    rg_integration_paths_free(dp);
    rg__remove_tree(root);
}

/* Runs the EEPROM program for `frames` frames on core `core` (NULL: skipped without the wheel), work RAM per frame
 * into ram (frames * 64 KiB). */
static rg_emu *run_i2c(const char *path, const char *core, unsigned frames, uint8_t *ram)
{
    rg_emu *emu = test_open(path, core);
    for (unsigned f = 0; f < frames; f++) {
        assert_int_equal(rg_emu_run(emu), RG_OK);
        assert_int_equal(rg_emu_mem_read(emu, 0xFF0000u, ram + (size_t)f * 0x10000u, 0x10000u), RG_OK);
    }
    return emu;
}

/* One EEPROM board: our results, the array as save RAM, the same work RAM every frame and the same save RAM as
 * Genesis Plus GX (skipped without the wheel), states (the chip's protocol state checked field by field). */
static void eeprom_board(const char *tag, const rom_spec *r, const uint8_t *want, size_t n_want, const unsigned *arr,
                         size_t n_arr)
{
    char path[1024];
    rom_path(path, sizeof path, tag);
    write_rom(path, r);
    enum { FRAMES = 4 };
    uint8_t *ours = malloc((size_t)FRAMES * 0x10000u), *theirs = malloc((size_t)FRAMES * 0x10000u);
    assert_non_null(ours);
    assert_non_null(theirs);
    rg_emu *emu = run_i2c(path, "genesis", FRAMES, ours);
    const uint8_t *last = ours + (size_t)(FRAMES - 1) * 0x10000u;
    assert_int_equal(last[0x100] << 8 | last[0x101], 0xBEEF);
    if (have_gpgx()) {
        rg_emu *g = run_i2c(path, "genesis_plus_gx", FRAMES, theirs);
        for (unsigned f = 0; f < FRAMES; f++)
            for (size_t i = 0; i < 0x10000u; i++)
                if (ours[(size_t)f * 0x10000u + i] != theirs[(size_t)f * 0x10000u + i])
                    fail_msg("%s: frame %u: $FF%04zX is $%02X in ours, $%02X in Genesis Plus GX", tag, f, i,
                             ours[(size_t)f * 0x10000u + i], theirs[(size_t)f * 0x10000u + i]);
        test_save_ram_same(emu, g); /* the EEPROM's array */
        rg_emu_free(g);
    }
    for (size_t i = 0; i < n_want; i++)
        if (last[i] != want[i])
            fail_msg("%s: $FF%04zX is $%02X, not $%02X", tag, i, last[i], want[i]);
    check_save_ram(emu, "EEPROM", arr, n_arr);
    /* states: the array and the chip's state travel; bad protocol fields are refused, the machine unchanged */
    size_t written = 0;
    uint8_t *snap = test_state_save(emu, &written), *bad = malloc(written);
    assert_non_null(bad);
    rg_emu *two = test_open(path, "genesis");
    assert_int_equal(rg_emu_state_load(two, snap, written), RG_OK);
    check_save_ram(two, "EEPROM", arr, n_arr);
    rg_emu_free(two);
    size_t base = HEADER_SIZE + offsetof(rg__gen_state, cart) + offsetof(rg__gen_cart, eeprom);
    static const struct {
        size_t off;
        uint8_t v;
        const char *field;
    } k_bad[] = {
        {offsetof(rg__gen_eeprom, sda), 2, "lines"},        {offsetof(rg__gen_eeprom, old_scl), 7, "lines"},
        {offsetof(rg__gen_eeprom, cycles), 10, "cycles"},   {offsetof(rg__gen_eeprom, rw), 2, "rw"},
        {offsetof(rg__gen_eeprom, phase), 8, "phase"},      {offsetof(rg__gen_eeprom, rom_reads), 2, "rom_reads"},
        {offsetof(rg__gen_eeprom, pad_) + 2, 1, "padding"},
    };
    for (size_t k = 0; k < sizeof k_bad / sizeof k_bad[0]; k++) {
        memcpy(bad, snap, written);
        bad[base + k_bad[k].off] = k_bad[k].v;
        assert_int_equal(rg_emu_state_load(emu, bad, written), RG_ESTATE);
        if (!strstr(rg_error_last(), k_bad[k].field))
            fail_msg("%s: bad %s refused with \"%s\"", tag, k_bad[k].field, rg_error_last());
    }
    check_save_ram(emu, "EEPROM", arr, n_arr);
    free(bad);
    free(snap);
    free(ours);
    free(theirs);
    rg_emu_free(emu);
    remove(path);
}

/* The Sega board (Mega Man - The Wily Wars' product code and its header field: type $E8 at $200001), X24C01. */
static void test_eeprom_sega(void **state)
{
    (void)state;
    rom_spec r = {512u * KIB, "MEGAMAN THE WILY WARS", "GM T-12046 -00", 1, 0xE8, 0x200001u, 0x200001u,
                  k_i2c_sega, sizeof k_i2c_sega, I2C_SEGA_LOOP};
    static const uint8_t want[] = {0, 0, 0, 0, 0, 0, 0, 0, 0x33, 0x44, 0x55, 0x66, 0xFF, 0xFF, 0xFF, 0xFF, 0x00};
    static const unsigned arr[] = {0, 0x33, 1, 0x44, 2, 0x55, 3, 0x66};
    eeprom_board("eep_sega", &r, want, sizeof want, arr, sizeof arr / sizeof arr[0]);
}

/* The Acclaim 32 Mbit board (College Slam's product code), 24C65: 16-bit word addresses, its own strobes. */
static void test_eeprom_acclaim(void **state)
{
    (void)state;
    rom_spec r = {512u * KIB, "COLLEGE SLAM", "GM T-81576 -00", 0, 0, 0, 0, k_i2c_acclaim, sizeof k_i2c_acclaim,
                  I2C_ACCLAIM_LOOP};
    static const uint8_t want[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x33, 0x44, 0x55, 0x66, 0xFF, 0xFF, 0xFF,
                                   0xFF, 0x00};
    static const unsigned arr[] = {0xFFE, 0x11, 0xFFF, 0x22, 0xFC0, 0x33, 0xFC1, 0x44, 0xFC2, 0x55, 0xFC3, 0x66};
    eeprom_board("eep_acclaim", &r, want, sizeof want, arr, sizeof arr / sizeof arr[0]);
}

int main(void)
{
    test_use_wheel_cores();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_rom_sram),
        cmocka_unit_test(test_ssf2_banks),
        cmocka_unit_test(test_big_rom_no_sram),
        cmocka_unit_test(test_headers),
        cmocka_unit_test(test_env_falls_back),
        cmocka_unit_test(test_eeprom_sega),
        cmocka_unit_test(test_eeprom_acclaim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
