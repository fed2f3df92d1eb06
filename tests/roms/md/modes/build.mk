# Genesis width-switching ROM (modes.s: H40/H32 every 32 frames): built like md/test.s, with the same
# md/common.inc, into bin/md/modes.md.
MDM_DIR := $(SRC)/md/modes
MDM_OBJ := $(OBJ)/mdm
ROMS += $(OUT)/md/modes.md

$(OUT)/md/modes.md: $(MDM_DIR)/modes.s $(MD_DIR)/common.inc $(MD_DIR)/md.ld $(MDM_DIR)/build.mk $(ROMFIX)
	@mkdir -p $(MDM_OBJ) $(OUT)/md
	m68k-linux-gnu-as -m68000 -I $(MD_DIR) -o $(MDM_OBJ)/modes.o $(MDM_DIR)/modes.s
	m68k-linux-gnu-ld --fatal-warnings -z noexecstack -T $(MD_DIR)/md.ld -o $(MDM_OBJ)/modes.elf $(MDM_OBJ)/modes.o
	m68k-linux-gnu-objcopy -O binary --pad-to $(MD_SIZE) --gap-fill 0xFF $(MDM_OBJ)/modes.elf $(MDM_OBJ)/modes.md
	test "$$(wc -c < $(MDM_OBJ)/modes.md)" -eq $(MD_SIZE)
	$(ROMFIX) md $(MDM_OBJ)/modes.md
	$(ROMFIX) --check md $(MDM_OBJ)/modes.md
	cp $(MDM_OBJ)/modes.md $@
	chmod 644 $@
