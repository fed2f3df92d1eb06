# Game Gear test ROM: gg/gg.s (+ the shared sms/smsgg.s) -> $(OUT)/test.gg, 32 KiB with the "TMR SEGA"
# header and checksum from makebin -S; region 7 = Game Gear international, size code C ($7FFF = $7C).
GG_OBJ := $(OBJ)/gg
ROMS += $(OUT)/test.gg

$(OUT)/test.gg: $(SRC)/gg/gg.s $(SRC)/sms/smsgg.s $(SRC)/gg/build.mk | $(ROMFIX)
	@mkdir -p $(GG_OBJ) $(OUT)
	sdasz80 -plosgff -I$(SRC)/sms -o $(GG_OBJ)/gg.rel $(SRC)/gg/gg.s
	sdldz80 -i $(GG_OBJ)/gg.ihx $(GG_OBJ)/gg.rel
	makebin -S -xj 7 -xo 0xc $(GG_OBJ)/gg.ihx $(GG_OBJ)/test.gg
	$(ROMFIX) --check gg $(GG_OBJ)/test.gg
	mv $(GG_OBJ)/test.gg $@
