/* The palette-index frame of an emulator whose core paints indices (index_frame.h), for observations made from it
 * without the XRGB8888 frame (src/env/env_gray.c). */
#ifndef RG_SRC_EMU_EMU_INDEX_H
#define RG_SRC_EMU_EMU_INDEX_H

#include "index_frame.h"
#include "retrogym/emu.h"

/* The index frame, and in *geometry the frame's size (its data left as it stands); NULL when the core paints
 * XRGB8888 (then use rg_emu_frame). */
const rg__index_frame *rg__emu_index_frame(const rg_emu *emu, rg_frame *geometry);

#endif
