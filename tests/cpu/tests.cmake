# The 6502 CPU (src/cpu/m6502): Klaus Dormann's functional test (skipped without ../shared), our own tests of the
# undocumented opcodes, cycle counts, bus sequences and interrupts, decimal mode against a reference model, and a
# differential run against Stella 3.9.3's CPU (skipped without stable-retro's stella core in .venv).
rg_test(cpu_m6502_functional cpu/test_m6502_functional.c TIMEOUT 600)
rg_test(cpu_m6502_ops cpu/test_m6502_ops.c)
rg_test(cpu_m6502_decimal cpu/test_m6502_decimal.c)
rg_test(cpu_m6502_vs_stella cpu/test_m6502_vs_stella.c TIMEOUT 600)

# The Z80 CPU (src/cpu/z80): the SingleStepTests suite (registers, RAM, I/O and every T-state's bus activity of
# 80,200 cases; skipped without ../shared) and our own tests of interrupts, HALT, EI and R.
rg_test(cpu_z80_ssts cpu/test_z80_ssts.c)
rg_test(cpu_z80_ops cpu/test_z80_ops.c)
# The 68000 CPU (src/cpu/m68k): the SingleStepTests 68000 suite (skipped without ../shared) and the reader's errors.
rg_test(cpu_m68k_suite cpu/test_m68k_suite.c)
rg_test(cpu_m68k_ops cpu/test_m68k_ops.c)
# The 68000's idle-loop skip against the plain interpreter (equal state at every stop).
rg_test(cpu_m68k_idle cpu/test_m68k_idle.c)

