/* Lua 5.1 scripting for scenarios (docs/formats.md, "Lua scripts"). PUC Lua is used rather than LuaJIT because its
 * count hook fires in every loop, which is what makes the instruction and time limits reliable. */
#define _POSIX_C_SOURCE 200809L
#include "script_lua.h"

#include "base/base.h"
#include "gamedata_internal.h"
#include "gamedata_types.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOOK_EVERY 1000
/* The VM's own `..` (and `<` on strings) copies or compares its operands inside one instruction, which the
 * allocator does not see when an equal string already exists (the operands go into a reused buffer, the result is
 * found, not made): such a loop is bounded by the time budget alone. So that the bytes one clock read can miss stay
 * about HOOK_EVERY x HOOK_HEAP whatever the heap, the hook comes twice as often each time the heap doubles past
 * HOOK_HEAP (down to every HOOK_MIN instructions); scripts of normal size never reach it. */
#define HOOK_HEAP ((size_t)1 << 20)
#define HOOK_MIN 8
/* Work inside library calls, in instruction-sized steps (issue 16): the count hook sees only VM instructions, so
 * C functions whose work grows with their input are charged by it (and the clock read when it is large). */
#define BYTES_PER_STEP 16           /* bytes copied, compared or allocated */
#define CLOCK_STEPS 256             /* a charge this large reads the clock */
#define CLOCK_BYTES ((size_t)1 << 20) /* and so does every MiB allocated */
#define MIN_SECONDS_PER_STEP 1e-9   /* no step is faster: a charge that cannot end before the deadline is refused */
/* Measured against a numeric for loop (about 2.8 ns per VM instruction on the development machine): a comparison
 * of table.sort takes about 17 instructions' time, moving an element in insert/remove 5, concat's and maxn's
 * visit of one about 8, a callback of foreach/foreachi about 8. */
#define SORT_COMPARE_STEPS 16
#define SHIFT_STEPS 4
#define VISIT_STEPS 8
#define SCRIPT_MAX_SIZE (4u << 20)

struct rg__lua {
    lua_State *L;
    rg_gamedata *gd;
    const uint64_t *frame;
    size_t mem_used, mem_cap;
    uint64_t max_instr, instr;
    double max_seconds, deadline;
    int over_budget; /* 1 instructions, 2 time */
    int out_of_memory;
    size_t custom_bytes; /* custom variables this interpreter created: memory outside the Lua heap */
    int armed;           /* a call is running: allocations are charged */
    size_t alloc_since_clock;
    unsigned counted_calls; /* comparisons and callbacks of table.sort/foreach: the clock every 1024 */
    uint64_t rng;           /* math.random's splitmix64 state: this interpreter's own, saved in snapshots */
    int hook_every;         /* the count hook's interval now (HOOK_EVERY, less for a large heap) */
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void budget_hook(lua_State *L, lua_Debug *ar);

/* The count hook's interval for a heap of this size: HOOK_EVERY, halved for each doubling past HOOK_HEAP. */
static int hook_interval(size_t heap)
{
    int every = HOOK_EVERY;
    for (size_t h = HOOK_HEAP; heap > h && every / 2 >= HOOK_MIN; h *= 2)
        every /= 2;
    return every;
}

/* Sets the interval for the heap now. Lua restarts the count when it is set: the instructions since the last hook
 * are charged as a whole interval (at most HOOK_EVERY more than ran; it happens once per doubling of the heap). */
static void adapt_hook(rg__lua *ctx, size_t heap, int charge_partial)
{
    int every = hook_interval(heap);
    if (every == ctx->hook_every)
        return;
    if (charge_partial)
        ctx->instr += (uint64_t)ctx->hook_every;
    ctx->hook_every = every;
    lua_sethook(ctx->L, budget_hook, LUA_MASKCOUNT, every);
}

static void *lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    rg__lua *ctx = ud;
    if (nsize == 0) {
        free(ptr);
        ctx->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && ctx->mem_used - osize + nsize > ctx->mem_cap) {
        ctx->out_of_memory = 1;
        return NULL;
    }
    if (nsize > osize && ctx->armed && !ctx->over_budget) {
        /* Allocation is the trace of most work in C (strings built by rep, format, gsub, concat): charged, and
         * the clock read every MiB. A refusal is a memory error in Lua, reported as the budget's. */
        size_t grow = nsize - osize;
        ctx->instr += grow / BYTES_PER_STEP;
        if (ctx->instr > ctx->max_instr)
            ctx->over_budget = 1;
        if ((ctx->alloc_since_clock += grow) >= CLOCK_BYTES) {
            ctx->alloc_since_clock = 0;
            if (!ctx->over_budget && now_seconds() > ctx->deadline)
                ctx->over_budget = 2;
            else if (hook_interval(ctx->mem_used + grow) < ctx->hook_every) /* copies of a larger heap to come */
                adapt_hook(ctx, ctx->mem_used + grow, 1);
        }
        if (ctx->over_budget) /* refused once; the error's own allocations then go through */
            return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p)
        ctx->mem_used = ctx->mem_used - osize + nsize;
    return p;
}

static rg__lua *ctx_of(lua_State *L)
{
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

/* Raises a Lua error with a message formatted by C's rules (lua_pushfstring knows only %s %d %f %p %c). */
static int raise_error(lua_State *L, const char *fmt, ...) RG_PRINTF(2, 3);
static int raise_error(lua_State *L, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return luaL_error(L, "%s", msg);
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    rg__lua *ctx = ctx_of(L);
    ctx->instr += (uint64_t)ctx->hook_every;
    if (ctx->instr > ctx->max_instr) {
        ctx->over_budget = 1;
        raise_error(L, "script exceeded its budget of %llu instructions", (unsigned long long)ctx->max_instr);
    }
    if (now_seconds() > ctx->deadline) {
        ctx->over_budget = 2;
        raise_error(L, "script exceeded its time budget of %g s", ctx->max_seconds);
    }
    adapt_hook(ctx, ctx->mem_used, 0);
}

/* Work done inside one C function (the hook only counts VM instructions between calls) is charged to the
 * instruction budget before it starts. */
static void charge(lua_State *L, double steps, const char *lib, const char *what)
{
    rg__lua *ctx = ctx_of(L);
    double left = (double)ctx->max_instr - (double)ctx->instr;
    if (!(steps <= left)) {
        ctx->over_budget = 1;
        raise_error(L, "script exceeded its budget of %llu instructions (%s.%s)", (unsigned long long)ctx->max_instr,
                    lib, what);
    }
    ctx->instr += (uint64_t)steps;
    if (steps >= CLOCK_STEPS && now_seconds() + steps * MIN_SECONDS_PER_STEP > ctx->deadline) {
        ctx->over_budget = 2;
        raise_error(L, "script exceeded its time budget of %g s (%s.%s)", ctx->max_seconds, lib, what);
    }
}

/* The original library function (upvalue 1) called with this call's arguments, its results returned. */
static int call_original(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* An upper bound of the steps of Lua 5.1's backtracking matcher for a subject of n bytes: every start position,
 * every pattern item, and for each item that can expand (`*` `+` `-`, `%b`, back-references) every length again;
 * `?` doubles. A plain find is (n + 1) * (m + 1). Caps at 1e300. */
static double pattern_cost(size_t n, const char *p, size_t m, int plain)
{
    const double per = (double)n + 1.0;
    double cost = per * ((double)m + 1.0);
    for (size_t i = 0; !plain && i < m && cost < 1e300; i++) {
        char c = p[i];
        if (c == '%' && i + 1 < m) {
            char d = p[++i];
            if (d == 'b') {
                cost *= per;
                i += 2;
            } else if (d >= '1' && d <= '9') {
                cost *= per;
            }
        } else if (c == '[') { /* a set: its characters are not quantifiers */
            size_t j = i + 1;
            if (j < m && p[j] == '^')
                j++;
            do {
                if (j < m && p[j] == '%')
                    j++;
                j++;
            } while (j < m && p[j] != ']');
            i = j;
        } else if (c == '*' || c == '+' || c == '-') {
            cost *= per;
        } else if (c == '?') {
            cost *= 2.0;
        }
    }
    return cost < 1e300 ? cost : 1e300;
}

/* Lua 5.1's matcher recurses once per quantifier and capture, with no limit of its own: a pattern of 100,000
 * `a*` overflows the C stack whatever the subject. Patterns are refused above this many special items (classes,
 * quantifiers, captures, %b %f and back-references), as later Luas limit the matcher's depth to 200; under it the
 * recursion stays within a few tens of KiB of stack. */
#define PATTERN_MAX_ITEMS 200

static size_t pattern_items(const char *p, size_t m)
{
    size_t items = 0, i = p && m && p[0] == '^';
    while (i < m) {
        char c = p[i];
        if (c == '(' || c == ')') {
            items++, i++;
            continue;
        }
        if (c == '%' && i + 1 < m && (p[i + 1] == 'b' || p[i + 1] == 'f' || (p[i + 1] >= '0' && p[i + 1] <= '9'))) {
            items++; /* %bxy, %f (its set follows and is counted as a class), %1-%9 */
            i += p[i + 1] == 'b' ? 4 : 2;
            continue;
        }
        int special = 1;
        if (c == '%') {
            i += 2;
        } else if (c == '[') { /* the set's extent as the matcher reads it: the first character is always in it */
            size_t j = i + 1;
            if (j < m && p[j] == '^')
                j++;
            do {
                if (j >= m)
                    break;
                if (p[j] == '%')
                    j++;
                j++;
            } while (j < m && p[j] != ']');
            i = j + 1;
        } else {
            special = c == '.';
            i++;
        }
        if (i < m && (p[i] == '*' || p[i] == '+' || p[i] == '-' || p[i] == '?'))
            special = 1, i++;
        items += (size_t)special;
    }
    return items;
}

/* string.find/match/gmatch/gsub: the original (upvalue 1) after checking the pattern and charging the matcher's
 * worst case. gmatch is charged
 * once: its iterator tries every start position at most once over all its calls. */
static int guarded_pattern(lua_State *L)
{
    size_t n, m;
    const char *subject = luaL_checklstring(L, 1, &n), *pattern = luaL_checklstring(L, 2, &m);
    (void)subject;
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    int plain = name[0] == 'f' && lua_toboolean(L, 4); /* find(s, p, init, plain) */
    if (!plain && pattern_items(pattern, m) > PATTERN_MAX_ITEMS)
        return luaL_error(L, "pattern too complex (more than %d classes, quantifiers and captures)",
                          PATTERN_MAX_ITEMS);
    double cost = pattern_cost(n, pattern, m, plain);
    if (name[0] == 'g' && name[1] == 's' && lua_type(L, 3) == LUA_TSTRING) /* each match copies the replacement */
        cost += ((double)n + 1.0) * ((double)lua_objlen(L, 3) + 1.0);
    charge(L, cost, "string", name);
    return call_original(L);
}

/* string.rep: an empty string repeated 2^53 times allocates nothing but never ends; any other string is charged
 * by its result up to the memory limit, which a longer one runs into. */
static int guarded_rep(lua_State *L)
{
    size_t len;
    luaL_checklstring(L, 1, &len);
    lua_Number n = luaL_checknumber(L, 2);
    if (len == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    double bytes = n > 0 ? (double)len * n : 0;
    double cap = (double)ctx_of(L)->mem_cap;
    charge(L, 1.0 + (bytes < cap ? bytes : cap) / BYTES_PER_STEP, "string", "rep");
    return call_original(L);
}

/* string.sub/upper/lower/reverse/format/byte/char: charged by the bytes of their string arguments (a result equal
 * to an existing string is compared, not allocated, so the allocator does not see that work). */
static int guarded_bytes(lua_State *L)
{
    double bytes = 0;
    for (int i = 1, top = lua_gettop(L); i <= top; i++)
        bytes += lua_type(L, i) == LUA_TSTRING ? (double)lua_objlen(L, i) : 1.0;
    charge(L, 1.0 + bytes / BYTES_PER_STEP, "string", lua_tostring(L, lua_upvalueindex(2)));
    return call_original(L);
}

/* ---- table functions ---- */

static double table_length(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    return (double)lua_objlen(L, 1);
}

/* table.insert/remove move every element after the position; table.concat and foreachi visit i..j. */
static int guarded_shift(lua_State *L)
{
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    double n = table_length(L), work = 1;
    if (name[0] == 'i' && lua_gettop(L) >= 3) /* insert(t, pos, v) */
        work += SHIFT_STEPS * (n - lua_tonumber(L, 2) + 1);
    else if (name[0] == 'r' && lua_gettop(L) >= 2 && lua_tonumber(L, 2) >= 1) /* remove(t, pos): a position */
        work += SHIFT_STEPS * (n - lua_tonumber(L, 2) + 1);                     /* outside 1..n moves nothing */
    else if (name[0] == 'c') /* concat(t, sep, i, j) */
        work += VISIT_STEPS * (luaL_optnumber(L, 4, n) - luaL_optnumber(L, 3, 1) + 1);
    else if (name[0] == 'f') /* foreachi */
        work += VISIT_STEPS * n;
    charge(L, work > 1 ? work : 1, "table", name);
    return call_original(L);
}

/* A comparison of table.sort or a callback of table.foreach, counted as it happens: Lua 5.1's quicksort can be
 * driven to n^2 comparisons, and neither the default comparison nor a C function runs a VM instruction. */
static void count_call(lua_State *L, double steps, const char *what)
{
    rg__lua *ctx = ctx_of(L);
    ctx->instr += (uint64_t)steps;
    if (ctx->instr > ctx->max_instr) {
        ctx->over_budget = 1;
        raise_error(L, "script exceeded its budget of %llu instructions (table.%s)",
                    (unsigned long long)ctx->max_instr, what);
    }
    if ((++ctx->counted_calls & 1023) == 0 && now_seconds() > ctx->deadline) {
        ctx->over_budget = 2;
        raise_error(L, "script exceeded its time budget of %g s (table.%s)", ctx->max_seconds, what);
    }
}

static int counted_less(lua_State *L)
{
    count_call(L, SORT_COMPARE_STEPS, "sort");
    if (lua_isnil(L, lua_upvalueindex(1))) {
        lua_pushboolean(L, lua_lessthan(L, 1, 2));
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

static int counted_callback(lua_State *L)
{
    count_call(L, VISIT_STEPS, "foreach");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* table.sort and table.foreach: the original with its function argument wrapped in a counting one. */
static int guarded_with_callback(lua_State *L)
{
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    int sort = name[0] == 's';
    charge(L, 1 + table_length(L), "table", name);
    if (!sort || !lua_isnoneornil(L, 2))
        luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_pushcclosure(L, sort ? counted_less : counted_callback, 1);
    return call_original(L);
}

/* table.maxn walks every key, hash part included, without calling anything: ours charges as it walks. */
static int guarded_maxn(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Number max = 0;
    unsigned keys = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) > max)
            max = lua_tonumber(L, -1);
        if ((++keys & 1023) == 0)
            charge(L, 1024 * VISIT_STEPS, "table", "maxn");
    }
    lua_pushnumber(L, max);
    return 1;
}

static void guard_function(lua_State *L, const char *lib, const char *name, lua_CFunction guard)
{
    lua_getglobal(L, lib);
    lua_getfield(L, -1, name);
    lua_pushstring(L, name);
    lua_pushcclosure(L, guard, 2);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

/* ---- math.random and math.randomseed on the interpreter's own generator ---- */

/* Lua 5.1's math.random is C's rand(): one generator for the whole process, so a script's draws depended on every
 * other environment and thread, and a restore could not replay them. Same arguments and ranges as 5.1's. */
static uint64_t next_random(rg__lua *ctx)
{
    uint64_t z = (ctx->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int script_random(lua_State *L)
{
    lua_Number r = (lua_Number)(next_random(ctx_of(L)) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, r);
        break;
    case 1: {
        int u = luaL_checkint(L, 1);
        luaL_argcheck(L, 1 <= u, 1, "interval is empty");
        lua_pushnumber(L, floor(r * u) + 1);
        break;
    }
    case 2: {
        int l = luaL_checkint(L, 1), u = luaL_checkint(L, 2);
        luaL_argcheck(L, l <= u, 2, "interval is empty");
        lua_pushnumber(L, floor(r * ((lua_Number)u - l + 1)) + l);
        break;
    }
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    return 1;
}

static int script_randomseed(lua_State *L)
{
    ctx_of(L)->rng = (uint64_t)rg__double_to_i64(luaL_checknumber(L, 1));
    return 0;
}

void rg__lua_set_random(rg__lua *lua, uint64_t state)
{
    lua->rng = state;
}

uint64_t rg__lua_random(const rg__lua *lua)
{
    return lua->rng;
}

/* ---- the `data` global ---- */

static int data_index(lua_State *L)
{
    rg__lua *ctx = ctx_of(L);
    if (lua_type(L, 2) == LUA_TNUMBER) {
        lua_Number a = lua_tonumber(L, 2);
        uint8_t byte;
        if (!(a >= 0) || a >= 18446744073709551616.0 || rg_gamedata_read(ctx->gd, (uint64_t)a, &byte, 1) != RG_OK)
            return luaL_error(L, "Out of bounds access");
        lua_pushnumber(L, byte);
        return 1;
    }
    if (lua_type(L, 2) != LUA_TSTRING)
        return luaL_error(L, "Invalid variable name");
    const char *name = lua_tostring(L, 2);
    long i = rg__gd_index(ctx->gd, name);
    if (i >= 0) {
        int64_t v;
        if (rg__gd_value_at(ctx->gd, (size_t)i, &v) != RG_OK)
            return luaL_error(L, "%s", rg_error_last());
        lua_pushnumber(L, (lua_Number)v);
        return 1;
    }
    rg_value cv;
    if (rg_gamedata_custom_get(ctx->gd, name, &cv) != RG_OK)
        return luaL_error(L, "Unknown variable: %s", name);
    if (cv.kind == RG_VALUE_BOOL)
        lua_pushboolean(L, cv.number != 0);
    else if (cv.kind == RG_VALUE_NUMBER)
        lua_pushnumber(L, cv.number);
    else
        lua_pushnil(L);
    return 1;
}

/* What one custom variable counts against the script memory limit: its name and its entry. */
static size_t custom_cost(size_t name_len)
{
    return name_len + 64;
}

static int data_newindex(lua_State *L)
{
    rg__lua *ctx = ctx_of(L);
    if (!lua_isstring(L, 2)) /* numbers are coerced to names, as in Gym Retro */
        return luaL_error(L, "Invalid variable name");
    const char *name = lua_tostring(L, 2);
    int t = lua_type(L, 3);
    if (t != LUA_TNUMBER && t != LUA_TBOOLEAN && t != LUA_TNIL)
        return luaL_error(L, "Invalid variable type");
    long i = rg__gd_index(ctx->gd, name);
    if (i >= 0) {
        double d = t == LUA_TNUMBER ? lua_tonumber(L, 3) : t == LUA_TBOOLEAN ? lua_toboolean(L, 3) : 0;
        int64_t v = rg__double_to_i64(d);
        if (rg__gd_set_at(ctx->gd, (size_t)i, v) != RG_OK)
            return luaL_error(L, "%s", rg_error_last());
        return 0;
    }
    rg_value cv = {RG_VALUE_NIL, 0};
    if (t == LUA_TNUMBER)
        cv = (rg_value){RG_VALUE_NUMBER, lua_tonumber(L, 3)};
    else if (t == LUA_TBOOLEAN)
        cv = (rg_value){RG_VALUE_BOOL, lua_toboolean(L, 3)};
    rg_value old;
    if (rg_gamedata_custom_get(ctx->gd, name, &old) != RG_OK) {
        /* A new custom variable lives outside the Lua heap: it counts against the same memory limit. */
        size_t cost = custom_cost(lua_objlen(L, 2));
        if (ctx->mem_used + ctx->custom_bytes + cost > ctx->mem_cap) {
            ctx->out_of_memory = 1;
            return raise_error(L, "custom variables exceed the script memory limit of %zu bytes", ctx->mem_cap);
        }
        ctx->custom_bytes += cost;
    }
    if (rg_gamedata_custom_set(ctx->gd, name, cv) != RG_OK)
        return luaL_error(L, "%s", rg_error_last());
    return 0;
}

/* ---- the `scenario` global ---- */

static int scenario_index(lua_State *L)
{
    rg__lua *ctx = ctx_of(L);
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (strcmp(key, "frame") == 0)
        lua_pushnumber(L, (lua_Number)*ctx->frame);
    else if (strcmp(key, "timestep") == 0)
        lua_pushnumber(L, (lua_Number)(*ctx->frame / 4));
    else
        return luaL_error(L, "Unknown scenario property");
    return 1;
}

static int ignore_assignment(lua_State *L)
{
    (void)L;
    return 0;
}

/* pcall and xpcall that cannot swallow the end of a budget or of memory: those errors go on to our caller. */
static int finish_pcall(lua_State *L, int status, int base)
{
    rg__lua *ctx = ctx_of(L);
    if (ctx->over_budget || ctx->out_of_memory)
        return lua_error(L);
    lua_pushboolean(L, status == 0);
    lua_insert(L, base);
    return lua_gettop(L) - base + 1;
}

static int guarded_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    int st = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    return finish_pcall(L, st, 1);
}

static int guarded_xpcall(lua_State *L)
{
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_insert(L, 1); /* handler, function */
    int st = lua_pcall(L, 0, LUA_MULTRET, 1);
    return finish_pcall(L, st, 2);
}

static int no_print(lua_State *L)
{
    (void)L;
    return 0;
}

static void make_proxy(lua_State *L, const char *global, lua_CFunction index, lua_CFunction newindex)
{
    lua_newtable(L);
    lua_newtable(L);
    lua_pushcfunction(L, index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable"); /* getmetatable/setmetatable cannot reach it */
    lua_setmetatable(L, -2);
    lua_setglobal(L, global);
}

static void open_lib(lua_State *L, lua_CFunction open, const char *name)
{
    lua_pushcfunction(L, open);
    lua_pushstring(L, name);
    lua_call(L, 1, 0);
}

static void remove_global(lua_State *L, const char *table, const char *name)
{
    if (table) {
        lua_getglobal(L, table);
        lua_pushnil(L);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
    } else {
        lua_pushnil(L);
        lua_setglobal(L, name);
    }
}

static int setup(lua_State *L)
{
    open_lib(L, luaopen_base, "");
    open_lib(L, luaopen_table, LUA_TABLIBNAME);
    open_lib(L, luaopen_string, LUA_STRLIBNAME);
    open_lib(L, luaopen_math, LUA_MATHLIBNAME);
    /* Everything that reaches files, loads code other than our own, or leaves the sandbox goes. */
    static const char *const banned[] = {"dofile", "loadfile", "load", "loadstring", "require", "module",
                                         "getfenv", "setfenv", "newproxy", "collectgarbage", "gcinfo"};
    for (size_t i = 0; i < sizeof banned / sizeof *banned; i++)
        remove_global(L, NULL, banned[i]);
    remove_global(L, "string", "dump");
    remove_global(L, "coroutine", "create"); /* coroutines would run outside the budget hook's thread */
    remove_global(L, "coroutine", "wrap");
    static const char *const patterns[] = {"find", "match", "gmatch", "gsub"};
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++)
        guard_function(L, LUA_STRLIBNAME, patterns[i], guarded_pattern);
    guard_function(L, LUA_STRLIBNAME, "rep", guarded_rep);
    static const char *const bytes[] = {"sub", "upper", "lower", "reverse", "format", "byte", "char"};
    for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++)
        guard_function(L, LUA_STRLIBNAME, bytes[i], guarded_bytes);
    static const char *const shifts[] = {"insert", "remove", "concat", "foreachi"};
    for (size_t i = 0; i < sizeof shifts / sizeof *shifts; i++)
        guard_function(L, LUA_TABLIBNAME, shifts[i], guarded_shift);
    guard_function(L, LUA_TABLIBNAME, "sort", guarded_with_callback);
    guard_function(L, LUA_TABLIBNAME, "foreach", guarded_with_callback);
    guard_function(L, LUA_TABLIBNAME, "maxn", guarded_maxn);
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_pushcfunction(L, script_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, script_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    lua_pushcfunction(L, no_print);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, guarded_pcall);
    lua_setglobal(L, "pcall");
    lua_pushcfunction(L, guarded_xpcall);
    lua_setglobal(L, "xpcall");
    make_proxy(L, "data", data_index, data_newindex);
    make_proxy(L, "scenario", scenario_index, ignore_assignment);
    return 0;
}

static void arm(rg__lua *ctx)
{
    ctx->armed = 1;
    ctx->alloc_since_clock = 0;
    ctx->instr = 0;
    ctx->over_budget = 0;
    ctx->out_of_memory = 0;
    ctx->deadline = now_seconds() + ctx->max_seconds;
    adapt_hook(ctx, ctx->mem_used, 0);
}

/* Maps a failed pcall to an error code and message, and pops the message. */
static int call_error(rg__lua *ctx, int status, const char *what)
{
    const char *msg = lua_tostring(ctx->L, -1);
    char budget[128];
    if (ctx->over_budget && (status == LUA_ERRMEM || (msg && strcmp(msg, "not enough memory") == 0))) { /* an allocation refused by the budget (lua_alloc) */
        if (ctx->over_budget == 1)
            snprintf(budget, sizeof budget, "script exceeded its budget of %llu instructions",
                     (unsigned long long)ctx->max_instr);
        else
            snprintf(budget, sizeof budget, "script exceeded its time budget of %g s", ctx->max_seconds);
        msg = budget;
    }
    int code = ctx->over_budget ? RG_ETIMEOUT : (status == LUA_ERRMEM || ctx->out_of_memory) ? RG_ENOMEM : RG_ECORRUPT;
    rg__error(code, "Lua %s failed: %s", what, msg ? msg : "(error object is not a string)");
    lua_pop(ctx->L, 1);
    /* A call cut short by a budget or the memory limit leaves its garbage (Lua 5.1 collects nothing when an
     * allocation fails): collected now, so the next call starts with the memory the script really holds. */
    if (code != RG_ECORRUPT)
        lua_gc(ctx->L, LUA_GCCOLLECT, 0);
    return code;
}

int rg__lua_create(rg__lua **out, const rg_script_limits *limits, const uint64_t *frame)
{
    rg__lua *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return rg__error(RG_ENOMEM, "out of memory");
    ctx->mem_cap = limits && limits->memory ? limits->memory : (size_t)64 << 20;
    ctx->max_instr = limits && limits->instructions ? limits->instructions : 50000000u;
    ctx->max_seconds = limits && limits->seconds > 0 ? limits->seconds : 2.0;
    ctx->frame = frame;
    ctx->L = lua_newstate(lua_alloc, ctx);
    if (!ctx->L) {
        free(ctx);
        return rg__error(RG_ENOMEM, "cannot create a Lua interpreter");
    }
    lua_atpanic(ctx->L, NULL);
    int st = lua_cpcall(ctx->L, setup, NULL);
    if (st != 0) {
        int rc = call_error(ctx, st, "setup");
        rg__lua_free(ctx);
        return rc;
    }
    ctx->hook_every = HOOK_EVERY;
    lua_sethook(ctx->L, budget_hook, LUA_MASKCOUNT, HOOK_EVERY);
    *out = ctx;
    return RG_OK;
}

void rg__lua_free(rg__lua *lua)
{
    if (!lua)
        return;
    if (lua->L)
        lua_close(lua->L);
    free(lua);
}

void rg__lua_bind(rg__lua *lua, rg_gamedata *gd)
{
    lua->gd = gd;
}

int rg__lua_run(rg__lua *lua, const char *name, const char *source)
{
    uint8_t *file = NULL;
    size_t len;
    if (!source) {
        int rc = rg__read_file(name, SCRIPT_MAX_SIZE, &file, &len);
        if (rc != RG_OK)
            return rg__error_context(rc, "script");
        source = (const char *)file;
    } else {
        len = strlen(source);
    }
    if (len > 0 && source[0] == LUA_SIGNATURE[0]) {
        free(file);
        return rg__error(RG_ECORRUPT, "script %s is precompiled Lua bytecode, which is not accepted", name);
    }
    char chunk[256];
    snprintf(chunk, sizeof chunk, "@%s", name);
    int st = luaL_loadbuffer(lua->L, source, len, chunk);
    free(file);
    if (st != 0)
        return call_error(lua, st, "load");
    arm(lua);
    st = lua_pcall(lua->L, 0, 0, 0);
    lua->armed = 0;
    return st == 0 ? RG_OK : call_error(lua, st, "script");
}

typedef struct call_args {
    const char *function;
    int found;
    double result;
} call_args;

/* The lookup is inside the protected call too: a metatable on the globals can run code (or fail) there, and an
 * error outside any protected call would end the process through Lua's panic. */
static int call_protected(lua_State *L)
{
    call_args *a = lua_touserdata(L, 1);
    lua_getglobal(L, a->function);
    if (!lua_isfunction(L, -1))
        return 0;
    a->found = 1;
    lua_call(L, 0, 1);
    int t = lua_type(L, -1);
    a->result = t == LUA_TNUMBER ? lua_tonumber(L, -1) : t == LUA_TBOOLEAN ? lua_toboolean(L, -1) : 0;
    return 0;
}

int rg__lua_call(rg__lua *lua, const char *function, double *result)
{
    call_args a = {function, 0, 0};
    arm(lua);
    int st = lua_cpcall(lua->L, call_protected, &a);
    lua->armed = 0;
    if (st != 0)
        return call_error(lua, st, "call");
    if (!a.found)
        return rg__error(RG_ENOTFOUND, "Lua call failed: no function named \"%s\"", function);
    *result = a.result;
    return RG_OK;
}

/* ---- snapshots of global values ---- */

static int plain_global(lua_State *L)
{
    return lua_type(L, -2) == LUA_TSTRING &&
           (lua_type(L, -1) == LUA_TNUMBER || lua_type(L, -1) == LUA_TBOOLEAN || lua_type(L, -1) == LUA_TSTRING);
}

void rg__lua_snapshot(rg__lua *lua, rg__wbuf *w)
{
    lua_State *L = lua->L;
    uint64_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, LUA_GLOBALSINDEX)) {
        n += plain_global(L);
        lua_pop(L, 1);
    }
    rg__w_u64(w, n);
    lua_pushnil(L);
    while (lua_next(L, LUA_GLOBALSINDEX)) {
        if (plain_global(L)) {
            size_t klen, vlen;
            const char *k = lua_tolstring(L, -2, &klen);
            rg__w_u64(w, klen);
            rg__w_bytes(w, k, klen);
            int t = lua_type(L, -1);
            rg__w_u64(w, (uint64_t)t);
            if (t == LUA_TNUMBER) {
                lua_Number d = lua_tonumber(L, -1);
                uint64_t bits;
                memcpy(&bits, &d, 8);
                rg__w_u64(w, bits);
            } else if (t == LUA_TBOOLEAN) {
                rg__w_u64(w, (uint64_t)lua_toboolean(L, -1));
            } else {
                const char *v = lua_tolstring(L, -1, &vlen);
                rg__w_u64(w, vlen);
                rg__w_bytes(w, v, vlen);
            }
        }
        lua_pop(L, 1);
    }
}

int rg__lua_snapshot_check(rg__lua *lua)
{
    rg__wbuf count = {NULL, 0, 0, 0};
    rg__lua_snapshot(lua, &count);
    if (count.len <= RG__LUA_SNAPSHOT_MAX)
        return RG_OK;
    return rg__error(RG_ETOOBIG,
                     "the scenario scripts' global numbers, strings and booleans take %.1f MiB in a snapshot, more "
                     "than its limit of %zu KiB: keep large strings in local variables or tables, which snapshots "
                     "do not hold",
                     (double)count.len / (1 << 20), RG__LUA_SNAPSHOT_MAX >> 10);
}

static int clear_plain_globals(lua_State *L)
{
    /* Collect first: a table must not change while lua_next walks it. */
    lua_newtable(L);
    int list = lua_gettop(L), n = 0;
    lua_pushnil(L);
    while (lua_next(L, LUA_GLOBALSINDEX)) {
        if (plain_global(L)) {
            lua_pushvalue(L, -2);
            lua_rawseti(L, list, ++n);
        }
        lua_pop(L, 1);
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        lua_pushnil(L);
        lua_settable(L, LUA_GLOBALSINDEX);
    }
    lua_pop(L, 1);
    return 0;
}

static int restore_values(lua_State *L)
{
    rg__rbuf *r = lua_touserdata(L, 1);
    clear_plain_globals(L);
    uint64_t n = rg__r_u64(r);
    for (uint64_t i = 0; i < n && !r->bad; i++) {
        uint64_t klen = rg__r_u64(r);
        const char *k = rg__r_bytes(r, (size_t)klen);
        uint64_t t = rg__r_u64(r);
        if (!k)
            break;
        lua_pushlstring(L, k, (size_t)klen);
        if (t == LUA_TNUMBER) {
            uint64_t bits = rg__r_u64(r);
            lua_Number d;
            memcpy(&d, &bits, 8);
            lua_pushnumber(L, d);
        } else if (t == LUA_TBOOLEAN) {
            lua_pushboolean(L, rg__r_u64(r) != 0);
        } else if (t == LUA_TSTRING) {
            uint64_t vlen = rg__r_u64(r);
            const char *v = rg__r_bytes(r, (size_t)vlen);
            if (!v) {
                lua_pop(L, 1);
                break;
            }
            lua_pushlstring(L, v, (size_t)vlen);
        } else {
            r->bad = 1;
            lua_pop(L, 1);
            break;
        }
        lua_settable(L, LUA_GLOBALSINDEX);
    }
    return 0;
}

int rg__lua_restore(rg__lua *lua, rg__rbuf *r)
{
    /* The custom variables are the snapshot's now (rg__gamedata_restore ran first): so is their memory. Counting
     * only ever up made search agents, which restore and step in a loop, run into the limit after ~850 rounds. */
    lua->custom_bytes = 0;
    for (size_t i = 0; lua->gd && i < lua->gd->n_custom; i++)
        lua->custom_bytes += custom_cost(strlen(lua->gd->custom[i].name));
    arm(lua);
    int st = lua_cpcall(lua->L, restore_values, r);
    lua->armed = 0;
    if (st != 0)
        return call_error(lua, st, "restore");
    return r->bad ? rg__error(RG_ECORRUPT, "the snapshot is truncated") : RG_OK;
}
