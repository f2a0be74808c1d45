/*
 * meadhall.games.voluspa._search: the Völuspá search engine, in C.
 *
 * A second implementation of the rules of src/meadhall/games/voluspa/state.py, without
 * events or explanations, for bots and benchmarks. The Python engine is the reference:
 * tests/voluspa/test_search_engine.py plays thousands of random positions through both
 * and requires the same legal actions, the same scores and the same state after every
 * step. Any rule change goes into state.py first, then here.
 *
 * Actions are ints ("codes"):
 *   bits 0-1  type: 0 place, 1 bump, 2 end, 3 discard
 *   bits 2-6  tile kind (index in the tile table)
 *   bits 7-20 cell: (y + 64) * 128 + (x + 64)
 *   bits 21-23 boost (Freyas discarded)
 *   bits 24-25 bump direction: 0 N, 1 E, 2 S, 3 W
 *   bits 26-27 line: 0 none, 1 row, 2 col
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "rng.h" /* meadhall.core.rng in C: next64, seed_rng, below, shuffle_bytes */
#include "search_ext.h" /* read_ints, read_bytes, search_module: the glue both engines share */

#define G 128
#define OFF 64
#define NK 17
#define MAXP 5
#define MAXOCC 200
#define MAXPILE 160
/* The rules' constants (state.py is the source): exported as RULES, which the bridge compares
   with the Python values at import, so that an engine built from other numbers does not load. */
#define HAND_SIZE 5
#define MAX_LINE 7
#define EDGE 60

/* Each numbering is written once, as a list of (C symbol, name in Python) that makes both the enum
   and the names the module exports (NAMES); the bridge checks at import that they are the Python
   engine's (tiles.KNOWN_CODES, state.STAGE_NAMES). */
#define ENUM_SYMBOL(symbol, name) symbol,
#define ENUM_NAME(symbol, name) name,
#define TILE_NAMES(X)                                                                                         \
    X(OD, "OD") X(TH, "TH") X(TR, "TR") X(DR, "DR") X(FE, "FE") X(SK, "SK") X(VA, "VA") X(LO, "LO") X(HE, "HE") \
    X(HM, "HM") X(JO, "JO") X(SS, "SS") X(DW, "DW") X(FR, "FR") X(RA, "RA") X(NI, "NI") X(LB, "LB")
enum { TILE_NAMES(ENUM_SYMBOL) };
#define STAGE_NAMES(X) X(MAIN, "play") X(HERMOD, "hermod") X(RAVEN, "raven") X(DISCARD_DOWN, "discard-down")
enum { STAGE_NAMES(ENUM_SYMBOL) };
static const char *const TILE_NAMES_[] = {TILE_NAMES(ENUM_NAME)};
static const char *const STAGE_NAMES_[] = {STAGE_NAMES(ENUM_NAME)};
_Static_assert(sizeof TILE_NAMES_ / sizeof TILE_NAMES_[0] == NK, "NK is the number of tile kinds");
enum { NORMAL, COVER, SWAP, BUMP };
enum { T_PLACE = 0, T_BUMP = 1, T_END = 2, T_DISCARD = 3 };

static int FACE[NK];
static int SUPPLY0[32];
static int MAX_TOKEN = 12;
static int tables_set = 0;

static const int DIRSTEP[4] = {-G, 1, G, -1};

#define PIECE(kind, boost) ((uint8_t)(((kind) + 1) | ((boost) << 5)))
#define PKIND(p) (((p) & 31) - 1)
#define PBOOST(p) ((p) >> 5)

#define CODE(type, kind, cell, boost, dir, line)                                         \
    ((long)(type) | ((long)(kind) << 2) | ((long)(cell) << 7) | ((long)(boost) << 21) | \
     ((long)(dir) << 24) | ((long)(line) << 26))
#define C_TYPE(c) ((int)((c)&3))
#define C_KIND(c) ((int)(((c) >> 2) & 31))
#define C_CELL(c) ((int)(((c) >> 7) & 16383))
#define C_BOOST(c) ((int)(((c) >> 21) & 7))
#define C_DIR(c) ((int)(((c) >> 24) & 3))
#define C_LINE(c) ((int)(((c) >> 26) & 3))

typedef struct {
    uint8_t grid[G * G];
    uint16_t occ[MAXOCC];
    int nocc;
    uint8_t hands[MAXP][NK];
    uint8_t known[MAXP][NK];
    uint8_t pile[MAXPILE];
    int npile;
    uint8_t discards[NK];
    uint8_t box[NK];
    uint8_t supply[32];
    int scores[MAXP];
    int reached[MAXP];
    int players;
    int current;
    int stage;
    int hermod;
    int raven;
    int turn_swapped;
    int turn_plays;
    int turn_first_hel;
    int ply;
    int turn_number;
    int finished;
    int overflow;
    uint32_t kinds_mask;
    uint8_t kinds[NK];
    int nkinds;
    int auto_best;
    int no_late_hel;
    uint64_t rng[4];
} Core;

typedef struct {
    PyObject_HEAD Core c;
} SearchState;

static PyTypeObject SearchStateType;

/* ---------------------------------------------------------------- board helpers */

static inline int kind_at(const Core *c, int cell) { return c->grid[cell] ? PKIND(c->grid[cell]) : -1; }

static inline int is_line_tile(const Core *c, int cell) {
    uint8_t p = c->grid[cell];
    return p && PKIND(p) != HE;
}

/* Whether a neighbour of cell is a tile of kind k: the four looked at together, without a branch each (the
   generator asks it of every cell next to the board, and which neighbours are empty follows no pattern). */
static inline int kind_adjacent(const Core *c, int cell, int k) {
    const uint8_t *g = c->grid + cell;
    int piece = k + 1; /* (p & 31) == k + 1: a tile of kind k (an empty cell is 0) */
    return ((g[-G] & 31) == piece) | ((g[1] & 31) == piece) | ((g[G] & 31) == piece) | ((g[-1] & 31) == piece);
}

static inline int troll_adjacent(const Core *c, int cell) { return kind_adjacent(c, cell, TR); }

static inline int loki_adjacent(const Core *c, int cell) { return kind_adjacent(c, cell, LO); }

static inline int touches(const Core *c, int cell) {
    for (int d = 0; d < 4; d++)
        if (c->grid[cell + DIRSTEP[d]]) return 1;
    return 0;
}

static inline int run_len(const Core *c, int cell, int step) {
    int n = 0;
    int cur = cell + step;
    while (is_line_tile(c, cur)) {
        n++;
        cur += step;
    }
    return n;
}

static int own_value(const Core *c, int cell, uint8_t p) {
    int k = PKIND(p);
    if (k != LO && loki_adjacent(c, cell)) return 0;
    return FACE[k] + PBOOST(p);
}

static int line_cells(const Core *c, int cell, int step, int *out) {
    int start = cell;
    while (is_line_tile(c, start - step)) start -= step;
    int n = 0;
    int cur = start;
    while (is_line_tile(c, cur)) {
        out[n++] = cur;
        cur += step;
    }
    return n;
}

static void line_values(const Core *c, const int *cells, int n, int *values) {
    int pack = 0, has_fenrir = 0;
    for (int i = 0; i < n; i++) {
        uint8_t p = c->grid[cells[i]];
        values[i] = own_value(c, cells[i], p);
        if (PKIND(p) == FE) {
            has_fenrir = 1;
            pack += values[i];
        }
    }
    if (has_fenrir)
        for (int i = 0; i < n; i++)
            if (PKIND(c->grid[cells[i]]) == FE && values[i] > 0) values[i] = pack;
}

static int value_in_line(const Core *c, int cell, int step) {
    uint8_t p = c->grid[cell];
    if (PKIND(p) != FE) return own_value(c, cell, p);
    int v = own_value(c, cell, p);
    if (v == 0) return 0;
    int cells[G];
    int n = line_cells(c, cell, step, cells);
    int total = 0;
    for (int i = 0; i < n; i++)
        if (PKIND(c->grid[cells[i]]) == FE) total += own_value(c, cells[i], c->grid[cells[i]]);
    return total;
}

static int count_nio(const Core *c, const int *cells, int n) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (PKIND(c->grid[cells[i]]) == NI) k++;
    return k;
}

/* ---------------------------------------------------------------- scoring */

static int judge_line(const Core *c, int cell, int step, int covered_nio) {
    int cells[G], values[G];
    int n = line_cells(c, cell, step, cells);
    if (n < 2) return 0;
    int kind = PKIND(c->grid[cell]);
    int first = PKIND(c->grid[cells[0]]), last = PKIND(c->grid[cells[n - 1]]);
    int dominates;
    if (first == VA && last == VA) {
        dominates = kind == VA && (cell == cells[0] || cell == cells[n - 1]);
    } else {
        line_values(c, cells, n, values);
        int index = 0;
        for (int i = 0; i < n; i++)
            if (cells[i] == cell) index = i;
        int mine = values[index];
        dominates = 1;
        if (kind == FE) {
            if (own_value(c, cell, c->grid[cell]) <= 0) dominates = 0;
            for (int i = 0; i < n && dominates; i++)
                if (PKIND(c->grid[cells[i]]) != FE && !(mine > values[i])) dominates = 0;
        } else {
            for (int i = 0; i < n && dominates; i++)
                if (i != index && !(mine > values[i])) dominates = 0;
        }
    }
    if (!dominates) return 0;
    return n + 2 * count_nio(c, cells, n) + (covered_nio ? 2 : 0);
}

static const int AROUND[8] = {-G - 1, -G, -G + 1, -1, 1, G - 1, G, G + 1};

static int score_hel(const Core *c, int cell, int covered_nio) {
    int n = 0;
    for (int i = 0; i < 8; i++)
        if (is_line_tile(c, cell + AROUND[i])) n++;
    return n + (covered_nio ? 2 : 0);
}

static int score_dwarf(const Core *c, int cell) {
    int total = 0;
    for (int d = 0; d < 4; d++) {
        int nb = cell + DIRSTEP[d];
        if (!is_line_tile(c, nb)) continue;
        int axis = (d == 0 || d == 2) ? G : 1;
        total += value_in_line(c, nb, axis);
    }
    return total / 2;
}

static int judge_serpent(const Core *c, int cell, int step) {
    int x = cell % G, y = cell / G;
    int lo = cell, hi = cell;
    for (int i = 0; i < c->nocc; i++) {
        int o = c->occ[i];
        uint8_t p = c->grid[o];
        if (!p || PKIND(p) == HE) continue;
        if ((step == 1 && o / G == y) || (step == G && o % G == x)) {
            if (o < lo) lo = o;
            else if (o > hi) hi = o;
        }
    }
    int mine = own_value(c, cell, c->grid[cell]);
    int best = -1, others = 0, nio = 0, span = 0;
    for (int o = lo; o <= hi; o += step) {
        span++;
        if (!is_line_tile(c, o)) continue;
        if (PKIND(c->grid[o]) == NI) nio++;
        if (o == cell) continue;
        others++;
        int v = value_in_line(c, o, step);
        if (v > best) best = v;
    }
    if (!others) return 0;
    int line[G];
    int n = line_cells(c, cell, step, line);
    if (n >= 2 && PKIND(c->grid[line[0]]) == VA && PKIND(c->grid[line[n - 1]]) == VA) return 0;
    if (mine > best) return span + 2 * nio;
    return 0;
}

/* The Lightning Bolt's candidate lines: writes steps (1 or G) into out, returns count. */
static int lightning_lines(const Core *c, int cell, int *out) {
    int cells[G];
    int row = line_cells(c, cell, 1, cells);
    int col = line_cells(c, cell, G, cells);
    int n = 0;
    if (row >= 2 && col >= 2) {
        if (row < col) out[n++] = 1;
        else if (col < row) out[n++] = G;
        else {
            out[n++] = 1;
            out[n++] = G;
        }
    } else if (row >= 2) out[n++] = 1;
    else if (col >= 2) out[n++] = G;
    return n;
}

static int judge_lightning(const Core *c, int cell, int step, int covered_nio) {
    if (step == 0) return 1 + (covered_nio ? 2 : 0);
    int cells[G];
    int n = line_cells(c, cell, step, cells);
    return n + 2 * count_nio(c, cells, n) + (covered_nio ? 2 : 0);
}

static int score_lines(const Core *c, int cell, int covered_nio) {
    int lonely = 1;
    for (int d = 0; d < 4; d++)
        if (is_line_tile(c, cell + DIRSTEP[d])) lonely = 0;
    if (lonely) {
        int kind = PKIND(c->grid[cell]);
        return 1 + (kind == NI ? 2 : 0) + (covered_nio ? 2 : 0);
    }
    return judge_line(c, cell, 1, covered_nio) + judge_line(c, cell, G, covered_nio);
}

/* line: 0 none, 1 row, 2 col (already resolved for Sea Serpent / Lightning Bolt). */
static int score_placement(const Core *c, int cell, int covered_nio, int line) {
    int kind = PKIND(c->grid[cell]);
    if (kind == HE) return score_hel(c, cell, covered_nio);
    if (kind == DW) return score_dwarf(c, cell);
    if (kind == SS) return judge_serpent(c, cell, line == 2 ? G : 1);
    if (kind == LB) {
        int options[2];
        int n = lightning_lines(c, cell, options);
        if (!n) return judge_lightning(c, cell, 0, covered_nio);
        int step = line == 2 ? G : 1;
        int ok = 0;
        for (int i = 0; i < n; i++)
            if (options[i] == step) ok = 1;
        if (!ok) step = options[0];
        return judge_lightning(c, cell, step, covered_nio);
    }
    return score_lines(c, cell, covered_nio);
}

static int best_line(const Core *c, int kind, int cell, int covered_nio) {
    int row, col;
    if (kind == SS) {
        row = judge_serpent(c, cell, 1);
        col = judge_serpent(c, cell, G);
    } else {
        int options[2];
        int n = lightning_lines(c, cell, options);
        if (n < 2) return (n == 0 || options[0] == 1) ? 1 : 2;
        row = judge_lightning(c, cell, 1, covered_nio);
        col = judge_lightning(c, cell, G, covered_nio);
    }
    return col > row ? 2 : 1;
}

/* ---------------------------------------------------------------- legality helpers */

static int in_hermod_line(const Core *c, int cell, int extra) {
    int target = c->hermod;
    if (cell == target) return 1;
    int step;
    if (cell / G == target / G) step = target > cell ? 1 : -1;
    else if ((cell - target) % G == 0) step = target > cell ? G : -G;
    else return 0;
    int cur = cell + step;
    while (cur != target) {
        if (cur != extra && !is_line_tile(c, cur)) return 0;
        cur += step;
    }
    return 1;
}

/* Returns 1 and the destination if the Jotunn may bump the tile at cell towards step. */
static int bump_ok(const Core *c, int cell, int step, int *dest_out) {
    uint8_t moved = c->grid[cell];
    int dest = cell + step;
    while (is_line_tile(c, dest)) dest += step;
    *dest_out = dest;
    if (c->grid[dest]) return 0; /* a Hel blocks the way */
    int perp = (step == 1 || step == -1) ? G : 1;
    if (1 + run_len(c, dest, -step) + run_len(c, dest, step) > MAX_LINE) return 0;
    if (1 + run_len(c, dest, perp) + run_len(c, dest, -perp) > MAX_LINE) return 0;
    if (PKIND(moved) != TR && troll_adjacent(c, dest)) return 0;
    for (int d = 0; d < 4; d++) {
        int nb = cell + DIRSTEP[d];
        uint8_t near = nb == dest ? moved : c->grid[nb];
        if (near && PKIND(near) == TR) return 0;
    }
    return 1;
}

/* The tiles in a hand: its first sixteen counts added as 16-bit lanes of two words, then the seventeenth (every step
   asks it of each seat, and a loop over the kinds cost as much as applying the step, by perf). */
static int hand_total(const Core *c, int seat) {
    _Static_assert(NK == 17, "hand_total adds sixteen counts and one");
    const uint8_t *hand = c->hands[seat];
    uint64_t low, high;
    memcpy(&low, hand, 8);
    memcpy(&high, hand + 8, 8);
    const uint64_t even = 0x00FF00FF00FF00FFULL;
    uint64_t lanes = (low & even) + ((low >> 8) & even) + (high & even) + ((high >> 8) & even);
    return (int)((lanes * 0x0001000100010001ULL) >> 48) + hand[16];
}

static int hand_size(const Core *c, int seat) { return hand_total(c, seat) - c->hands[seat][HE]; }

/* ---------------------------------------------------------------- legal generation */

#define V_WINDOW 32 /* the vector backend's window (spaces.WINDOW), its cells, and the indices a game keeps */
#define V_CELLS (V_WINDOW * V_WINDOW)
#define V_MAXSET 4096

/* The vector backend's sink: where a generation has one, its plays go into a game's list of action indices (v_sink,
   below) instead of becoming codes. gen_plays works on a copy of it in its own frame (gen_plays_into), so that the
   stores into the list, which may alias any int, do not make every play reload the sink's fields. */
struct VSink {
    const int (*first)[NK][3][4][8]; /* Vec.first: (type, kind, line, dir, boost) -> the head's first index, -1 none */
    int32_t *set;                /* the game's indices (VGame.set), V_MAXSET of them at most */
    int nset;                    /* how many; -1: more than V_MAXSET (the rest went into row) */
    uint8_t *row;                /* the mask row that takes the plays past V_MAXSET */
    int x0, y0, outside;
    int cell, at; /* the last cell sunk and its place in the window (-1 outside): a cell's plays come together */
    int sunk;     /* plays sunk this generation */
};

/* The frontier: the empty cells next to the board, each with which normal tiles (all but Hel and the Lightning Bolt)
   it may take. gen_plays reads it; it is built anew for each generation (frontier_build) or, by the vector backend,
   kept up to date move by move (frontier_touch). tests/rl/test_vector.py compares the two. */
#define MAXFRONT (4 * MAXOCC)
enum { SHUT, TROLL_NEAR, OPEN }; /* no normal tile (a line would pass MAX_LINE), Trolls and Dwarves only, any */

typedef struct {
    int n;
    uint16_t cell[MAXFRONT];
    uint8_t open[MAXFRONT];
} Frontier;

/* Which normal tiles the empty cell next to the board may take (SHUT, TROLL_NEAR or OPEN). */
static inline int cell_opening(const Core *c, int cell) {
    if (1 + run_len(c, cell, 1) + run_len(c, cell, -1) > MAX_LINE) return SHUT;
    if (1 + run_len(c, cell, G) + run_len(c, cell, -G) > MAX_LINE) return SHUT;
    return troll_adjacent(c, cell) ? TROLL_NEAR : OPEN;
}

static uint32_t stamp_gen = 0;
static uint32_t stamps[G * G];

/* The frontier of the board as it is, in the order of the occupied list and of DIRSTEP. */
static void frontier_build(const Core *c, Frontier *f) {
    uint32_t gen = ++stamp_gen; /* a local copy: as stamps has its type, each write to it would reload the global */
    if (gen == 0) {
        memset(stamps, 0, sizeof(stamps));
        gen = stamp_gen = 1;
    }
    f->n = 0;
    for (int i = 0; i < c->nocc; i++) {
        int cell = c->occ[i];
        if (!c->grid[cell]) continue;
        for (int d = 0; d < 4; d++) {
            int nb = cell + DIRSTEP[d];
            if (c->grid[nb] || stamps[nb] == gen) continue;
            stamps[nb] = gen;
            f->cell[f->n] = (uint16_t)nb;
            f->open[f->n++] = (uint8_t)cell_opening(c, nb);
        }
    }
}

/* The frontier the vector backend keeps: the list and each cell's place in it plus one (0: not in it), so that keeping
   it looks a cell up by its position instead of searching the list. */
typedef struct {
    Frontier f;
    uint16_t at[G * G];
} KeptFrontier;

/* k built anew for the board as it is (its places of the former list cleared first). */
static void kept_build(const Core *c, KeptFrontier *k) {
    for (int i = 0; i < k->f.n; i++) k->at[k->f.cell[i]] = 0;
    frontier_build(c, &k->f);
    for (int i = 0; i < k->f.n; i++) k->at[k->f.cell[i]] = (uint16_t)(i + 1);
}

/* Puts cell in the frontier with its opening, or takes it out, as the board now says. */
static void frontier_set(const Core *c, KeptFrontier *k, int cell) {
    Frontier *f = &k->f;
    int at = k->at[cell] - 1;
    if (c->grid[cell] || !touches(c, cell)) {
        if (at >= 0) { /* the last cell takes its place */
            f->n--;
            f->cell[at] = f->cell[f->n];
            f->open[at] = f->open[f->n];
            k->at[f->cell[at]] = (uint16_t)(at + 1);
            k->at[cell] = 0;
        }
        return;
    }
    if (at < 0) {
        if (f->n >= MAXFRONT) return; /* unreachable: at most four empty neighbours per tile */
        at = f->n++;
        f->cell[at] = (uint16_t)cell;
        k->at[cell] = (uint16_t)(at + 1);
    }
    f->open[at] = (uint8_t)cell_opening(c, cell);
}

/* After the cell x changed (a tile laid on it, covered, moved off it): the cells whose place in the frontier this can
   change are x, its neighbours (next to the board, next to a Troll) and, on each side, the first cell past the line
   tiles from x (the length of its lines). */
static void frontier_touch(const Core *c, KeptFrontier *f, int x) {
    frontier_set(c, f, x);
    for (int d = 0; d < 4; d++) { /* only x changed, so a tile elsewhere was not in the frontier and is not now */
        int nb = x + DIRSTEP[d];
        if (!c->grid[nb]) {
            frontier_set(c, f, nb);
            continue;
        }
        while (is_line_tile(c, nb)) nb += DIRSTEP[d];
        if (!c->grid[nb]) frontier_set(c, f, nb);
    }
}

typedef struct {
    long *codes;
    int n;
    int cap;
    int stop_at_first;
    struct VSink *sink;
    int sunk;              /* plays that went to the sink rather than into codes */
    const Frontier *front; /* the frontier kept by the caller, or NULL: gen_plays builds it */
} CodeList;


static int push(CodeList *out, long code) {
    if (out->n >= out->cap) {
        int cap = out->cap ? out->cap * 2 : 256;
        long *grown = (long *)PyMem_Realloc(out->codes, sizeof(long) * (size_t)cap);
        if (!grown) return -1;
        out->codes = grown;
        out->cap = cap;
    }
    out->codes[out->n++] = code;
    return 0;
}

static int boosts_for(const Core *c, int kind, int *boosts) {
    int n = 0;
    boosts[n++] = 0;
    if (kind == HE || c->stage == RAVEN) return n;
    const uint8_t *hand = c->hands[c->current];
    int spare = hand[FR] - (kind == FR ? 1 : 0);
    for (int b = 1; b <= spare && b < 8; b++) {
        int v = FACE[kind] + b;
        if (v <= MAX_TOKEN && c->supply[v] > 0) boosts[n++] = b;
    }
    return n;
}

/* The plays of the generator (emit) of one cell, kind, line and direction, one per boost in boosts, straight into the
   game's list as their action indices (v_index without the codes); their bytes are set after the generation
   (v_show_mask), but for those past V_MAXSET. */
static inline __attribute__((always_inline)) void v_sink(struct VSink *s, int type, int kind, int cell, int dir,
                                                         int line, const int *boosts, int nb) {
    if (cell != s->cell) {
        unsigned column = (unsigned)cell % G - OFF - s->x0, row = (unsigned)cell / G - OFF - s->y0;
        s->cell = cell;
        s->at = column < V_WINDOW && row < V_WINDOW ? (int)(row * V_WINDOW + column) : -1;
    }
    const int *first = s->first[type][kind][line][dir];
    s->sunk += nb;
    for (int b = 0; b < nb; b++) {
        int head = first[boosts[b]];
        if (s->at < 0 || head < 0) {
            s->outside = 1;
            return;
        }
        if (s->nset >= 0 && s->nset < V_MAXSET) s->set[s->nset++] = head + s->at;
        else {
            s->nset = -1;
            s->row[head + s->at] = 1;
        }
    }
}

/* The boosts of each kind in hand, worked out once a generation: they depend on the hand, stage and supply only. */
typedef struct {
    int n[NK];
    int b[NK][8];
} Boosts;

/* Inlined where gen_plays calls it, so that each call is made for its type (a call and its register saving cost as much
   as a play into the mask, by callgrind). s: gen_plays_into's copy of out->sink (NULL: codes only). */
static inline __attribute__((always_inline)) int emit(Core *c, CodeList *out, struct VSink *s, const Boosts *boosted,
                                                      int auto_best, int type, int kind, int cell, int dir) {
    const int *boosts = boosted->b[kind];
    int nb = boosted->n[kind];
    int lines[2] = {0, 0};
    int nl = 1;
    if (type == T_PLACE && kind == SS && !auto_best) {
        lines[0] = 1;
        lines[1] = 2;
        nl = 2;
    } else if (type == T_PLACE && kind == LB && !auto_best) {
        int options[2];
        if (lightning_lines(c, cell, options) == 2) {
            lines[0] = 1;
            lines[1] = 2;
            nl = 2;
        }
    }
    if (s && nl == 1) { /* the vector backend's mask, without codes */
        v_sink(s, type, kind, cell, dir, lines[0], boosts, nb);
        return 0;
    }
    for (int l = 0; l < nl; l++)
        for (int b = 0; b < nb; b++)
            if (s && lines[l] != 1) /* a row form stays a code: the mask may need its plain form too */
                v_sink(s, type, kind, cell, dir, lines[l], boosts + b, 1);
            else if (push(out, CODE(type, kind, cell, boosts[b], dir, lines[l])) < 0) return -1;
    return 0;
}

static Frontier built; /* gen_plays' frontier where the caller keeps none */

/* gen_plays, made once for codes only (s NULL) and once for a sink (s: a copy in gen_plays' frame, whose fields the
   compiler may then keep in registers). What the loops read of c is read once before them: a play stored into the
   sink's list, an int, may alias c's ints. */
static inline __attribute__((always_inline)) int gen_plays_into(Core *c, CodeList *out, struct VSink *s) {
    const uint8_t *hand = c->hands[c->current];
    const int stage = c->stage, auto_best = c->auto_best, hermod_cell = c->hermod, nocc = c->nocc;
    const int hermod = stage == HERMOD;
    const int stop_at_first = out->stop_at_first;
    int kinds[NK], nk = 0;
    if (stage == RAVEN) kinds[nk++] = RA;
    else
        for (int i = 0; i < c->nkinds; i++) { /* without a branch: which kinds are in hand follows no pattern */
            kinds[nk] = c->kinds[i];
            nk += hand[c->kinds[i]] != 0;
        }
    if (!nk) return 0;
    Boosts boosted;
    for (int i = 0; i < nk; i++) boosted.n[kinds[i]] = boosts_for(c, kinds[i], boosted.b[kinds[i]]);
    int normal[NK], nn = 0, friends[NK], nf = 0, slow_open[NK], slow_troll[NK];
    for (int i = 0; i < nk; i++) {
        int k = kinds[i];
        if (k == HE || k == LB) continue;
        normal[nn++] = k;
        if (k == TR || k == DW) friends[nf++] = k;
    }
    if (nn) {
        const Frontier *f = out->front;
        if (!f || stage == RAVEN) {
            frontier_build(c, &built);
            f = &built;
        }
        const int nfront = f->n, lifted = stage == RAVEN ? c->raven : -1;
        /* Into a sink, a cell's plays are its opening's heads (each kind's first index per boost, worked out once a
           generation) plus the cell's place in the window; a kind whose plays are not one per boost (a Sea Serpent's
           two lines) or whose head the space lacks goes through emit, as do all where the list would overflow. */
        int heads[OPEN + 1][NK * 8], nheads[OPEN + 1] = {0, 0, 0};
        int *slow[OPEN + 1] = {NULL, friends, normal}, nslow[OPEN + 1] = {0, 0, 0};
        if (s)
            for (int open = TROLL_NEAR; open <= OPEN; open++) {
                const int *allowed = open == OPEN ? normal : friends, na = open == OPEN ? nn : nf;
                int *kept = open == OPEN ? slow_open : slow_troll;
                slow[open] = kept;
                for (int a = 0; a < na; a++) {
                    int k = allowed[a], fits = !(k == SS && !auto_best);
                    const int *first = s->first[T_PLACE][k][0][0];
                    for (int b = 0; b < boosted.n[k] && fits; b++) fits = first[boosted.b[k][b]] >= 0;
                    if (!fits) {
                        kept[nslow[open]++] = k;
                        continue;
                    }
                    for (int b = 0; b < boosted.n[k]; b++) heads[open][nheads[open]++] = first[boosted.b[k][b]];
                }
            }
        else {
            nslow[TROLL_NEAR] = nf;
            nslow[OPEN] = nn;
        }
        /* Every cell writes as many as the opening with most (the other's heads padded), its own count kept: the loop
           then runs the same for all cells (which cells are next to a Troll follows no pattern). */
        int most = nheads[OPEN] > nheads[TROLL_NEAR] ? nheads[OPEN] : nheads[TROLL_NEAR];
        for (int open = TROLL_NEAR; open <= OPEN; open++)
            for (int h = nheads[open]; h < most; h++) heads[open][h] = 0;
        for (int i = 0; i < nfront; i++) {
            int nb = f->cell[i], open = f->open[i];
            if (open == SHUT || nb == lifted) continue;
            int nh = nheads[open], na = nslow[open];
            if (hermod && (nh || na) && !in_hermod_line(c, nb, nb)) continue;
            if (most) {
                unsigned column = (unsigned)nb % G - OFF - s->x0, row = (unsigned)nb / G - OFF - s->y0;
                int at = (int)(row * V_WINDOW + column);
                s->sunk += nh;
                if (column >= V_WINDOW || row >= V_WINDOW) s->outside |= nh != 0;
                else if (s->nset >= 0 && s->nset <= V_MAXSET - most) {
                    int32_t *set = s->set + s->nset;
                    for (int h = 0; h < most; h++) set[h] = heads[open][h] + at;
                    s->nset += nh;
                } else
                    for (int h = 0; h < nh; h++) { /* past V_MAXSET: the rest into the row (v_sink's way) */
                        if (s->nset >= 0 && s->nset < V_MAXSET) s->set[s->nset++] = heads[open][h] + at;
                        else {
                            s->nset = -1;
                            s->row[heads[open][h] + at] = 1;
                        }
                    }
            }
            const int *allowed = slow[open];
            for (int a = 0; a < na; a++) {
                if (emit(c, out, s, &boosted, auto_best, T_PLACE, allowed[a], nb, 0) < 0) return -1;
                if (stop_at_first) return out->n;
            }
        }
    }
    int covers[NK], ncov = 0;
    for (int i = 0; i < nk; i++) {
        int k = kinds[i];
        if (k == HE || k == DR || k == RA || k == LB || k == SK || k == JO) covers[ncov++] = k;
    }
    if (!ncov) return out->n;
    for (int i = 0; i < nocc; i++) {
        int cell = c->occ[i];
        uint8_t p = c->grid[cell];
        if (!p) continue;
        int target = PKIND(p);
        if (target == HE) continue;
        int troll = -1;
        for (int j = 0; j < ncov; j++) {
            int k = covers[j];
            if (k == HE) {
                if (hermod && cell != hermod_cell) {
                    int near = 0;
                    for (int a = 0; a < 8; a++)
                        if (cell - hermod_cell == AROUND[a]) near = 1;
                    if (!near) continue;
                }
                if (emit(c, out, s, &boosted, auto_best, T_PLACE, HE, cell, 0) < 0) return -1;
                if (stop_at_first) return out->n;
                continue;
            }
            if (k == JO) {
                for (int d = 0; d < 4; d++) {
                    int dest;
                    if (bump_ok(c, cell, DIRSTEP[d], &dest) && (!hermod || in_hermod_line(c, cell, dest))) {
                        if (emit(c, out, s, &boosted, auto_best, T_BUMP, JO, cell, d) < 0) return -1;
                        if (stop_at_first) return out->n;
                    }
                }
                continue;
            }
            if (target == k) continue;
            if (troll < 0) troll = troll_adjacent(c, cell);
            if (troll) continue;
            if (hermod && !in_hermod_line(c, cell, -1)) continue;
            if (emit(c, out, s, &boosted, auto_best, T_PLACE, k, cell, 0) < 0) return -1;
            if (stop_at_first) return out->n;
        }
    }
    return out->n;
}

/* Every play of the current stage; the Raven is lifted by the caller in the Raven stage (so the frontier is built anew
   there, whatever out->front). Returns -1 on memory error, else the number of plays pushed (out->sunk: the plays that
   went into out->sink). */
static int gen_plays(Core *c, CodeList *out) {
    if (!out->sink) return gen_plays_into(c, out, NULL);
    struct VSink s = *out->sink;
    s.sunk = 0;
    int r = gen_plays_into(c, out, &s);
    *out->sink = s;
    out->sunk = s.sunk;
    return r;
}

static uint8_t lift_raven(Core *c) {
    if (c->stage != RAVEN) return 0;
    uint8_t p = c->grid[c->raven];
    c->grid[c->raven] = 0;
    return p;
}

static void restore_raven(Core *c, uint8_t p) {
    if (p) c->grid[c->raven] = p;
}

/* All legal codes of the current seat into out (the plays into out->sink where it has one). Returns -1 on memory
   error. */
static int legal_codes(Core *c, CodeList *out) {
    out->n = out->sunk = 0;
    out->stop_at_first = 0;
    if (c->finished) return 0;
    const uint8_t *hand = c->hands[c->current];
    if (c->stage == DISCARD_DOWN) {
        for (int k = 0; k < NK; k++)
            if (hand[k] && k != HE && push(out, CODE(T_DISCARD, k, 0, 0, 0, 0)) < 0) return -1;
        return 0;
    }
    uint8_t lifted = lift_raven(c);
    int r = gen_plays(c, out);
    restore_raven(c, lifted);
    if (r < 0) return -1;
    int plays = out->n + out->sunk;
    if (c->stage == MAIN) {
        if (!plays)
            for (int k = 0; k < NK; k++)
                if (hand[k] && push(out, CODE(T_DISCARD, k, 0, 0, 0, 0)) < 0) return -1;
    } else if (c->stage == HERMOD) {
        if (plays) {
            if (push(out, CODE(T_END, 0, 0, 0, 0, 0)) < 0) return -1;
        } else {
            for (int k = 0; k < NK; k++)
                if (hand[k] && push(out, CODE(T_DISCARD, k, 0, 0, 0, 0)) < 0) return -1;
        }
    } else {
        if (push(out, CODE(T_END, 0, 0, 0, 0, 0)) < 0) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- applying */

static void occ_add(Core *c, int cell) {
    if (c->nocc < MAXOCC) c->occ[c->nocc++] = (uint16_t)cell;
    int x = cell % G - OFF, y = cell / G - OFF;
    if (x <= -EDGE || x >= EDGE || y <= -EDGE || y >= EDGE) c->overflow = 1;
}

static void occ_remove(Core *c, int cell) {
    for (int i = 0; i < c->nocc; i++)
        if (c->occ[i] == cell) {
            c->occ[i] = c->occ[--c->nocc];
            return;
        }
}

static void forget(Core *c, int seat, int kind, int count) {
    if (c->known[seat][kind]) {
        int v = c->known[seat][kind] - count;
        c->known[seat][kind] = (uint8_t)(v > 0 ? v : 0);
    }
}

static void remove_hels(Core *c) {
    for (int s = 0; s < c->players; s++) {
        c->box[HE] += c->hands[s][HE];
        c->hands[s][HE] = 0;
    }
}

static void advance(Core *c) {
    c->stage = MAIN;
    c->hermod = -1;
    c->raven = -1;
    c->turn_swapped = 0;
    c->turn_plays = 0;
    c->turn_first_hel = 0;
    int any = 0;
    for (int s = 0; s < c->players; s++)
        if (hand_total(c, s)) any = 1;
    if (!c->npile && !any) {
        c->finished = 1;
        return;
    }
    for (int off = 1; off <= c->players; off++) {
        int s = (c->current + off) % c->players;
        if (hand_total(c, s)) {
            c->current = s;
            c->turn_number++;
            return;
        }
    }
    c->finished = 1; /* unreachable by the rules: tiles in the pile but none in hand */
}

static void finish_turn(Core *c) {
    int seat = c->current;
    uint8_t *hand = c->hands[seat];
    int size = hand_size(c, seat);
    if (size > HAND_SIZE) {
        c->stage = DISCARD_DOWN;
        return;
    }
    if (!c->turn_swapped && !(c->turn_plays == 1 && c->turn_first_hel)) {
        int drawn = 0;
        while (size < HAND_SIZE && c->npile) {
            hand[c->pile[--c->npile]]++;
            size++;
            drawn++;
        }
        if (drawn && !c->npile && c->no_late_hel) remove_hels(c);
    }
    advance(c);
}

/* Apply a legal code (no checks: codes must come from legal_codes of this state). */
static void apply_code(Core *c, long code) {
    int seat = c->current;
    uint8_t *hand = c->hands[seat];
    int type = C_TYPE(code);
    c->ply++;
    if (type == T_END) {
        finish_turn(c);
        return;
    }
    int kind = C_KIND(code);
    if (type == T_DISCARD) {
        hand[kind]--;
        forget(c, seat, kind, 1);
        int down = c->stage == DISCARD_DOWN;
        if (down) c->discards[kind]++;
        else {
            c->box[kind]++;
            c->turn_plays++;
        }
        if (!down || hand_size(c, seat) <= HAND_SIZE) finish_turn(c);
        return;
    }
    int cell = C_CELL(code);
    int boost = C_BOOST(code);
    int line = C_LINE(code);
    int second_raven = c->stage == RAVEN;
    uint8_t piece;
    if (second_raven) {
        piece = c->grid[c->raven];
        c->grid[c->raven] = 0;
        occ_remove(c, c->raven);
    } else {
        hand[kind]--;
        forget(c, seat, kind, 1);
        if (boost) {
            hand[FR] -= (uint8_t)boost;
            forget(c, seat, FR, boost);
            c->discards[FR] += (uint8_t)boost;
            c->supply[FACE[kind] + boost]--;
        }
        piece = PIECE(kind, boost);
    }
    int covered_nio = 0;
    uint8_t old = c->grid[cell];
    if (type == T_BUMP) {
        int dest = cell + DIRSTEP[C_DIR(code)];
        while (is_line_tile(c, dest)) dest += DIRSTEP[C_DIR(code)];
        c->grid[dest] = old;
        occ_add(c, dest);
        c->grid[cell] = piece;
    } else if (!old) {
        c->grid[cell] = piece;
        occ_add(c, cell);
    } else if (kind == SK) {
        int ok = PKIND(old), ob = PBOOST(old);
        hand[ok]++;
        c->known[seat][ok]++;
        if (ob) {
            c->supply[FACE[ok] + ob]++;
            int f = ob < c->discards[FR] ? ob : c->discards[FR];
            c->discards[FR] -= (uint8_t)f;
            hand[FR] += (uint8_t)f;
            c->known[seat][FR] += (uint8_t)f;
        }
        c->grid[cell] = piece;
        c->turn_swapped = 1;
    } else {
        int ok = PKIND(old), ob = PBOOST(old);
        c->discards[ok]++;
        if (ob) c->supply[FACE[ok] + ob]++;
        covered_nio = ok == NI;
        c->grid[cell] = piece;
    }
    if (line == 0 && (kind == SS || kind == LB) && c->auto_best) line = best_line(c, kind, cell, covered_nio);
    int points = score_placement(c, cell, covered_nio, line);
    if (points) {
        c->scores[seat] += points;
        c->reached[seat] = c->ply;
    }
    c->turn_plays++;
    if (c->turn_plays == 1 && kind == HE) c->turn_first_hel = 1;
    if (second_raven) finish_turn(c);
    else if (kind == HM) {
        c->stage = HERMOD;
        c->hermod = cell;
        if (!hand_total(c, seat)) finish_turn(c);
    } else if (kind == RA) {
        c->stage = RAVEN;
        c->raven = cell;
    } else finish_turn(c);
}

/* For a look at a placement or bump without playing it (points_of, SS_line_facts): moves a bumped tile to its
   destination and returns that cell (-1 for a placement), and tells whether a Nidhogg is covered. The caller lays the
   piece on the code's cell, then puts the old one back and clears the destination. */
static int look_ahead(Core *c, long code, int *covered_nio) {
    int cell = C_CELL(code), kind = C_KIND(code);
    uint8_t old = c->grid[cell];
    *covered_nio = 0;
    if (C_TYPE(code) == T_BUMP) {
        int step = DIRSTEP[C_DIR(code)], dest = cell + step;
        while (is_line_tile(c, dest)) dest += step;
        c->grid[dest] = old;
        return dest;
    }
    if (old && kind != SK) *covered_nio = PKIND(old) == NI;
    return -1;
}

/* Points a code would score now, without changing the state (0 for end and discards). */
static int points_of(Core *c, long code) {
    int type = C_TYPE(code);
    if (type == T_END || type == T_DISCARD) return 0;
    int kind = C_KIND(code), cell = C_CELL(code), line = C_LINE(code);
    int raven_cell = -1;
    uint8_t raven_piece = 0;
    uint8_t piece;
    if (c->stage == RAVEN) {
        raven_cell = c->raven;
        raven_piece = c->grid[raven_cell];
        c->grid[raven_cell] = 0;
        piece = raven_piece;
    } else piece = PIECE(kind, C_BOOST(code));
    uint8_t old = c->grid[cell];
    int covered_nio, dest = look_ahead(c, code, &covered_nio);
    c->grid[cell] = piece;
    /* The Sea Serpent span looks at the occupied list: add a new cell for the count. */
    int added = 0;
    if (!old && c->nocc < MAXOCC) {
        c->occ[c->nocc++] = (uint16_t)cell;
        added = 1;
    }
    if (line == 0 && (kind == SS || kind == LB) && c->auto_best) line = best_line(c, kind, cell, covered_nio);
    int points = score_placement(c, cell, covered_nio, line);
    if (added) c->nocc--;
    c->grid[cell] = old;
    if (dest >= 0) c->grid[dest] = 0;
    if (raven_cell >= 0) c->grid[raven_cell] = raven_piece;
    return points;
}

/* ---------------------------------------------------------------- policies */

static long choose_greedy(Core *c, CodeList *codes) {
    int best = -1, best_cost = 0, ties = 0;
    long chosen = codes->codes[0];
    for (int i = 0; i < codes->n; i++) {
        long code = codes->codes[i];
        int points = points_of(c, code);
        int type = C_TYPE(code);
        int cost = 0;
        if (type == T_PLACE || type == T_BUMP)
            cost = (c->stage == RAVEN ? 0 : FACE[C_KIND(code)]) + 3 * C_BOOST(code);
        if (points > best || (points == best && cost < best_cost)) {
            best = points;
            best_cost = cost;
            chosen = code;
            ties = 1;
        } else if (points == best && cost == best_cost) {
            ties++;
            if (below(c->rng, ties) == 0) chosen = code;
        }
    }
    return chosen;
}

/* Play until the end or max_steps; epsilon is the chance (per mille) of a random step
   instead of the greedy one (1000: a random playout). Returns steps played, -1 on error. */
static int rollout(Core *c, int max_steps, int epsilon) {
    CodeList codes = {NULL, 0, 0, 0};
    int steps = 0;
    while (!c->finished && !c->overflow && steps < max_steps) {
        if (legal_codes(c, &codes) < 0) {
            PyMem_Free(codes.codes);
            return -1;
        }
        if (!codes.n) break;
        long code;
        if (epsilon >= 1000 || (epsilon > 0 && below(c->rng, 1000) < epsilon))
            code = codes.codes[below(c->rng, codes.n)];
        else code = choose_greedy(c, &codes);
        apply_code(c, code);
        steps++;
    }
    PyMem_Free(codes.codes);
    return steps;
}

/* Redeal what `seat` cannot see (seat -1: a spectator): the pile and the unknown part of
   the other hands, uniformly at random. */
static void redeal(Core *c, int seat) {
    uint8_t unseen[MAXPILE + MAXP * 64];
    int n = 0;
    for (int i = 0; i < c->npile; i++) unseen[n++] = c->pile[i];
    for (int s = 0; s < c->players; s++) {
        if (s == seat) continue;
        for (int k = 0; k < NK; k++) {
            if (k == HE) continue;
            for (int j = c->known[s][k]; j < c->hands[s][k]; j++) unseen[n++] = (uint8_t)k;
        }
    }
    shuffle_bytes(c->rng, unseen, n);
    for (int s = 0; s < c->players; s++) {
        if (s == seat) continue;
        int hidden = hand_size(c, s);
        for (int k = 0; k < NK; k++)
            if (k != HE) hidden -= c->known[s][k];
        for (int k = 0; k < NK; k++)
            if (k != HE) c->hands[s][k] = c->known[s][k];
        for (int j = 0; j < hidden; j++) c->hands[s][unseen[--n]]++;
    }
    c->npile = n;
    for (int i = 0; i < n; i++) c->pile[i] = unseen[i];
}

/* ---------------------------------------------------------------- Python type */

static SearchState *new_state(void) {
    SearchState *s = PyObject_New(SearchState, &SearchStateType);
    return s;
}

static PyObject *SS_clone(SearchState *self, PyObject *unused) {
    SearchState *o = new_state();
    if (!o) return NULL;
    memcpy(&o->c, &self->c, sizeof(Core));
    return (PyObject *)o;
}

static PyObject *codes_to_list(CodeList *codes) {
    PyObject *list = PyList_New(codes->n);
    if (!list) return NULL;
    for (int i = 0; i < codes->n; i++) {
        PyObject *v = PyLong_FromLong(codes->codes[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyObject *SS_legal_actions(SearchState *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (self->c.finished || seat != self->c.current) return PyList_New(0);
    CodeList codes = {NULL, 0, 0, 0};
    if (legal_codes(&self->c, &codes) < 0) {
        PyMem_Free(codes.codes);
        return PyErr_NoMemory();
    }
    PyObject *list = codes_to_list(&codes);
    PyMem_Free(codes.codes);
    return list;
}

static PyObject *SS_apply_quiet(SearchState *self, PyObject *args) {
    int seat;
    long code;
    if (!PyArg_ParseTuple(args, "il", &seat, &code)) return NULL;
    if (self->c.finished || seat != self->c.current) {
        PyErr_SetString(PyExc_ValueError, "not this seat's turn in the search state");
        return NULL;
    }
    apply_code(&self->c, code);
    Py_RETURN_NONE;
}

static PyObject *SS_points(SearchState *self, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(points_of(&self->c, code));
}

/* One line's facts for its words (the Python package builds the sentences), as
   board.py's line_facts gives them: (cells, words) where cells is the list of each cell's
   [x, y] (JSON ready) and words the placed tile's index in the line, then for each cell its
   kind, boost, value in the line and whether a Loki is next to it. The coordinates are apart
   so that the words' facts are the same wherever the line lies. None for a line of one tile. */
static PyObject *line_facts_of(const Core *c, int cell, int step) {
    int cells[G], values[G];
    int n = line_cells(c, cell, step, cells);
    if (n < 2) Py_RETURN_NONE;
    line_values(c, cells, n, values);
    PyObject *words = PyTuple_New(1 + 4 * n);
    PyObject *where = PyList_New(n);
    if (!words || !where) goto fail;
    int index = 0;
    for (int i = 0; i < n; i++) {
        int o = cells[i];
        uint8_t p = c->grid[o];
        if (o == cell) index = i;
        PyObject *pair = Py_BuildValue("[ii]", o % G - OFF, o / G - OFF);
        if (!pair) goto fail;
        PyList_SET_ITEM(where, i, pair);
        long facts[4] = {PKIND(p), PBOOST(p), values[i], loki_adjacent(c, o)};
        for (int j = 0; j < 4; j++) {
            PyObject *v = PyLong_FromLong(facts[j]);
            if (!v) goto fail;
            PyTuple_SET_ITEM(words, 1 + 4 * i + j, v);
        }
    }
    PyObject *v = PyLong_FromLong(index);
    if (!v) goto fail;
    PyTuple_SET_ITEM(words, 0, v);
    PyObject *result = PyTuple_Pack(2, where, words);
    Py_DECREF(where);
    Py_DECREF(words);
    return result;
fail:
    Py_XDECREF(words);
    Py_XDECREF(where);
    return NULL;
}

/* What a legal placement or bump's row and column hold once played, for the words:
   (covered_nio, row facts, column facts) as line_facts_of gives them; None for a tile
   that does not score its row and column (Hel, Dwarf, Sea Serpent, Lightning Bolt), an
   end or a discard, and the Raven's second placement. The board is left as it was. */
static PyObject *SS_line_facts(SearchState *self, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    Core *c = &self->c;
    int type = C_TYPE(code);
    if (type == T_END || type == T_DISCARD || c->stage == RAVEN) Py_RETURN_NONE;
    int kind = C_KIND(code), cell = C_CELL(code);
    if (kind == HE || kind == DW || kind == SS || kind == LB) Py_RETURN_NONE;
    uint8_t old = c->grid[cell];
    int covered_nio, dest = look_ahead(c, code, &covered_nio);
    c->grid[cell] = PIECE(kind, C_BOOST(code));
    PyObject *row = line_facts_of(c, cell, 1);
    PyObject *col = row ? line_facts_of(c, cell, G) : NULL;
    c->grid[cell] = old;
    if (dest >= 0) c->grid[dest] = 0;
    if (!col) {
        Py_XDECREF(row);
        return NULL;
    }
    PyObject *result = PyTuple_New(3);
    if (!result) {
        Py_DECREF(row);
        Py_DECREF(col);
        return NULL;
    }
    PyObject *nio = covered_nio ? Py_True : Py_False;
    Py_INCREF(nio);
    PyTuple_SET_ITEM(result, 0, nio);
    PyTuple_SET_ITEM(result, 1, row);
    PyTuple_SET_ITEM(result, 2, col);
    return result;
}

static PyObject *SS_to_move(SearchState *self, PyObject *unused) {
    if (self->c.finished) return PyTuple_New(0);
    return Py_BuildValue("(i)", self->c.current);
}

static PyObject *SS_is_terminal(SearchState *self, PyObject *unused) { return PyBool_FromLong(self->c.finished); }

static PyObject *SS_scores(SearchState *self, PyObject *unused) {
    PyObject *list = PyList_New(self->c.players);
    for (int s = 0; s < self->c.players; s++) PyList_SET_ITEM(list, s, PyLong_FromLong(self->c.scores[s]));
    return list;
}

static PyObject *SS_ranking(SearchState *self, PyObject *unused) {
    Core *c = &self->c;
    PyObject *list = PyList_New(c->players);
    for (int s = 0; s < c->players; s++) {
        int place = 1;
        for (int o = 0; o < c->players; o++)
            if (c->scores[o] > c->scores[s] || (c->scores[o] == c->scores[s] && c->reached[o] < c->reached[s]))
                place++;
        PyList_SET_ITEM(list, s, PyLong_FromLong(place));
    }
    return list;
}

static PyObject *SS_rollout(SearchState *self, PyObject *args) {
    int max_steps, epsilon;
    if (!PyArg_ParseTuple(args, "ii", &max_steps, &epsilon)) return NULL;
    int steps = rollout(&self->c, max_steps, epsilon);
    if (steps < 0) return PyErr_NoMemory();
    return PyLong_FromLong(steps);
}

static PyObject *SS_greedy(SearchState *self, PyObject *unused) {
    CodeList codes = {NULL, 0, 0, 0};
    if (legal_codes(&self->c, &codes) < 0) {
        PyMem_Free(codes.codes);
        return PyErr_NoMemory();
    }
    if (!codes.n) {
        PyMem_Free(codes.codes);
        Py_RETURN_NONE;
    }
    long code = choose_greedy(&self->c, &codes);
    PyMem_Free(codes.codes);
    return PyLong_FromLong(code);
}

/* The greedy choice among the given codes (all legal here). */
static PyObject *SS_best_of(SearchState *self, PyObject *arg) {
    PyObject *fast = PySequence_Fast(arg, "codes");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n == 0) {
        Py_DECREF(fast);
        Py_RETURN_NONE;
    }
    CodeList codes = {NULL, 0, 0, 0};
    for (Py_ssize_t i = 0; i < n; i++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((code == -1 && PyErr_Occurred()) || push(&codes, code) < 0) {
            Py_DECREF(fast);
            PyMem_Free(codes.codes);
            return PyErr_Occurred() ? NULL : PyErr_NoMemory();
        }
    }
    Py_DECREF(fast);
    long code = choose_greedy(&self->c, &codes);
    PyMem_Free(codes.codes);
    return PyLong_FromLong(code);
}

static PyObject *SS_redeal(SearchState *self, PyObject *args) {
    int seat;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iK", &seat, &seed)) return NULL;
    seed_rng(self->c.rng, (uint64_t)seed);
    redeal(&self->c, seat);
    Py_RETURN_NONE;
}

/* sample(seat, rng_state) -> (world, rng_state): a clone with what `seat` cannot see dealt again,
   seeded with the next draw of the caller's generator, whose state comes back advanced by that
   draw: the world clone() then redeal(seat, rng.next64()) would give, without the draw in Python. */
static PyObject *SS_sample(SearchState *self, PyObject *args) {
    int seat;
    unsigned long long r[4];
    if (!PyArg_ParseTuple(args, "i(KKKK)", &seat, &r[0], &r[1], &r[2], &r[3])) return NULL;
    uint64_t rng[4] = {r[0], r[1], r[2], r[3]};
    SearchState *world = new_state();
    if (!world) return NULL;
    memcpy(&world->c, &self->c, sizeof(Core));
    seed_rng(world->c.rng, next64(rng));
    redeal(&world->c, seat);
    return Py_BuildValue("N(KKKK)", (PyObject *)world, (unsigned long long)rng[0], (unsigned long long)rng[1],
                         (unsigned long long)rng[2], (unsigned long long)rng[3]);
}

static PyObject *SS_reseed(SearchState *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    seed_rng(self->c.rng, (uint64_t)seed);
    Py_RETURN_NONE;
}

static PyObject *bytes_list(const uint8_t *values, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(values[i]));
    return list;
}

/* Every field, as plain Python values, for the tests that compare both engines. */
static PyObject *SS_export(SearchState *self, PyObject *unused) {
    Core *c = &self->c;
    PyObject *board = PyList_New(0);
    for (int i = 0; i < c->nocc; i++) {
        int cell = c->occ[i];
        uint8_t p = c->grid[cell];
        if (!p) continue;
        PyObject *item = Py_BuildValue("(iiii)", cell % G - OFF, cell / G - OFF, PKIND(p), PBOOST(p));
        PyList_Append(board, item);
        Py_DECREF(item);
    }
    PyList_Sort(board);
    PyObject *hands = PyList_New(c->players), *known = PyList_New(c->players);
    PyObject *scores = PyList_New(c->players), *reached = PyList_New(c->players);
    for (int s = 0; s < c->players; s++) {
        PyList_SET_ITEM(hands, s, bytes_list(c->hands[s], NK));
        PyList_SET_ITEM(known, s, bytes_list(c->known[s], NK));
        PyList_SET_ITEM(scores, s, PyLong_FromLong(c->scores[s]));
        PyList_SET_ITEM(reached, s, PyLong_FromLong(c->reached[s]));
    }
    PyObject *hermod = c->hermod >= 0 ? Py_BuildValue("(ii)", c->hermod % G - OFF, c->hermod / G - OFF)
                                      : (Py_INCREF(Py_None), Py_None);
    PyObject *raven = c->raven >= 0 ? Py_BuildValue("(ii)", c->raven % G - OFF, c->raven / G - OFF)
                                    : (Py_INCREF(Py_None), Py_None);
    PyObject *result = Py_BuildValue(
        "{s:i,s:N,s:i,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:i,s:N,s:N,s:i,s:i,s:i,s:i,s:i,s:i,s:i}",
        "players", c->players, "kinds", bytes_list(c->kinds, c->nkinds), "auto_best_line", c->auto_best,
        "no_late_hel", c->no_late_hel, "board", board,
        "hands", hands, "known", known, "pile", bytes_list(c->pile, c->npile), "discards",
        bytes_list(c->discards, NK), "box", bytes_list(c->box, NK), "supply", bytes_list(c->supply, MAX_TOKEN + 1),
        "scores", scores, "reached", reached, "current", c->current, "stage", c->stage, "hermod", hermod, "raven",
        raven, "turn_swapped", c->turn_swapped, "turn_plays", c->turn_plays, "turn_first_hel", c->turn_first_hel,
        "ply", c->ply, "turn_number", c->turn_number, "finished", c->finished, "overflow", c->overflow);
    return result;
}

/* The state as bytes (search_ext.h's core_to_bytes): pickling and copying go through these. */
#define CORE_TAG "MHVO"
#define CORE_LAYOUT 1u

static PyObject *SS_to_bytes(SearchState *self, PyObject *unused) {
    return core_to_bytes(CORE_TAG, CORE_LAYOUT, &self->c, sizeof(Core));
}

/* Whether a core read from bytes keeps every count and cell inside its arrays (no garbage indexes memory). */
static int core_in_bounds(const Core *c) {
    if (c->players < 1 || c->players > MAXP || c->current < 0 || c->current >= c->players) return 0;
    if (c->nocc < 0 || c->nocc > MAXOCC || c->npile < 0 || c->npile > MAXPILE) return 0;
    if (c->nkinds < 0 || c->nkinds > NK || c->stage < 0 || c->stage > DISCARD_DOWN) return 0;
    if (c->hermod < -1 || c->hermod >= G * G || c->raven < -1 || c->raven >= G * G) return 0;
    for (int i = 0; i < c->nocc; i++)
        if (c->occ[i] >= G * G) return 0;
    for (int i = 0; i < c->npile; i++)
        if (c->pile[i] >= NK) return 0;
    for (int i = 0; i < c->nkinds; i++)
        if (c->kinds[i] >= NK) return 0;
    for (int i = 0; i < G * G; i++)
        if (c->grid[i] && (PKIND(c->grid[i]) < 0 || PKIND(c->grid[i]) >= NK)) return 0;
    return 1;
}

/* from_bytes(data) -> SearchState: the state to_bytes() gave, the same in every field. */
static PyObject *from_bytes(PyObject *module, PyObject *data) {
    if (!tables_set) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables() must be called first");
        return NULL;
    }
    SearchState *s = new_state();
    if (!s) return NULL;
    if (core_from_bytes(data, CORE_TAG, CORE_LAYOUT, &s->c, sizeof(Core)) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    if (!core_in_bounds(&s->c)) {
        Py_DECREF(s);
        PyErr_SetString(PyExc_ValueError, "search state bytes out of bounds: not a state this engine wrote");
        return NULL;
    }
    return (PyObject *)s;
}

/* pickle and copy: (from_bytes, (to_bytes(),)). */
static PyObject *SS_reduce(SearchState *self, PyObject *unused) {
    PyObject *module = PyImport_ImportModule("meadhall.games.voluspa._search");
    if (!module) return NULL;
    PyObject *restore = PyObject_GetAttrString(module, "from_bytes");
    Py_DECREF(module);
    if (!restore) return NULL;
    PyObject *data = SS_to_bytes(self, NULL);
    if (!data) {
        Py_DECREF(restore);
        return NULL;
    }
    return Py_BuildValue("(N(N))", restore, data);
}

static PyObject *SS_getattr_current(SearchState *self, void *unused) { return PyLong_FromLong(self->c.current); }
static PyObject *SS_getattr_stage(SearchState *self, void *unused) { return PyLong_FromLong(self->c.stage); }
static PyObject *SS_getattr_players(SearchState *self, void *unused) { return PyLong_FromLong(self->c.players); }
static PyObject *SS_getattr_overflow(SearchState *self, void *unused) { return PyBool_FromLong(self->c.overflow); }
static PyObject *SS_getattr_ply(SearchState *self, void *unused) { return PyLong_FromLong(self->c.ply); }

static PyGetSetDef SS_getset[] = {
    {"current", (getter)SS_getattr_current, NULL, "seat to play", NULL},
    {"stage", (getter)SS_getattr_stage, NULL, "turn stage (0 play, 1 hermod, 2 raven, 3 discard-down)", NULL},
    {"num_players", (getter)SS_getattr_players, NULL, "number of seats", NULL},
    {"overflow", (getter)SS_getattr_overflow, NULL, "the board left the search grid", NULL},
    {"ply", (getter)SS_getattr_ply, NULL, "actions applied", NULL},
    {NULL}};

static PyMethodDef SS_methods[] = {
    {"clone", (PyCFunction)SS_clone, METH_NOARGS, "An independent copy."},
    {"legal_actions", (PyCFunction)SS_legal_actions, METH_O, "Legal action codes of a seat."},
    {"apply_quiet", (PyCFunction)SS_apply_quiet, METH_VARARGS, "Apply a legal code for a seat."},
    {"points", (PyCFunction)SS_points, METH_O, "Points a legal code would score now."},
    {"line_facts", (PyCFunction)SS_line_facts, METH_O, "(covered_nio, row, column) facts of a legal code's lines."},
    {"to_move", (PyCFunction)SS_to_move, METH_NOARGS, "Seats that must decide now."},
    {"is_terminal", (PyCFunction)SS_is_terminal, METH_NOARGS, "True at the end of the game."},
    {"scores", (PyCFunction)SS_scores, METH_NOARGS, "Scores by seat."},
    {"ranking", (PyCFunction)SS_ranking, METH_NOARGS, "Places by seat with the tie-break."},
    {"rollout", (PyCFunction)SS_rollout, METH_VARARGS, "Play (max_steps, epsilon per mille) steps."},
    {"greedy", (PyCFunction)SS_greedy, METH_NOARGS, "The greedy policy's code, or None."},
    {"best_of", (PyCFunction)SS_best_of, METH_O, "The greedy choice among the given codes."},
    {"redeal", (PyCFunction)SS_redeal, METH_VARARGS, "Redeal what (seat, seed) cannot see."},
    {"sample", (PyCFunction)SS_sample, METH_VARARGS, "(world redealt for a seat, the generator state after)."},
    {"reseed", (PyCFunction)SS_reseed, METH_O, "Seed the search RNG."},
    {"export", (PyCFunction)SS_export, METH_NOARGS, "Every field as Python values, as build() takes them."},
    {"to_bytes", (PyCFunction)SS_to_bytes, METH_NOARGS, "The whole state as bytes (from_bytes() reads them)."},
    {"__reduce__", (PyCFunction)SS_reduce, METH_NOARGS, "Pickle and copy through to_bytes() and from_bytes()."},
    {NULL}};

static PyTypeObject SearchStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "meadhall.games.voluspa._search.SearchState",
    .tp_basicsize = sizeof(SearchState),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Völuspá position for search: int action codes, no events.",
    .tp_methods = SS_methods,
    .tp_getset = SS_getset,
};

static int cell_from_xy(int x, int y) {
    if (x <= -EDGE || x >= EDGE || y <= -EDGE || y >= EDGE) return -1;
    return (y + OFF) * G + (x + OFF);
}

/* A field of build()'s data: a borrowed reference, or NULL with KeyError set. */
static PyObject *field(PyObject *data, const char *key) {
    PyObject *value = PyDict_GetItemString(data, key);
    if (!value) PyErr_Format(PyExc_KeyError, "build(): no %s", key);
    return value;
}

static int int_field(PyObject *data, const char *key, int *out) {
    PyObject *value = field(data, key);
    if (!value) return -1;
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = (int)v;
    return 0;
}

/* A cell given as (x, y) or None (-1); -2 with an error set. */
static int cell_field(PyObject *data, const char *key) {
    PyObject *value = field(data, key);
    if (!value) return -2;
    if (value == Py_None) return -1;
    int x, y;
    if (!PyArg_ParseTuple(value, "ii", &x, &y)) return -2;
    return cell_from_xy(x, y);
}

/* build(data) -> SearchState, or None if the board does not fit the search grid. data is a dict
   as export() gives it (the bridge's export_reference reads a VoluspaState into the same form). */
static PyObject *build(PyObject *module, PyObject *args) {
    PyObject *data, *kinds, *board, *hands, *known, *scores, *reached;
    if (!tables_set) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables() must be called first");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &data)) return NULL;
    int players;
    if (int_field(data, "players", &players) < 0) return NULL;
    if (players < 1 || players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "players out of range");
        return NULL;
    }
    SearchState *s = new_state();
    if (!s) return NULL;
    Core *c = &s->c;
    memset(c, 0, sizeof(Core));
    c->players = players;
    if (int_field(data, "auto_best_line", &c->auto_best) < 0 || int_field(data, "no_late_hel", &c->no_late_hel) < 0)
        goto fail;
    if (!(kinds = field(data, "kinds")) || (c->nkinds = read_bytes(kinds, c->kinds, NK, "kinds")) < 0) goto fail;
    if (!(board = field(data, "board"))) goto fail;
    PyObject *fast = PySequence_Fast(board, "board");
    if (!fast) goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        int x, y, k, b;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iiii", &x, &y, &k, &b)) {
            Py_DECREF(fast);
            goto fail;
        }
        int cell = cell_from_xy(x, y);
        if (cell < 0 || c->nocc >= MAXOCC) {
            Py_DECREF(fast);
            Py_DECREF(s);
            Py_RETURN_NONE;
        }
        c->grid[cell] = PIECE(k, b);
        c->occ[c->nocc++] = (uint16_t)cell;
    }
    Py_DECREF(fast);
    if (!(hands = field(data, "hands")) || !(known = field(data, "known")) || !(scores = field(data, "scores")) ||
        !(reached = field(data, "reached")))
        goto fail;
    for (int seat = 0; seat < players; seat++) {
        PyObject *h = PySequence_GetItem(hands, seat), *kn = PySequence_GetItem(known, seat);
        int ok = h && kn && read_bytes(h, c->hands[seat], NK, "hand") >= 0 &&
                 read_bytes(kn, c->known[seat], NK, "known") >= 0;
        Py_XDECREF(h);
        Py_XDECREF(kn);
        if (!ok) goto fail;
        PyObject *sc = PySequence_GetItem(scores, seat), *re = PySequence_GetItem(reached, seat);
        if (!sc || !re) {
            Py_XDECREF(sc);
            Py_XDECREF(re);
            goto fail;
        }
        c->scores[seat] = (int)PyLong_AsLong(sc);
        c->reached[seat] = (int)PyLong_AsLong(re);
        Py_DECREF(sc);
        Py_DECREF(re);
    }
    PyObject *x;
    if (!(x = field(data, "pile")) || (c->npile = read_bytes(x, c->pile, MAXPILE, "pile")) < 0) goto fail;
    if (!(x = field(data, "discards")) || read_bytes(x, c->discards, NK, "discards") < 0) goto fail;
    if (!(x = field(data, "box")) || read_bytes(x, c->box, NK, "box") < 0) goto fail;
    if (!(x = field(data, "supply")) || read_bytes(x, c->supply, 32, "supply") < 0) goto fail;
    if ((c->hermod = cell_field(data, "hermod")) == -2 || (c->raven = cell_field(data, "raven")) == -2) goto fail;
    if (int_field(data, "current", &c->current) < 0 || int_field(data, "stage", &c->stage) < 0 ||
        int_field(data, "turn_swapped", &c->turn_swapped) < 0 || int_field(data, "turn_plays", &c->turn_plays) < 0 ||
        int_field(data, "turn_first_hel", &c->turn_first_hel) < 0 || int_field(data, "ply", &c->ply) < 0 ||
        int_field(data, "turn_number", &c->turn_number) < 0 || int_field(data, "finished", &c->finished) < 0 ||
        int_field(data, "overflow", &c->overflow) < 0)
        goto fail;
    seed_rng(c->rng, 0x6D656164ULL);
    if (PyErr_Occurred()) goto fail;
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

static PyObject *set_tables(PyObject *module, PyObject *args) {
    PyObject *faces, *supply;
    if (!PyArg_ParseTuple(args, "OO", &faces, &supply)) return NULL;
    uint8_t f[NK], sp[32];
    memset(sp, 0, sizeof(sp));
    if (read_bytes(faces, f, NK, "faces") != NK) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "faces: one value per kind");
        return NULL;
    }
    int n = read_bytes(supply, sp, 32, "supply");
    if (n < 0) return NULL;
    for (int k = 0; k < NK; k++) FACE[k] = f[k];
    for (int v = 0; v < 32; v++) SUPPLY0[v] = sp[v];
    MAX_TOKEN = n - 1;
    tables_set = 1;
    Py_RETURN_NONE;
}

static PyObject *decode(PyObject *module, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    int cell = C_CELL(code);
    return Py_BuildValue("(iiiiiii)", C_TYPE(code), C_KIND(code), cell % G - OFF, cell / G - OFF, C_BOOST(code),
                         C_DIR(code), C_LINE(code));
}

static PyObject *encode(PyObject *module, PyObject *args) {
    int type, kind, x, y, boost, dir, line;
    if (!PyArg_ParseTuple(args, "iiiiiii", &type, &kind, &x, &y, &boost, &dir, &line)) return NULL;
    int cell = (type == T_END || type == T_DISCARD) ? 0 : cell_from_xy(x, y);
    if (cell < 0) Py_RETURN_NONE;
    return PyLong_FromLong(CODE(type, kind, cell, boost, dir, line));
}

/* ---------------------------------------------------------------- what the bridge checks at import */

static PyObject *names_tuple(const char *const *names, int n) {
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple && i < n; i++) {
        PyObject *item = PyUnicode_FromString(names[i]);
        if (!item) {
            Py_CLEAR(tuple);
            break;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

/* NAMES: {numbering: (name, ...)} in enum order; RULES: the rules' constants compiled in. */
static int add_tables(PyObject *m) {
    PyObject *names = Py_BuildValue("{s:N,s:N}", "tiles", names_tuple(TILE_NAMES_, NK), "stages",
                                    names_tuple(STAGE_NAMES_, (int)(sizeof STAGE_NAMES_ / sizeof STAGE_NAMES_[0])));
    if (!names) return -1;
    if (PyModule_AddObject(m, "NAMES", names) < 0) {
        Py_DECREF(names);
        return -1;
    }
    PyObject *rules = Py_BuildValue("{s:i,s:i}", "HAND_SIZE", HAND_SIZE, "MAX_LINE", MAX_LINE);
    if (!rules) return -1;
    if (PyModule_AddObject(m, "RULES", rules) < 0) {
        Py_DECREF(rules);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- vector backend (meadhall.rl.VectorEnv) */

/*
 * n games stepped by action index, written into the VectorEnv's arrays (games/voluspa/vector.py):
 * vector_new(...) -> a capsule holding the games and the arrays; vector_reset(capsule, seed or None),
 * vector_step(capsule, actions), vector_random(capsule, uniforms, out). The action index and the observation
 * are spaces.py's (its window, heads and blocks, handed over by vector.py): the mask and observation written
 * here equal the Python encoders', byte for byte (tests/rl/test_vector.py). Each game remembers which mask
 * bytes and which board-plane floats it set, and clears only those before writing the next ones: a mask is
 * 153,618 bytes and an observation 21,690 floats, of which a step changes a few hundred.
 */
#define V_MAXTURN 32
#define V_MAXMARK 600
#define V_HEADS_MAX 256

typedef struct {
    Core c;
    uint64_t episode;
    int x0, y0; /* the window's origin (v_origin) for the position last shown: the next step's and observation's */
    int box[4]; /* the tiles' bounding box (least x, greatest x, least y, greatest y; none: least > greatest), kept
                   move by move (v_box_add, v_box_walk), so that no step walks the tiles for the origin */
    int nturn;
    uint16_t turn[V_MAXTURN];
    int nset; /* -1: unknown, clear the whole row */
    int32_t set[V_MAXSET];
    int nmark; /* -1: unknown, clear the whole board block */
    int32_t mark[V_MAXMARK];
    KeptFrontier front; /* kept move by move (frontier_touch), so that no step rebuilds it */
} VGame;

typedef struct {
    Py_ssize_t n;
    int players, auto_best, no_late_hel, nkinds, nheads, size;
    uint8_t kinds[NK];
    int counts[NK];
    int first[2][NK][3][4][8];   /* (type, kind, line, dir, boost) -> the head's first index (head * V_CELLS), -1 none */
    int heads[V_HEADS_MAX][5];   /* head -> (type, kind, boost, line, dir) */
    int offsets[6];              /* board, hand, seats, game, piles, floats per observation */
    int slots;
    uint64_t seed;
    int observe;
    int dense;      /* 0: the env reads only vector_legal (VectorEnv(masks=False)): a game's row of masks is written
                       only when its indices are not known (nset -1); plays are gathered in spare instead */
    uint8_t *spare; /* !dense: one mask row, all zero between shows, where v_show_mask finds each index once */
    uint64_t *bits, *summary; /* v_kth's bitmaps of a game's indices (a bit per index, a bit per word), zero between */
    Py_buffer masks, observations, to_play, rewards, dones;
    CodeList scratch;
    VGame *games;
} Vec;

static void vec_free(PyObject *capsule) {
    Vec *v = PyCapsule_GetPointer(capsule, "voluspa.vector");
    if (!v) return;
    PyBuffer_Release(&v->masks);
    if (v->observe) PyBuffer_Release(&v->observations);
    PyBuffer_Release(&v->to_play);
    PyBuffer_Release(&v->rewards);
    PyBuffer_Release(&v->dones);
    PyMem_Free(v->scratch.codes);
    PyMem_Free(v->spare);
    PyMem_Free(v->bits);
    PyMem_Free(v->games);
    PyMem_Free(v);
}

static Vec *vec_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, "voluspa.vector"); }

static inline int floor_half(int a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); }

/* Widens game g's bounding box to the tile on cell. */
static inline void v_box_add(VGame *g, int cell) {
    int x = (int)((unsigned)cell % G) - OFF, y = (int)((unsigned)cell / G) - OFF;
    if (x < g->box[0]) g->box[0] = x;
    if (x > g->box[1]) g->box[1] = x;
    if (y < g->box[2]) g->box[2] = y;
    if (y > g->box[3]) g->box[3] = y;
}

/* Game g's bounding box anew from its tiles: at a deal, and where a tile left its cell (the Raven's second move). */
static void v_box_walk(VGame *g) {
    g->box[0] = g->box[2] = 1 << 20;
    g->box[1] = g->box[3] = -(1 << 20);
    for (int i = 0; i < g->c.nocc; i++) v_box_add(g, g->c.occ[i]);
}

/* spaces.window_origin: the window's left column and top row, centred on the tiles' bounding box. */
static void v_origin(const VGame *g, int *x0, int *y0) {
    if (g->box[0] > g->box[1]) {
        *x0 = *y0 = -V_WINDOW / 2;
        return;
    }
    *x0 = floor_half(g->box[0] + g->box[1]) - V_WINDOW / 2;
    *y0 = floor_half(g->box[2] + g->box[3]) - V_WINDOW / 2;
}

/* core.spaces.episode_seed */
static uint64_t v_episode_seed(uint64_t seed, uint64_t slot, uint64_t episode) {
    uint64_t v = seed * 0x9E3779B97F4A7C15ULL + slot * 0xBF58476D1CE4E5B9ULL + episode * 0x94D049BB133111EBULL;
    v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9ULL;
    v = (v ^ (v >> 27)) * 0x94D049BB133111EBULL;
    return (v ^ (v >> 31)) >> 1;
}

/* VoluspaState.setup in C: the same draws in the same order. */
static void v_deal(Vec *v, VGame *g, uint64_t seed) {
    Core *c = &g->c;
    memset(c, 0, sizeof(Core));
    c->players = v->players;
    c->auto_best = v->auto_best;
    c->no_late_hel = v->no_late_hel;
    memcpy(c->kinds, v->kinds, NK);
    c->nkinds = v->nkinds;
    for (int i = 0; i < 32; i++) c->supply[i] = (uint8_t)SUPPLY0[i];
    c->hermod = c->raven = -1;
    c->turn_number = 1;
    seed_rng(c->rng, seed);
    int n = 0;
    for (int i = 0; i < v->nkinds; i++)
        if (v->kinds[i] != HE)
            for (int k = 0; k < v->counts[v->kinds[i]] && n < MAXPILE; k++) c->pile[n++] = v->kinds[i];
    shuffle_bytes(c->rng, c->pile, n);
    uint8_t start = c->pile[--n];
    while (start == TR) {
        int at = below(c->rng, n + 1);
        memmove(c->pile + at + 1, c->pile + at, (size_t)(n - at));
        c->pile[at] = start;
        n++;
        start = c->pile[--n];
    }
    int origin = OFF * G + OFF;
    c->grid[origin] = PIECE(start, 0);
    c->occ[c->nocc++] = (uint16_t)origin;
    for (int s = 0; s < v->players; s++)
        for (int k = 0; k < HAND_SIZE; k++)
            if (n) c->hands[s][c->pile[--n]]++;
    int has_hel = 0;
    for (int i = 0; i < v->nkinds; i++) has_hel |= v->kinds[i] == HE;
    if (has_hel) {
        int per_seat = v->players == 2 ? 2 : 1, dealt = 0;
        for (int s = 0; s < v->players; s++) {
            int give = per_seat < v->counts[HE] - dealt ? per_seat : v->counts[HE] - dealt;
            c->hands[s][HE] += (uint8_t)give;
            dealt += give;
        }
        c->box[HE] += (uint8_t)(v->counts[HE] - dealt);
    }
    c->npile = n;
    if (!n && c->no_late_hel) remove_hels(c);
    c->current = below(c->rng, v->players);
    if (!hand_total(c, c->current)) {
        c->current = (c->current + v->players - 1) % v->players;
        advance(c);
    }
    g->nturn = 0;
    kept_build(c, &g->front);
    v_box_walk(g);
}

static int v_index(Vec *v, long code, int x0, int y0) {
    int type = C_TYPE(code);
    if (type == T_END) return v->nheads * V_CELLS;
    if (type == T_DISCARD) return v->nheads * V_CELLS + 1 + C_KIND(code);
    int cell = C_CELL(code);
    int column = cell % G - OFF - x0, row = cell / G - OFF - y0;
    if (column < 0 || column >= V_WINDOW || row < 0 || row >= V_WINDOW) return -1;
    int first = v->first[type][C_KIND(code)][C_LINE(code)][type == T_BUMP ? C_DIR(code) : 0][C_BOOST(code)];
    if (first < 0) return -1;
    return first + row * V_WINDOW + column;
}

/* The code of an action index in game's position as last shown (whose window origin it kept). */
static long v_code(Vec *v, const VGame *game, int64_t index) {
    const Core *c = &game->c;
    if (index == (int64_t)v->nheads * V_CELLS) return CODE(T_END, 0, 0, 0, 0, 0);
    if (index > (int64_t)v->nheads * V_CELLS) return CODE(T_DISCARD, (int)(index - v->nheads * V_CELLS - 1), 0, 0, 0, 0);
    int x0 = game->x0, y0 = game->y0;
    int head = (int)(index / V_CELLS), cell = (int)(index % V_CELLS);
    const int *h = v->heads[head];
    int x = x0 + cell % V_WINDOW, y = y0 + cell / V_WINDOW;
    int line = h[3], g = cell_from_xy(x, y);
    /* the plain form of a Sea Serpent or Lightning Bolt whose two lines score the same: the row */
    if (h[0] == T_PLACE && line == 0 && !c->auto_best && (h[1] == SS || h[1] == LB)) {
        int options[2];
        if (h[1] == SS || lightning_lines(c, g, options) == 2) line = 1;
    }
    return CODE(h[0], h[1], g, h[2], h[4], line);
}

/* Set a mask byte, remembering it (each index once) for the next clearing and for vector_random. */
static inline void v_set(VGame *g, uint8_t *row, int index) {
    row[index] = 1;
    if (g->nset >= 0 && g->nset < V_MAXSET) g->set[g->nset++] = index;
    else g->nset = -1;
}

/* The action index of a legal code in the window at (x0, y0) (-1 outside), and in *plain the index of its plain form
   where the mask has it too (a row form whose two lines score the same), else -1. */
static int v_code_index(Vec *v, Core *c, long code, int x0, int y0, int *plain) {
    *plain = -1;
    int index = v_index(v, code, x0, y0);
    if (index >= 0 && C_TYPE(code) == T_PLACE && C_LINE(code) == 1) {
        long col = (code & ~((long)3 << 26)) | ((long)2 << 26);
        if (points_of(c, code) == points_of(c, col)) *plain = v_index(v, code & ~((long)3 << 26), x0, y0);
    }
    return index;
}

/* Write the mask of game i (clearing what it set before). -1 with an error set: a legal step outside the window.
   Without dense masks (v->dense 0) the indices are found in the spare row, cleared again after; the game's own row
   gets them only where they are not kept (nset -1), and is all zero otherwise. */
static int v_show_mask(Vec *v, Py_ssize_t i) {
    VGame *g = &v->games[i];
    Core *c = &g->c;
    uint8_t *own = (uint8_t *)v->masks.buf + i * (Py_ssize_t)v->size;
    uint8_t *row = v->dense ? own : v->spare;
    if (g->nset < 0) memset(own, 0, (size_t)v->size);
    else if (v->dense)
        for (int k = 0; k < g->nset; k++) row[g->set[k]] = 0;
    g->nset = 0;
    ((int32_t *)v->to_play.buf)[i] = c->current;
    int x0, y0;
    v_origin(g, &x0, &y0);
    g->x0 = x0;
    g->y0 = y0;
    struct VSink sink = {(const int(*)[NK][3][4][8])v->first, g->set, 0, row, x0, y0, 0, -1, -1, 0};
    v->scratch.sink = &sink;
    v->scratch.front = &g->front.f;
    int failed = legal_codes(c, &v->scratch) < 0;
    g->nset = sink.nset;
    if (failed) {
        PyErr_NoMemory();
        return -1;
    }
    int outside = sink.outside; /* a play the sink could not place */
    /* Without dense masks, where the codes are only the end and discards (whose indices no play shares) and all fits
       in the list, the indices go into the list alone: the spare row, there to find each index once, is not needed. */
    int listed = !v->dense && !outside && g->nset >= 0 && g->nset + v->scratch.n <= V_MAXSET;
    for (int k = 0; k < v->scratch.n && listed; k++) listed = C_TYPE(v->scratch.codes[k]) >= T_END;
    if (listed) {
        for (int k = 0; k < v->scratch.n; k++) g->set[g->nset++] = v_index(v, v->scratch.codes[k], x0, y0);
        return 0;
    }
    int sunk = g->nset >= 0 ? g->nset : V_MAXSET; /* the sink's plays, their bytes not yet set */
    for (int k = 0; k < sunk; k++) row[g->set[k]] = 1;
    for (int k = 0; k < v->scratch.n && !outside; k++) {
        int plain, index = v_code_index(v, c, v->scratch.codes[k], x0, y0, &plain);
        if (index < 0) {
            outside = 1;
            break;
        }
        if (!row[index]) v_set(g, row, index);
        if (plain >= 0 && !row[plain]) v_set(g, row, plain);
    }
    if (!v->dense) { /* the spare row back to zero; the game's own row where its indices are not kept */
        if (outside || g->nset < 0) {
            memcpy(own, row, (size_t)v->size);
            memset(row, 0, (size_t)v->size);
        } else
            for (int k = 0; k < g->nset; k++) row[g->set[k]] = 0;
    }
    if (outside) {
        g->nset = -1;
        PyErr_Format(PyExc_ValueError, "game %zd: a legal step lies outside the %dx%d window", i, V_WINDOW, V_WINDOW);
        return -1;
    }
    return 0;
}

static inline void v_mark(Vec *v, VGame *g, float *board, int plane, int cell, int x0, int y0, float value) {
    int column = cell % G - OFF - x0, row = cell / G - OFF - y0;
    if (column < 0 || column >= V_WINDOW || row < 0 || row >= V_WINDOW) return;
    int at = plane * V_CELLS + row * V_WINDOW + column;
    board[at] = value;
    if (g->nmark >= 0 && g->nmark < V_MAXMARK) g->mark[g->nmark++] = at;
    else g->nmark = -1;
}

/* spaces.observation_space's encoder, for the seat to move of game i. */
static void v_observe(Vec *v, Py_ssize_t i) {
    VGame *g = &v->games[i];
    Core *c = &g->c;
    float *o = (float *)v->observations.buf + i * (Py_ssize_t)v->offsets[5];
    float *board = o + v->offsets[0];
    if (g->nmark < 0) memset(board, 0, sizeof(float) * (size_t)(v->offsets[1] - v->offsets[0]));
    else
        for (int k = 0; k < g->nmark; k++) board[g->mark[k]] = 0.0f;
    g->nmark = 0;
    int x0 = g->x0, y0 = g->y0; /* v_show_mask's, of this position */
    for (int k = 0; k < c->nocc; k++) {
        int cell = c->occ[k];
        uint8_t p = c->grid[cell];
        v_mark(v, g, board, PKIND(p), cell, x0, y0, 1.0f);
        if (PBOOST(p)) v_mark(v, g, board, NK, cell, x0, y0, (float)(PBOOST(p) / 4.0));
    }
    for (int k = 0; k < g->nturn; k++) v_mark(v, g, board, NK + 1, g->turn[k], x0, y0, 1.0f);
    if (c->stage == HERMOD && c->hermod >= 0) v_mark(v, g, board, NK + 2, c->hermod, x0, y0, 1.0f);
    if (c->stage == RAVEN && c->raven >= 0) v_mark(v, g, board, NK + 3, c->raven, x0, y0, 1.0f);
    int seat = c->current;
    float *hand = o + v->offsets[1];
    for (int k = 0; k < NK; k++) hand[k] = (float)c->hands[seat][k];
    float *seats = o + v->offsets[2];
    for (int off = 0; off < v->slots; off++) {
        float *r = seats + off * (5 + NK);
        if (off >= c->players) {
            memset(r, 0, sizeof(float) * (5 + NK));
            continue;
        }
        int s = (seat + off) % c->players;
        r[0] = 1.0f;
        r[1] = (float)(c->scores[s] / 100.0);
        r[2] = (float)(hand_size(c, s) / 5.0);
        r[3] = (float)(c->hands[s][HE] / 2.0);
        r[4] = (float)(!c->finished && s == c->current);
        for (int k = 0; k < NK; k++) r[5 + k] = (float)c->known[s][k];
    }
    float *game = o + v->offsets[3];
    for (int st = 0; st < 4; st++) game[st] = (float)(c->stage == st);
    game[4] = (float)(c->npile / 100.0);
    game[5] = (float)(c->finished != 0);
    game[6] = (float)(c->turn_plays / 4.0);
    game[7] = (float)(c->turn_swapped != 0);
    game[8] = (float)(c->turn_first_hel != 0);
    float *piles = o + v->offsets[4];
    for (int k = 0; k < NK; k++) piles[k] = (float)(c->discards[k] / 10.0);
    for (int k = 0; k < NK; k++) piles[NK + k] = (float)(c->box[k] / 10.0);
    for (int value = 1; value <= 16; value++) piles[2 * NK + value - 1] = (float)(c->supply[value] / 2.0);
}

static int v_show(Vec *v, Py_ssize_t i) {
    if (v_show_mask(v, i) < 0) return -1;
    if (v->observe) v_observe(v, i);
    return 0;
}

static void v_new_game(Vec *v, Py_ssize_t i) {
    VGame *g = &v->games[i];
    v_deal(v, g, v_episode_seed(v->seed, (uint64_t)i, g->episode));
    g->episode++;
}

/* core.spaces.rank_rewards of a finished game, from SS_ranking's places. */
static void v_rewards(Vec *v, const Core *c, float *out) {
    int places[MAXP];
    int P = c->players;
    for (int s = 0; s < P; s++) {
        int place = 1;
        for (int o = 0; o < P; o++)
            if (c->scores[o] > c->scores[s] || (c->scores[o] == c->scores[s] && c->reached[o] < c->reached[s])) place++;
        places[s] = place;
    }
    for (int s = 0; s < P; s++) {
        if (P < 2) {
            out[s] = 0.0f;
            continue;
        }
        int tied = 0;
        for (int o = 0; o < P; o++) tied += places[o] == places[s];
        double sum = 0.0;
        for (int pos = places[s]; pos < places[s] + tied; pos++) sum += 1.0 - 2.0 * (pos - 1) / (P - 1);
        out[s] = (float)(sum / tied);
    }
}

static int v_buffer(PyObject *object, Py_buffer *view, Py_ssize_t bytes, const char *what) {
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return -1;
    if (view->len != bytes) {
        PyErr_Format(PyExc_ValueError, "vector_new: %s of %zd bytes, not %zd", what, bytes, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/*
 * vector_new(n, players, kinds, counts, auto_best_line, no_late_hel, heads, offsets, slots, masks, observations,
 * to_play, rewards, dones, dense) -> capsule. heads: (type, kind, boost, line, dir) of each head in index order;
 * offsets: the observation's board, hand, seats, game and piles blocks, and its size; observations may be None;
 * dense 0: the masks are not read (only vector_legal and vector_random), so they are not written (v_show_mask).
 */
static PyObject *vector_new(PyObject *module, PyObject *args) {
    Py_ssize_t n;
    int players, auto_best, no_late_hel, slots, dense;
    PyObject *kinds, *counts, *heads, *offsets, *objects[5];
    if (!PyArg_ParseTuple(args, "niOOiiOOiOOOOOp", &n, &players, &kinds, &counts, &auto_best, &no_late_hel, &heads,
                          &offsets, &slots, &objects[0], &objects[1], &objects[2], &objects[3], &objects[4], &dense))
        return NULL;
    if (!tables_set) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables() must be called first");
        return NULL;
    }
    if (n < 1 || players < 1 || players > MAXP || slots < players) {
        PyErr_SetString(PyExc_ValueError, "vector_new: n >= 1 games of 1 to 5 players");
        return NULL;
    }
    Vec *v = PyMem_Calloc(1, sizeof(Vec));
    if (!v) return PyErr_NoMemory();
    v->n = n;
    v->players = players;
    v->auto_best = auto_best;
    v->no_late_hel = no_late_hel;
    v->slots = slots;
    long values[5 * V_HEADS_MAX];
    uint8_t count_bytes[NK];
    long offset_values[6];
    int nh;
    if ((v->nkinds = read_bytes(kinds, v->kinds, NK, "kinds")) < 0 || read_bytes(counts, count_bytes, NK, "counts") != NK ||
        (nh = read_ints(heads, values, 5 * V_HEADS_MAX, "heads")) < 0 || read_ints(offsets, offset_values, 6, "offsets") != 6) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "vector_new: a count per kind, six offsets");
        PyMem_Free(v);
        return NULL;
    }
    for (int k = 0; k < NK; k++) v->counts[k] = count_bytes[k];
    for (int k = 0; k < 6; k++) v->offsets[k] = (int)offset_values[k];
    v->nheads = nh / 5;
    memset(v->first, -1, sizeof v->first);
    for (int h = 0; h < v->nheads; h++) {
        long *e = values + 5 * h;
        if (e[0] < 0 || e[0] > 1 || e[1] < 0 || e[1] >= NK || e[2] < 0 || e[2] > 7 || e[3] < 0 || e[3] > 2 || e[4] < 0 ||
            e[4] > 3) {
            PyErr_SetString(PyExc_ValueError, "vector_new: heads of (type, kind, boost, line, dir)");
            PyMem_Free(v);
            return NULL;
        }
        for (int f = 0; f < 5; f++) v->heads[h][f] = (int)e[f];
        v->first[e[0]][e[1]][e[3]][e[4]][e[2]] = h * V_CELLS;
    }
    v->size = v->nheads * V_CELLS + 1 + NK;
    v->observe = objects[1] != Py_None;
    int got = 0;
    if (v_buffer(objects[0], &v->masks, n * (Py_ssize_t)v->size, "masks") < 0) goto fail;
    got = 1;
    if (v->observe) {
        if (v_buffer(objects[1], &v->observations, n * (Py_ssize_t)v->offsets[5] * 4, "observations") < 0) goto fail;
    }
    got = 2;
    if (v_buffer(objects[2], &v->to_play, n * 4, "to_play") < 0) goto fail;
    got = 3;
    if (v_buffer(objects[3], &v->rewards, n * players * 4, "rewards") < 0) goto fail;
    got = 4;
    if (v_buffer(objects[4], &v->dones, n, "dones") < 0) goto fail;
    got = 5;
    v->dense = dense;
    v->games = PyMem_Calloc((size_t)n, sizeof(VGame));
    if (!dense) v->spare = PyMem_Calloc((size_t)v->size, 1);
    size_t nsummary = ((size_t)v->size + 4095) >> 12; /* a summary word per 64 words of 64 indices */
    v->bits = PyMem_Calloc(nsummary * 65, sizeof(uint64_t));
    if (v->bits) v->summary = v->bits + nsummary * 64;
    if (!v->games || (!dense && !v->spare) || !v->bits) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *capsule = PyCapsule_New(v, "voluspa.vector", vec_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    if (got >= 1) PyBuffer_Release(&v->masks);
    if (got >= 2 && v->observe) PyBuffer_Release(&v->observations);
    if (got >= 3) PyBuffer_Release(&v->to_play);
    if (got >= 4) PyBuffer_Release(&v->rewards);
    if (got >= 5) PyBuffer_Release(&v->dones);
    PyMem_Free(v->spare);
    PyMem_Free(v->bits);
    PyMem_Free(v->games);
    PyMem_Free(v);
    return NULL;
}

/* vector_reset(capsule, seed or None): every slot a new game (from seed's first games), arrays rewritten whole. */
static PyObject *vector_reset(PyObject *module, PyObject *args) {
    PyObject *capsule, *seed;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &seed)) return NULL;
    Vec *v = vec_of(capsule);
    if (!v) return NULL;
    if (seed != Py_None) {
        unsigned long long s = PyLong_AsUnsignedLongLongMask(seed);
        if (PyErr_Occurred()) return NULL;
        v->seed = s;
        for (Py_ssize_t i = 0; i < v->n; i++) v->games[i].episode = 0;
    }
    memset(v->rewards.buf, 0, (size_t)v->rewards.len);
    memset(v->dones.buf, 0, (size_t)v->dones.len);
    for (Py_ssize_t i = 0; i < v->n; i++) {
        v->games[i].nset = -1;
        v->games[i].nmark = -1;
        v_new_game(v, i);
        if (v_show(v, i) < 0) return NULL;
    }
    Py_RETURN_NONE;
}

/* The (capsule, actions) arguments of vector_step and vector_illegal: the games, and a (released by the caller) on
   one int64 action index per game. NULL with an error set. */
static Vec *v_actions(PyObject *args, Py_buffer *a, const char *what) {
    PyObject *capsule, *actions_object;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &actions_object)) return NULL;
    Vec *v = vec_of(capsule);
    if (!v) return NULL;
    if (PyObject_GetBuffer(actions_object, a, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (a->len != v->n * 8) {
        PyBuffer_Release(a);
        PyErr_Format(PyExc_ValueError, "%s: one int64 action index per game", what);
        return NULL;
    }
    return v;
}

/* vector_step(capsule, actions): applies actions[i] (an index of the seat to move's mask) in each game; a game
   that ends writes its rewards and done flag and is dealt anew; then every game's mask and observation. */
static PyObject *vector_step(PyObject *module, PyObject *args) {
    Py_buffer a;
    Vec *v = v_actions(args, &a, "vector_step");
    if (!v) return NULL;
    const int64_t *actions = a.buf;
    float *rewards = v->rewards.buf;
    uint8_t *dones = v->dones.buf;
    memset(rewards, 0, (size_t)v->rewards.len);
    memset(dones, 0, (size_t)v->dones.len);
    for (Py_ssize_t i = 0; i < v->n; i++) {
        VGame *g = &v->games[i];
        Core *c = &g->c;
        int64_t index = actions[i];
        if (c->finished || index < 0 || index >= v->size) {
            PyBuffer_Release(&a);
            PyErr_Format(PyExc_ValueError, "game %zd: action index %lld outside the space", i, (long long)index);
            return NULL;
        }
        long code = v_code(v, g, index);
        int type = C_TYPE(code), turn = c->turn_number;
        int cell = C_CELL(code), dest = -1, lifted = c->stage == RAVEN ? c->raven : -1;
        if (type == T_BUMP) {
            dest = cell + DIRSTEP[C_DIR(code)];
            while (is_line_tile(c, dest)) dest += DIRSTEP[C_DIR(code)];
        }
        apply_code(c, code);
        if (type == T_PLACE || type == T_BUMP) { /* the cells it changed: the Raven's old one, the bumped tile's new one */
            if (lifted >= 0) frontier_touch(c, &g->front, lifted);
            frontier_touch(c, &g->front, cell);
            if (dest >= 0) frontier_touch(c, &g->front, dest);
        }
        if (lifted >= 0) v_box_walk(g); /* the Raven may have left its cell: the box may shrink */
        else if (type == T_PLACE || type == T_BUMP) {
            v_box_add(g, cell);
            if (dest >= 0) v_box_add(g, dest);
        }
        if (c->finished || c->turn_number != turn) g->nturn = 0;
        else if (type == T_PLACE || type == T_BUMP) {
            if (g->nturn < V_MAXTURN) g->turn[g->nturn++] = (uint16_t)cell;
            if (dest >= 0 && g->nturn < V_MAXTURN) g->turn[g->nturn++] = (uint16_t)dest;
        }
        if (c->finished) {
            v_rewards(v, c, rewards + i * v->players);
            dones[i] = 1;
            v_new_game(v, i);
        }
        if (v_show(v, i) < 0) {
            PyBuffer_Release(&a);
            return NULL;
        }
    }
    PyBuffer_Release(&a);
    Py_RETURN_NONE;
}

/* A word's set bits, without the library call __builtin_popcountll becomes where the processor's instruction is not
   assumed. */
static inline int v_popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The k-th smallest of n distinct indices (below v->size): each set as a bit of v->bits, a bit per word that holds one
   set in v->summary, and the words then counted in index order until the k-th, every word cleared again on the way (a
   bucket count and a quickselect among the bucket's indices cost a fifth of the loop, by callgrind). */
static int32_t v_kth(Vec *v, const int32_t *a, int n, int k) {
    uint64_t *bits = v->bits, *summary = v->summary;
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)a[i];
        bits[x >> 6] |= 1ULL << (x & 63);
        summary[x >> 12] |= 1ULL << ((x >> 6) & 63);
    }
    int32_t chosen = -1;
    int nsummary = (v->size + 4095) >> 12;
    for (int s = 0; s < nsummary; s++) {
        uint64_t words = summary[s];
        summary[s] = 0;
        while (words) {
            int w = s * 64 + __builtin_ctzll(words);
            words &= words - 1;
            uint64_t b = bits[w];
            bits[w] = 0;
            if (chosen >= 0) continue;
            int count = v_popcount(b);
            if (k >= count) {
                k -= count;
                continue;
            }
            while (k--) b &= b - 1;
            chosen = w * 64 + __builtin_ctzll(b);
        }
    }
    return chosen;
}

/* vector_random(capsule, uniforms, out): VectorBackend.random_actions from the indices each game set. */
static PyObject *vector_random(PyObject *module, PyObject *args) {
    PyObject *capsule, *uniforms, *out;
    if (!PyArg_ParseTuple(args, "OOO", &capsule, &uniforms, &out)) return NULL;
    Vec *v = vec_of(capsule);
    if (!v) return NULL;
    Py_buffer u, o;
    if (PyObject_GetBuffer(uniforms, &u, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(out, &o, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    PyObject *result = NULL;
    if (u.len != v->n * 8 || o.len != v->n * 8) {
        PyErr_SetString(PyExc_ValueError, "vector_random: n float64 uniforms, n int64 out");
        goto done;
    }
    for (Py_ssize_t i = 0; i < v->n; i++) {
        VGame *g = &v->games[i];
        if (i + 2 < v->n) { /* a game's list is far from the last one's: asked for early, it is there when wanted */
            const VGame *later = &v->games[i + 2];
            __builtin_prefetch(&later->nset);
            for (int line = 0; line < 6; line++) __builtin_prefetch(later->set + 16 * line);
        }
        const uint8_t *row = (const uint8_t *)v->masks.buf + i * (Py_ssize_t)v->size;
        double uniform = ((const double *)u.buf)[i];
        int64_t chosen = -1;
        if (g->nset >= 0) {
            /* the k-th of the indices the game set (each once), in index order */
            int count = g->nset;
            if (count) {
                int k = (int)(uniform * (double)count);
                if (k >= count) k = count - 1;
                chosen = v_kth(v, g->set, count, k);
            }
        } else chosen = kth_set_byte(row, v->size, uniform); /* the indices are not known: the dense scan */
        ((int64_t *)o.buf)[i] = chosen;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&u);
    PyBuffer_Release(&o);
    return result;
}

/* vector_illegal(capsule, actions): the first game whose action index is not among its legal ones, or -1 (the env's
   check before a step without dense masks): from the indices each game set, or its mask where it does not know them. */
static PyObject *vector_illegal(PyObject *module, PyObject *args) {
    Py_buffer a;
    Vec *v = v_actions(args, &a, "vector_illegal");
    if (!v) return NULL;
    const int64_t *actions = a.buf;
    Py_ssize_t found = -1;
    for (Py_ssize_t i = 0; i < v->n && found < 0; i++) {
        const VGame *g = &v->games[i];
        int64_t index = actions[i];
        int legal = 0;
        if (index >= 0 && index < v->size) {
            if (g->nset >= 0)
                for (int k = 0; k < g->nset && !legal; k++) legal = g->set[k] == index;
            else legal = ((const uint8_t *)v->masks.buf)[i * (Py_ssize_t)v->size + index] != 0;
        }
        if (!legal) found = i;
    }
    PyBuffer_Release(&a);
    return PyLong_FromSsize_t(found);
}

static int v_ascending(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* vector_legal(capsule, starts): every game's legal indices, in index order, one game after another, as the bytes of
   int64s (VectorEnv.legal_indices); starts (int64, n + 1) gets where each game's begin and the total. From the
   indices each game set; a game that does not know them (after a failed step) scans its mask. */
static PyObject *vector_legal(PyObject *module, PyObject *args) {
    PyObject *capsule, *starts_object;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &starts_object)) return NULL;
    Vec *v = vec_of(capsule);
    if (!v) return NULL;
    Py_buffer st;
    if (PyObject_GetBuffer(starts_object, &st, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return NULL;
    PyObject *result = NULL;
    if (st.len != (v->n + 1) * 8) {
        PyErr_SetString(PyExc_ValueError, "vector_legal: n + 1 int64 starts");
        goto done;
    }
    int64_t *starts = st.buf, total = 0;
    for (Py_ssize_t i = 0; i < v->n; i++) {
        VGame *g = &v->games[i];
        starts[i] = total;
        if (g->nset >= 0) total += g->nset;
        else {
            const uint8_t *row = (const uint8_t *)v->masks.buf + i * (Py_ssize_t)v->size;
            for (int j = 0; j < v->size; j++) total += row[j] != 0;
        }
    }
    starts[v->n] = total;
    result = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(total * 8));
    if (!result) goto done;
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(result);
    int32_t sorted[V_MAXSET];
    for (Py_ssize_t i = 0; i < v->n; i++) {
        VGame *g = &v->games[i];
        int64_t *at = out + starts[i];
        if (g->nset >= 0) {
            memcpy(sorted, g->set, sizeof(int32_t) * (size_t)g->nset);
            qsort(sorted, (size_t)g->nset, sizeof(int32_t), v_ascending);
            for (int k = 0; k < g->nset; k++) at[k] = sorted[k];
        } else {
            const uint8_t *row = (const uint8_t *)v->masks.buf + i * (Py_ssize_t)v->size;
            for (int j = 0; j < v->size; j++)
                if (row[j]) *at++ = j;
        }
    }
done:
    PyBuffer_Release(&st);
    return result;
}

static PyObject *v_frontier_list(const Frontier *f) {
    int32_t sorted[MAXFRONT];
    for (int k = 0; k < f->n; k++) sorted[k] = f->cell[k] * 4 + f->open[k];
    qsort(sorted, (size_t)f->n, sizeof(int32_t), v_ascending);
    PyObject *list = PyList_New(f->n);
    if (!list) return NULL;
    for (int k = 0; k < f->n; k++) {
        int cell = sorted[k] / 4;
        PyObject *item = Py_BuildValue("(iii)", cell % G - OFF, cell / G - OFF, sorted[k] % 4);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, item);
    }
    return list;
}

/* vector_frontiers(capsule): for each game, (kept, built): the frontier the backend kept move by move and the one
   frontier_build makes of the board now, each a sorted list of (x, y, opening): equal, or the kept one went wrong. */
static PyObject *vector_frontiers(PyObject *module, PyObject *capsule) {
    Vec *v = vec_of(capsule);
    if (!v) return NULL;
    PyObject *result = PyList_New(v->n);
    if (!result) return NULL;
    for (Py_ssize_t i = 0; i < v->n; i++) {
        frontier_build(&v->games[i].c, &built);
        PyObject *pair = Py_BuildValue("(NN)", v_frontier_list(&v->games[i].front.f), v_frontier_list(&built));
        if (!pair) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, pair);
    }
    return result;
}

/* A sorted Python list of n distinct-or-not indices, each once. */
static PyObject *v_index_list(int32_t *indices, int n) {
    qsort(indices, (size_t)n, sizeof(int32_t), v_ascending);
    PyObject *list = PyList_New(0);
    for (int k = 0; list && k < n; k++) {
        if (k && indices[k] == indices[k - 1]) continue;
        PyObject *item = PyLong_FromLong(indices[k]);
        if (!item || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list;
}

/* vector_plays(capsule): for each game, (kept, plain): the legal indices the step kept (the generator's plays into
   the sink, the fast way) and those of the codes the generator gives without a sink (each code's index, as
   vector_legal's), each a sorted list; equal, or the fast way went wrong. None for a game that kept no indices. */
static PyObject *vector_plays(PyObject *module, PyObject *capsule) {
    Vec *v = vec_of(capsule);
    if (!v) return NULL;
    PyObject *result = PyList_New(v->n);
    int32_t *indices = PyMem_Malloc(sizeof(int32_t) * 2 * V_MAXSET);
    CodeList codes = {NULL, 0, 0, 0};
    if (!result || !indices) goto fail;
    for (Py_ssize_t i = 0; i < v->n; i++) {
        VGame *g = &v->games[i];
        if (g->nset < 0) {
            PyList_SET_ITEM(result, i, Py_NewRef(Py_None));
            continue;
        }
        memcpy(indices, g->set, sizeof(int32_t) * (size_t)g->nset);
        PyObject *kept = v_index_list(indices, g->nset);
        codes.front = &g->front.f;
        if (!kept || legal_codes(&g->c, &codes) < 0) {
            Py_XDECREF(kept);
            goto fail;
        }
        int n = 0;
        for (int k = 0; k < codes.n && n < 2 * V_MAXSET - 1; k++) {
            int plain, index = v_code_index(v, &g->c, codes.codes[k], g->x0, g->y0, &plain);
            indices[n++] = index;
            if (plain >= 0) indices[n++] = plain;
        }
        PyObject *pair = Py_BuildValue("(NN)", kept, v_index_list(indices, n));
        if (!pair) goto fail;
        PyList_SET_ITEM(result, i, pair);
    }
    PyMem_Free(indices);
    PyMem_Free(codes.codes);
    return result;
fail:
    if (!PyErr_Occurred()) PyErr_NoMemory();
    Py_XDECREF(result);
    PyMem_Free(indices);
    PyMem_Free(codes.codes);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"build", build, METH_VARARGS, "A SearchState from a dict as export() gives it (None: off the grid)."},
    {"set_tables", set_tables, METH_VARARGS, "Set face values and the booster supply."},
    {"decode", decode, METH_O, "(type, kind, x, y, boost, dir, line) of a code."},
    {"encode", encode, METH_VARARGS, "The code of (type, kind, x, y, boost, dir, line), or None."},
    {"from_bytes", from_bytes, METH_O, "The SearchState whose to_bytes() gave these bytes."},
    {"vector_new", vector_new, METH_VARARGS, "n games and the VectorEnv's arrays, as a capsule (games/voluspa/vector.py)."},
    {"vector_reset", vector_reset, METH_VARARGS, "Deal every game anew and write the arrays (capsule, seed or None)."},
    {"vector_step", vector_step, METH_VARARGS, "Apply one action index per game and write the arrays (capsule, actions)."},
    {"vector_random", vector_random, METH_VARARGS, "A legal index per game by uniforms (capsule, uniforms, out)."},
    {"vector_illegal", vector_illegal, METH_VARARGS, "The first game whose action is not legal, or -1 (capsule, actions)."},
    {"vector_legal", vector_legal, METH_VARARGS, "Every game's legal indices, in order, as int64 bytes (capsule, starts)."},
    {"vector_plays", vector_plays, METH_O, "Each game's (kept, plain) legal indices: the sink's and the codes' ones."},
    {"vector_frontiers", vector_frontiers, METH_O, "Each game's (kept, rebuilt) frontier as sorted (x, y, opening) lists."},
    {NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "meadhall.games.voluspa._search", "The Völuspá search engine (C).", -1, module_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search(void) { return search_module(&module_def, &SearchStateType, add_tables); }
