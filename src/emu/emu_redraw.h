/* Drawing again a frame that ran undrawn (used by src/env/env_step.c; implemented in emu.c, which owns rg_emu).
 *
 * Our own cores skip drawing a frame run with video disabled (rg_emu_set_av_enable), as a step's frame skip asks for
 * every frame but the observed ones. When the episode turns out to have ended on such a frame, its picture is what
 * the step must show: the environment goes back to a mark it took some frames before (the core's state: a header and
 * a memcpy for our cores), runs the frames since again with the same input, the last one drawn, and the emulator ends
 * where it was (docs/architecture.md, "Frame skip and the frame that ends an episode"). Libretro cores are not
 * marked: the ones we host draw every frame. */
#ifndef RG_SRC_EMU_EMU_REDRAW_H
#define RG_SRC_EMU_EMU_REDRAW_H

#include <stdint.h>

#include "retrogym/emu.h"

/* Allocates the two state buffers of a core that skips undrawn frames (our own cores; nothing for the others), so
 * that marks and redraws allocate nothing later. RG_OK or RG_ENOMEM. */
int rg__emu_redraw_reserve(rg_emu *emu);
/* Whether marks can be taken: the core skips undrawn frames and rg__emu_redraw_reserve succeeded. */
int rg__emu_redraw_able(const rg_emu *emu);
/* Keeps the core's current state and frame count as the mark (replacing the previous one). */
int rg__emu_mark(rg_emu *emu);
/* Keeps the current state aside and goes back to the mark (state and frame count); the caller then runs the frames
 * since the mark again, with the same input, the last one with video enabled. On an error nothing has changed. */
int rg__emu_rewind(rg_emu *emu);
/* After the frames ran again: back to the state kept aside by rg__emu_rewind when `exact` is 0 (something changed the
 * machine between the frames, so the rerun may have gone another way), or only its frame count when 1. The frame
 * drawn by the rerun stays the current picture either way. */
int rg__emu_rewind_end(rg_emu *emu, int exact);
/* A count of the changes made to the machine other than by running frames (resets, state loads, rg_emu_mem_write:
 * a scenario's script writing variables), for telling whether running the frames since a mark again gives the same
 * frames. */
uint64_t rg__emu_changes(const rg_emu *emu);

#endif
