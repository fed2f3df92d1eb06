| retrogym test ROM for the Sega Genesis / Mega Drive (68000, GNU as syntax: `|` starts a comment).
|
| Contract (tests/roms/README.md), as the 68000 sees work RAM:
|   $FF0000  "HOMEBREW"
|   $FF0008  frame counter, +1 in every level-6 (VBlank) interrupt
|   $FF000A  pad 1 as a big-endian word, 1 = pressed, in the order the pad sends its lines:
|            bit 0 Up, 1 Down, 2 Left, 3 Right, 4 B, 5 C, 6 A, 7 Start, 8 Z, 9 Y, 10 X, 11 Mode (8-11: 6-button pad)
| The whole picture is one CRAM colour: blue with no input, red plus a pad-dependent green/blue while anything is held.


        .include "common.inc"

        .equ    IDLE_COLOUR, 0x0E00     | CRAM format ----BBB-GGG-RRR-

        .text
        .global reset

        md_vectors

| Cartridge header ($100-$1FF). TMSS consoles refuse to start without "SEGA" at $100; romfix md fills $18E and $1A4.
        .org    0x100
        .ascii  "SEGA MEGA DRIVE "
        .ascii  "(C)RGYM 2026.NOV"
        .ascii  "RETROGYM TEST ROM                               "  | domestic name, 48 bytes
        .ascii  "RETROGYM TEST ROM                               "  | overseas name, 48 bytes
        .ascii  "GM 00000000-00"
        .word   0                       | $18E checksum
        .ascii  "J6              "      | I/O: 3- and 6-button pads
        .long   0x00000000              | $1A0 ROM start
        .long   0                       | $1A4 ROM end
        .long   0x00FF0000              | $1A8 RAM start
        .long   0x00FFFFFF              | $1AC RAM end
        .ascii  "            "          | $1B0 no backup RAM
        .ascii  "            "          | $1BC no modem
        .ascii  "                                        "  | $1C8 notes
        .ascii  "JUE             "      | $1F0 regions

        .org    0x200
reset:
        md_reset_unlock
        clr.l   (%a0)                   | counter, spare byte, pad word

        md_reset_hardware

        move.w  #IDLE_COLOUR,%d0
        md_display_on

vblank:
        movem.l %d0-%d3/%a0,-(%sp)
        addq.b  #1,RAM_FRAME

| Pad protocol: each TH edge selects which lines the pad drives. On a 6-button pad the third low phase reads Up/Down/
| Left/Right all low (impossible on a 3-button pad unless Up+Down) and the fourth high phase carries Z Y X Mode. The
| pad's phase counter resets after about 1.5 ms without TH edges, so one read per frame always starts at phase 1.
        lea     IO_DATA1,%a0
        move.b  #0x40,(%a0)             | TH=1: ? 1 C B R L D U
        nop
        nop
        move.b  (%a0),%d0
        move.b  #0x00,(%a0)             | TH=0: ? 0 S A 0 0 D U
        nop
        nop
        move.b  (%a0),%d1
        move.b  #0x40,(%a0)
        nop
        nop
        move.b  #0x00,(%a0)
        nop
        nop
        move.b  #0x40,(%a0)
        nop
        nop
        move.b  #0x00,(%a0)             | third TH=0: ? 0 S A 0 0 0 0 on a 6-button pad
        nop
        nop
        move.b  (%a0),%d2
        move.b  #0x40,(%a0)             | fourth TH=1: ? 1 C B M X Y Z on a 6-button pad
        nop
        nop
        move.b  (%a0),%d3
        move.b  #0x00,(%a0)
        nop
        nop
        move.b  #0x40,(%a0)             | back to idle

        not.b   %d0                     | the pad pulls lines low when pressed; the contract wants 1
        andi.w  #0x003F,%d0             | C B R L D U -> bits 5-0
        not.b   %d1
        andi.w  #0x0030,%d1
        lsl.w   #2,%d1                  | S A -> bits 7-6
        or.w    %d1,%d0
        andi.b  #0x0F,%d2
        bne.s   1f                      | no 6-button pad: Z Y X Mode stay 0
        not.b   %d3
        andi.w  #0x000F,%d3
        lsl.w   #8,%d3                  | M X Y Z -> bits 11-8
        or.w    %d3,%d0
1:      move.w  %d0,RAM_PAD

| Colour: idle blue, or full red plus green/blue from the pad folded to 6 bits (12 bits -> 6 so every button counts).
        beq.s   2f
        move.w  %d0,%d1
        lsr.w   #6,%d1
        eor.w   %d1,%d0                 | bits 0-5 now mix all 12 buttons
        move.w  %d0,%d1
        andi.w  #0x0007,%d0
        lsl.w   #5,%d0                  | green
        andi.w  #0x0038,%d1
        lsl.w   #6,%d1                  | blue
        or.w    %d1,%d0
        ori.w   #0x000E,%d0             | red marks "something is held"
        bra.s   3f
2:      move.w  #IDLE_COLOUR,%d0
3:      bsr     set_colour

        movem.l (%sp)+,%d0-%d3/%a0
        md_tail
