/* Serial (I2C) EEPROM cartridges (docs/genesis.md "Cartridge"): the boards Genesis Plus GX knows by product code,
 * with their chip (an X24C01, whose first byte after a start condition is the 7-bit word address and the read/write
 * bit, or a 24Cxx, whose first byte is the device address with up to 3 array bits and the read/write bit, followed
 * by one or two word address bytes), and the chip's protocol on the SCL/SDA lines as that emulator runs it: a start
 * (SDA falling while SCL is high) begins a command from any phase, a stop (SDA rising while SCL is high) ends it;
 * bits are latched when SCL rises, the clock count advances when SCL falls, the ninth clock of a byte is the
 * acknowledge (the chip drives SDA low; a reading master's high SDA there ends the read); writes stay within a page,
 * reads run on through the array. */
#include "cores/genesis/genesis_eeprom.h"

#include "base/base.h"

#include <string.h>

enum { STANDBY, WAIT_STOP, DEV_ADDR, WORD7, WORD_HI, WORD_LO, WRITE, READ };

typedef struct chip {
    uint8_t addr_bits;
    uint16_t size_mask, page_mask;
} chip;

static const chip k_x24c01 = {7, 0x7F, 0x03}, k_x24c02 = {8, 0xFF, 0x03}, k_24c02 = {8, 0xFF, 0x07},
                  k_24c04 = {8, 0x1FF, 0x0F}, k_24c16 = {8, 0x7FF, 0x0F}, k_24c65 = {16, 0x1FFF, 0x3F};

/* Facts from Genesis Plus GX's list (the Codemasters J-Cart boards are not here: genesis_cart.c refuses them). */
static const struct {
    const char *id;
    uint8_t kind;
    const chip *chip;
} k_games[] = {
    {"T-50176", RG__GEN_EEPROM_EA, &k_x24c01},   {"T-50396", RG__GEN_EEPROM_EA, &k_x24c01},
    {"T-50446", RG__GEN_EEPROM_EA, &k_x24c01},   {"T-50516", RG__GEN_EEPROM_EA, &k_x24c01},
    {"T-50606", RG__GEN_EEPROM_EA, &k_x24c01},   {" T-12046", RG__GEN_EEPROM_SEGA, &k_x24c01},
    {" T-12053", RG__GEN_EEPROM_SEGA, &k_x24c01}, {"MK-1215", RG__GEN_EEPROM_SEGA, &k_x24c01},
    {"MK-1228", RG__GEN_EEPROM_SEGA, &k_x24c01}, {"G-5538", RG__GEN_EEPROM_SEGA, &k_x24c01},
    {"PR-1993", RG__GEN_EEPROM_SEGA, &k_x24c01}, {" G-4060", RG__GEN_EEPROM_SEGA, &k_x24c01},
    {"00001211", RG__GEN_EEPROM_SEGA, &k_x24c01}, {"00004076", RG__GEN_EEPROM_SEGA, &k_x24c01},
    {"G-4524", RG__GEN_EEPROM_SEGA, &k_x24c01},  {"00054503", RG__GEN_EEPROM_SEGA, &k_x24c01},
    {"T-81033", RG__GEN_EEPROM_ACCLAIM16, &k_x24c02}, {"T-081326", RG__GEN_EEPROM_ACCLAIM16, &k_x24c02},
    {"T-081276", RG__GEN_EEPROM_ACCLAIM32, &k_24c02}, {"T-81406", RG__GEN_EEPROM_ACCLAIM32, &k_24c04},
    {"T-081586", RG__GEN_EEPROM_ACCLAIM32, &k_24c16}, {"T-81476", RG__GEN_EEPROM_ACCLAIM32, &k_24c65},
    {"T-81576", RG__GEN_EEPROM_ACCLAIM32, &k_24c65},
};

int rg__gen_eeprom_board_of(const char *product, int header_says_eeprom, rg__gen_eeprom_board *b)
{
    memset(b, 0, sizeof *b);
    const chip *c = NULL;
    for (size_t i = sizeof k_games / sizeof k_games[0]; i-- > 0;)
        if (strstr(product, k_games[i].id)) {
            b->kind = k_games[i].kind;
            c = k_games[i].chip;
            break;
        }
    if (!c && header_says_eeprom) {
        b->kind = RG__GEN_EEPROM_SEGA;
        c = &k_x24c01;
    }
    if (!c)
        return RG__GEN_EEPROM_NONE;
    b->addr_bits = c->addr_bits;
    b->size_mask = c->size_mask;
    b->page_mask = c->page_mask;
    switch (b->kind) {
    case RG__GEN_EEPROM_EA:
        b->scl_bit = 6, b->sda_in_bit = 7, b->sda_out_bit = 7;
        break;
    case RG__GEN_EEPROM_SEGA:
        b->scl_bit = 1, b->sda_in_bit = 0, b->sda_out_bit = 0;
        break;
    case RG__GEN_EEPROM_ACCLAIM16:
        b->scl_bit = 1, b->sda_in_bit = 0, b->sda_out_bit = 1;
        break;
    default: /* Acclaim 32 Mbit: the lines have their own strobes, D0 */
        b->scl_bit = 0, b->sda_in_bit = 0, b->sda_out_bit = 0;
        break;
    }
    return b->kind;
}

void rg__gen_eeprom_power_on(rg__gen_eeprom *e)
{
    memset(e, 0, sizeof *e);
    e->sda = e->scl = e->old_sda = e->old_scl = 1;
    e->phase = STANDBY;
    e->rom_reads = 1;
}

int rg__gen_eeprom_check(const rg__gen_eeprom_board *b, const rg__gen_eeprom *e)
{
    if ((e->sda | e->scl | e->old_sda | e->old_scl) > 1u)
        return rg__error(RG_ESTATE, "genesis state: bad cart.eeprom lines (SDA/SCL above 1)");
    if (e->cycles > 9u)
        return rg__error(RG_ESTATE, "genesis state: bad cart.eeprom.cycles %u", e->cycles);
    if (e->rw > 1u)
        return rg__error(RG_ESTATE, "genesis state: bad cart.eeprom.rw");
    if (e->phase > READ)
        return rg__error(RG_ESTATE, "genesis state: bad cart.eeprom.phase %u", e->phase);
    if (e->rom_reads > 1u)
        return rg__error(RG_ESTATE, "genesis state: bad cart.eeprom.rom_reads");
    for (size_t i = 0; i < sizeof e->pad_; i++)
        if (e->pad_[i])
            return rg__error(RG_ESTATE, "genesis state: bad cart.eeprom padding");
    if (!b->kind) {
        rg__gen_eeprom idle;
        rg__gen_eeprom_power_on(&idle);
        if (memcmp(&idle, e, sizeof idle) != 0)
            return rg__error(RG_ESTATE, "genesis state: cart.eeprom in use for a cartridge without an EEPROM");
    }
    return RG_OK;
}

static void begin(const rg__gen_eeprom_board *b, rg__gen_eeprom *e)
{
    e->cycles = 0;
    if (b->addr_bits == 7) {
        e->word = 0;
        e->phase = WORD7;
    } else {
        e->dev = 0;
        e->phase = DEV_ADDR;
    }
}

/* After a change of the lines: the chip's response to the edges. */
static void update(const rg__gen_eeprom_board *b, rg__gen_eeprom *e, uint8_t *array)
{
    int high = e->old_scl && e->scl, rise = !e->old_scl && e->scl, fall = e->old_scl && !e->scl;
    int start = high && e->old_sda && !e->sda, stop = high && !e->old_sda && e->sda;
    unsigned sda = e->sda;
    if (e->phase == STANDBY) {
        if (start)
            begin(b, e);
    } else if (e->phase == WAIT_STOP) {
        if (stop)
            e->phase = STANDBY;
    } else if (start) {
        begin(b, e);
    } else if (stop) {
        e->phase = STANDBY;
    } else if (fall) {
        if (e->cycles < 9u) {
            e->cycles++;
        } else {
            e->cycles = 1;
            switch (e->phase) {
            case WORD7:
                e->phase = e->rw ? READ : WRITE;
                e->buffer = 0;
                break;
            case DEV_ADDR:
                e->dev = (uint16_t)(e->dev << b->addr_bits);
                if (e->rw) {
                    e->phase = READ;
                } else {
                    e->word = 0;
                    e->phase = b->addr_bits == 16 ? WORD_HI : WORD_LO;
                }
                break;
            case WORD_HI:
                e->phase = WORD_LO;
                break;
            case WORD_LO:
                e->phase = WRITE;
                e->buffer = 0;
                break;
            default: /* the next byte of a read or write */
                break;
            }
        }
    } else if (rise) {
        unsigned cyc = e->cycles;
        switch (e->phase) {
        case WORD7:
            if (cyc < 8u)
                e->word = (uint16_t)(e->word | sda << (7u - cyc));
            else if (cyc == 8u)
                e->rw = (uint8_t)sda;
            break;
        case DEV_ADDR:
            if (cyc > 4u && cyc < 8u)
                e->dev = (uint16_t)(e->dev | sda << (7u - cyc));
            else if (cyc == 8u)
                e->rw = (uint8_t)sda;
            break;
        case WORD_HI:
        case WORD_LO: {
            unsigned top = e->phase == WORD_HI ? 16u : 8u;
            if (cyc < 9u) {
                if (b->size_mask < (1u << (top - cyc)))
                    e->dev >>= 1; /* a bit the array does not have: the device address's bits move down */
                else
                    e->word = (uint16_t)(e->word | sda << (top - cyc));
            }
            break;
        }
        case READ:
            if (cyc == 9u) {
                if (sda)
                    e->phase = WAIT_STOP; /* no acknowledge: the read ends */
                else
                    e->word = (uint16_t)((e->word + 1u) & b->size_mask);
            }
            break;
        case WRITE:
            if (cyc < 9u) {
                e->buffer = (uint8_t)(e->buffer | sda << (8u - cyc));
            } else {
                array[(e->dev | e->word) & 0xFFFFu] = e->buffer;
                e->buffer = 0;
                e->word = (uint16_t)((e->word & ~b->page_mask) | ((e->word + 1u) & b->page_mask));
            }
            break;
        default:
            break;
        }
    }
    e->old_scl = e->scl;
    e->old_sda = e->sda;
}

/* The SDA line as the chip drives it. */
static unsigned sda_out(const rg__gen_eeprom *e, const uint8_t *array)
{
    if (e->phase == READ) {
        if (e->cycles < 9u)
            return (array[(e->dev | e->word) & 0xFFFFu] >> (8u - e->cycles)) & 1u;
    } else if (e->cycles == 9u) {
        return 0; /* the acknowledge */
    }
    return e->sda;
}

int rg__gen_eeprom_reads(const rg__gen_eeprom_board *b, const rg__gen_eeprom *e, uint32_t addr)
{
    if (addr < 0x200000u)
        return 0;
    if (b->kind == RG__GEN_EEPROM_ACCLAIM32)
        return addr < 0x300000u && !e->rom_reads;
    return 1;
}

uint16_t rg__gen_eeprom_read16(const rg__gen_eeprom_board *b, const rg__gen_eeprom *e, const uint8_t *array)
{
    /* the line on its data bit, every other bit 0 (a byte read at an even address sees the high byte: 0, where
     * Genesis Plus GX reads its open bus) */
    return (uint16_t)(sda_out(e, array) << b->sda_out_bit);
}

int rg__gen_eeprom_write16(const rg__gen_eeprom_board *b, rg__gen_eeprom *e, uint8_t *array, uint32_t addr,
                           uint16_t v, int sel)
{
    if (addr < 0x200000u)
        return 0;
    /* the byte written at its address, or a word's low byte (the lines are on D0-D7) */
    unsigned data = sel == 2 ? (unsigned)v >> 8 : v;
    switch (b->kind) {
    case RG__GEN_EEPROM_ACCLAIM32:
        if (addr >= 0x300000u)
            return 0;
        if (sel == 3) {
            e->rom_reads = (uint8_t)(data & 1u); /* both strobes: the read mapping, no line changes */
            return 1;
        }
        if (sel == 1)
            e->sda = (uint8_t)(data & 1u);
        else
            e->scl = (uint8_t)(data & 1u);
        break;
    case RG__GEN_EEPROM_ACCLAIM16: /* any write drives the lines */
        e->sda = (uint8_t)(data >> b->sda_in_bit & 1u);
        e->scl = (uint8_t)(data >> b->scl_bit & 1u);
        break;
    default: /* EA, Sega: the low byte's strobe only */
        if (sel == 2)
            return 1;
        e->sda = (uint8_t)(data >> b->sda_in_bit & 1u);
        e->scl = (uint8_t)(data >> b->scl_bit & 1u);
        break;
    }
    update(b, e, array);
    return 1;
}
