/* Genesis Plus GX save states (stable-retro's Sms and GameGear start states) converted into our SMS/GG machine
 * state. The layout and what is converted are in docs/sms.md ("State import"). */
#ifndef RG_SRC_CORES_SMS_SMS_GPGX_STATE_H
#define RG_SRC_CORES_SMS_SMS_GPGX_STATE_H

#include <stddef.h>

#include "cores/sms/sms.h"

/* Converts the Genesis Plus GX state src for the cartridge loaded in m into out; what GPGX does not save comes from
 * base (a power-on state of the same cartridge; its cartridge RAM is kept, as GPGX keeps its SRAM). Every field is
 * checked; the result still has to pass rg__sms_state_check. RG_ESTATE naming what is missing or wrong. */
int rg__sms_gpgx_read(const rg__sms_machine *m, const rg__sms_state *base, const void *src, size_t len,
                      rg__sms_state *out);

/* Loads the Genesis Plus GX state into m (converted, checked, installed); on an error m is unchanged. */
int rg__sms_gpgx_load(rg__sms_machine *m, const void *src, size_t len);

#endif
