# SMS/GG VDP feature ROM for mode 4 scrolling, line interrupts, sprites and the Sega mapper (features.s) ->
# bin/sms/features.sms: 128 KiB, no header; the tests run the same image as .sms and .gg.
$(eval $(call SMS_FEATURE_ROM,features,131072))
