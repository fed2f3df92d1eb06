| retrogym Genesis VDP picture test program (68000, GNU as; tests/roms/md/vdp/build.mk -> bin/md/vdp.md).
|
| At reset VRAM is filled with xorshift32 words (the first 24 KiB ANDed with a second word, so those patterns are
| sparse and the layers show through each other): every pattern, name-table entry (flips, palettes, priorities) and
| the window's name table are random. CRAM gets 64 random colours, the sprite table 80 sprites in a scrambled link
| order (entry k*37 mod 80 links to the next): 22 narrow sprites on the same lines (over the per-line limit), 12
| 32-dot sprites (over the dot limit) moving down the screen, sprites at x = 0 after and before other sprites
| (masking), a row of overlapping sprites moving in from the left edge (collisions off and on the screen) and 32
| scattered ones, half of them palette 3 (shadow/highlight operators). Then every 16 frames the V interrupt sets the
| next of 16 scenes (registers 0, 7, 11, 12, 16, 17, 18: scroll modes, plane sizes, H32/H40, the window, the left
| column blank, colour mode, shadow/highlight, interlace modes 1 and 2); each frame it moves the first line's
| horizontal scroll, all 40 vertical scroll values and some sprites.
|
| RAM: $FF0000 "HOMEBREW"; $FF0010 frame word; $FF0012 the status read at the V interrupt's start; $FF0014 the HV
| counter then; $FF0016 the scene; $FF0018 the HV counter at the V interrupt's end; $FF0100-$FF04FF a log of (status, HV counter, frame) per frame, 8 bytes an entry,
| entry frame & 127; $FF1000: the sprite table's copy (written to VRAM $D800 each frame).

        .include "common.inc"

        .equ    FRAMEW,     0xFF0010
        .equ    STAT,       0xFF0012
        .equ    HVV,        0xFF0014
        .equ    SCENE,      0xFF0016
        .equ    LOG,        0xFF0100
        .equ    SATRAM,     0xFF1000
        .equ    VDP_HV,     0xC00008
        .equ    HVEND,      0xFF0018
        .equ    SATOFF,     0xFF0F00

        .text
        .global reset

        md_vectors

        .org    0x100
        .ascii  "SEGA MEGA DRIVE "
        .ascii  "(C)RGYM 2026.NOV"
        .ascii  "RETROGYM VDP PICTURE TEST                       "
        .ascii  "RETROGYM VDP PICTURE TEST                       "
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
        lea     FRAMEW,%a0
        moveq   #15,%d0
0:      clr.l   (%a0)+
        dbra    %d0,0b

        md_reset_hardware

| VRAM: 32 Ki words of xorshift32 output (a VRAM write from address 0).
        move.l  #0x2463534B,%d7         | the generator's state
        move.l  #0x40000000,(%a1)
        lea     VDP_DATA,%a0
        move.w  #0x17FF,%d6             | $0000-$5FFF: sparse (two outputs ANDed)
1:      bsr     xorshift
        move.l  %d7,%d5
        bsr     xorshift
        and.l   %d7,%d5
        move.l  %d5,(%a0)
        subq.w  #1,%d6
        bpl.s   1b
        move.w  #0x27FF,%d6             | $6000-$FFFF: dense
2:      bsr     xorshift
        move.l  %d7,(%a0)
        subq.w  #1,%d6
        bpl.s   2b

| CRAM: 64 random colours.
        move.l  #0xC0000000,(%a1)
        moveq   #63,%d6
3:      bsr     xorshift
        move.w  %d7,%d0
        andi.w  #0x0EEE,%d0
        move.w  %d0,(%a0)
        dbra    %d6,3b

| The horizontal scroll table at $FC00: line l gives plane A l*5 and plane B -3l (every fine scroll occurs).
        move.l  #0x7C000003,(%a1)
        moveq   #0,%d0
        moveq   #0,%d1
        move.w  #223,%d6
4:      move.w  %d0,(%a0)
        move.w  %d1,(%a0)
        addq.w  #5,%d0
        subq.w  #3,%d1
        dbra    %d6,4b

| The sprite table in RAM: entry s_k = k*37 mod 80 for k = 0..79, linked to s_(k+1) (s_79 to 0).
        moveq   #0,%d4                  | k
5:      move.w  %d4,%d0
        mulu    #37,%d0
        divu    #80,%d0
        swap    %d0                     | s_k
        andi.l  #0xFFFF,%d0
        lea     SATRAM,%a2
        lsl.w   #3,%d0
        adda.w  %d0,%a2                 | its entry
        move.w  %d4,%d0
        addq.w  #1,%d0
        mulu    #37,%d0
        divu    #80,%d0
        swap    %d0                     | s_(k+1)
        cmpi.w  #79,%d4
        bne.s   6f
        moveq   #0,%d0
6:      bsr     sprite_of               | d1 y, d2 size, d3 x (k in d4)
        move.w  %d1,(%a2)+
        lsl.w   #8,%d2
        or.b    %d0,%d2
        move.w  %d2,(%a2)+
        bsr     xorshift
        move.w  %d7,%d1
        cmpi.w  #48,%d4                 | the scattered ones: even k in palette 3
        bcs.s   7f
        btst    #0,%d4
        bne.s   7f
        ori.w   #0x6000,%d1
7:      move.w  %d1,(%a2)+
        move.w  %d3,(%a2)+
        addq.w  #1,%d4
        cmpi.w  #80,%d4
        bne.s   5b

| The RAM offset of each sprite k's entry (8 * s_k), so that the V interrupt needs no division.
        lea     SATOFF,%a2
        moveq   #0,%d4
9:      move.w  %d4,%d0
        mulu    #37,%d0
        divu    #80,%d0
        swap    %d0
        lsl.w   #3,%d0
        move.w  %d0,(%a2)+
        addq.w  #1,%d4
        cmpi.w  #80,%d4
        bne.s   9b

1:      cmpi.b  #0xE0,VDP_HV            | wait for line 224, the blank's first (the V counter; the status's vblank
        beq.s   1b                      | bit reads 1 while the display is off), so that the V interrupt (pending
2:      cmpi.b  #0xE0,VDP_HV            | from 788 clocks into it) is taken in the blank
        bne.s   2b
        move.w  #0x8124,(%a1)           | R1: V interrupt on, mode 5; the display goes on in the V interrupt
        move.w  #0x2500,%sr
8:      bra.s   8b                      | all work happens in the V interrupt

| xorshift32 on d7 (13, 17, 5). Clobbers d2.
xorshift:
        move.l  %d7,%d2
        lsl.l   #8,%d2
        lsl.l   #5,%d2
        eor.l   %d2,%d7
        move.l  %d7,%d2
        swap    %d2
        andi.l  #0xFFFF,%d2
        lsr.l   #1,%d2
        eor.l   %d2,%d7
        move.l  %d7,%d2
        lsl.l   #5,%d2
        eor.l   %d2,%d7
        rts

| Sprite k (d4) of the table: d1 = y + 128, d2 = size, d3 = x + 128 (before the per-frame motion).
sprite_of:
        cmpi.w  #22,%d4
        bcc.s   1f
        move.w  %d4,%d1                 | 22 narrow (1x2) ones on lines 40-59: over the line's sprite limit
        andi.w  #1,%d1
        lsl.w   #2,%d1
        addi.w  #128+40,%d1
        moveq   #0x01,%d2
        move.w  %d4,%d3
        mulu    #15,%d3
        addi.w  #128,%d3
        rts
1:      cmpi.w  #34,%d4
        bcc.s   2f
        move.w  #128+70,%d1             | 12 of 4x4 cells, 32 apart: over the dot limit (moved down each frame)
        moveq   #0x0F,%d2
        move.w  %d4,%d3
        subi.w  #22,%d3
        lsl.w   #5,%d3
        addi.w  #128-16,%d3
        rts
2:      cmpi.w  #38,%d4
        bcc.s   3f
        move.w  #128+102,%d1            | x = 0 first, then three: masked only after a line at the dot limit
        moveq   #0x01,%d2
        moveq   #0,%d3
        cmpi.w  #34,%d4
        beq.s   9f
        moveq   #0x05,%d2
        move.w  %d4,%d3
        subi.w  #34,%d3
        mulu    #50,%d3
        addi.w  #128,%d3
9:      rts
3:      cmpi.w  #41,%d4
        bcc.s   4f
        move.w  #128+130,%d1            | x = 100, x = 0 (masks the next), x = 150
        moveq   #0x05,%d2
        move.w  #128+100,%d3
        cmpi.w  #39,%d4
        bne.s   31f
        moveq   #0,%d3
31:     cmpi.w  #40,%d4
        bne.s   32f
        move.w  #128+150,%d3
32:     rts
4:      cmpi.w  #43,%d4
        bcc.s   5f
        move.w  #128+150,%d1            | x = 0 first (masks nothing), then x = 72
        moveq   #0x05,%d2
        moveq   #0,%d3
        cmpi.w  #42,%d4
        bne.s   41f
        move.w  #128+72,%d3
41:     rts
5:      cmpi.w  #48,%d4
        bcc.s   6f
        move.w  #128+170,%d1            | 5 of 3x3, 12 apart (overlapping), moved in from the left each frame
        moveq   #0x0A,%d2
        move.w  %d4,%d3
        subi.w  #43,%d3
        mulu    #12,%d3
        addi.w  #128-96,%d3
        rts
6:      move.w  %d4,%d1                 | 32 scattered ones of every size
        mulu    #13,%d1
        andi.w  #31,%d1
        addi.w  #128+190,%d1
        move.w  %d4,%d2
        andi.w  #15,%d2
        move.w  %d4,%d3
        mulu    #29,%d3
        divu    #300,%d3
        swap    %d3
        addi.w  #128,%d3
        rts

| The 16 scenes: registers 0, 7, 11, 12, 16, 17, 18 (written as $8000 | r << 8 | value), 16 frames each.
scenes:
        .byte   0x04, 0x00, 0x00, 0x81, 0x01, 0x00, 0x00, 0   | full-screen scroll, H40, 64x32
        .byte   0x04, 0x12, 0x03, 0x81, 0x11, 0x00, 0x00, 0   | per line, 64x64
        .byte   0x04, 0x05, 0x06, 0x81, 0x01, 0x00, 0x00, 0   | per cell, 2-cell vertical (the H40 left column)
        .byte   0x04, 0x00, 0x07, 0x00, 0x10, 0x00, 0x00, 0   | H32, per line, 2-cell vertical, 32x64
        .byte   0x04, 0x00, 0x03, 0x81, 0x01, 0x05, 0x00, 0   | window left 5 columns, per-line scroll
        .byte   0x04, 0x21, 0x06, 0x81, 0x01, 0x88, 0x85, 0   | window right of 8, and below row 5
        .byte   0x04, 0x00, 0x00, 0x81, 0x02, 0x15, 0x0A, 0   | invalid width code, window over the line, top rows
        .byte   0x24, 0x00, 0x03, 0x89, 0x01, 0x00, 0x00, 0   | shadow/highlight, left column blank
        .byte   0x04, 0x3F, 0x06, 0x89, 0x03, 0x03, 0x00, 0   | shadow/highlight, 128x32, 2-cell, window left
        .byte   0x04, 0x00, 0x02, 0x08, 0x01, 0x80, 0x00, 0   | H32 shadow/highlight, window over the line
        .byte   0x00, 0x00, 0x02, 0x81, 0x31, 0x00, 0x00, 0   | colour mode (register 0 bit 2) clear, 64x128
        .byte   0x04, 0x00, 0x00, 0x83, 0x01, 0x00, 0x00, 0   | interlace mode 1
        .byte   0x04, 0x00, 0x03, 0x81, 0x01, 0x00, 0x00, 0   | no interlace
        .byte   0x04, 0x00, 0x06, 0x87, 0x01, 0x04, 0x00, 0   | interlace mode 2 (double resolution)
        .byte   0x04, 0x00, 0x00, 0x83, 0x01, 0x00, 0x00, 0   | mode 1 after 2 (GPGX keeps double resolution)
        .byte   0x04, 0x00, 0x07, 0x8F, 0x01, 0x00, 0x00, 0   | mode 2 with shadow/highlight
scene_regs:
        .byte   0, 7, 11, 12, 16, 17, 18, 0

vblank:
        movem.l %d0-%d7/%a0-%a3,-(%sp)
        lea     VDP_CTRL,%a1
        lea     VDP_DATA,%a0
        move.w  (%a1),%d0               | status: sprite overflow/collision of the frame, the field bit
        move.w  VDP_HV,%d1
        move.w  %d0,STAT
        move.w  %d1,HVV
        move.w  FRAMEW,%d2
        addq.w  #1,%d2
        move.w  %d2,FRAMEW
        move.w  %d2,%d3
        andi.w  #127,%d3
        lsl.w   #3,%d3
        lea     LOG,%a2
        adda.w  %d3,%a2
        move.w  %d0,(%a2)+
        move.w  %d1,(%a2)+
        move.w  %d2,(%a2)+

        move.w  #0x8164,(%a1)           | R1: display on (in the blank, so no line is cut)

| The scene: registers from the table.
        move.w  %d2,%d3
        lsr.w   #4,%d3
        andi.w  #15,%d3
        move.w  %d3,SCENE
        lsl.w   #3,%d3
        lea     scenes(%pc),%a2
        adda.w  %d3,%a2
        lea     scene_regs(%pc),%a3
        moveq   #6,%d4
1:      moveq   #0,%d0
        move.b  (%a3)+,%d0
        ori.w   #0x80,%d0
        lsl.w   #8,%d0
        move.b  (%a2)+,%d0
        move.w  %d0,(%a1)
        dbra    %d4,1b

| Line 0's horizontal scroll: A = 3f, B = -2f.
        move.l  #0x7C000003,(%a1)
        move.w  %d2,%d0
        add.w   %d2,%d0
        add.w   %d2,%d0
        move.w  %d0,(%a0)
        move.w  %d2,%d0
        add.w   %d0,%d0
        neg.w   %d0
        move.w  %d0,(%a0)

| Vertical scroll i: (f << (i & 3)) + 21 i, 11 bits.
        move.l  #0x40000010,(%a1)
        moveq   #0,%d4
        moveq   #0,%d5                  | 21 i
2:      move.w  %d2,%d0
        move.w  %d4,%d1
        andi.w  #3,%d1
        lsl.w   %d1,%d0
        add.w   %d5,%d0
        andi.w  #0x07FF,%d0
        move.w  %d0,(%a0)
        addi.w  #21,%d5
        addq.w  #1,%d4
        cmpi.w  #40,%d4
        bne.s   2b

| Motion: the 32-dot sprites move down (f & 31), the overlapping row in from the left (f & 63).
        moveq   #22,%d4
3:      bsr     sat_entry
        move.w  %d2,%d0
        andi.w  #31,%d0
        addi.w  #128+70,%d0
        move.w  %d0,(%a2)
        addq.w  #1,%d4
        cmpi.w  #34,%d4
        bne.s   3b
        moveq   #43,%d4
4:      bsr     sat_entry
        move.w  %d4,%d0
        subi.w  #43,%d0
        move.w  %d0,%d1
        add.w   %d0,%d0
        add.w   %d1,%d0
        lsl.w   #2,%d0                  | 12 (k - 43)
        addi.w  #128-96,%d0
        move.w  %d2,%d1
        andi.w  #63,%d1
        add.w   %d1,%d0
        move.w  %d0,6(%a2)
        addq.w  #1,%d4
        cmpi.w  #48,%d4
        bne.s   4b

| The sprite table into VRAM at $D800.
        move.l  #0x58000003,(%a1)
        lea     SATRAM,%a2
        move.w  #159,%d4
5:      move.l  (%a2)+,(%a0)
        dbra    %d4,5b

        move.w  VDP_HV,HVEND            | where the work ended (still in the blank)
        movem.l (%sp)+,%d0-%d7/%a0-%a3
        rte

| a2 = the RAM entry of sprite k (d4): SATRAM + 8 * (k * 37 mod 80). Clobbers d0.
sat_entry:
        move.w  %d4,%d0
        add.w   %d0,%d0
        lea     SATOFF,%a2
        move.w  (%a2,%d0.w),%d0
        lea     SATRAM,%a2
        adda.w  %d0,%a2
        rts

        md_tail
