# SNES size-switching ROM (modes.s: 256/512 pixels wide every 32 frames, 224/239 lines every 64): built like
# snes/test.s, from the same snes/test_start.inc and snes/test_end.inc, into bin/snes/modes.sfc.
SNESM_ROM := $(OUT)/snes/modes.sfc
ROMS += $(SNESM_ROM)

$(SNESM_ROM): $(SRC)/snes/modes/modes.s $(SRC)/snes/test_start.inc $(SRC)/snes/test_end.inc $(SRC)/snes/lorom.cfg $(SRC)/snes/modes/build.mk | $(ROMFIX)
	@mkdir -p $(OBJ) $(OUT)/snes
	ca65 --cpu 65816 -I $(SRC)/snes -o $(OBJ)/snes_modes.o $(SRC)/snes/modes/modes.s
	ld65 -C $(SRC)/snes/lorom.cfg -o $(OBJ)/snes_modes.sfc $(OBJ)/snes_modes.o
	$(ROMFIX) snes $(OBJ)/snes_modes.sfc
	mv $(OBJ)/snes_modes.sfc $@
