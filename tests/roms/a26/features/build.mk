# Atari 2600 TIA/RIOT feature ROMs (see the description at the top of each .asm and features.json): dasm straight
# to raw 4 KiB images in bin/a26/, checked like test.a26 (exactly 4 KiB, RESET and IRQ vectors into $F000-$FFFF).
A26F_DIR := $(SRC)/a26/features
A26F_OBJ := $(OBJ)/a26f
A26F_NAMES := playfield players missiles_ball hmove hmove_midline positions collisions timer input code_fetch
ROMS += $(patsubst %,$(OUT)/a26/%.a26,$(A26F_NAMES))

$(OUT)/a26/%.a26: $(A26F_DIR)/%.asm $(A26F_DIR)/a26.inc $(A26F_DIR)/build.mk
	@mkdir -p $(A26F_OBJ) $(OUT)/a26
	dasm $< -f3 -v0 -R -E2 -I$(A26F_DIR) -o$(A26F_OBJ)/$*.a26
	test "$$(wc -c < $(A26F_OBJ)/$*.a26)" -eq 4096
	for at in 4093 4095; do test "$$(od -An -tu1 -j$$at -N1 $(A26F_OBJ)/$*.a26)" -ge 240 || exit 1; done
	cp $(A26F_OBJ)/$*.a26 $@
	chmod 644 $@

# code_fetch.asm again as an 8 KiB F8 cartridge: the CPU loops of the bank-switching carts read opcodes their own
# way (a26_bus.h's bus_fetch2), which the 4 KiB image does not reach. Both banks hold the program (a switch changes
# nothing); bank 0 differs in one unused byte ($F080, $FF -> $00), since two identical banks are taken for a 4K image.
ROMS += $(OUT)/a26/code_fetch_f8.a26
$(OUT)/a26/code_fetch_f8.a26: $(OUT)/a26/code_fetch.a26
	test "$$(od -An -tu1 -j128 -N1 $<)" -eq 255
	{ head -c 128 $<; printf '\000'; tail -c +130 $<; cat $<; } > $@
	test "$$(wc -c < $@)" -eq 8192
	chmod 644 $@

# e0_fetch.asm: an 8 KiB E0 cartridge (eight 1 KiB slices; instructions straddling its window slots), assembled
# whole by dasm (a segment per slice) and checked like the others: 8 KiB, the RESET and IRQ vectors into the fixed
# last slice ($1C00-$1FFF).
ROMS += $(OUT)/a26/e0_fetch.a26
$(OUT)/a26/e0_fetch.a26: $(A26F_DIR)/e0_fetch.asm $(A26F_DIR)/a26.inc $(A26F_DIR)/build.mk
	@mkdir -p $(A26F_OBJ) $(OUT)/a26
	dasm $< -f3 -v0 -R -E2 -I$(A26F_DIR) -o$(A26F_OBJ)/e0_fetch.a26
	test "$$(wc -c < $(A26F_OBJ)/e0_fetch.a26)" -eq 8192
	for at in 8189 8191; do v="$$(od -An -tu1 -j$$at -N1 $(A26F_OBJ)/e0_fetch.a26)"; \
	  test "$$v" -ge 28 && test "$$v" -le 31 || exit 1; done
	cp $(A26F_OBJ)/e0_fetch.a26 $@
	chmod 644 $@
