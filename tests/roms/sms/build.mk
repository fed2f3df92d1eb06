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

# The SMS/GG feature ROMs (sms/<name>/<name>.s, one folder each, with a build.mk that calls this): assembled and
# linked on their own, no header, padded to $(2) bytes -> $(OUT)/sms/<name>.sms.
#   $(eval $(call SMS_FEATURE_ROM,<name>,<size in bytes>))
define SMS_FEATURE_ROM
ROMS += $$(OUT)/sms/$(1).sms

$$(OUT)/sms/$(1).sms: $$(SRC)/sms/$(1)/$(1).s $$(SRC)/sms/$(1)/build.mk $$(SRC)/sms/build.mk
	@mkdir -p $$(OBJ)/sms$(1) $$(OUT)/sms
	sdasz80 -plosgff -o $$(OBJ)/sms$(1)/$(1).rel $$(SRC)/sms/$(1)/$(1).s
	sdldz80 -i $$(OBJ)/sms$(1)/$(1).ihx $$(OBJ)/sms$(1)/$(1).rel
	makebin -s $(2) $$(OBJ)/sms$(1)/$(1).ihx $$(OBJ)/sms$(1)/$(1).sms
	test "$$$$(wc -c < $$(OBJ)/sms$(1)/$(1).sms)" -eq $(2)
	cp $$(OBJ)/sms$(1)/$(1).sms $$@
	chmod 644 $$@
endef
