/* The Genesis' sound synthesis (docs/genesis.md, "Audio"): the YM2612's six FM channels of four operators and its
 * DAC (genesis_fm.c), and the PSG's three tones and noise (genesis_sound.c), mixed into 44,100 Hz stereo. Plain data
 * inside the machine state. The registers are always kept (a register write is a store); the operators, envelopes,
 * LFO and PSG counters run only while someone observes audio. */
#ifndef RG_SRC_CORES_GENESIS_GENESIS_FM_H
#define RG_SRC_CORES_GENESIS_GENESIS_FM_H

#include <stdint.h>

#define RG__GEN_AUDIO_RATE 44100u
/* output frames one frame can give at most (about 736 in a frame; a state whose clocks were moved on gives fewer) */
#define RG__GEN_ABUF_FRAMES 1024u

enum { RG__FM_ATTACK = 0, RG__FM_DECAY, RG__FM_SUSTAIN, RG__FM_RELEASE };

typedef struct rg__gen_fm_op {
    uint32_t phase;    /* 20-bit phase counter (its top 10 bits address the sine) */
    uint16_t att;      /* envelope attenuation, 10 bits (0 loudest, $3FF silent; 0.09375 dB a step) */
    uint8_t eg;        /* RG__FM_ATTACK .. RG__FM_RELEASE */
    uint8_t key;       /* 1 keyed on */
    uint8_t ssg_inv;   /* SSG-EG: the output of the envelope is inverted */
    uint8_t pad_[3];
} rg__gen_fm_op;

typedef struct rg__gen_fm {
    uint8_t reg[2][0x100];    /* registers of parts I and II as written ($30-$B6 hold the channels' settings) */
    uint16_t fnum[6];         /* each channel's F-number (11 bits) and block (3 bits), from $A4+$A0 */
    uint8_t block[6];
    uint8_t fn_latch;         /* the last $A4-$A6 byte, applied by the next $A0-$A2 write */
    uint8_t fn_latch3;        /* the same for channel 3's operator frequencies ($AC-$AE, $A8-$AA) */
    uint16_t fnum3[3];        /* channel 3's special-mode frequencies: [0] $A8 (operator 3), [1] $A9 (1), [2] $AA (2) */
    uint8_t block3[3];
    uint8_t lfo_step;         /* LFO position (0-127) */
    uint8_t lfo_cnt;          /* samples towards the next LFO step */
    uint8_t eg_div;           /* samples towards the next envelope clock (one in three) */
    uint16_t eg_cnt;          /* envelope clocks (12 bits) */
    rg__gen_fm_op op[6][4];   /* [channel][operator 1-4 as 0-3] */
    int16_t fb[6][2];         /* operator 1's last two outputs (feedback) */
    uint64_t t;               /* YM samples (master / 1008) synthesised since power-on */
    /* the PSG's tone and noise generators (registers: psg_reg in rg__gen_state) */
    uint16_t psg_cnt[4];      /* counters in PSG clocks (master / 240) */
    uint8_t psg_out[4];       /* each channel's flip-flop */
    uint16_t psg_lfsr;        /* noise shift register */
    uint16_t psg_rem;         /* master clocks not yet making a PSG clock (0-239) */
    /* resampling to 44,100 Hz: each output frame is the mean of the YM samples inside it */
    uint32_t rs_acc;          /* master clocks x 44100 towards the next output frame (one per 53,693,175) */
    int32_t rs_l, rs_r;       /* sums of the samples since the last output frame */
    uint32_t rs_n;
} rg__gen_fm;

/* The YM2612's reset (its reset line, with the Z80's; power-on): registers 0 but panning both sides, all operators
 * released and silent. */
void rg__gen_fm_reset(rg__gen_fm *f);
/* A write to FM register r of part p (0 or 1), timers and mode excepted. */
void rg__gen_fm_write(rg__gen_fm *f, unsigned part, uint8_t r, uint8_t v);
/* The next YM sample of the six channels, stereo (each channel up to 14 bits, summed). */
void rg__gen_fm_sample(rg__gen_fm *f, int32_t *l, int32_t *r);
/* Checks FM state taken from outside; NULL or the bad field. */
const char *rg__gen_fm_check(const rg__gen_fm *f);

#endif
