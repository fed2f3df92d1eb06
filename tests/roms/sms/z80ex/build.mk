# SMS/GG Z80 instruction exerciser (z80ex.s) -> bin/sms/z80ex.sms: 32 KiB, no header, no mapper; the tests run it as
# .sms and .gg against Genesis Plus GX and compare the per-group CRC-16s it leaves in RAM.
$(eval $(call SMS_FEATURE_ROM,z80ex,32768))
