// ALE's emulator timed in C++ with no Python in its loop, for bench/bench_ale_emu.py: the same line protocol as
// `bench_a26 --serve` (one command a line on stdin, one answer a line on stdout), one emulator:
//   open ROM            -> "ok" (ALEInterface with random_seed 0, repeat_action_probability 0, frame skip 1, the ROM
//                          loaded, reset_game() called: ALE presses the console's Reset) or "skip <why>"
//   block MODE FRAMES   -> "<frames/s>" of the thread's CPU time: raw = act() a frame; rgb = act() and the RGB
//                          picture; fs4 = act() 4 frames, then the picture (ALE draws every frame whatever is asked).
//                          The picture is taken as ale-py's getScreenRGB(array) takes it: the palette applied to the
//                          screen's indices into a caller buffer (ColourPalette::applyPaletteRGB with a pointer; the
//                          std::vector overload of ALEInterface::getScreenRGB is 2-3x slower).
//                          When ALE reports a game over the clock stops while it resets (as the Python script did).
//   close               -> "ok"
// Inputs: bench_a26's stream (a joystick direction and fire changing every 8 frames) as ALE actions.
//
// ale-py's wheel ships no headers, only its extension module, which exports ALE's C++ API (ale::ALEInterface).
// The declarations below name the members this driver calls, by their signatures in that module's dynamic symbol
// table (nm -D -C); the object is allocated larger than ALE's own (its constructor fills what it uses). Built and
// linked against the module by bench_ale_emu.py (g++, libpython for the module's unused Python references).
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace ale {
enum Action : int {};
class Logger {
  public:
    enum mode : int { Info = 0, Warning = 1, Error = 2 };
    static void setMode(mode m);
};
// ALE's screen: its dimensions and palette indices (ale_screen.hpp's members, in order).
struct Screen {
    int rows, columns;
    std::vector<unsigned char> pixels;
};
class ColourPalette {
  public:
    ColourPalette();
    void setPalette(const std::string &type, const std::string &display_format);
    void applyPaletteRGB(unsigned char *dst, unsigned char *src, unsigned long count);

  private:
    alignas(64) unsigned char room_[1 << 14];
};
class ALEInterface {
  public:
    ALEInterface();
    ~ALEInterface();
    void setInt(const std::string &key, int value);
    void setFloat(const std::string &key, float value);
    void loadROM(std::filesystem::path rom);
    int act(Action action, float paddle_strength);
    bool game_over(bool with_truncation) const;
    void reset_game();
    const Screen &getScreen() const;

  private:
    alignas(64) unsigned char room_[1 << 16];
};
} // namespace ale

// bench_a26's input(): direction bits none, up, down, left, right, fire in bit 0 of k >> 4; as ALE actions
// (NOOP/FIRE, UP/UPFIRE, DOWN/DOWNFIRE, LEFT/LEFTFIRE, RIGHT/RIGHTFIRE).
static ale::Action action(unsigned i)
{
    static const int dirs[5][2] = {{0, 1}, {2, 10}, {5, 13}, {4, 12}, {3, 11}};
    unsigned k = (i / 8) * 2654435761u >> 7;
    return static_cast<ale::Action>(dirs[k % 5][(k >> 4) & 1u]);
}

static double now()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main()
{
    ale::Logger::setMode(ale::Logger::Error);
    ale::ALEInterface *a = nullptr;
    ale::ColourPalette *palette = new ale::ColourPalette();
    palette->setPalette("standard", "NTSC");
    std::vector<unsigned char> rgb;
    unsigned tick = 0;
    char line[4200], arg[4096];
    int frames;
    while (std::fgets(line, sizeof line, stdin)) {
        if (std::sscanf(line, "open %4095[^\n]", arg) == 1) {
            delete a;
            a = new ale::ALEInterface();
            a->setInt("random_seed", 0);
            a->setFloat("repeat_action_probability", 0.0f);
            a->setInt("frame_skip", 1);
            const ale::Screen *screen = nullptr;
            try {
                if (!std::filesystem::exists(arg))
                    throw std::runtime_error("no such file");
                a->loadROM(std::filesystem::path(arg));
                a->reset_game();
                screen = &a->getScreen();
            } catch (const std::exception &e) {
                std::printf("skip %s\n", e.what());
            }
            if (screen && (screen->rows < 200 || screen->rows > 300 || screen->columns != 160 ||
                           screen->pixels.size() != (size_t)screen->rows * 160u)) {
                std::printf("skip ALE's screen is not laid out as this driver expects\n");
                screen = nullptr;
            }
            if (screen) {
                rgb.resize(screen->pixels.size() * 3u);
                tick = 0;
                std::printf("ok\n");
            } else {
                delete a;
                a = nullptr;
            }
        } else if (std::sscanf(line, "block %4095s %d", arg, &frames) == 2 && a && frames >= 4) {
            int mode = !std::strcmp(arg, "raw") ? 0 : !std::strcmp(arg, "rgb") ? 1 : !std::strcmp(arg, "fs4") ? 2 : -1;
            if (mode < 0) {
                std::printf("error bad mode\n");
            } else {
                double spent = 0, t0 = now();
                for (int f = 0; f < frames; f++) {
                    a->act(action(tick++), 1.0f);
                    if (mode == 1 || (mode == 2 && (f & 3) == 3)) {
                        const ale::Screen &screen = a->getScreen();
                        palette->applyPaletteRGB(rgb.data(), const_cast<unsigned char *>(screen.pixels.data()),
                                                 screen.pixels.size());
                    }
                    if (a->game_over(true)) {
                        spent += now() - t0;
                        a->reset_game();
                        t0 = now();
                    }
                }
                spent += now() - t0;
                std::printf("%.1f\n", frames / spent);
            }
        } else if (std::strncmp(line, "close", 5) == 0) {
            delete a;
            a = nullptr;
            std::printf("ok\n");
        } else {
            std::printf("error bad command\n");
        }
        std::fflush(stdout);
    }
    delete a;
    delete palette;
    return 0;
}
