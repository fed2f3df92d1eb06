# SNES test ROM: ca65 --cpu 65816 + ld65 (cc65), 32 KiB LoROM, checksum by romfix. Included by ../Makefile.
SNES_SRCS := $(SRC)/snes/test.s $(SRC)/snes/test_start.inc $(SRC)/snes/test_end.inc $(SRC)/snes/lorom.cfg
SNES_ROM := $(OUT)/test.sfc
ROMS += $(SNES_ROM)

$(SNES_ROM): $(SNES_SRCS) | $(ROMFIX)
	@mkdir -p $(OBJ)
	ca65 --cpu 65816 -I $(SRC)/snes -o $(OBJ)/snes_test.o $(SRC)/snes/test.s
	ld65 -C $(SRC)/snes/lorom.cfg -o $(OBJ)/snes_test.sfc $(OBJ)/snes_test.o
	$(ROMFIX) snes $(OBJ)/snes_test.sfc
	mv $(OBJ)/snes_test.sfc $@
