/* The SMS/GG VDP's legacy TMS9918 modes (Graphics I and II, Text, Multicolor; internal to src/cores/sms, used by
 * vdp.c while register 0 bit 2 (M4) is clear). docs/sms.md, "VDP (TMS9918 modes)". */
#ifndef RG_SRC_CORES_SMS_VDP_TMS_H
#define RG_SRC_CORES_SMS_VDP_TMS_H

#include "cores/sms/sms.h"

/* Line y (0-191) as it starts, in a TMS mode: drawn into out (the line's 256 pixels) when not NULL; the overflow
 * latch moved into the status, collision computed always; the next line's sprites listed (not after line 191 with
 * the display on). The Text modes draw their cells in the colours of `text` (register 7, or its value before a
 * backdrop change when a line is recoloured); the backdrop is always register 7's. */
void rg__sms_tms_line(rg__sms_vdp *v, unsigned y, uint16_t *out, int gg, unsigned text);
/* Lists the sprites of line `line` + 1 (at most 4; a 5th sets the overflow latch when `line` is below 192) and
 * records the entry the listing stopped at (status bits 0-4). */
void rg__sms_tms_parse(rg__sms_vdp *v, int line);

#endif
