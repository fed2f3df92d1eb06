# Genesis Z80 test program (z80.s for the 68000, z80code.s for the Z80; rule MD_PROGRAM in md/dma/build.mk) ->
# bin/md/z80.md.
$(eval $(call MD_PROGRAM,z80,1))
