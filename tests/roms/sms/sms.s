; retrogym test ROM for the Sega Master System: the shared SMS/Game Gear program with its Game Gear parts off.
GG = 0
	.include "smsgg.s"
