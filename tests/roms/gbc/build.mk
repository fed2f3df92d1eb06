# Game Boy Color test ROM: the Game Boy source gb/gb.s -> $(OUT)/test.gbc, with the header marked
# CGB-compatible ($0143 = $80, makebin -yc) so a CGB (or gambatte) starts it in CGB mode.
GBC_OBJ := $(OBJ)/gbc
ROMS += $(OUT)/test.gbc

$(OUT)/test.gbc: $(SRC)/gb/gb.s $(SRC)/gbc/build.mk | $(ROMFIX)
	@mkdir -p $(GBC_OBJ) $(OUT)
	sdasgb -plosgff -o $(GBC_OBJ)/gbc.rel $(SRC)/gb/gb.s
	sdldgb -i $(GBC_OBJ)/gbc.ihx $(GBC_OBJ)/gbc.rel
	makebin -Z -yc -yn HOMEBREW -yp 0x146=0 -yp 0x14C=0 $(GBC_OBJ)/gbc.ihx $(GBC_OBJ)/test.gbc
	$(ROMFIX) --check gbc $(GBC_OBJ)/test.gbc
	mv $(GBC_OBJ)/test.gbc $@
