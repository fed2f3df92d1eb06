# SMS/GG VDP feature ROM for the TMS9918 modes (tms.s) -> bin/sms/tms.sms: 32 KiB, no header, no mapper; the
# tests run the same image as .sms and .gg.
TMS_OBJ := $(OBJ)/smstms
ROMS += $(OUT)/sms/tms.sms

$(OUT)/sms/tms.sms: $(SRC)/sms/tms/tms.s $(SRC)/sms/tms/build.mk
	@mkdir -p $(TMS_OBJ) $(OUT)/sms
	sdasz80 -plosgff -o $(TMS_OBJ)/tms.rel $(SRC)/sms/tms/tms.s
	sdldz80 -i $(TMS_OBJ)/tms.ihx $(TMS_OBJ)/tms.rel
	makebin -s 32768 $(TMS_OBJ)/tms.ihx $(TMS_OBJ)/tms.sms
	test "$$(wc -c < $(TMS_OBJ)/tms.sms)" -eq 32768
	cp $(TMS_OBJ)/tms.sms $@
	chmod 644 $@
