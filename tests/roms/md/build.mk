# Sega Genesis / Mega Drive test ROM: 68000 assembly with binutils-m68k-linux-gnu, padded to 128 KiB.
MD_DIR := $(SRC)/md
MD_OBJ := $(OBJ)/md
MD_SIZE := 131072
ROMS += $(OUT)/test.md

# romfix md writes the ROM end ($1A4) and checksum ($18E) and refuses an image without "SEGA" at $100;
# --check then fails the build if the fields do not verify. The size test catches code outgrowing the padding.
$(OUT)/test.md: $(MD_DIR)/test.s $(MD_DIR)/common.inc $(MD_DIR)/md.ld $(MD_DIR)/build.mk $(ROMFIX)
	@mkdir -p $(MD_OBJ) $(OUT)
	m68k-linux-gnu-as -m68000 -I $(MD_DIR) -o $(MD_OBJ)/test.o $(MD_DIR)/test.s
	m68k-linux-gnu-ld --fatal-warnings -z noexecstack -T $(MD_DIR)/md.ld -o $(MD_OBJ)/test.elf $(MD_OBJ)/test.o
	m68k-linux-gnu-objcopy -O binary --pad-to $(MD_SIZE) --gap-fill 0xFF $(MD_OBJ)/test.elf $(MD_OBJ)/test.md
	test "$$(wc -c < $(MD_OBJ)/test.md)" -eq $(MD_SIZE)
	$(ROMFIX) md $(MD_OBJ)/test.md
	$(ROMFIX) --check md $(MD_OBJ)/test.md
	cp $(MD_OBJ)/test.md $@
	chmod 644 $@
