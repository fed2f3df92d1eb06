# PC Engine dot-clock-switching ROM (modes.s: 5.37/7.16 MHz every 32 frames): built like pce/test.s, from the same
# pce/test_start.inc and pce/test_end.inc, into bin/pce/modes.pce.
PCEM_ROM := $(OUT)/pce/modes.pce
ROMS += $(PCEM_ROM)

$(PCEM_ROM): $(SRC)/pce/modes/modes.s $(SRC)/pce/test_start.inc $(SRC)/pce/test_end.inc $(SRC)/pce/hucard.cfg $(SRC)/pce/modes/build.mk
	@mkdir -p $(OBJ) $(OUT)/pce
	ca65 --cpu huc6280 -I $(SRC)/pce -o $(OBJ)/pce_modes.o $(SRC)/pce/modes/modes.s
	ld65 -C $(SRC)/pce/hucard.cfg -o $@ $(OBJ)/pce_modes.o
