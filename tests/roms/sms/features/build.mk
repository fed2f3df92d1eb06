# SMS/GG VDP feature ROM for mode 4 scrolling, line interrupts, sprites and the Sega mapper (features.s) ->
# bin/sms/features.sms: 128 KiB, no header; the tests run the same image as .sms and .gg.
FEAT_OBJ := $(OBJ)/smsfeatures
ROMS += $(OUT)/sms/features.sms

$(OUT)/sms/features.sms: $(SRC)/sms/features/features.s $(SRC)/sms/features/build.mk
	@mkdir -p $(FEAT_OBJ) $(OUT)/sms
	sdasz80 -plosgff -o $(FEAT_OBJ)/features.rel $(SRC)/sms/features/features.s
	sdldz80 -i $(FEAT_OBJ)/features.ihx $(FEAT_OBJ)/features.rel
	makebin -s 131072 $(FEAT_OBJ)/features.ihx $(FEAT_OBJ)/features.sms
	test "$$(wc -c < $(FEAT_OBJ)/features.sms)" -eq 131072
	cp $(FEAT_OBJ)/features.sms $@
	chmod 644 $@
