# Genesis hardware test programs (md/dma, md/irq, md/z80, md/ym; docs/genesis.md, "Tests"): 68000 assembly with
# binutils-m68k-linux-gnu like md/test.s, sharing md/common.inc and md/dma/prog.inc, 128 KiB each -> bin/md/<name>.md;
# a program's Z80 code (md/<name>/z80code.s, sdasz80 like the SMS ROMs) is assembled into a 256-byte image that the 68000
# source includes with .incbin "z80code.bin". This file (sorted first of the four) defines the rule the others call:
#   $(eval $(call MD_PROGRAM,<name>,<1 when the program has md/<name>/z80code.s, else empty>))
define MD_PROGRAM
ROMS += $$(OUT)/md/$(1).md

$$(OUT)/md/$(1).md: $$(SRC)/md/$(1)/$(1).s $$(SRC)/md/dma/prog.inc $$(SRC)/md/common.inc $$(SRC)/md/md.ld \
		$$(SRC)/md/$(1)/build.mk $$(SRC)/md/dma/build.mk $$(ROMFIX) $(if $(2),$$(SRC)/md/$(1)/z80code.s)
	@mkdir -p $$(OBJ)/mdp$(1) $$(OUT)/md
	$(if $(2),sdasz80 -plosgff -o $$(OBJ)/mdp$(1)/z80code.rel $$(SRC)/md/$(1)/z80code.s)
	$(if $(2),sdldz80 -i $$(OBJ)/mdp$(1)/z80code.ihx $$(OBJ)/mdp$(1)/z80code.rel)
	$(if $(2),makebin -s 256 $$(OBJ)/mdp$(1)/z80code.ihx $$(OBJ)/mdp$(1)/z80code.bin)
	m68k-linux-gnu-as -m68000 -I $$(SRC)/md -I $$(SRC)/md/dma -I $$(OBJ)/mdp$(1) -o $$(OBJ)/mdp$(1)/$(1).o \
		$$(SRC)/md/$(1)/$(1).s
	m68k-linux-gnu-ld --fatal-warnings -z noexecstack -T $$(SRC)/md/md.ld -o $$(OBJ)/mdp$(1)/$(1).elf \
		$$(OBJ)/mdp$(1)/$(1).o
	m68k-linux-gnu-objcopy -O binary --pad-to 131072 --gap-fill 0xFF $$(OBJ)/mdp$(1)/$(1).elf $$(OBJ)/mdp$(1)/$(1).md
	test "$$$$(wc -c < $$(OBJ)/mdp$(1)/$(1).md)" -eq 131072
	$$(ROMFIX) md $$(OBJ)/mdp$(1)/$(1).md
	$$(ROMFIX) --check md $$(OBJ)/mdp$(1)/$(1).md
	cp $$(OBJ)/mdp$(1)/$(1).md $$@
	chmod 644 $$@
endef

$(eval $(call MD_PROGRAM,dma,))
