/* The Master System / Game Gear core's entry point (sms_core.c), registered in src/emu/native.c as core "sms". */
#ifndef RG_SRC_CORES_SMS_SMS_CORE_H
#define RG_SRC_CORES_SMS_SMS_CORE_H

#include "emu/core_iface.h"

/* Opens a .sms or .gg ROM (Game Gear when the system is GameGear, or without a system, when the file ends in .gg);
 * core_path is unused. */
int rg__sms_open(void **core, const rg__core_ops **ops, const rg__core_open_args *args);

#endif
