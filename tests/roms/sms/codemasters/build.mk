# SMS/GG Codemasters-mapper test ROM (codemasters.s) -> bin/sms/codemasters.sms: 128 KiB, Codemasters header, its
# CRC32 forged to a Genesis Plus GX database entry; the tests run it as .sms and (patched) as .gg.
$(eval $(call SMS_FEATURE_ROM,codemasters,131072))
