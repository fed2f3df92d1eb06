/* One instance of the threaded 6502 template (cpu/m6502/m6502_exec.h) over the 2600 bus (a26_bus.h), for the bus
 * kind BUS_KIND (a constant, so each access compiles to that kind's path only), named M6502_FN. Included once by
 * each a26_cpu_<kind>.c, which defines BUS_KIND, M6502_FN and optionally M6502_ATTR and A26_FETCH2 (the opcode and
 * the byte after it read at once: bus_fetch2) before. */
#include "cores/atari2600/a26_bus.h"

#if !defined(BUS_KIND) || !defined(M6502_FN)
#error "define BUS_KIND and M6502_FN before including a26_cpu_loop.h"
#endif

#define M6502_LINKAGE /* external: a26_machine.c calls it */
#define M6502_CTX rg__a26_machine
#define M6502_ENTER(ctx) bus_regs regs_ = {(uint64_t)(ctx)->st.cycles << CB_SHIFT | (ctx)->budget}
#define M6502_LEAVE(ctx) ((ctx)->st.cycles = regs_cycles(&regs_), (ctx)->budget = regs_budget(&regs_))
#define M6502_STOP(ctx) should_stop(&regs_)
#define M6502_INTERRUPTS 0
#define M6502_READ_LD_ABS(ctx, addr, pc) bus_read_ld_abs((ctx), &regs_, (addr), (pc), BUS_KIND)
#define M6502_READ(ctx, addr) bus_read((ctx), &regs_, (addr), BUS_KIND)
#ifdef A26_FETCH2
#define M6502_FETCH2(ctx, pc) bus_fetch2((ctx), &regs_, (pc), BUS_KIND)
#endif
#define M6502_WRITE(ctx, addr, v) bus_write((ctx), &regs_, (addr), (v), BUS_KIND)
#include "cpu/m6502/m6502_exec.h"
