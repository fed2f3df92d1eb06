| retrogym test ROM for the Sega Genesis / Mega Drive that switches the screen width (68000, GNU as syntax).
|
| It follows the test-ROM contract (tests/roms/README.md) at the same addresses as md/test.s:
|   $FF0000  "HOMEBREW"
|   $FF0008  frame counter, +1 in every VBlank interrupt
|   $FF000A  pad 1 (3-button) as a big-endian word, 1 = pressed: bit 0 Up, 1 Down, 2 Left, 3 Right, 4 B, 5 C, 6 A,
|            7 Start
|   $FF000C  the width the next frame is drawn in: 0 = 320 pixels (H40), 1 = 256 pixels (H32)
| Every 32 frames the VDP switches between H40 and H32 (register 12, written in VBlank), and Start held switches it
| at once; each frame the whole picture is one CRAM colour taken from the counter and the pad, so a frame drawn in
| H32 mode differs from the columns 256-319 left in a host's buffer by the last H40 frame.

        .equ    RAM_SIG,    0xFF0000
        .equ    RAM_FRAME,  0xFF0008
        .equ    RAM_PAD,    0xFF000A
        .equ    RAM_MODE,   0xFF000C

        .equ    VDP_DATA,   0xC00000
        .equ    VDP_CTRL,   0xC00004
        .equ    PSG,        0xC00011
        .equ    IO_VERSION, 0xA10001
        .equ    IO_DATA1,   0xA10003
        .equ    IO_CTRL1,   0xA10009
        .equ    TMSS_REG,   0xA14000

        .equ    REG12_H40,  0x8C81      | 320 pixels, no interlace
        .equ    REG12_H32,  0x8C00      | 256 pixels

        .text
        .global reset

        .long   0x00FFFE00
        .long   reset
        .rept   22
        .long   fault
        .endr
        .rept   6
        .long   ignore
        .endr
        .long   vblank
        .long   ignore
        .rept   32
        .long   fault
        .endr

        .org    0x100
        .ascii  "SEGA MEGA DRIVE "
        .ascii  "(C)RGYM 2026.NOV"
        .ascii  "RETROGYM WIDTH TEST ROM                         "
        .ascii  "RETROGYM WIDTH TEST ROM                         "
        .ascii  "GM 00000000-01"
        .word   0                       | $18E checksum (romfix md)
        .ascii  "J               "
        .long   0x00000000
        .long   0                       | $1A4 ROM end (romfix md)
        .long   0x00FF0000
        .long   0x00FFFFFF
        .ascii  "            "
        .ascii  "            "
        .ascii  "                                        "
        .ascii  "JUE             "

        .org    0x200
reset:
        move.w  #0x2700,%sr
        move.b  IO_VERSION,%d0
        andi.b  #0x0F,%d0
        beq.s   1f
        move.l  #0x53454741,TMSS_REG
1:
        lea     RAM_SIG,%a0
        move.l  #0x484F4D45,(%a0)+      | "HOME"
        move.l  #0x42524557,(%a0)+      | "BREW"
        clr.l   (%a0)+                  | counter, spare byte, pad word
        clr.l   (%a0)                   | mode byte (H40 first), spare

        lea     VDP_CTRL,%a1
        tst.w   (%a1)
        lea     vdp_regs(%pc),%a2
        moveq   #(vdp_regs_end-vdp_regs)/2-1,%d0
2:      move.w  (%a2)+,(%a1)
        dbra    %d0,2b

        lea     PSG,%a2
        move.b  #0x9F,(%a2)
        move.b  #0xBF,(%a2)
        move.b  #0xDF,(%a2)
        move.b  #0xFF,(%a2)

        move.b  #0x40,IO_CTRL1
        move.b  #0x40,IO_DATA1

        moveq   #0,%d0
        bsr     set_colour
        move.w  #0x8164,(%a1)           | display on, VBlank interrupt on, mode 5
        move.w  #0x2500,%sr
3:      stop    #0x2500
        bra.s   3b

| Colour d0.w into all 64 CRAM entries. Clobbers d1, a0.
set_colour:
        move.l  #0xC0000000,VDP_CTRL
        lea     VDP_DATA,%a0
        moveq   #63,%d1
1:      move.w  %d0,(%a0)
        dbra    %d1,1b
        rts

vblank:
        movem.l %d0-%d2/%a0,-(%sp)
        addq.b  #1,RAM_FRAME

| 3-button pad: TH high gives C B R L D U, TH low gives S A.
        lea     IO_DATA1,%a0
        move.b  #0x40,(%a0)
        nop
        nop
        move.b  (%a0),%d0
        move.b  #0x00,(%a0)
        nop
        nop
        move.b  (%a0),%d1
        move.b  #0x40,(%a0)
        not.b   %d0
        andi.w  #0x003F,%d0
        not.b   %d1
        andi.w  #0x0030,%d1
        lsl.w   #2,%d1
        or.w    %d1,%d0
        move.w  %d0,RAM_PAD

| Width: bit 5 of the counter, flipped while Start is held.
        move.b  RAM_FRAME,%d1
        lsr.b   #5,%d1
        andi.b  #1,%d1
        btst    #7,%d0
        beq.s   1f
        eori.b  #1,%d1
1:      move.b  %d1,RAM_MODE
        move.w  #REG12_H40,%d2
        tst.b   %d1
        beq.s   2f
        move.w  #REG12_H32,%d2
2:      move.w  %d2,VDP_CTRL

| Colour: the counter in red and green (changes every frame), the pad in blue; CRAM format ----BBB-GGG-RRR-.
        moveq   #0,%d1
        move.b  RAM_FRAME,%d1
        move.w  %d1,%d2
        andi.w  #0x0007,%d1
        lsl.w   #1,%d1                  | red
        lsr.w   #3,%d2
        andi.w  #0x0007,%d2
        lsl.w   #5,%d2                  | green
        or.w    %d2,%d1
        move.w  %d0,%d2
        lsr.w   #2,%d2
        eor.w   %d0,%d2
        andi.w  #0x0007,%d2
        lsl.w   #8,%d2
        lsl.w   #1,%d2                  | blue
        or.w    %d2,%d1
        move.w  %d1,%d0
        bsr     set_colour

        movem.l (%sp)+,%d0-%d2/%a0
ignore:
        rte

fault:
        stop    #0x2700
        bra.s   fault

vdp_regs:
        .word   0x8004
        .word   0x8104                  | display and VBlank interrupt off for now
        .word   0x8230
        .word   0x833C
        .word   0x8407
        .word   0x856C
        .word   0x8600
        .word   0x8700                  | backdrop = palette 0, colour 0
        .word   0x8800
        .word   0x8900
        .word   0x8AFF
        .word   0x8B00
        .word   REG12_H40
        .word   0x8D3F
        .word   0x8E00
        .word   0x8F02
        .word   0x9001
        .word   0x9100
        .word   0x9200
vdp_regs_end:
