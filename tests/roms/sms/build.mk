# Master System test ROM: sms/sms.s (+ the shared sms/smsgg.s) -> $(OUT)/test.sms, 32 KiB with the
# "TMR SEGA" header and checksum from makebin -S; region 4 = SMS export, size code C = 32 KiB ($7FFF = $4C).
SMS_OBJ := $(OBJ)/sms
ROMS += $(OUT)/test.sms

$(OUT)/test.sms: $(SRC)/sms/sms.s $(SRC)/sms/smsgg.s $(SRC)/sms/build.mk | $(ROMFIX)
	@mkdir -p $(SMS_OBJ) $(OUT)
	sdasz80 -plosgff -I$(SRC)/sms -o $(SMS_OBJ)/sms.rel $(SRC)/sms/sms.s
	sdldz80 -i $(SMS_OBJ)/sms.ihx $(SMS_OBJ)/sms.rel
	makebin -S -xj 4 -xo 0xc $(SMS_OBJ)/sms.ihx $(SMS_OBJ)/test.sms
	$(ROMFIX) --check sms $(SMS_OBJ)/test.sms
	mv $(SMS_OBJ)/test.sms $@
