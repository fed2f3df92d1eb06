# Game Boy test ROM: gb/gb.s -> $(OUT)/test.gb (32 KiB, no MBC; logo, title and both checksums from makebin -Z).
# -yp clears the SGB flag ($0146) and version ($014C) that makebin leaves at $FF (it prints a harmless
# "caution ... outdated" line for them). The same source also builds the Game Boy Color image (gbc/build.mk).
GB_OBJ := $(OBJ)/gb
ROMS += $(OUT)/test.gb

$(OUT)/test.gb: $(SRC)/gb/gb.s $(SRC)/gb/build.mk | $(ROMFIX)
	@mkdir -p $(GB_OBJ) $(OUT)
	sdasgb -plosgff -o $(GB_OBJ)/gb.rel $(SRC)/gb/gb.s
	sdldgb -i $(GB_OBJ)/gb.ihx $(GB_OBJ)/gb.rel
	makebin -Z -yn HOMEBREW -yp 0x146=0 -yp 0x14C=0 $(GB_OBJ)/gb.ihx $(GB_OBJ)/test.gb
	$(ROMFIX) --check gb $(GB_OBJ)/test.gb
	mv $(GB_OBJ)/test.gb $@
