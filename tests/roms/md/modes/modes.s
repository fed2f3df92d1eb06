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

        .equ    RAM_MODE,   0xFF000C

        .include "common.inc"

        .equ    REG12_H40,  0x8C81      | 320 pixels, no interlace
        .equ    REG12_H32,  0x8C00      | 256 pixels

        .text
        .global reset

        md_vectors

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
        md_reset_unlock
        clr.l   (%a0)+                  | counter, spare byte, pad word
        clr.l   (%a0)                   | mode byte (H40 first), spare

        md_reset_hardware

        moveq   #0,%d0
        md_display_on

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
        md_tail
