# Genesis interrupt test program (irq.s) -> bin/md/irq.md; the rule is md/dma/build.mk's MD_PROGRAM.
$(eval $(call MD_PROGRAM,irq,))
