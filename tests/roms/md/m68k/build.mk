# Genesis 68000 clock-count test program (m68k.s: TAS, TRAP, TRAPV, CHK timed with the HV counter) -> bin/md/m68k.md;
# the rule is md/dma/build.mk's MD_PROGRAM.
$(eval $(call MD_PROGRAM,m68k,))
