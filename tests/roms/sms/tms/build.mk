# SMS/GG VDP feature ROM for the TMS9918 modes (tms.s) -> bin/sms/tms.sms: 32 KiB, no header, no mapper; the
# tests run the same image as .sms and .gg.
$(eval $(call SMS_FEATURE_ROM,tms,32768))
