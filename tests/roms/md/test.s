| retrogym test ROM for the Sega Genesis / Mega Drive (68000, GNU as syntax: `|` starts a comment).
|
| Contract (tests/roms/README.md), as the 68000 sees work RAM:
|   $FF0000  "HOMEBREW"
|   $FF0008  frame counter, +1 in every level-6 (VBlank) interrupt
|   $FF000A  pad 1 as a big-endian word, 1 = pressed, in the order the pad sends its lines:
|            bit 0 Up, 1 Down, 2 Left, 3 Right, 4 B, 5 C, 6 A, 7 Start, 8 Z, 9 Y, 10 X, 11 Mode (8-11: 6-button pad)
| The whole picture is one CRAM colour: blue with no input, red plus a pad-dependent green/blue while anything is held.

        .equ    RAM_SIG,    0xFF0000
        .equ    RAM_FRAME,  0xFF0008
        .equ    RAM_PAD,    0xFF000A

        .equ    VDP_DATA,   0xC00000
        .equ    VDP_CTRL,   0xC00004
        .equ    PSG,        0xC00011
        .equ    IO_VERSION, 0xA10001    | low nibble: hardware revision, non-zero on consoles with TMSS
        .equ    IO_DATA1,   0xA10003    | pad 1 data: bit 6 = TH select line
        .equ    IO_CTRL1,   0xA10009    | pad 1 direction: bit 6 set makes TH an output
        .equ    TMSS_REG,   0xA14000

        .equ    IDLE_COLOUR, 0x0E00     | CRAM format ----BBB-GGG-RRR-

        .text
        .global reset

| Exception vectors ($000-$0FF). Interrupt levels that never fire here just return; CPU faults stop the machine.
        .long   0x00FFFE00              | initial SSP: top of work RAM, clear of our variables
        .long   reset
        .rept   22                      | bus error .. reserved ($008-$05C)
        .long   fault
        .endr
        .rept   6                       | spurious, levels 1-5 ($060-$074; level 4 = HBlank, left disabled)
        .long   ignore
        .endr
        .long   vblank                  | level 6 = VBlank ($078)
        .long   ignore                  | level 7
        .rept   32                      | TRAP #0-15 and reserved ($080-$0FC)
        .long   fault
        .endr

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
        move.w  #0x2700,%sr
        move.b  IO_VERSION,%d0
        andi.b  #0x0F,%d0
        beq.s   1f
        move.l  #0x53454741,TMSS_REG    | "SEGA": unlocks the VDP on TMSS consoles
1:
        lea     RAM_SIG,%a0
        move.l  #0x484F4D45,(%a0)+      | "HOME"
        move.l  #0x42524557,(%a0)+      | "BREW"
        clr.l   (%a0)                   | counter, spare byte, pad word

        lea     VDP_CTRL,%a1
        tst.w   (%a1)                   | a status read cancels any half-written control command
        lea     vdp_regs(%pc),%a2
        moveq   #(vdp_regs_end-vdp_regs)/2-1,%d0
2:      move.w  (%a2)+,(%a1)
        dbra    %d0,2b

        lea     PSG,%a2                 | PSG channels power up audible: set all four to silent
        move.b  #0x9F,(%a2)
        move.b  #0xBF,(%a2)
        move.b  #0xDF,(%a2)
        move.b  #0xFF,(%a2)

        move.b  #0x40,IO_CTRL1          | drive TH ourselves
        move.b  #0x40,IO_DATA1          | TH idles high

        move.w  #IDLE_COLOUR,%d0
        bsr     set_colour
        move.w  #0x8164,(%a1)           | R1: display on, VBlank interrupt on, mode 5
        move.w  #0x2500,%sr             | accept level 6
3:      stop    #0x2500                 | all work happens in the interrupt
        bra.s   3b

| Writes colour d0.w to all 64 CRAM entries, so whatever VRAM holds (random on a real console) every pixel shows it.
| Clobbers d1, a0. Only called with the VDP control port otherwise idle (before interrupts, or inside the handler).
set_colour:
        move.l  #0xC0000000,VDP_CTRL    | CRAM write from address 0
        lea     VDP_DATA,%a0
        moveq   #63,%d1
1:      move.w  %d0,(%a0)
        dbra    %d1,1b
        rts

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
ignore:
        rte

fault:
        stop    #0x2700
        bra.s   fault

| VDP registers, written as $8000 | reg << 8 | value. The display stays off (R1) until CRAM holds the idle colour.
vdp_regs:
        .word   0x8004                  | R0: HBlank interrupt off
        .word   0x8104                  | R1: mode 5, display and VBlank interrupt off for now
        .word   0x8230                  | R2: plane A at $C000
        .word   0x833C                  | R3: window at $F000
        .word   0x8407                  | R4: plane B at $E000
        .word   0x856C                  | R5: sprites at $D800
        .word   0x8600
        .word   0x8700                  | R7: backdrop = palette 0, colour 0
        .word   0x8800
        .word   0x8900
        .word   0x8AFF                  | R10: HBlank counter (unused)
        .word   0x8B00                  | R11: full-screen scroll, no external interrupt
        .word   0x8C81                  | R12: 320 pixels wide, no interlace, no shadow/highlight
        .word   0x8D3F                  | R13: horizontal scroll table at $FC00
        .word   0x8E00
        .word   0x8F02                  | R15: auto-increment 2 (one CRAM word per write)
        .word   0x9001                  | R16: 64x32-cell planes
        .word   0x9100                  | R17/R18: no window
        .word   0x9200
vdp_regs_end:
