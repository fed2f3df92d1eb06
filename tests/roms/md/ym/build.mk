# Genesis YM2612 timer test program (ym.s for the 68000, z80code.s for the Z80; rule MD_PROGRAM in md/dma/build.mk)
# -> bin/md/ym.md.
$(eval $(call MD_PROGRAM,ym,1))
