@ retrogym test ROM for the Game Boy Advance (ARM7TDMI, ARM state only, GNU as syntax).
@
@ Contract (tests/roms/README.md), in IWRAM:
@   0x03000000  "HOMEBREW"
@   0x03000008  frame counter, +1 in every VBlank interrupt
@   0x0300000A  keys as a little-endian halfword, 1 = pressed, in KEYINPUT order:
@               bit 0 A, 1 B, 2 Select, 3 Start, 4 Right, 5 Left, 6 Up, 7 Down, 8 R, 9 L
@ The screen is the backdrop (palette entry 0, mode 0 with no layers): blue with no input, red plus the keys as
@ green/blue while anything is held.

        .syntax unified
        .arm
        .text
        .global _start

        .equ    RAM_SIG,     0x03000000
        .equ    IO,          0x04000000
        .equ    DISPCNT,     0x000     @ offsets from IO
        .equ    DISPSTAT,    0x004
        .equ    KEYINPUT,    0x130
        .equ    IE,          0x200
        .equ    IF,          0x202
        .equ    IME,         0x208
        .equ    PALETTE,     0x05000000
        .equ    IRQ_VECTOR,  0x03007FFC @ the BIOS jumps here (ARM state) on every interrupt
        .equ    IDLE_COLOUR, 0x7C00     @ BGR555 pure blue

@ Cartridge header (0x00-0xBF). The BIOS checks the logo and the complement at 0xBD (written by romfix gba).
_start:
        b       reset
        .org    0x04                    @ Nintendo logo, 156 bytes, verbatim as the BIOS expects it
        .byte   0x24,0xFF,0xAE,0x51,0x69,0x9A,0xA2,0x21,0x3D,0x84,0x82,0x0A,0x84,0xE4,0x09,0xAD
        .byte   0x11,0x24,0x8B,0x98,0xC0,0x81,0x7F,0x21,0xA3,0x52,0xBE,0x19,0x93,0x09,0xCE,0x20
        .byte   0x10,0x46,0x4A,0x4A,0xF8,0x27,0x31,0xEC,0x58,0xC7,0xE8,0x33,0x82,0xE3,0xCE,0xBF
        .byte   0x85,0xF4,0xDF,0x94,0xCE,0x4B,0x09,0xC1,0x94,0x56,0x8A,0xC0,0x13,0x72,0xA7,0xFC
        .byte   0x9F,0x84,0x4D,0x73,0xA3,0xCA,0x9A,0x61,0x58,0x97,0xA3,0x27,0xFC,0x03,0x98,0x76
        .byte   0x23,0x1D,0xC7,0x61,0x03,0x04,0xAE,0x56,0xBF,0x38,0x84,0x00,0x40,0xA7,0x0E,0xFD
        .byte   0xFF,0x52,0xFE,0x03,0x6F,0x95,0x30,0xF1,0x97,0xFB,0xC0,0x85,0x60,0xD6,0x80,0x25
        .byte   0xA9,0x63,0xBE,0x03,0x01,0x4E,0x38,0xE2,0xF9,0xA2,0x34,0xFF,0xBB,0x3E,0x03,0x44
        .byte   0x78,0x00,0x90,0xCB,0x88,0x11,0x3A,0x94,0x65,0xC0,0x7C,0x63,0x87,0xF0,0x3C,0xAF
        .byte   0xD6,0x25,0xE4,0x8B,0x38,0x0A,0xAC,0x72,0x21,0xD4,0xF8,0x07
        .org    0xA0
        .ascii  "RETROGYMTEST"              @ title, 12 bytes
        .ascii  "RGYM"                      @ game code
        .ascii  "00"                        @ maker code
        .byte   0x96                        @ fixed value (mGBA refuses the ROM without it)
        .byte   0x00                        @ main unit: GBA
        .byte   0x00                        @ device type
        .space  7                           @ reserved
        .byte   0x00                        @ version
        .byte   0x00                        @ 0xBD complement check, filled in by romfix gba
        .space  2                           @ reserved

        .org    0xC0
reset:
        msr     cpsr_c, #0xD2               @ IRQ mode, interrupts masked: give it its own stack
        ldr     sp, =0x03007FA0
        msr     cpsr_c, #0xDF               @ System mode for the rest, still masked
        ldr     sp, =0x03007F00

        ldr     r0, =IO
        mov     r1, #0x80
        strh    r1, [r0, #DISPCNT]          @ forced blank while setting up

        ldr     r2, =RAM_SIG
        adr     r3, signature
        ldmia   r3, {r4, r5}
        stmia   r2, {r4, r5}
        mov     r1, #0
        str     r1, [r2, #8]                @ counter, spare byte, keys

        mov     r1, #IDLE_COLOUR
        mov     r3, #PALETTE
        strh    r1, [r3]

        ldr     r3, =IRQ_VECTOR
        adr     r1, vblank_irq
        str     r1, [r3]
        mov     r1, #8
        strh    r1, [r0, #DISPSTAT]         @ VBlank interrupt request on
        add     r3, r0, #IE
        mov     r1, #1
        strh    r1, [r3]                    @ IE: VBlank only
        strh    r1, [r3, #IF - IE]          @ drop a VBlank that may already be pending
        strh    r1, [r3, #IME - IE]

        mov     r1, #0
        strh    r1, [r0, #DISPCNT]          @ display on: mode 0, no layers, so only the backdrop shows
        msr     cpsr_c, #0x5F               @ unmask IRQ (FIQ stays masked)
idle:
        swi     0x020000                    @ BIOS Halt: sleep until the next interrupt
        b       idle

@ Called by the BIOS in IRQ mode with r0-r3, r12 and lr saved; returns with bx lr.
vblank_irq:
        ldr     r12, =IO
        add     r3, r12, #IE
        mov     r0, #1
        strh    r0, [r3, #IF - IE]          @ acknowledge (write 1 to clear), or the IRQ fires again at once

        ldr     r2, =RAM_SIG
        ldrb    r0, [r2, #8]
        add     r0, r0, #1
        strb    r0, [r2, #8]

        add     r1, r12, #KEYINPUT          @ (too far for ldrh's 8-bit offset)
        ldrh    r0, [r1]
        mvn     r0, r0                      @ keys read 0 when pressed; the contract wants 1
        mov     r0, r0, lsl #22
        mov     r0, r0, lsr #22             @ keep the 10 key bits
        strh    r0, [r2, #10]

        movs    r1, r0, lsl #5              @ keys -> green and blue bits 5-14
        orrne   r1, r1, #0x1F               @ full red marks "something is held"
        moveq   r1, #IDLE_COLOUR
        mov     r3, #PALETTE
        strh    r1, [r3]
        bx      lr

signature:
        .ascii  "HOMEBREW"
        .ltorg
