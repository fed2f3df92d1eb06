# Genesis STOP test program (stop.s: the 68000 waiting in STOP for H and V interrupts) -> bin/md/stop.md; the rule is
# md/dma/build.mk's MD_PROGRAM.
$(eval $(call MD_PROGRAM,stop,))
