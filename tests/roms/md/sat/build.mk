# Genesis sprite-table test program (sat.s: the table moved by register 5, its internal copy) -> bin/md/sat.md; the
# rule is md/dma/build.mk's MD_PROGRAM.
$(eval $(call MD_PROGRAM,sat,))
