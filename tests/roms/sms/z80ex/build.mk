# SMS/GG Z80 instruction exerciser (z80ex.s) -> bin/sms/z80ex.sms: 32 KiB, no header, no mapper; the tests run it as
# .sms and .gg against Genesis Plus GX and compare the per-group CRC-16s it leaves in RAM.
Z80EX_OBJ := $(OBJ)/smsz80ex
ROMS += $(OUT)/sms/z80ex.sms

$(OUT)/sms/z80ex.sms: $(SRC)/sms/z80ex/z80ex.s $(SRC)/sms/z80ex/build.mk
	@mkdir -p $(Z80EX_OBJ) $(OUT)/sms
	sdasz80 -plosgff -o $(Z80EX_OBJ)/z80ex.rel $(SRC)/sms/z80ex/z80ex.s
	sdldz80 -i $(Z80EX_OBJ)/z80ex.ihx $(Z80EX_OBJ)/z80ex.rel
	makebin -s 32768 $(Z80EX_OBJ)/z80ex.ihx $(Z80EX_OBJ)/z80ex.sms
	test "$$(wc -c < $(Z80EX_OBJ)/z80ex.sms)" -eq 32768
	cp $(Z80EX_OBJ)/z80ex.sms $@
	chmod 644 $@
