# --- tia ---
# The Atari 2600 core (src/cores/atari2600) through the emulator API: power-on, snapshots, skipped video, instances,
# options, audio, frames without VSYNC.
rg_test(a26_core cores/test_a26_core.c)
# Frame by frame against Stella 3.9.3 (stable-retro's stella core through our host): RAM and pixels for automaton.a26,
# our ROMs and, when ale-py is installed in .venv, a set of its cartridges; skipped without the stella core.
rg_test(a26_vs_stella cores/test_a26_vs_stella.c TIMEOUT 900 LABELS no-asan)
# Stella 3.9.3 states (stable-retro's Atari Start.state files) converted by our core; truncated, damaged and mutated
# ones refused with the machine unchanged. Skipped without stable-retro's data and ale-py's ROMs in .venv.
rg_test(a26_stella_state cores/test_a26_stella_state.c LIBS ZLIB::ZLIB)
# --- cart ---
rg_test(a26_cart cores/test_a26_cart.c)
# The standalone libretro build, loaded through our own host (needs add_subdirectory(libretro_export) at the top level).
if(TARGET atari2600_libretro)
  rg_test(a26_libretro cores/test_a26_libretro.c LIBS ${CMAKE_DL_LIBS})
  add_dependencies(a26_libretro atari2600_libretro)
  target_compile_definitions(a26_libretro PRIVATE "A26_LIBRETRO=\"$<TARGET_FILE:atari2600_libretro>\"")
  target_include_directories(a26_libretro PRIVATE "${LIBRETRO_INCLUDE_DIR}")
endif()
# The export cores' retro_get_system_info against systems/*.json (their system description is generated from it).
if(TARGET atari2600_libretro AND TARGET nes_libretro AND TARGET sms_libretro)
  rg_test(libretro_sysinfo cores/test_libretro_sysinfo.c LIBS ${CMAKE_DL_LIBS})
  add_dependencies(libretro_sysinfo atari2600_libretro nes_libretro sms_libretro)
  target_compile_definitions(libretro_sysinfo PRIVATE "A26_LIBRETRO=\"$<TARGET_FILE:atari2600_libretro>\""
    "NES_LIBRETRO=\"$<TARGET_FILE:nes_libretro>\"" "SMS_LIBRETRO=\"$<TARGET_FILE:sms_libretro>\"")
  target_include_directories(libretro_sysinfo PRIVATE "${LIBRETRO_INCLUDE_DIR}")
  if(TARGET genesis_libretro)
    add_dependencies(libretro_sysinfo genesis_libretro)
    target_compile_definitions(libretro_sysinfo PRIVATE "GENESIS_LIBRETRO=\"$<TARGET_FILE:genesis_libretro>\"")
  endif()
endif()
# --- roms ---
# Our TIA/RIOT feature ROMs (tests/roms/a26/features) against the golden frame and RAM hashes Stella 3.9.3 gave.
rg_test(a26_features cores/test_a26_features.c)
# It opens Stella's libretro core once per feature ROM, each a dlopen of a private copy (src/host/lr_api.c). With the
# eighteenth, GCC 12's LeakSanitizer crashed at exit scanning dynamic TLS ("Tracer caught signal 11", a DTLS entry
# read as the range 0x61d-0x10000171f; glibc 2.36) after every test had passed. This test's leak check skips
# TLS as a root (use_tls=0): that can only add reports, not hide one; glibc's thread vector it then reports is
# suppressed (tests/lsan.supp).
get_test_property(a26_features ENVIRONMENT a26_features_env)
string(REPLACE "print_suppressions=0" "print_suppressions=0:use_tls=0" a26_features_env "${a26_features_env}")
set_tests_properties(a26_features PROPERTIES ENVIRONMENT "${a26_features_env}")
# --- nes ppu ---
# The NES PPU on a bare machine: registers, vblank/NMI timing to the dot, the odd-frame skip, tiles, sprites, sprite-0
# hit, overflow, segmented runs against whole ones.
rg_test(nes_ppu cores/nes/test_nes_ppu.c)
# Idle loops counted at once against the same ROMs run cycle by cycle: state and picture equal every frame.
rg_test(nes_idle cores/nes/test_nes_idle.c)
# --- nes apu ---
# The NES APU on a bare machine (the test plays the CPU): length counters, frame IRQ timing to the cycle, jitter,
# halt/reload in the step's cycle, sweep mute, DMC fetches/IRQ/loop, reset, lazy runs against stepwise ones, samples,
# loaded-state checks; with ../shared, blargg's 2005 APU ROMs (result on screen) and DMC DMA timing ROMs.
rg_test(nes_apu cores/nes/test_nes_apu.c)
# --- nes ---
# The NES conformance ROMs of ../shared/test-roms/nes listed in tests/cores/nes_testroms.txt (pass / xfail), one test
# per group of the list (nes_testroms itself runs the cpu group); skipped without ../shared.
rg_test(nes_testroms cores/nes/test_nes_testroms.c)
# The NES core through the emulator API (core="nes"): frame counter and joypad of our test ROM, the picture, snapshots
# replayed, hostile states and bad ROM images refused, the .nes default left to the libretro cores.
rg_test(nes_core cores/nes/test_nes_core.c)
# The standalone nes_libretro.so through our libretro host, frame for frame against the built-in core.
if(TARGET nes_libretro)
  rg_test(nes_libretro_so cores/nes/test_nes_libretro.c)
  add_dependencies(nes_libretro_so nes_libretro)
  target_compile_definitions(nes_libretro_so PRIVATE "NES_LIBRETRO=\"$<TARGET_FILE:nes_libretro>\"")
endif()
# The NES mappers on images built by the test: bank windows, mirroring, PRG-RAM, MMC3's IRQ counter, MMC2/MMC4
# latches, battery RAM, hostile mapper registers.
rg_test(nes_mappers cores/nes/test_nes_mappers.c)
# The mappers with CPU-clocked IRQ counters (25, 65, 18, 67, 69, 19): windows, mirroring, RAM; the IRQ's cycle measured by
# a 6502 test program built by the test (X counted by an INX run until the handler stores it); VRC4's prescaler,
# SS88006's counter widths; a state saved mid-count runs on identically after loading; hostile registers refused.
rg_test(nes_mapper_irq cores/nes/test_nes_mapper_irq.c)
# MMC5 (mapper 5): PRG/CHR modes, the CHR sets, ExRAM, fill mode, multiplier, the scanline IRQ's dot; the MMC5 test ROMs'
# pictures (../shared; skipped without), a state saved mid-run runs on identically.
rg_test(nes_mmc5 cores/nes/test_nes_mmc5.c)
foreach(group ppu apu mapper)
  add_test(NAME nes_testroms_${group} COMMAND nes_testroms ${group})
  set_tests_properties(nes_testroms_${group} PROPERTIES ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}/test-tmp/nes_testroms;${RG_SANITIZER_ENV}" TIMEOUT 300)
endforeach()
# FCEUmm states (stable-retro's NES start states) converted by our core: SuperMarioBros-Nes' states against the state's
# own RAM, a synthetic MMC3 cartridge with SuperMarioBros3-Nes' states, truncated/damaged/foreign ones refused with the
# machine unchanged, the env's choice of core; skipped without the stable-retro and gym-super-mario-bros wheels.
rg_test(nes_fceumm_state cores/nes/test_nes_fceumm_state.c LIBS ZLIB::ZLIB)
# Our NES core against FCEUmm frame by frame (RAM and pictures) from SuperMarioBros-Nes' start states and from
# power-on on the demo ROM; asserts the agreement measured (docs/nes.md); skipped without the wheels.
rg_test(nes_vs_fceumm cores/nes/test_nes_vs_fceumm.c LABELS no-asan)
# --- sms ---
# The SMS/GG core through the emulator API (core "sms" / "gamegear"): the demo ROMs draw and move, snapshots replay,
# Codemasters detection, bad ROM sizes and hostile states refused (docs/sms.md); demo parts skip without ../shared.
rg_test(sms_core cores/sms/test_sms_core.c)
# Frame by frame against genesis_plus_gx (stable-retro's wheel) from power-on, seeded random input, on the demo
# ROMs, our VDP-timing ROM and our TMS-modes ROM (tests/roms/sms/tms): RAM and pixels identical every frame; skipped
# without ../shared or the wheel.
rg_test(sms_vs_gpgx cores/sms/test_sms_vs_gpgx.c LABELS no-asan)
# The VDP's TMS9918 modes on VRAM set up by the test: pixels, the SMS palette and the GG's, the 5th sprite, overflow,
# collision of opaque dots, magnification, early clock, the same flags undrawn (docs/sms.md).
rg_test(sms_vdp_tms cores/sms/test_sms_vdp_tms.c)
# Genesis Plus GX states (stable-retro's Sms/GameGear start states) into core sms/gamegear: converted field by field,
# then frame by frame against GPGX from the same state; bad states refused (docs/sms.md, "State import").
rg_test(sms_gpgx_state cores/sms/test_sms_gpgx_state.c LIBS ZLIB::ZLIB)
# The standalone sms_libretro.so through our libretro host, frame for frame against the built-in core.
if(TARGET sms_libretro)
  rg_test(sms_libretro_so cores/sms/test_sms_libretro.c)
  add_dependencies(sms_libretro_so sms_libretro)
  target_compile_definitions(sms_libretro_so PRIVATE "SMS_LIBRETRO=\"$<TARGET_FILE:sms_libretro>\"")
endif()
# --- genesis ---
# The Genesis core (core "genesis", docs/genesis.md): VDP ports, DMA fill/copy/68000 transfers on synthetic data, a
# 68000 program of ours (V interrupts, the pad's TH protocol), bad ROMs and hostile states, and Airstriker-Genesis
# from .venv's stable-retro (boots and draws the title and menus, snapshot replay, closeness to genesis_plus_gx
# printed); the ROM parts skip without the wheel.
rg_test(genesis_core cores/genesis/test_genesis_core.c)
# Genesis Plus GX states (stable-retro's Genesis start states, Airstriker's Level1.state) into core genesis: a menus
# state equals ours field by field; Level1.state against GPGX frame by frame; bad states refused (docs/genesis.md).
rg_test(genesis_gpgx_state cores/genesis/test_genesis_gpgx_state.c LIBS ZLIB::ZLIB)
# Frame by frame against genesis_plus_gx (stable-retro's wheel) from power-on: Airstriker-Genesis with seeded random
# input through the menus into play, and the Dekadence-Dekadrive demo; work RAM and pictures (3-bit colours) agree at
# least as far as measured (docs/genesis.md); skipped without the wheel or ../shared.
rg_test(genesis_vs_gpgx cores/genesis/test_genesis_vs_gpgx.c LABELS no-asan)
# The Genesis core's audio (docs/genesis.md, "Audio"): YM2612 tones at their F-number's frequency (multiple, detune,
# panning, key off, feedback, the 8 algorithms, channel 3's special mode), the DAC, PSG tone and noise, nothing
# synthesised unobserved, snapshots replay the samples; Airstriker's audio against genesis_plus_gx's (per-frame
# loudness correlated; RAM equal with audio on and off; from Level1.state as loud); skips those without the wheel.
rg_test(genesis_audio cores/genesis/test_genesis_audio.c LIBS m ZLIB::ZLIB)
# Our Genesis hardware test programs (tests/roms/md/{dma,irq,z80,ym}: DMA, H/V interrupts, Z80 bus handover, YM2612
# timers) against genesis_plus_gx frame by frame from power-on: work RAM and pictures equal every frame (known
# differences listed by the test and docs/genesis.md), plus checks on our core alone; GPGX parts skip without the wheel.
rg_test(genesis_programs_sys cores/genesis/test_genesis_programs_sys.c LABELS no-asan)
# The Genesis cartridge (docs/genesis.md, "Cartridge"): ROM images built by the test running a 68000 program of ours:
# backup RAM from the header (or Genesis Plus GX's default at $200000), $A130F1, the SSF2 bank registers on a 5 MiB
# ROM, rg_emu_save_ram, states (hostile ones refused), the reset button; refused headers (serial EEPROM...). Against
# genesis_plus_gx on the same images when the wheel is there.
rg_test(genesis_cart cores/genesis/test_genesis_cart.c)
# The standalone genesis_libretro.so through our libretro host, frame for frame against the built-in core.
if(TARGET genesis_libretro)
  rg_test(genesis_libretro_so cores/genesis/test_genesis_libretro.c)
  add_dependencies(genesis_libretro_so genesis_libretro)
  target_compile_definitions(genesis_libretro_so PRIVATE "GENESIS_LIBRETRO=\"$<TARGET_FILE:genesis_libretro>\"")
endif()
# Our Genesis VDP picture program (tests/roms/md/vdp: scroll modes, plane sizes, the window, sprite limits and
# masking, shadow/highlight, interlace) against genesis_plus_gx frame by frame from power-on: work RAM and pictures
# equal every frame; and checks on our core alone (shadow/highlight intensities, the field bit, frame skip, bad
# states; these run under ASan too); GPGX part skips without the wheel and under ASan.
rg_test(genesis_programs cores/genesis/test_genesis_programs.c)
