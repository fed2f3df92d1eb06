/* The Genesis' sound side (docs/genesis.md): the Z80 at master / 15 with its bus (8 KiB RAM at $0000-$3FFF, the
 * YM2612 at $4000-$5FFF, the bank register at $6000, the VDP and PSG at $7F00, the 68000's space through the 32 KiB
 * window at $8000), the YM2612's timers A and B with their status flags, and the PSG's registers. No sound is
 * produced yet: the YM2612's FM channels and the PSG's tones are not synthesised. */
#include "cores/genesis/genesis.h"

#define YM_SAMPLE_MCLK 1008u /* one YM2612 sample: 144 clocks of the 68000's clock (master / 7) */
#define Z80_MCLK 15u

/* --- YM2612: timers and status */

static void ym_timers_to(rg__gen_state *s, uint64_t mclk)
{
    /* a sample counts from its first master clock on (every sample starting before mclk has run), as Genesis Plus
     * GX runs its YM2612 up to an access */
    uint64_t target = (mclk + YM_SAMPLE_MCLK - 1u) / YM_SAMPLE_MCLK;
    if (target <= s->ym_samples)
        return;
    if (!(s->ym_mode & 3u)) { /* neither timer counts */
        s->ym_samples = target;
        return;
    }
    uint64_t n = target - s->ym_samples;
    s->ym_samples = target;
    if (s->ym_mode & 1u) {
        int32_t period = 1024 - (int32_t)s->ym_ta;
        int64_t left = (int64_t)s->ym_tac - (int64_t)n;
        if (left <= 0) {
            if (s->ym_mode & 4u)
                s->ym_status |= 1u;
            left = period - ((-left) % period);
        }
        s->ym_tac = (int32_t)left;
    }
    if (s->ym_mode & 2u) {
        int32_t period = (256 - (int32_t)s->ym_tb) * 16;
        int64_t left = (int64_t)s->ym_tbc - (int64_t)n;
        if (left <= 0) {
            if (s->ym_mode & 8u)
                s->ym_status |= 2u;
            left = period - ((-left) % period);
        }
        s->ym_tbc = (int32_t)left;
    }
}

uint8_t rg__gen_ym_read(rg__gen_machine *m, uint64_t mclk)
{
    ym_timers_to(&m->st, mclk);
    return m->st.ym_status;
}

static void ym_mode_write(rg__gen_state *s, uint8_t v)
{
    if ((v & 1u) && !(s->ym_mode & 1u)) /* timer A starts: its counter loads */
        s->ym_tac = 1024 - (int32_t)s->ym_ta;
    if ((v & 2u) && !(s->ym_mode & 2u))
        s->ym_tbc = (256 - (int32_t)s->ym_tb) * 16;
    s->ym_status &= (uint8_t)~(v >> 4 & 3u); /* reset A / B */
    s->ym_mode = (uint8_t)(v & 0xCFu);
}

void rg__gen_ym_write(rg__gen_machine *m, uint64_t mclk, unsigned port, uint8_t v)
{
    rg__gen_state *s = &m->st;
    ym_timers_to(s, mclk);
    unsigned part = (port >> 1) & 1u;
    if (!(port & 1u)) {
        s->ym_addr[part] = v;
        return;
    }
    if (part)
        return; /* part II holds channel registers only */
    switch (s->ym_addr[0]) {
    case 0x24:
        s->ym_ta = (uint16_t)((s->ym_ta & 3u) | (unsigned)v << 2);
        break;
    case 0x25:
        s->ym_ta = (uint16_t)((s->ym_ta & 0x3FCu) | (v & 3u));
        break;
    case 0x26:
        s->ym_tb = v;
        break;
    case 0x27:
        ym_mode_write(s, v);
        break;
    default:
        break; /* FM registers: no synthesis yet */
    }
}

/* --- PSG (SN76489): latch/data bytes into its eight registers */

void rg__gen_psg_write(rg__gen_state *s, uint8_t v)
{
    if (v & 0x80u) {
        s->psg_latch = (uint8_t)((v >> 4) & 7u);
        s->psg_reg[s->psg_latch] = (uint16_t)((s->psg_reg[s->psg_latch] & 0x3F0u) | (v & 15u));
    } else if (!(s->psg_latch & 1u) && s->psg_latch != 6) { /* a tone period's high six bits */
        s->psg_reg[s->psg_latch] = (uint16_t)((s->psg_reg[s->psg_latch] & 15u) | (unsigned)(v & 0x3Fu) << 4);
    } else {
        s->psg_reg[s->psg_latch] = (uint16_t)(v & 15u);
    }
}

/* --- the Z80's bus */

static uint8_t z80_read(rg__gen_machine *m, uint16_t a)
{
    rg__gen_state *s = &m->st;
    if (a < 0x4000u)
        return s->zram[a & 0x1FFFu];
    if (a < 0x6000u)
        return rg__gen_ym_read(m, s->z80_cycles * Z80_MCLK);
    if (a < 0x8000u) {
        if (a >= 0x7F00u && a < 0x7F20u) { /* the VDP's ports, as the 68000 reads them */
            uint16_t w = rg__gen_read16(m, 0xC00000u | (a & 0x1Eu));
            return (uint8_t)((a & 1u) ? w : w >> 8);
        }
        return 0xFFu;
    }
    uint32_t addr = (uint32_t)s->z80_bank << 15 | (a & 0x7FFFu);
    uint16_t w = rg__gen_read16(m, addr);
    return (uint8_t)((addr & 1u) ? w : w >> 8);
}

static void z80_write(rg__gen_machine *m, uint16_t a, uint8_t v)
{
    rg__gen_state *s = &m->st;
    if (a < 0x4000u) {
        s->zram[a & 0x1FFFu] = v;
    } else if (a < 0x6000u) {
        rg__gen_ym_write(m, s->z80_cycles * Z80_MCLK, a & 3u, v);
    } else if (a < 0x6100u) { /* bank register: bit 0 shifts in from the top, 9 writes for a whole address */
        s->z80_bank = (uint16_t)((s->z80_bank >> 1) | (unsigned)(v & 1u) << 8);
    } else if (a >= 0x7F00u && a < 0x7F20u) {
        if ((a & 0x1Fu) >= 0x10u && (a & 0x1Fu) < 0x18u) {
            if (a & 1u)
                rg__gen_psg_write(s, v);
        } else {
            rg__gen_write16(m, 0xC00000u | (a & 0x1Eu), (uint16_t)(v << 8 | v), 3);
        }
    } else if (a >= 0x8000u) {
        uint32_t addr = (uint32_t)s->z80_bank << 15 | (a & 0x7FFFu);
        rg__gen_write16(m, addr, (uint16_t)(v << 8 | v), (addr & 1u) ? 1 : 2);
    }
}

#define Z80_FN gen_z80_run
#define Z80_CTX rg__gen_machine
#define Z80_FETCH(ctx, addr, ir) ((ctx)->st.z80_cycles += 4, z80_read((ctx), (addr)))
#define Z80_READ(ctx, addr) ((ctx)->st.z80_cycles += 3, z80_read((ctx), (addr)))
#define Z80_WRITE(ctx, addr, v) ((ctx)->st.z80_cycles += 3, z80_write((ctx), (addr), (v)))
#define Z80_IN(ctx, port) ((ctx)->st.z80_cycles += 4, (void)(port), (uint8_t)0xFFu) /* no I/O ports */
#define Z80_OUT(ctx, port, v) ((ctx)->st.z80_cycles += 4, (void)(port), (void)(v))
#define Z80_INTERNAL(ctx, n) ((ctx)->st.z80_cycles += (unsigned)(n))
#define Z80_STOP(ctx) ((ctx)->st.z80_cycles >= (ctx)->z80_stop_at)
#include "cpu/z80/z80_exec.h"

void rg__gen_z80_run_to(rg__gen_machine *m, uint64_t mclk)
{
    rg__gen_state *s = &m->st;
    uint64_t target = mclk / Z80_MCLK;
    if (s->z80_cycles >= target)
        return;
    if (s->z80_reset || s->z80_busreq) {
        s->z80_cycles = target;
        return;
    }
    m->z80_stop_at = target;
    gen_z80_run(&s->z80, m);
}

void rg__gen_z80_reset(rg__gen_machine *m)
{
    rg__gen_state *s = &m->st;
    uint64_t mclk = s->z80_cycles * Z80_MCLK;
    ym_timers_to(s, mclk);
    rg__z80_init(&s->z80);
    s->z80.int_line = s->z80_int;
    s->ym_mode = 0;
    s->ym_status = 0;
    s->ym_ta = 0;
    s->ym_tb = 0;
    s->ym_tac = s->ym_tbc = 0;
    s->ym_addr[0] = s->ym_addr[1] = 0;
}

const char *rg__gen_sound_check(const rg__gen_state *s)
{
    const char *why = rg__z80_check(&s->z80);
    if (why)
        return why;
    if (s->z80_bank > 0x1FFu)
        return "z80_bank above 9 bits";
    if (s->z80_int > 1 || s->z80.int_line != s->z80_int)
        return "z80_int";
    if (s->ym_ta > 0x3FFu || (s->ym_mode & 0x30u) || s->ym_status > 3u)
        return "ym2612 timers";
    if (s->ym_tac < 0 || s->ym_tac > 1024 || s->ym_tbc < 0 || s->ym_tbc > 256 * 16)
        return "ym2612 timer counters";
    if (s->psg_latch > 7)
        return "psg latch";
    for (unsigned i = 0; i < 8; i++)
        if (s->psg_reg[i] > 0x3FFu)
            return "psg registers";
    uint64_t base = (uint64_t)s->frame * RG__GEN_FRAME_MCLK;
    /* at a frame's start, or at power-on (frame 0: the Z80's clock starts where the 68000's does, in line 229) */
    uint64_t slack = (s->frame == 0 ? 230u : 2u) * RG__GEN_LINE_MCLK;
    if (s->z80_cycles * Z80_MCLK + 2u * RG__GEN_LINE_MCLK < base || s->z80_cycles * Z80_MCLK > base + slack)
        return "z80 cycles (not at the frame's start)";
    if (s->ym_samples * YM_SAMPLE_MCLK > base + 2u * RG__GEN_LINE_MCLK)
        return "ym2612 samples (past the frame's start)";
    return NULL;
}
