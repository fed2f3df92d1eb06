# PC Engine test ROM: ca65 --cpu huc6280 + ld65 (cc65), 8 KiB raw HuCard. Included by ../Makefile.
PCE_SRCS := $(SRC)/pce/test.s $(SRC)/pce/test_start.inc $(SRC)/pce/test_end.inc $(SRC)/pce/hucard.cfg
PCE_ROM := $(OUT)/test.pce
ROMS += $(PCE_ROM)

$(PCE_ROM): $(PCE_SRCS)
	@mkdir -p $(OBJ)
	ca65 --cpu huc6280 -I $(SRC)/pce -o $(OBJ)/pce_test.o $(SRC)/pce/test.s
	ld65 -C $(SRC)/pce/hucard.cfg -o $@ $(OBJ)/pce_test.o
