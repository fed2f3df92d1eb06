# Game Boy Advance test ROM: ARM assembly with binutils-arm-none-eabi only (no compiler, no libraries).
GBA_DIR := $(SRC)/gba
GBA_OBJ := $(OBJ)/gba
# POSIX cksum of the 156-byte Nintendo logo at 0x04 (its CRC-32 is 0xD0BEB55E): guards the data against edits.
GBA_LOGO_CKSUM := 1548489347 156
ROMS += $(OUT)/test.gba

# romfix gba refuses an image without 0x96 at 0xB2 and writes the complement at 0xBD; --check then fails the build
# if it does not verify. Neither mGBA (HLE BIOS) nor romfix looks at the logo, so check it here.
$(OUT)/test.gba: $(GBA_DIR)/test.s $(GBA_DIR)/gba.ld $(GBA_DIR)/build.mk $(ROMFIX)
	@mkdir -p $(GBA_OBJ) $(OUT)
	arm-none-eabi-as -mcpu=arm7tdmi -o $(GBA_OBJ)/test.o $(GBA_DIR)/test.s
	arm-none-eabi-ld --fatal-warnings -z noexecstack -T $(GBA_DIR)/gba.ld -o $(GBA_OBJ)/test.elf $(GBA_OBJ)/test.o
	arm-none-eabi-objcopy -O binary $(GBA_OBJ)/test.elf $(GBA_OBJ)/test.gba
	test "$$(tail -c +5 $(GBA_OBJ)/test.gba | head -c 156 | cksum)" = "$(GBA_LOGO_CKSUM)"
	$(ROMFIX) gba $(GBA_OBJ)/test.gba
	$(ROMFIX) --check gba $(GBA_OBJ)/test.gba
	cp $(GBA_OBJ)/test.gba $@
	chmod 644 $@
