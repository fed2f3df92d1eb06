/* The YM2612's FM synthesis (docs/genesis.md, "Audio"), written from the chip's documented behaviour (Yamaha's
 * register descriptions and the measurements published by the Genesis development community): six channels of four
 * operators in the eight algorithms, operator 1's feedback, the phase generator (F-number and block, detune, multiple,
 * the LFO's vibrato), the envelope generator (attack, decay, sustain, release with key scaling, sustain and total
 * level, SSG-EG's repeat, hold, alternate and invert), the LFO's tremolo, channel 3's special mode, the DAC in place
 * of channel 6, and the panning. One call makes one YM sample (master clock / 1008, about 53,267 Hz). */
#include "cores/genesis/genesis_fm.h"

#include <string.h>

/* -log2(sin) of a quarter wave, 256 steps, in 1/256 octaves */
static const uint16_t k_logsin[256] = {
    2137, 1731, 1543, 1419, 1326, 1252, 1190, 1137, 1091, 1050, 1013, 979, 949, 920, 894, 869,
    846, 825, 804, 785, 767, 749, 732, 717, 701, 687, 672, 659, 646, 633, 621, 609,
    598, 587, 576, 566, 556, 546, 536, 527, 518, 509, 501, 492, 484, 476, 468, 461,
    453, 446, 439, 432, 425, 418, 411, 405, 399, 392, 386, 380, 375, 369, 363, 358,
    352, 347, 341, 336, 331, 326, 321, 316, 311, 307, 302, 297, 293, 289, 284, 280,
    276, 271, 267, 263, 259, 255, 251, 248, 244, 240, 236, 233, 229, 226, 222, 219,
    215, 212, 209, 205, 202, 199, 196, 193, 190, 187, 184, 181, 178, 175, 172, 169,
    167, 164, 161, 159, 156, 153, 151, 148, 146, 143, 141, 138, 136, 134, 131, 129,
    127, 125, 122, 120, 118, 116, 114, 112, 110, 108, 106, 104, 102, 100, 98, 96,
    94, 92, 91, 89, 87, 85, 83, 82, 80, 78, 77, 75, 74, 72, 70, 69,
    67, 66, 64, 63, 62, 60, 59, 57, 56, 55, 53, 52, 51, 49, 48, 47,
    46, 45, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30,
    29, 28, 27, 26, 25, 24, 23, 23, 22, 21, 20, 20, 19, 18, 17, 17,
    16, 15, 15, 14, 13, 13, 12, 12, 11, 10, 10, 9, 9, 8, 8, 7,
    7, 7, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2,
    2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* 2^((255 - i) / 256) x 1024: with the attenuation's whole octaves as a shift, the operator's 13-bit magnitude */
static const uint16_t k_exp[256] = {
    2042, 2037, 2031, 2026, 2020, 2015, 2010, 2004, 1999, 1993, 1988, 1983, 1977, 1972, 1966, 1961,
    1956, 1951, 1945, 1940, 1935, 1930, 1924, 1919, 1914, 1909, 1904, 1898, 1893, 1888, 1883, 1878,
    1873, 1868, 1863, 1858, 1853, 1848, 1843, 1838, 1833, 1828, 1823, 1818, 1813, 1808, 1803, 1798,
    1794, 1789, 1784, 1779, 1774, 1769, 1765, 1760, 1755, 1750, 1746, 1741, 1736, 1732, 1727, 1722,
    1717, 1713, 1708, 1704, 1699, 1694, 1690, 1685, 1681, 1676, 1672, 1667, 1663, 1658, 1654, 1649,
    1645, 1640, 1636, 1631, 1627, 1623, 1618, 1614, 1609, 1605, 1601, 1596, 1592, 1588, 1584, 1579,
    1575, 1571, 1566, 1562, 1558, 1554, 1550, 1545, 1541, 1537, 1533, 1529, 1525, 1520, 1516, 1512,
    1508, 1504, 1500, 1496, 1492, 1488, 1484, 1480, 1476, 1472, 1468, 1464, 1460, 1456, 1452, 1448,
    1444, 1440, 1436, 1433, 1429, 1425, 1421, 1417, 1413, 1409, 1406, 1402, 1398, 1394, 1391, 1387,
    1383, 1379, 1376, 1372, 1368, 1364, 1361, 1357, 1353, 1350, 1346, 1342, 1339, 1335, 1332, 1328,
    1324, 1321, 1317, 1314, 1310, 1307, 1303, 1300, 1296, 1292, 1289, 1286, 1282, 1279, 1275, 1272,
    1268, 1265, 1261, 1258, 1255, 1251, 1248, 1244, 1241, 1238, 1234, 1231, 1228, 1224, 1221, 1218,
    1214, 1211, 1208, 1205, 1201, 1198, 1195, 1192, 1188, 1185, 1182, 1179, 1176, 1172, 1169, 1166,
    1163, 1160, 1157, 1154, 1150, 1147, 1144, 1141, 1138, 1135, 1132, 1129, 1126, 1123, 1120, 1117,
    1114, 1111, 1108, 1105, 1102, 1099, 1096, 1093, 1090, 1087, 1084, 1081, 1078, 1075, 1072, 1069,
    1066, 1064, 1061, 1058, 1055, 1052, 1049, 1046, 1044, 1041, 1038, 1035, 1032, 1030, 1027, 1024,
};

/* detune (phase increment added or, DT bit 2 set, taken away) by key code, for DT 1-3 (Yamaha's table) */
static const uint8_t k_detune[3][32] = {
    {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 8, 8},
    {1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 16, 16, 16, 16},
    {2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 20, 22, 22, 22, 22},
};

/* the envelope's step at each of 8 successive updates: rates 2-47 by rate & 3 (rates 2-5 as 0, 6-7 as 2), rates
 * 48-59 by rate & 3 doubled for each group of four above 48, rates 60-63 always 8 */
static const uint8_t k_eg_step[4][8] = {
    {0, 1, 0, 1, 0, 1, 0, 1},
    {0, 1, 0, 1, 1, 1, 0, 1},
    {0, 1, 1, 1, 0, 1, 1, 1},
    {0, 1, 1, 1, 1, 1, 1, 1},
};
static const uint8_t k_eg_step_hi[4][8] = {
    {1, 1, 1, 1, 1, 1, 1, 1},
    {1, 1, 1, 2, 1, 1, 1, 2},
    {1, 2, 1, 2, 1, 2, 1, 2},
    {1, 2, 2, 2, 1, 2, 2, 2},
};

/* samples per LFO step (128 steps a cycle: 3.98, 5.56, 6.02, 6.37, 6.88, 9.63, 48.1, 72.2 Hz) */
static const uint8_t k_lfo_period[8] = {108, 77, 71, 67, 62, 44, 8, 5};
/* tremolo: the LFO's 0-126 shifted right by this for AMS 0-3 (0, 1.4, 5.9, 11.8 dB) */
static const uint8_t k_ams_shift[4] = {8, 3, 1, 0};
/* vibrato depth for PMS 0-7 (0, 3.4, 6.7, 10, 14, 20, 40, 80 cents at the peak) at each of the LFO's 8 levels: the
 * F-number's relative change x 65536 */
static const uint16_t k_pm[8][8] = {
    {0, 0, 0, 0, 0, 0, 0, 0},
    {0, 18, 37, 55, 74, 92, 110, 129},
    {0, 36, 73, 109, 145, 181, 218, 254},
    {0, 54, 108, 162, 217, 271, 325, 380},
    {0, 76, 152, 228, 304, 380, 456, 532},
    {0, 108, 217, 325, 434, 543, 652, 761},
    {0, 217, 434, 652, 871, 1091, 1311, 1532},
    {0, 434, 871, 1311, 1754, 2199, 2648, 3099},
};

/* operator o (0-3: operators 1-4) of channel c in part p: the register offset ($30 + this, ...) */
static unsigned op_reg(unsigned c, unsigned o)
{
    static const uint8_t slot[4] = {0, 8, 4, 12}; /* operators 1, 2, 3, 4 sit at +0, +8, +4, +12 */
    return slot[o] + c % 3u;
}

void rg__gen_fm_reset(rg__gen_fm *f)
{
    /* the PSG's generators live here too but the YM2612's reset leaves them */
    uint16_t cnt[4], lfsr = f->psg_lfsr, rem = f->psg_rem;
    uint8_t out[4];
    memcpy(cnt, f->psg_cnt, sizeof cnt);
    memcpy(out, f->psg_out, sizeof out);
    uint64_t t = f->t;
    uint32_t acc = f->rs_acc, n = f->rs_n;
    int32_t l = f->rs_l, r = f->rs_r;
    memset(f, 0, sizeof *f);
    memcpy(f->psg_cnt, cnt, sizeof cnt);
    memcpy(f->psg_out, out, sizeof out);
    f->psg_lfsr = lfsr;
    f->psg_rem = rem;
    f->t = t;
    f->rs_acc = acc;
    f->rs_n = n;
    f->rs_l = l;
    f->rs_r = r;
    for (unsigned p = 0; p < 2; p++)
        for (unsigned c = 0; c < 3; c++)
            f->reg[p][0xB4 + c] = 0xC0;
    for (unsigned c = 0; c < 6; c++)
        for (unsigned o = 0; o < 4; o++) {
            f->op[c][o].att = 0x3FF;
            f->op[c][o].eg = RG__FM_RELEASE;
        }
}

/* 5-bit key code of an F-number and block: block, F-number bit 10, and a bit from bits 10-7 */
static unsigned keycode(unsigned fnum, unsigned block)
{
    unsigned f11 = (fnum >> 10) & 1u, f10 = (fnum >> 9) & 1u, f9 = (fnum >> 8) & 1u, f8 = (fnum >> 7) & 1u;
    unsigned n3 = (f11 & (f10 | f9 | f8)) | ((f11 ^ 1u) & f10 & f9 & f8);
    return block << 2 | f11 << 1 | n3;
}

static void op_fnum(const rg__gen_fm *f, unsigned c, unsigned o, unsigned *fnum, unsigned *block)
{
    if (c == 2 && o != 3 && (f->reg[0][0x27] & 0xC0u)) { /* channel 3's special mode: operators 1-3 their own */
        static const uint8_t idx[3] = {1, 2, 0};
        *fnum = f->fnum3[idx[o]];
        *block = f->block3[idx[o]];
    } else {
        *fnum = f->fnum[c];
        *block = f->block[c];
    }
}

static unsigned op_rate(const rg__gen_fm *f, unsigned c, unsigned o, unsigned eg)
{
    const uint8_t *rg = f->reg[c / 3u];
    unsigned a = op_reg(c, o), r;
    switch (eg) {
    case RG__FM_ATTACK: r = rg[0x50 + a] & 31u; break;
    case RG__FM_DECAY: r = rg[0x60 + a] & 31u; break;
    case RG__FM_SUSTAIN: r = rg[0x70 + a] & 31u; break;
    default: r = (rg[0x80 + a] & 15u) * 2u + 1u; break;
    }
    if (!r)
        return 0;
    unsigned fnum, block;
    op_fnum(f, c, o, &fnum, &block);
    unsigned rate = 2u * r + (keycode(fnum, block) >> (3u - (rg[0x50 + a] >> 6)));
    return rate > 63u ? 63u : rate;
}

static void key_on(rg__gen_fm *f, unsigned c, unsigned o)
{
    rg__gen_fm_op *op = &f->op[c][o];
    if (op->key)
        return;
    op->key = 1;
    op->phase = 0;
    op->ssg_inv = 0;
    op->eg = RG__FM_ATTACK;
    if (op_rate(f, c, o, RG__FM_ATTACK) >= 62u) {
        op->att = 0;
        op->eg = RG__FM_DECAY;
    }
}

static void key_off(rg__gen_fm *f, unsigned c, unsigned o)
{
    rg__gen_fm_op *op = &f->op[c][o];
    if (!op->key)
        return;
    op->key = 0;
    uint8_t ssg = f->reg[c / 3u][0x90 + op_reg(c, o)];
    if ((ssg & 8u) && (op->ssg_inv ^ ((ssg >> 2) & 1u))) /* SSG-EG: the level heard becomes the level released */
        op->att = (uint16_t)((0x200u - op->att) & 0x3FFu);
    op->ssg_inv = 0;
    op->eg = RG__FM_RELEASE;
}

void rg__gen_fm_write(rg__gen_fm *f, unsigned part, uint8_t r, uint8_t v)
{
    f->reg[part][r] = v;
    if (part == 0 && r == 0x28) { /* key on/off: channel in bits 2-0 (0-2, 4-6), operators 1-4 in bits 4-7 */
        unsigned c = v & 3u;
        if (c == 3u)
            return;
        c += (v & 4u) ? 3u : 0u;
        for (unsigned o = 0; o < 4; o++) {
            if (v & (0x10u << o))
                key_on(f, c, o);
            else
                key_off(f, c, o);
        }
        return;
    }
    if (r < 0xA0u || r > 0xAEu || (r & 3u) == 3u)
        return;
    unsigned c = r & 3u;
    switch (r & 0xFCu) {
    case 0xA0: /* F-number low 8 bits: the latched block and high bits with it */
        f->fnum[c + 3u * part] = (uint16_t)((f->fn_latch & 7u) << 8 | v);
        f->block[c + 3u * part] = (uint8_t)((f->fn_latch >> 3) & 7u);
        break;
    case 0xA4:
        f->fn_latch = v;
        break;
    case 0xA8:
        if (part == 0) {
            f->fnum3[c] = (uint16_t)((f->fn_latch3 & 7u) << 8 | v);
            f->block3[c] = (uint8_t)((f->fn_latch3 >> 3) & 7u);
        }
        break;
    case 0xAC:
        if (part == 0)
            f->fn_latch3 = v;
        break;
    default:
        break;
    }
}

/* the operator's output, 14-bit signed, for a 10-bit phase and an attenuation (10 bits, 0.09375 dB a step) */
static inline int op_out(unsigned phase, unsigned att)
{
    unsigned q = phase & 0xFFu;
    if (phase & 0x100u)
        q ^= 0xFFu;
    unsigned a = k_logsin[q] + (att << 2);
    int v = a >= (13u << 8) ? 0 : (int)(((unsigned)k_exp[a & 0xFFu] << 2) >> (a >> 8));
    return (phase & 0x200u) ? -v : v;
}

static unsigned eg_step(unsigned rate, unsigned cnt)
{
    if (rate < 2u)
        return 0;
    if (rate < 8u)
        return k_eg_step[rate >= 6u ? 2u : 0u][cnt & 7u];
    if (rate < 48u)
        return k_eg_step[rate & 3u][cnt & 7u];
    if (rate < 60u)
        return (unsigned)k_eg_step_hi[rate & 3u][cnt & 7u] << ((rate - 48u) >> 2);
    return 8u;
}

/* one envelope clock of an operator */
static void eg_clock(rg__gen_fm *f, unsigned c, unsigned o)
{
    rg__gen_fm_op *op = &f->op[c][o];
    const uint8_t *rg = f->reg[c / 3u];
    unsigned a = op_reg(c, o);
    uint8_t ssg = rg[0x90 + a];
    if ((ssg & 8u) && op->att >= 0x200u && op->eg != RG__FM_RELEASE) {
        /* SSG-EG at the end of its course: hold keeps the end level (alternate inverting it once), else alternate
         * flips the inversion or the phase restarts, and the attack begins again */
        if (ssg & 1u) {
            if (ssg & 2u)
                op->ssg_inv = 1;
            if (!(op->ssg_inv ^ ((ssg >> 2) & 1u)))
                op->att = 0x3FF;
        } else {
            if (ssg & 2u)
                op->ssg_inv ^= 1u;
            else
                op->phase = 0;
            op->eg = RG__FM_ATTACK;
            if (op_rate(f, c, o, RG__FM_ATTACK) >= 62u) {
                op->att = 0;
                op->eg = RG__FM_DECAY;
            }
        }
    }
    unsigned sl = rg[0x80 + a] >> 4;
    sl = sl == 15u ? 0x3E0u : sl << 5;
    if (op->eg == RG__FM_DECAY && op->att >= sl)
        op->eg = RG__FM_SUSTAIN;
    unsigned rate = op_rate(f, c, o, op->eg);
    unsigned shift = rate >= 44u ? 0u : 11u - (rate >> 2);
    if (!rate || (f->eg_cnt & ((1u << shift) - 1u)))
        return;
    unsigned step = eg_step(rate, f->eg_cnt >> shift);
    int att = op->att;
    if (op->eg == RG__FM_ATTACK) {
        if (rate >= 62u)
            att = 0;
        else /* att += (~att x step) >> 4: exponential towards 0 */
            att -= (int)(((unsigned)(att + 1) * step + 15u) >> 4);
        if (att <= 0) {
            att = 0;
            op->eg = RG__FM_DECAY;
        }
    } else {
        if (!(ssg & 8u))
            att += (int)step;
        else if (att < 0x200)
            att += 4 * (int)step;
        if (att > 0x3FF)
            att = 0x3FF;
        if (op->eg == RG__FM_DECAY && att >= (int)sl)
            op->eg = RG__FM_SUSTAIN;
    }
    op->att = (uint16_t)att;
}

/* the phase increment of an operator this sample (vibrato pm: the LFO's signed level -7..7 for the channel's PMS) */
static uint32_t phase_inc(const rg__gen_fm *f, unsigned c, unsigned o, unsigned pms, int pm)
{
    const uint8_t *rg = f->reg[c / 3u];
    unsigned a = op_reg(c, o), fnum, block;
    op_fnum(f, c, o, &fnum, &block);
    unsigned kc = keycode(fnum, block);
    int fn = (int)fnum;
    if (pm) { /* vibrato: the F-number moves by its depth's share of itself */
        int d = (int)((fnum * (unsigned)k_pm[pms][pm < 0 ? -pm : pm]) >> 16);
        fn += pm < 0 ? -d : d;
    }
    uint32_t inc = ((uint32_t)fn << block) >> 1;
    unsigned dt = (rg[0x30 + a] >> 4) & 7u;
    if (dt & 3u) {
        unsigned d = k_detune[(dt & 3u) - 1u][kc];
        inc = (dt & 4u) ? inc - d : inc + d;
    }
    inc &= 0x1FFFFu;
    unsigned mul = rg[0x30 + a] & 15u;
    return mul ? inc * mul : inc >> 1;
}

/* the attenuation an operator is heard at: envelope (inverted by SSG-EG), total level, tremolo */
static inline unsigned op_att(const rg__gen_fm *f, unsigned c, unsigned o, unsigned am)
{
    const rg__gen_fm_op *op = &f->op[c][o];
    const uint8_t *rg = f->reg[c / 3u];
    unsigned a = op_reg(c, o);
    unsigned att = op->att;
    uint8_t ssg = rg[0x90 + a];
    if ((ssg & 8u) && op->eg != RG__FM_RELEASE && (op->ssg_inv ^ ((ssg >> 2) & 1u)))
        att = (0x200u - att) & 0x3FFu;
    att += (unsigned)(rg[0x40 + a] & 0x7Fu) << 3;
    if (rg[0x60 + a] & 0x80u)
        att += am;
    return att > 0x3FFu ? 0x3FFu : att;
}

void rg__gen_fm_sample(rg__gen_fm *f, int32_t *l, int32_t *r)
{
    /* the LFO */
    uint8_t lfo = f->reg[0][0x22];
    if (lfo & 8u) {
        if (++f->lfo_cnt >= k_lfo_period[lfo & 7u]) {
            f->lfo_cnt = 0;
            f->lfo_step = (uint8_t)((f->lfo_step + 1u) & 127u);
        }
    } else {
        f->lfo_cnt = 0;
        f->lfo_step = 0;
    }
    unsigned step = f->lfo_step;
    unsigned am_lfo = (step < 64u ? step ^ 63u : step & 63u) << 1; /* a triangle, 126 down to 0 and back */
    unsigned ps = step >> 2;                                          /* 32 vibrato steps a cycle */
    int pm_lvl = (int)((ps & 8u) ? 7u - (ps & 7u) : (ps & 7u));
    if (ps & 16u)
        pm_lvl = -pm_lvl;
    /* the envelopes, one clock in three samples */
    int eg_tick = 0;
    if (++f->eg_div >= 3u) {
        f->eg_div = 0;
        f->eg_cnt = (uint16_t)((f->eg_cnt + 1u) & 0xFFFu);
        eg_tick = 1;
    }
    int32_t sl = 0, sr = 0;
    for (unsigned c = 0; c < 6; c++) {
        const uint8_t *rg = f->reg[c / 3u];
        uint8_t pan = rg[0xB4 + c % 3u];
        const rg__gen_fm_op *q = f->op[c];
        if ((q[0].att & q[1].att & q[2].att & q[3].att) == 0x3FFu && q[0].eg == RG__FM_RELEASE &&
            q[1].eg == RG__FM_RELEASE && q[2].eg == RG__FM_RELEASE && q[3].eg == RG__FM_RELEASE) {
            /* all four released to silence: nothing to hear until a key on (which restarts the phases) */
            f->fb[c][0] = f->fb[c][1] = 0;
            if (c == 5 && (f->reg[0][0x2B] & 0x80u)) {
                int dac = ((int)f->reg[0][0x2A] - 128) * 64;
                sl += (pan & 0x80u) ? dac : 0;
                sr += (pan & 0x40u) ? dac : 0;
            }
            continue;
        }
        unsigned pms = pan & 7u;
        unsigned am = am_lfo >> k_ams_shift[(pan >> 4) & 3u];
        int pm = (lfo & 8u) && pms ? pm_lvl : 0;
        int o1, o2, o3, o4, out;
        unsigned e[4];
        for (unsigned o = 0; o < 4; o++) {
            if (eg_tick)
                eg_clock(f, c, o);
            e[o] = op_att(f, c, o, am);
        }
        uint32_t ph[4];
        for (unsigned o = 0; o < 4; o++) {
            rg__gen_fm_op *op = &f->op[c][o];
            ph[o] = op->phase >> 10;
            op->phase = (op->phase + phase_inc(f, c, o, pms, pm)) & 0xFFFFFu;
        }
        unsigned fbk = (rg[0xB0 + c % 3u] >> 3) & 7u;
        int mod = fbk ? (f->fb[c][0] + f->fb[c][1]) >> (10u - fbk) : 0;
        o1 = op_out(ph[0] + (unsigned)mod, e[0]);
        f->fb[c][1] = f->fb[c][0];
        f->fb[c][0] = (int16_t)o1;
#define OP(n, m) op_out(ph[n] + (unsigned)((m) >> 1), e[n])
        switch (rg[0xB0 + c % 3u] & 7u) {
        case 0: o2 = OP(1, o1); o3 = OP(2, o2); out = OP(3, o3); break;
        case 1: o2 = OP(1, 0); o3 = OP(2, o1 + o2); out = OP(3, o3); break;
        case 2: o2 = OP(1, 0); o3 = OP(2, o2); out = OP(3, o1 + o3); break;
        case 3: o2 = OP(1, o1); o3 = OP(2, 0); out = OP(3, o2 + o3); break;
        case 4: o2 = OP(1, o1); o3 = OP(2, 0); o4 = OP(3, o3); out = o2 + o4; break;
        case 5: o2 = OP(1, o1); o3 = OP(2, o1); o4 = OP(3, o1); out = o2 + o3 + o4; break;
        case 6: o2 = OP(1, o1); o3 = OP(2, 0); o4 = OP(3, 0); out = o2 + o3 + o4; break;
        default: o2 = OP(1, 0); o3 = OP(2, 0); o4 = OP(3, 0); out = o1 + o2 + o3 + o4; break;
        }
#undef OP
        if (out > 8191)
            out = 8191;
        else if (out < -8192)
            out = -8192;
        if (c == 5 && (f->reg[0][0x2B] & 0x80u)) /* the DAC in place of channel 6: 8 bits unsigned */
            out = ((int)f->reg[0][0x2A] - 128) * 64;
        if (pan & 0x80u)
            sl += out;
        if (pan & 0x40u)
            sr += out;
    }
    *l = sl;
    *r = sr;
}

const char *rg__gen_fm_check(const rg__gen_fm *f)
{
    for (unsigned c = 0; c < 6; c++) {
        if (f->fnum[c] > 0x7FFu || f->block[c] > 7u)
            return "fm frequency";
        for (unsigned o = 0; o < 4; o++) {
            const rg__gen_fm_op *op = &f->op[c][o];
            if (op->phase > 0xFFFFFu || op->att > 0x3FFu || op->eg > RG__FM_RELEASE || op->key > 1u ||
                op->ssg_inv > 1u || op->pad_[0] || op->pad_[1] || op->pad_[2])
                return "fm operator";
        }
        if (f->fb[c][0] < -8192 || f->fb[c][0] > 8191 || f->fb[c][1] < -8192 || f->fb[c][1] > 8191)
            return "fm feedback";
    }
    for (unsigned i = 0; i < 3; i++)
        if (f->fnum3[i] > 0x7FFu || f->block3[i] > 7u)
            return "fm channel 3 frequency";
    if (f->lfo_step > 127u || f->lfo_cnt >= 108u || f->eg_div > 2u || f->eg_cnt > 0xFFFu)
        return "fm lfo/envelope clock";
    for (unsigned i = 0; i < 4; i++)
        if (f->psg_cnt[i] > 0x400u || f->psg_out[i] > 1u)
            return "psg generators";
    if (f->psg_rem >= 240u)
        return "psg clock";
    /* a sum holds at most rs_n samples of six 14-bit channels plus the PSG's four */
    int32_t most = (int32_t)(f->rs_n + 1u) * (6 * 8192 + 4 * 4096);
    if (f->rs_acc >= 53693175u || f->rs_n > 64u || f->rs_l > most || f->rs_l < -most || f->rs_r > most ||
        f->rs_r < -most)
        return "audio resampler";
    return NULL;
}
