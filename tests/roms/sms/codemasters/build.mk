# SMS/GG Codemasters-mapper test ROM (codemasters.s) -> bin/sms/codemasters.sms: 128 KiB, Codemasters header, its
# CRC32 forged to a Genesis Plus GX database entry; the tests run it as .sms and (patched) as .gg.
CODIES_OBJ := $(OBJ)/smscodemasters
ROMS += $(OUT)/sms/codemasters.sms

$(OUT)/sms/codemasters.sms: $(SRC)/sms/codemasters/codemasters.s $(SRC)/sms/codemasters/build.mk
	@mkdir -p $(CODIES_OBJ) $(OUT)/sms
	sdasz80 -plosgff -o $(CODIES_OBJ)/codemasters.rel $(SRC)/sms/codemasters/codemasters.s
	sdldz80 -i $(CODIES_OBJ)/codemasters.ihx $(CODIES_OBJ)/codemasters.rel
	makebin -s 131072 $(CODIES_OBJ)/codemasters.ihx $(CODIES_OBJ)/codemasters.sms
	test "$$(wc -c < $(CODIES_OBJ)/codemasters.sms)" -eq 131072
	cp $(CODIES_OBJ)/codemasters.sms $@
	chmod 644 $@
