# Atari 2600 test ROM: dasm straight to a raw 4 KiB image (no header, no checksum on this console).
A26_DIR := $(SRC)/a26
A26_OBJ := $(OBJ)/a26
ROMS += $(OUT)/test.a26

# With no checksum to verify, check what the console needs instead: exactly 4 KiB, and the RESET ($FFFC) and
# IRQ ($FFFE) vectors pointing into the cartridge ($F000-$FFFF, so high bytes >= $F0 at file offsets 4093/4095).
$(OUT)/test.a26: $(A26_DIR)/test.asm $(A26_DIR)/build.mk
	@mkdir -p $(A26_OBJ) $(OUT)
	dasm $(A26_DIR)/test.asm -f3 -v0 -R -E2 -o$(A26_OBJ)/test.a26
	test "$$(wc -c < $(A26_OBJ)/test.a26)" -eq 4096
	for at in 4093 4095; do test "$$(od -An -tu1 -j$$at -N1 $(A26_OBJ)/test.a26)" -ge 240 || exit 1; done
	cp $(A26_OBJ)/test.a26 $@
	chmod 644 $@
