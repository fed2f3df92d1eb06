; retrogym test ROM for the Game Gear: the shared SMS/Game Gear program (sms/smsgg.s) with its Game Gear parts
; on (Start on port $00, two-byte CRAM entries). The build passes -I for sms/.
GG = 1
	.include "smsgg.s"
