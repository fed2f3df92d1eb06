# Genesis VDP picture test program (vdp.s: scroll modes, plane sizes, the window, sprite limits and masking,
# shadow/highlight, interlace; docs/genesis.md, "Tests"): built like md/test.s, with md/common.inc, into bin/md/vdp.md.
MDV_DIR := $(SRC)/md/vdp
MDV_OBJ := $(OBJ)/mdv
ROMS += $(OUT)/md/vdp.md

$(OUT)/md/vdp.md: $(MDV_DIR)/vdp.s $(MD_DIR)/common.inc $(MD_DIR)/md.ld $(MDV_DIR)/build.mk $(ROMFIX)
	@mkdir -p $(MDV_OBJ) $(OUT)/md
	m68k-linux-gnu-as -m68000 -I $(MD_DIR) -o $(MDV_OBJ)/vdp.o $(MDV_DIR)/vdp.s
	m68k-linux-gnu-ld --fatal-warnings -z noexecstack -T $(MD_DIR)/md.ld -o $(MDV_OBJ)/vdp.elf $(MDV_OBJ)/vdp.o
	m68k-linux-gnu-objcopy -O binary --pad-to $(MD_SIZE) --gap-fill 0xFF $(MDV_OBJ)/vdp.elf $(MDV_OBJ)/vdp.md
	test "$$(wc -c < $(MDV_OBJ)/vdp.md)" -eq $(MD_SIZE)
	$(ROMFIX) md $(MDV_OBJ)/vdp.md
	$(ROMFIX) --check md $(MDV_OBJ)/vdp.md
	cp $(MDV_OBJ)/vdp.md $@
	chmod 644 $@
