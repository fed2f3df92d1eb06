# The 6502 CPU (src/cpu/m6502): Klaus Dormann's functional test (skipped without ../shared), our own tests of the
# undocumented opcodes, cycle counts, bus sequences and interrupts, decimal mode against a reference model, and a
# differential run against Stella 3.9.3's CPU (skipped without stable-retro's stella core in .venv).
rg_test(cpu_m6502_functional cpu/test_m6502_functional.c TIMEOUT 600)
rg_test(cpu_m6502_ops cpu/test_m6502_ops.c)
rg_test(cpu_m6502_decimal cpu/test_m6502_decimal.c)
rg_test(cpu_m6502_vs_stella cpu/test_m6502_vs_stella.c TIMEOUT 600)
