# NES test ROM: ca65/ld65 (cc65), NROM-128 iNES image. Included by ../Makefile.
NES_SRCS := $(SRC)/nes/test.s $(SRC)/nes/nrom.cfg
NES_ROM := $(OUT)/test.nes
ROMS += $(NES_ROM)

$(NES_ROM): $(NES_SRCS)
	@mkdir -p $(OBJ)
	ca65 -o $(OBJ)/nes_test.o $(SRC)/nes/test.s
	ld65 -C $(SRC)/nes/nrom.cfg -o $@ $(OBJ)/nes_test.o
