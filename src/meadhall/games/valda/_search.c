/*
 * meadhall.games.valda._search: the Valda search engine, in C.
 *
 * A second implementation of the rules of src/meadhall/games/valda/state.py, without
 * events or logs, for bots, benchmarks and vector environments (what players know of hands
 * and under the decks only in the games vector_deal makes, for observations). The Python engine
 * is the reference: tests/valda/test_search_engine.py plays random games through both
 * and requires the same legal actions and the same state after every step. Any rule
 * change goes into state.py first, then here. Each function below names the method of
 * state.py it follows, and does the same things in the same order, so that the random
 * generator (the same xoshiro256** as meadhall.core.rng) is consumed identically.
 *
 * The content (cards, effects, dice faces, costs) is data given by Python at run time
 * (register_content); nothing of a pack is written here. Cards are numbered in the
 * sorted order of their ids, so that sorting numbers sorts ids as state.py does; gods
 * are numbered alphabetically (freya, heimdall, loki, odin, surtur, thor, tyr), with the
 * pack's order kept for the loops that follow it.
 *
 * Actions are ints: (kind << 16) | (a << 8) | b, kinds and arguments as in the bridge
 * (meadhall.games.valda.native).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rng.h" /* meadhall.core.rng in C: next64, seed_rng, below, shuffle_bytes */
#include "search_ext.h" /* read_ints, read_bytes, search_module: the glue both engines share */

#define MAXP 5
#define NG 7
#define NR 3
#define MAXC 150   /* cards in all (the pack checks it) and distinct cards at most */
#define MAXE 8     /* effects on one card (a LIMIT) */
#define MAXDICE 250
#define MAXQ 600
#define MAXSAVED 12
#define MAXITEMS 160
#define MAXOPEN 8
/* The rules' constants (state.py and content.py are the source): exported as RULES, which the
   bridge compares with the Python values at import, so that an engine built from other numbers
   does not load. */
#define SITES 5
#define ROUNDS 6
#define RACE_ROUNDS 20 /* Race to the Gods: the last round there can be */
#define HAND_LIMIT 10
#define TEMPLES_PER_PLAYER 9
#define LOCK 3
#define MAX_MINES 4
#define MAX_DRILLS 3
#define RACE_GOAL 20
#define ACTIONS 3 /* a turn's game actions */
#define BUILDS 2  /* a turn's buildings */
#define FACES 6   /* a die's faces */
#define MINE 7
#define DRILL 8
/* What the tables hold at most (with MAXC and MAXE): exported in LAYOUT (the bridge keeps a pack
   beyond them on the Python engine). */
#define MAX_PARAMETER 20 /* an effect's count or amount */

/* Each numbering is written once, here: a list of (C symbol, name in Python) that makes both the
   enum and the names the module exports (NAMES). The bridge (native.py) numbers actions, steps,
   decisions, phases, windows and weapon options by these names, and checks at import that the
   numberings that follow the rules' own lists (content.py) are in their order. */
#define ENUM_SYMBOL(symbol, name) symbol,
#define ENUM_NAME(symbol, name) name,
/* an effect's resource: the three, a resource of choice, the target's choice (content.PARAM_VALUES) */
#define RESOURCE_NAMES(X) \
    X(R_DROP, "drop") X(R_GOLD, "gold") X(R_DIAMOND, "diamond") X(R_CHOICE, "choice") X(R_ANY, "any")
enum { RESOURCE_NAMES(ENUM_SYMBOL) };
/* card kinds, and any (content.CARD_KINDS) */
#define KIND_NAMES(X) \
    X(K_YELLOW, "yellow") X(K_ATTACK, "attack") X(K_DEFENCE, "defence") X(K_WEAPON, "weapon") X(K_ANY, "any")
enum { KIND_NAMES(ENUM_SYMBOL) };
/* the effect vocabulary, in content.EFFECTS's order */
#define EFFECT_NAMES(X) \
    X(E_GAIN, "gain") X(E_FOLLOWERS, "followers") X(E_DRAW, "draw") X(E_ACTIONS, "actions") X(E_ROLL, "roll") \
    X(E_BUILD, "build") X(E_CONVERT, "convert") X(E_LOOK, "look") X(E_PEEK_TAKE, "peek_take") \
    X(E_SWITCH_OPEN, "switch_open") X(E_PLAY_YELLOW, "play_yellow") X(E_LEND, "lend") \
    X(E_STEAL_RESOURCE, "steal_resource") X(E_STEAL_CARD, "steal_card") X(E_KILL, "kill") \
    X(E_STEAL_FOLLOWERS, "steal_followers") X(E_DESTROY, "destroy") X(E_MOVE_TEMPLE, "move_temple") \
    X(E_DISCARD, "discard")
enum { EFFECT_NAMES(ENUM_SYMBOL) };
/* gods, alphabetically (content.RULEBOOK_GODS sorted) */
#define GOD_NAMES(X) \
    X(G_FREYA, "freya") X(G_HEIMDALL, "heimdall") X(G_LOKI, "loki") X(G_ODIN, "odin") X(G_SURTUR, "surtur") \
    X(G_THOR, "thor") X(G_TYR, "tyr")
enum { GOD_NAMES(ENUM_SYMBOL) };
/* an effect's building parameter (content.PARAM_VALUES) */
#define BUILDING_NAMES(X) X(B_MINE, "mine") X(B_DRILL, "drill") X(B_TEMPLE, "temple") X(B_ANY, "any")
enum { BUILDING_NAMES(ENUM_SYMBOL) };
/* who an effect is for (content.PARAM_VALUES) */
#define WHO_NAMES(X) X(WHO_ME, "me") X(WHO_ALL, "all") X(WHO_OTHERS, "others")
enum { WHO_NAMES(ENUM_SYMBOL) };
/* where a draw comes from (content.PARAM_VALUES) */
#define SOURCE_NAMES(X) X(SRC_BASE, "base") X(SRC_GOD, "god") X(SRC_DISCARD, "discard")
enum { SOURCE_NAMES(ENUM_SYMBOL) };
/* god weapon options (the engine's own order; content.RULEBOOK_WEAPONS has the same set) */
#define OPTION_NAMES(X) \
    X(O_BULLSEYE, "bullseye") X(O_SOULSPEAR, "soulspear") X(O_VANISHED, "vanished") X(O_CROWN, "crown-of-fortune") \
    X(O_THIEF, "thief") X(O_TYRS_REVENGE, "tyrs-revenge") X(O_WAR_HORN, "war-horn") \
    X(O_GJALLARHORN, "sound-of-the-gjallarhorn") X(O_RESISTED, "resisted") X(O_SURTURS_CLAIM, "surturs-claim") \
    X(O_HAMMERTIME, "hammertime") X(O_WRATH, "wrath-of-thor") X(O_BACKSTAB, "backstab") \
    X(O_DAGGER, "deadly-dagger")
enum { OPTION_NAMES(ENUM_SYMBOL) NOPT };
/* phases (state.phase) */
#define PHASE_NAMES(X) \
    X(P_SETUP, "setup") X(P_RESOURCES, "resources") X(P_GAME, "game") X(P_BUILDING, "building") \
    X(P_ATTACK, "attack") X(P_FOLLOWERS, "followers") X(P_OVER, "over")
enum { PHASE_NAMES(ENUM_SYMBOL) };
/* decision kinds (state.decision["kind"]; none: no decision) */
#define DECISION_NAMES(X) \
    X(D_NONE, NULL) X(D_CHOOSE, "choose") X(D_RESOURCES, "resources") X(D_GAME, "game") \
    X(D_HAND_LIMIT, "hand-limit") X(D_BUILD, "build") X(D_FREE_BUILD, "free-build") X(D_WAIVE, "waive") \
    X(D_KEEP, "keep") X(D_ATTACK, "attack") X(D_DEFEND, "defend") X(D_STEAL, "steal") X(D_DESTROY, "destroy") \
    X(D_MOVE, "move") X(D_CONVERT, "convert") X(D_LOOK, "look") X(D_PEEK, "peek") \
    X(D_DISCARD_PICK, "discard-pick") X(D_SWITCH, "switch") X(D_GOD_DRAW, "god-draw") X(D_LEND, "lend") \
    X(D_FOLLOWERS, "followers") X(D_WINDOW, "window") X(D_THIEF, "thief") X(D_HAMMER, "hammer") X(D_FACE, "face") \
    X(D_REDIRECT, "redirect") X(D_LOCK_CARD, "lock-card")
enum { DECISION_NAMES(ENUM_SYMBOL) D_COUNT };
/* response windows (a window step's moment) */
#define WINDOW_NAMES(X) \
    X(W_ROLLED, "rolled") X(W_ANNOUNCED, "announced") X(W_DEFENDED, "defended") X(W_BUILDING, "building")
enum { WINDOW_NAMES(ENUM_SYMBOL) };
/* queue steps (state.queue) */
#define STEP_NAMES(X) \
    X(S_TURN, "turn") X(S_RESOURCE_PHASE, "resource_phase") X(S_GAME_PHASE, "game_phase") \
    X(S_BUILD_PHASE, "build_phase") X(S_ATTACK_PHASE, "attack_phase") X(S_FOLLOWERS_PHASE, "followers_phase") \
    X(S_END_TURN, "end_turn") X(S_RESOURCE_ACTIONS, "resource_actions") X(S_GAME_ACTIONS, "game_actions") \
    X(S_HAND_LIMIT, "hand_limit") X(S_DICE_OUTCOME, "dice_outcome") X(S_CHOOSE, "choose") X(S_WINDOW, "window") \
    X(S_OFFER, "offer") X(S_DO_BUILD, "do_build") X(S_TEMPLE_REWARDS, "temple_rewards") X(S_ATTACKER, "attacker") \
    X(S_ATTACK_DONE, "attack_done") X(S_DEFENCE, "defence") X(S_AFTER_DEFENDED, "after_defended") \
    X(S_IMPACT, "impact") X(S_EFFECT, "effect") X(S_ASK_GOD_DRAW, "ask_god_draw") \
    X(S_ASK_DISCARD_PICK, "ask_discard_pick") X(S_ASK_STEAL, "ask_steal") X(S_ASK_FOLLOWERS, "ask_followers") \
    X(S_REDECIDE, "redecide") X(S_LOCK_CARD, "lock_card") X(S_OPEN_CARDS, "open_cards")
enum { STEP_NAMES(ENUM_SYMBOL) };
/* action kinds (notation.ValdaAction.kind): an action code's kind */
#define ACTION_NAMES(X) \
    X(A_TRADE, "trade") X(A_SWAP, "swap") X(A_CHOOSE, "choose") X(A_DONE, "done") X(A_PLAY, "play") \
    X(A_USE, "use") X(A_TAKE, "take") X(A_DRAW, "draw") X(A_BUY, "buy") X(A_DISCARD, "discard") \
    X(A_BUILD, "build") X(A_KEEP, "keep") X(A_ATTACK, "attack") X(A_PASS, "pass") X(A_DEFEND, "defend") \
    X(A_YIELD, "yield") X(A_STEAL, "steal") X(A_DESTROY, "destroy") X(A_MOVE, "move") X(A_CONVERT, "convert") \
    X(A_THOR, "thor") X(A_THOR2, "thor2") X(A_ODIN, "odin") X(A_ODIN2, "odin2") X(A_LOKI, "loki") \
    X(A_SEAT, "seat") X(A_GOD, "god") X(A_CARD, "card") X(A_WEAPON, "weapon") X(A_FACE, "face")
enum { ACTION_NAMES(ENUM_SYMBOL) };
/* die colours (content.DIE_COLOURS) */
#define DIE_NAMES(X) X(DIE_YELLOW, "yellow") X(DIE_BLUE, "blue") X(DIE_WHITE, "white")
enum { DIE_NAMES(ENUM_SYMBOL) };

/* The names of each numbering, as exported (NAMES): key, names, how many. */
static const char *const RESOURCE_NAMES_[] = {RESOURCE_NAMES(ENUM_NAME)};
static const char *const KIND_NAMES_[] = {KIND_NAMES(ENUM_NAME)};
static const char *const EFFECT_NAMES_[] = {EFFECT_NAMES(ENUM_NAME)};
static const char *const GOD_NAMES_[] = {GOD_NAMES(ENUM_NAME)};
static const char *const BUILDING_NAMES_[] = {BUILDING_NAMES(ENUM_NAME)};
static const char *const WHO_NAMES_[] = {WHO_NAMES(ENUM_NAME)};
static const char *const SOURCE_NAMES_[] = {SOURCE_NAMES(ENUM_NAME)};
static const char *const OPTION_NAMES_[] = {OPTION_NAMES(ENUM_NAME)};
static const char *const PHASE_NAMES_[] = {PHASE_NAMES(ENUM_NAME)};
static const char *const DECISION_NAMES_[] = {DECISION_NAMES(ENUM_NAME)};
static const char *const WINDOW_NAMES_[] = {WINDOW_NAMES(ENUM_NAME)};
static const char *const STEP_NAMES_[] = {STEP_NAMES(ENUM_NAME)};
static const char *const ACTION_NAMES_[] = {ACTION_NAMES(ENUM_NAME)};
static const char *const DIE_NAMES_[] = {DIE_NAMES(ENUM_NAME)};
static const struct {
    const char *key;
    const char *const *names;
    int n;
} NUMBERINGS[] = {
    {"resources", RESOURCE_NAMES_, (int)(sizeof RESOURCE_NAMES_ / sizeof RESOURCE_NAMES_[0])},
    {"kinds", KIND_NAMES_, (int)(sizeof KIND_NAMES_ / sizeof KIND_NAMES_[0])},
    {"effects", EFFECT_NAMES_, (int)(sizeof EFFECT_NAMES_ / sizeof EFFECT_NAMES_[0])},
    {"gods", GOD_NAMES_, (int)(sizeof GOD_NAMES_ / sizeof GOD_NAMES_[0])},
    {"buildings", BUILDING_NAMES_, (int)(sizeof BUILDING_NAMES_ / sizeof BUILDING_NAMES_[0])},
    {"who", WHO_NAMES_, (int)(sizeof WHO_NAMES_ / sizeof WHO_NAMES_[0])},
    {"sources", SOURCE_NAMES_, (int)(sizeof SOURCE_NAMES_ / sizeof SOURCE_NAMES_[0])},
    {"options", OPTION_NAMES_, (int)(sizeof OPTION_NAMES_ / sizeof OPTION_NAMES_[0])},
    {"phases", PHASE_NAMES_, (int)(sizeof PHASE_NAMES_ / sizeof PHASE_NAMES_[0])},
    {"decisions", DECISION_NAMES_, (int)(sizeof DECISION_NAMES_ / sizeof DECISION_NAMES_[0])},
    {"windows", WINDOW_NAMES_, (int)(sizeof WINDOW_NAMES_ / sizeof WINDOW_NAMES_[0])},
    {"steps", STEP_NAMES_, (int)(sizeof STEP_NAMES_ / sizeof STEP_NAMES_[0])},
    {"actions", ACTION_NAMES_, (int)(sizeof ACTION_NAMES_ / sizeof ACTION_NAMES_[0])},
    {"dice", DIE_NAMES_, (int)(sizeof DIE_NAMES_ / sizeof DIE_NAMES_[0])},
};
/* A reason ("why") is a card number, an option (WHY_OPTION + option), the resource dice,
   Loki's dice, or a face of choice of one of those (WHY_FACE + reason). */
#define WHY_OPTION 1000
#define WHY_DICE 2000
#define WHY_LOKI 2001
#define WHY_FACE 4000

/* Why a state stopped: a table overflowed, a building could not be paid (as state.py refuses), or a
   card (or temple) a step takes was not where it should be (where state.py's list.remove raises). */
#define ERROR_OVERFLOW 1
#define ERROR_UNPAID 2
#define ERROR_MISSING 3

#define CODE(k, a, b) (((k) << 16) | ((a) << 8) | (b))
#define CK(c) ((c) >> 16)
#define CA(c) (((c) >> 8) & 255)
#define CB(c) ((c)&255)

static const int SAFE_ZONES[3] = {5, 12, 20};
/* Thor's and Odin's conversions (state.CONVERSIONS), in its order: god, temples, pay, followers, uses. */
static const int CONV[4][5] = {{G_THOR, 1, 3, 1, 3}, {G_THOR, 2, 2, 1, 3}, {G_ODIN, 1, 2, 1, 3}, {G_ODIN, 2, 3, 2, 2}};
static const int CONV_ACTION[4] = {A_THOR, A_THOR2, A_ODIN, A_ODIN2};

typedef struct {
    int8_t do_, resource, who, source, kind, die, building, give;
    int16_t amount, count, discount, followers, times;
} Effect;

typedef struct {
    int ncards;
    int8_t kind[MAXC];
    int8_t god[MAXC]; /* -1: the base deck */
    int16_t power[MAXC];
    int8_t neffects[MAXC];
    Effect effects[MAXC][MAXE];
    int16_t weapon_card[NOPT]; /* each option's card, -1 if none */
    int8_t die_resources[2][FACES][4]; /* yellow, blue: drop, gold, diamond, choice */
    int8_t white[FACES];
    int8_t need[9][NR];          /* temples by god (0-6), mine (7), drill (8) */
    int8_t god_order[NG];        /* the pack's order of the gods */
    double resource_value[NR];   /* the evaluation's rates (valda.search) */
    double card_value[MAXC];     /* followers each card is worth in hand (search.card_values) */
    double die_income;
    double ability_income[NG][3];
} Content;


typedef struct {
    int16_t res[NR];
    int16_t mines, drills;
    int16_t temples[NG];
    int16_t followers, floor;
    int16_t nhand;
    uint8_t hand[MAXC];
} Player;

typedef struct {
    int8_t kind, seat, target, god, building, discount, give, window;
    int16_t amount, followers, left, count, why, arg;
    int8_t cost[NR], waived[NR], costmask;
    int16_t n, n2;
    uint8_t items[MAXITEMS];
    uint8_t items2[MAXOPEN];
} Decision;

typedef struct {
    uint8_t name;
    int8_t seat;
    int16_t a, b, c;
} Step;

typedef struct {
    int8_t present; /* 0: no record ({}), 1: an attack, 2: the followers phase's uses */
    int8_t attacker, target;
    int16_t card, power, defence;
    int8_t cancelled, undefendable, resolved, again, soulspear, loki;
    int8_t uses[4];
    int16_t nused;
    uint8_t used[MAXC];
} Attack;

typedef struct {
    const Content *ct; /* the pack's tables, owned by the SearchState's content object */
    int players, turnaround, race;
    uint64_t rng[4];
    Player pl[MAXP];
    int16_t nbase, ndiscard, nopen;
    uint8_t base[MAXC], discard[MAXC], open[MAXOPEN];
    int16_t ngod[NG];
    uint8_t gods[NG][MAXC];
    int8_t nsites[NG];
    int8_t sites[NG][SITES];
    int8_t locks[NG];
    int8_t round, start, norder, turn, phase, actions, free_yellow, builds, open_closed;
    int8_t order[MAXP];
    int8_t lent[NG];
    int16_t ndice;
    uint8_t dice[MAXDICE][2];
    Attack attack;
    Decision decision;
    int16_t nq; /* the queue as a stack: q[nq - 1] is its front */
    Step q[MAXQ];
    int8_t saved_used[MAXSAVED];
    Decision saved[MAXSAVED];
    int8_t backstabbed, winner, finished, error;
    int16_t reshuffles;
} Core;

typedef struct {
    PyObject_HEAD PyObject *content; /* the capsule of c.ct (register_content's): kept alive while a state uses it */
    Core c;
    struct Knowledge *kn; /* what seats know (a vector game's, for observations); NULL: not kept (clones neither) */
} SearchState;

static PyTypeObject SearchStateType;

#define CT(s) ((s)->ct)

/* ---------------------------------------------------------------- what seats know (vector games only) */

/*
 * board.py's known and bottoms, for the vector backend's observations (vector_deal makes a game that
 * keeps them; search states do not): known[viewer][target][card], how many of a card the viewer knows
 * are in target's hand; bottom[viewer][deck], the cards the viewer knows lie under a deck (NG: the base
 * deck), from the very bottom up, -1 for one it did not see. The last viewer slot (players) is what
 * everybody knows. The rules update them through the kn_ functions below, where state.py calls _learn,
 * _forget, _to_bottom and _from_top, while `tracking` points at the stepped game's record (NULL: none).
 */
#define NDECKS (NG + 1)
#define BASE_DECK NG
typedef struct Knowledge {
    uint8_t known[MAXP + 1][MAXP][MAXC];
    int16_t nbottom[MAXP + 1][NDECKS];
    int16_t bottom[MAXP + 1][NDECKS][MAXC];
} Knowledge;

static Knowledge *tracking = NULL;
#define EVERYBODY 0xffffu

/* _learn: viewers (a bit per slot) now know the cards are in target's hand (a multiset union). */
static void kn_learn(const Core *s, unsigned viewers, int target, const uint8_t *cards, int n) {
    Knowledge *kn = tracking;
    if (!kn) return;
    uint8_t seen[MAXC];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < n; i++) seen[cards[i]]++;
    for (int slot = 0; slot <= s->players; slot++) {
        if (!(viewers >> slot & 1u) || slot == target) continue;
        for (int i = 0; i < n; i++)
            if (kn->known[slot][target][cards[i]] < seen[cards[i]]) kn->known[slot][target][cards[i]] = seen[cards[i]];
    }
}

static void kn_learn_one(const Core *s, unsigned viewers, int target, int card) {
    uint8_t c = (uint8_t)card;
    kn_learn(s, viewers, target, &c, 1);
}

/* _forget: the cards left target's hand; the witnesses strike them out, the others forget the hand. */
static void kn_forget(const Core *s, int target, const uint8_t *cards, int n, unsigned witnesses) {
    Knowledge *kn = tracking;
    if (!kn) return;
    for (int slot = 0; slot <= s->players; slot++) {
        uint8_t *about = kn->known[slot][target];
        if (witnesses >> slot & 1u) {
            for (int i = 0; i < n; i++)
                if (about[cards[i]]) about[cards[i]]--;
        } else
            memset(about, 0, MAXC);
    }
}

static void kn_forget_one(const Core *s, int target, int card) {
    uint8_t c = (uint8_t)card;
    kn_forget(s, target, &c, 1, EVERYBODY);
}

/* _to_bottom: the cards went under a deck (cards[0] at the very bottom), seen by the knowers. */
static void kn_to_bottom(Core *s, int deck, const uint8_t *cards, int n, unsigned knowers) {
    Knowledge *kn = tracking;
    if (!kn || n <= 0) return;
    for (int slot = 0; slot <= s->players; slot++) {
        int16_t *list = kn->bottom[slot][deck];
        int have = kn->nbottom[slot][deck];
        if (have + n > MAXC) {
            s->error = ERROR_OVERFLOW;
            return;
        }
        memmove(list + n, list, (size_t)have * sizeof *list);
        for (int i = 0; i < n; i++) list[i] = (int16_t)(knowers >> slot & 1u ? cards[i] : -1);
        kn->nbottom[slot][deck] = (int16_t)(have + n);
    }
}

/* _from_top: count cards leave the top of a deck of size cards, to to_hand's hand (-1: none). */
static void kn_from_top(const Core *s, int deck, int size, int count, int to_hand) {
    Knowledge *kn = tracking;
    if (!kn) return;
    int left = size - count;
    for (int slot = 0; slot <= s->players; slot++) {
        int have = kn->nbottom[slot][deck];
        if (!have || have <= left) continue;
        uint8_t leaving[MAXC];
        int k = 0;
        for (int i = left < 0 ? 0 : left; i < have; i++)
            if (kn->bottom[slot][deck][i] >= 0) leaving[k++] = (uint8_t)kn->bottom[slot][deck][i];
        kn->nbottom[slot][deck] = (int16_t)(left < 0 ? 0 : left);
        if (to_hand >= 0 && k) kn_learn(s, 1u << slot, to_hand, leaving, k);
    }
}

/* ---------------------------------------------------------------- small helpers */

static int remove_first(uint8_t *items, int16_t *n, int value) {
    for (int i = 0; i < *n; i++)
        if (items[i] == value) {
            memmove(items + i, items + i + 1, (size_t)(*n - i - 1));
            (*n)--;
            return 1;
        }
    return 0;
}

/* remove_first where state.py removes with list.remove: a card that is not there is an error, not a
   silent difference (the engines would part from here on). */
static void take(Core *s, uint8_t *items, int16_t *n, int value) {
    if (!remove_first(items, n, value)) s->error = ERROR_MISSING;
}

static int contains(const uint8_t *items, int n, int value) {
    for (int i = 0; i < n; i++)
        if (items[i] == value) return 1;
    return 0;
}

static void push_card(Core *s, uint8_t *items, int16_t *n, int cap, int value) {
    if (*n >= cap) {
        s->error = ERROR_OVERFLOW;
        return;
    }
    items[(*n)++] = (uint8_t)value;
}

/* The different cards of a list that pass `keep`, sorted (numbers sort as ids do). */
static int distinct_sorted(const Content *ct, const uint8_t *items, int n, int kind, int except, uint8_t *out) {
    uint8_t seen[MAXC];
    memset(seen, 0, (size_t)ct->ncards);
    for (int i = 0; i < n; i++)
        if ((kind == K_ANY || ct->kind[items[i]] == kind) && items[i] != except) seen[items[i]] = 1;
    int m = 0;
    for (int c = 0; c < ct->ncards; c++)
        if (seen[c]) out[m++] = (uint8_t)c;
    return m;
}

static int current(const Core *s) { return s->order[s->turn < s->norder ? s->turn : s->norder - 1]; }

static int ability(const Core *s, int seat, int god) {
    int level = s->pl[seat].temples[god];
    if (level > 2) level = 2;
    if (level == 0 && seat == current(s) && s->lent[god]) return 1;
    return level;
}

static int total_temples(const Player *p) {
    int t = 0;
    for (int g = 0; g < NG; g++) t += p->temples[g];
    return t;
}

/* The attack record emptied ({}), or the followers phase's (present 2). */
static void clear_attack(Core *s, int present) {
    memset(&s->attack, 0, offsetof(Attack, used));
    s->attack.present = (int8_t)present;
}

/* ---------------------------------------------------------------- the queue */

static void push_front(Core *s, Step step) {
    if (s->finished) return; /* _then: nothing is queued once the game is over */
    if (s->nq >= MAXQ) {
        s->error = ERROR_OVERFLOW;
        return;
    }
    s->q[s->nq++] = step;
}

static void push_back(Core *s, Step step) {
    if (s->nq >= MAXQ) {
        s->error = ERROR_OVERFLOW;
        return;
    }
    memmove(s->q + 1, s->q, sizeof(Step) * (size_t)s->nq);
    s->q[0] = step;
    s->nq++;
}

static inline Step mk(int name, int seat, int a, int b, int c) {
    Step st = {(uint8_t)name, (int8_t)seat, (int16_t)a, (int16_t)b, (int16_t)c};
    return st;
}

/* _then with steps[0] first: pushed from the last. */
static void then_steps(Core *s, const Step *steps, int n) {
    for (int i = n - 1; i >= 0; i--) push_front(s, steps[i]);
}

static Decision *ask(Core *s, int seat, int kind) {
    if (s->finished) return NULL;
    Decision *d = &s->decision;
    memset(d, 0, offsetof(Decision, items));
    d->seat = (int8_t)seat;
    d->kind = (int8_t)kind;
    d->arg = -1;
    return d;
}

/* _ask with the choices among which to decide (cards, gods, resources, ...) and why. */
static Decision *ask_among(Core *s, int seat, int kind, const uint8_t *items, int k, int why) {
    Decision *d = ask(s, seat, kind);
    if (d) {
        d->n = (int16_t)k;
        memcpy(d->items, items, (size_t)k);
        d->why = (int16_t)why;
    }
    return d;
}

static void end_game(Core *s) {
    s->finished = 1;
    s->decision.kind = D_NONE;
    s->nq = 0;
    memset(s->saved_used, 0, sizeof(s->saved_used));
    s->phase = P_OVER;
}

/* ---------------------------------------------------------------- followers */

/* ValdaConfig.last_round */
static int last_round(const Core *s) { return s->race ? RACE_ROUNDS : ROUNDS; }

static void gain_followers(Core *s, int seat, int amount) {
    if (s->finished) return;
    Player *p = &s->pl[seat];
    p->followers += amount;
    for (int z = 0; z < 3; z++)
        if (p->followers >= SAFE_ZONES[z] && p->floor < SAFE_ZONES[z]) p->floor = SAFE_ZONES[z];
    if (s->race && p->followers >= RACE_GOAL && s->winner < 0) {
        s->winner = (int8_t)seat;
        end_game(s);
    }
}

static int lose_followers(Core *s, int seat, int amount) {
    if (s->finished) return 0;
    Player *p = &s->pl[seat];
    int lost = p->followers - p->floor;
    if (amount < lost) lost = amount;
    if (lost < 0) lost = 0;
    p->followers -= lost;
    return lost;
}

/* ---------------------------------------------------------------- legal actions */

typedef struct {
    int n;
    int codes[1024];
} Codes;

static inline void add(Codes *out, int code) {
    if (out->n < 1024) out->codes[out->n++] = code;
}

static int held_kind(const Core *s, int seat, int kind, uint8_t *out) {
    const Player *p = &s->pl[seat];
    return distinct_sorted(CT(s), p->hand, p->nhand, kind, -1, out);
}

static int short_of(const Core *s, int seat, int building) {
    const int8_t *need = CT(s)->need[building];
    const int16_t *have = s->pl[seat].res;
    int sh = 0;
    for (int r = 0; r < NR; r++)
        if (need[r] > have[r]) sh += need[r] - have[r];
    return sh;
}

/* buildable */
static int buildable(const Core *s, int seat, int discount, int kind, uint8_t *out) {
    const Player *p = &s->pl[seat];
    int n = 0;
    if ((kind == B_ANY || kind == B_MINE) && p->mines < MAX_MINES && short_of(s, seat, MINE) <= discount)
        out[n++] = MINE;
    if ((kind == B_ANY || kind == B_DRILL) && p->drills < MAX_DRILLS && short_of(s, seat, DRILL) <= discount)
        out[n++] = DRILL;
    if ((kind == B_ANY || kind == B_TEMPLE) && total_temples(p) < TEMPLES_PER_PLAYER) {
        for (int i = 0; i < NG; i++) {
            int g = CT(s)->god_order[i];
            if (s->nsites[g] < SITES && (s->locks[g] < 0 || s->locks[g] == seat) && short_of(s, seat, g) <= discount)
                out[n++] = (uint8_t)g;
        }
    }
    return n;
}

static int weapon_held(const Core *s, int seat, int option) {
    int card = CT(s)->weapon_card[option];
    return card >= 0 && contains(s->pl[seat].hand, s->pl[seat].nhand, card);
}

static int stealable_open(const Core *s, int seat, uint8_t *out) {
    if (seat == current(s) || s->open_closed) return 0;
    return distinct_sorted(CT(s), s->open, s->nopen, K_ANY, -1, out);
}

static int usable_now(const Core *s, int option, int seat) {
    if (option == O_BULLSEYE) return s->ndiscard > 0;
    if (option == O_GJALLARHORN || option == O_DAGGER) {
        int wanted = option == O_GJALLARHORN ? K_DEFENCE : K_ATTACK;
        for (int i = 0; i < s->ndiscard; i++)
            if (CT(s)->kind[s->discard[i]] == wanted) return 1;
        return 0;
    }
    if (option == O_THIEF) {
        for (int o = 0; o < s->players; o++)
            if (o != seat && s->pl[o].nhand) return 1;
        uint8_t tmp[MAXOPEN];
        return stealable_open(s, seat, tmp) > 0;
    }
    uint8_t tmp[MAXC];
    return s->phase == P_GAME && seat == current(s) && held_kind(s, seat, K_YELLOW, tmp) > 0;
}

static const int ANY_TIME[5] = {O_BULLSEYE, O_GJALLARHORN, O_DAGGER, O_THIEF, O_HAMMERTIME};

static int usable_any(const Core *s, int seat, int *out) {
    const Player *p = &s->pl[seat];
    int any = 0;
    for (int i = 0; i < p->nhand && !any; i++)
        if (CT(s)->kind[p->hand[i]] == K_WEAPON) any = 1;
    if (!any) return 0;
    int n = 0;
    for (int i = 0; i < 5; i++)
        if (weapon_held(s, seat, ANY_TIME[i]) && usable_now(s, ANY_TIME[i], seat)) out[n++] = ANY_TIME[i];
    return n;
}

/* _window_roles */
static int window_roles(const Core *s, int window, int seat, int *out) {
    const Attack *at = &s->attack;
    int wanted[3], n = 0;
    if (window == W_ROLLED) {
        wanted[n++] = O_CROWN;
    } else if (window == W_ANNOUNCED && at->present && !at->cancelled) {
        if (seat == at->attacker) {
            wanted[n++] = O_WAR_HORN;
            wanted[n++] = O_WRATH;
            wanted[n++] = O_SOULSPEAR;
        } else {
            int redirect = 0;
            for (int o = 0; o < s->players; o++)
                if (o != at->attacker && o != at->target) redirect = 1;
            if (redirect) wanted[n++] = O_VANISHED;
            if (seat == at->target) wanted[n++] = O_TYRS_REVENGE;
        }
    } else if (window == W_DEFENDED && at->present) {
        if (seat == at->target)
            wanted[n++] = O_RESISTED;
        else if (seat == at->attacker && contains(s->discard, s->ndiscard, at->card))
            wanted[n++] = O_SURTURS_CLAIM; /* the defended card, while it lies in the discard pile */
    } else if (window == W_BUILDING && seat != current(s)) {
        wanted[n++] = O_BACKSTAB;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int card = CT(s)->weapon_card[wanted[i]];
        if (card >= 0 && contains(s->discard, s->ndiscard, card)) continue;
        out[m++] = wanted[i];
    }
    return m;
}

static int window_options(const Core *s, int window, int seat, int *out) {
    int roles[3];
    int n = window_roles(s, window, seat, roles), m = 0;
    for (int i = 0; i < n; i++)
        if (weapon_held(s, seat, roles[i])) out[m++] = roles[i];
    return m;
}

static void follower_actions(const Core *s, int seat, Codes *out) {
    const Player *p = &s->pl[seat];
    const Attack *at = &s->attack;
    for (int k = 0; k < 4; k++) {
        int uses = at->present == 2 ? at->uses[k] : 0;
        if (ability(s, seat, CONV[k][0]) < CONV[k][1] || uses >= CONV[k][4]) continue;
        if (CONV[k][0] == G_THOR) {
            if (p->res[R_GOLD] >= CONV[k][2]) add(out, CODE(CONV_ACTION[k], R_GOLD, 0));
            if (p->res[R_DIAMOND] >= CONV[k][2]) add(out, CODE(CONV_ACTION[k], R_DIAMOND, 0));
        } else if (p->res[R_DROP] >= CONV[k][2]) {
            add(out, CODE(CONV_ACTION[k], 0, 0));
        }
    }
    if (ability(s, seat, G_LOKI) && !(at->present == 2 && at->loki)) add(out, CODE(A_LOKI, 0, 0));
    add(out, CODE(A_DONE, 0, 0));
}

/* _decision_actions */
static void decision_actions(const Core *s, int seat, const Decision *d, Codes *out) {
    const Player *p = &s->pl[seat];
    const Content *ct = CT(s);
    uint8_t tmp[MAXC];
    int n;
    switch (d->kind) {
    case D_CHOOSE:
        for (int r = 0; r < NR; r++) add(out, CODE(A_CHOOSE, r, 0));
        return;
    case D_RESOURCES: {
        for (int give = 0; give < NR; give++)
            if (p->res[give] >= 4)
                for (int get = 0; get < NR; get++)
                    if (get != give) add(out, CODE(A_TRADE, give, get));
        int level = ability(s, seat, G_HEIMDALL);
        if (level) {
            int need = level == 1 ? 2 : 1;
            for (int give = 0; give < NR; give++)
                if (p->res[give] >= need)
                    for (int get = 0; get < NR; get++)
                        if (get != give) add(out, CODE(A_SWAP, give, get));
        }
        add(out, CODE(A_DONE, 0, 0));
        return;
    }
    case D_GAME:
        if (s->actions > 0 || s->free_yellow > 0) {
            n = held_kind(s, seat, K_YELLOW, tmp);
            for (int i = 0; i < n; i++) add(out, CODE(A_PLAY, tmp[i], 0));
            n = distinct_sorted(ct, s->open, s->nopen, K_YELLOW, -1, tmp);
            for (int i = 0; i < n; i++) add(out, CODE(A_USE, tmp[i], 0));
        }
        if (s->actions > 0) {
            for (int r = 0; r < NR; r++) add(out, CODE(A_TAKE, r, 0));
            if (ability(s, seat, G_FREYA) >= 1) {
                n = distinct_sorted(ct, s->open, s->nopen, K_ANY, -1, tmp);
                for (int i = 0; i < n; i++) add(out, CODE(A_BUY, tmp[i], 0));
            }
        }
        if (s->actions >= 2 && (s->nbase || s->ndiscard)) add(out, CODE(A_DRAW, 0, 0));
        add(out, CODE(A_DONE, 0, 0));
        return;
    case D_HAND_LIMIT:
        n = held_kind(s, seat, K_ANY, tmp);
        for (int i = 0; i < n; i++) add(out, CODE(A_DISCARD, tmp[i], 0));
        return;
    case D_BUILD:
        if (s->builds > 0) {
            n = buildable(s, seat, 0, B_ANY, tmp);
            for (int i = 0; i < n; i++) add(out, CODE(A_BUILD, tmp[i], 0));
        }
        add(out, CODE(A_DONE, 0, 0));
        return;
    case D_FREE_BUILD:
        n = buildable(s, seat, d->discount, d->building, tmp);
        for (int i = 0; i < n; i++) add(out, CODE(A_BUILD, tmp[i], 0));
        add(out, CODE(A_DONE, 0, 0));
        return;
    case D_WAIVE:
        for (int r = 0; r < NR; r++)
            if ((d->costmask >> r & 1) && d->cost[r] > 0) add(out, CODE(A_CHOOSE, r, 0));
        return;
    case D_KEEP:
    case D_LOCK_CARD:
    case D_PEEK:
    case D_DISCARD_PICK:
        n = distinct_sorted(ct, d->items, d->n, K_ANY, -1, tmp);
        for (int i = 0; i < n; i++) add(out, CODE(d->kind == D_KEEP || d->kind == D_LOCK_CARD ? A_KEEP : A_CARD, tmp[i], 0));
        return;
    case D_ATTACK:
        n = held_kind(s, seat, K_ATTACK, tmp);
        for (int i = 0; i < n; i++) add(out, CODE(A_ATTACK, tmp[i], 0));
        add(out, CODE(A_PASS, 0, 0));
        return;
    case D_DEFEND:
        n = held_kind(s, seat, K_DEFENCE, tmp);
        for (int i = 0; i < n; i++) add(out, CODE(A_DEFEND, tmp[i], 0));
        add(out, CODE(A_YIELD, 0, 0));
        return;
    case D_STEAL:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_STEAL, d->items[i], 0));
        return;
    case D_DESTROY:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_DESTROY, d->items[i], 0));
        return;
    case D_MOVE:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_MOVE, d->items[i] >> 3, d->items[i] & 7));
        return;
    case D_CONVERT:
        if (d->left > 0 && p->res[d->give] >= d->amount) add(out, CODE(A_CONVERT, 0, 0));
        add(out, CODE(A_DONE, 0, 0));
        return;
    case D_LOOK:
    case D_REDIRECT:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_SEAT, d->items[i], 0));
        return;
    case D_SWITCH:
        n = distinct_sorted(ct, s->open, s->nopen, K_ANY, -1, tmp);
        for (int i = 0; i < n; i++) add(out, CODE(A_CARD, tmp[i], 0));
        return;
    case D_GOD_DRAW:
    case D_LEND:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_GOD, d->items[i], 0));
        return;
    case D_FOLLOWERS:
        follower_actions(s, seat, out);
        return;
    case D_WINDOW:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_WEAPON, d->items[i], 0));
        add(out, CODE(A_PASS, 0, 0));
        return;
    case D_THIEF:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_SEAT, d->items[i], 0));
        for (int i = 0; i < d->n2; i++) add(out, CODE(A_CARD, d->items2[i], 0));
        return;
    case D_HAMMER:
        for (int i = 0; i < d->n; i++) add(out, CODE(A_CARD, d->items[i], 0));
        return;
    case D_FACE:
        for (int i = 0; i < d->n; i++)
            for (int f = 0; f < FACES; f++)
                if (f != s->dice[d->items[i]][1]) add(out, CODE(A_FACE, d->items[i], f));
        return;
    }
}

static int weapon_decision(int kind) {
    return kind == D_WINDOW || kind == D_THIEF || kind == D_HAMMER || kind == D_FACE || kind == D_REDIRECT;
}

static void legal_codes(const Core *s, int seat, Codes *out) {
    out->n = 0;
    if (s->finished || s->decision.kind == D_NONE || s->decision.seat != seat) return;
    decision_actions(s, seat, &s->decision, out);
    if (!weapon_decision(s->decision.kind)) {
        int options[5];
        int n = usable_any(s, seat, options);
        for (int i = 0; i < n; i++) add(out, CODE(A_WEAPON, options[i], 0));
    }
}

/* ---------------------------------------------------------------- steps */

static void step_run(Core *s);

static void ask_unless_only_done(Core *s, int seat, int kind) {
    if (!ask(s, seat, kind)) return;
    Codes codes;
    codes.n = 0;
    decision_actions(s, seat, &s->decision, &codes);
    int public_n = 0, only_done = 0;
    for (int i = 0; i < codes.n; i++) {
        int k = CK(codes.codes[i]);
        if (k == A_PLAY || k == A_USE) continue;
        public_n++;
        only_done = k == A_DONE;
    }
    if (public_n == 1 && only_done && !(kind == D_GAME && s->free_yellow > 0)) {
        s->decision.kind = D_NONE;
        if (kind == D_GAME) push_front(s, mk(S_HAND_LIMIT, 0, 0, 0, 0));
    }
}

static void begin_round(Core *s) {
    int n = s->players;
    for (int i = 0; i < n; i++) {
        if (s->turnaround && s->round == last_round(s))
            s->order[i] = (int8_t)(((s->start - 1 - i) % n + n) % n);
        else
            s->order[i] = (int8_t)((s->start + i) % n);
    }
    s->norder = (int8_t)n;
    s->turn = 0;
    push_back(s, mk(S_TURN, 0, 0, 0, 0));
}

static void step_turn(Core *s) {
    s->actions = ACTIONS;
    s->free_yellow = 0;
    s->builds = BUILDS;
    memset(s->lent, 0, sizeof(s->lent));
    clear_attack(s, 0);
    Step steps[6] = {mk(S_RESOURCE_PHASE, 0, 0, 0, 0), mk(S_GAME_PHASE, 0, 0, 0, 0), mk(S_BUILD_PHASE, 0, 0, 0, 0),
                     mk(S_ATTACK_PHASE, 0, 0, 0, 0),   mk(S_FOLLOWERS_PHASE, 0, 0, 0, 0), mk(S_END_TURN, 0, 0, 0, 0)};
    then_steps(s, steps, 6);
}

static void step_end_turn(Core *s) {
    s->turn++;
    if (s->turn < s->norder) {
        push_back(s, mk(S_TURN, 0, 0, 0, 0));
        return;
    }
    if (s->round == last_round(s)) {
        end_game(s);
        return;
    }
    s->round++;
    begin_round(s);
}

/* _roll: dice[i] = (colour, count) */
static void roll(Core *s, int seat, const int *colours, const int *counts, int groups, int why) {
    int start = s->ndice;
    for (int g = 0; g < groups; g++)
        for (int i = 0; i < counts[g]; i++) {
            if (s->ndice >= MAXDICE) {
                s->error = ERROR_OVERFLOW;
                return;
            }
            s->dice[s->ndice][0] = (uint8_t)colours[g];
            s->dice[s->ndice][1] = (uint8_t)below(s->rng, FACES);
            s->ndice++;
        }
    if (s->ndice == start) return;
    Step steps[2] = {mk(S_WINDOW, 0, W_ROLLED, start, 0), mk(S_DICE_OUTCOME, seat, start, why, 0)};
    then_steps(s, steps, 2);
}

static void step_resource_phase(Core *s) {
    s->phase = P_RESOURCES;
    int seat = current(s);
    Player *p = &s->pl[seat];
    s->ndice = 0;
    push_front(s, mk(S_RESOURCE_ACTIONS, 0, 0, 0, 0));
    int colours[2] = {DIE_YELLOW, DIE_BLUE};
    int counts[2] = {p->mines < MAX_MINES ? p->mines : MAX_MINES, p->drills < MAX_DRILLS ? p->drills : MAX_DRILLS};
    roll(s, seat, colours, counts, 2, WHY_DICE);
}

static void step_dice_outcome(Core *s, int seat, int start, int why) {
    Player *p = &s->pl[seat];
    const Content *ct = CT(s);
    int choices = 0;
    for (int i = start; i < s->ndice; i++) {
        int colour = s->dice[i][0], face = s->dice[i][1];
        if (colour == DIE_WHITE) {
            int f = ct->white[face];
            if (f > 0)
                gain_followers(s, seat, f);
            else if (f < 0)
                lose_followers(s, seat, -f);
            continue;
        }
        const int8_t *shown = ct->die_resources[colour][face];
        for (int r = 0; r < NR; r++) p->res[r] += shown[r];
        choices += shown[R_CHOICE];
    }
    for (int i = 0; i < choices; i++) push_front(s, mk(S_CHOOSE, seat, WHY_FACE + why, 0, 0));
}

static int refill_base(Core *s) {
    if (!s->nbase && s->ndiscard) {
        if (tracking) /* nothing is left under an empty deck */
            for (int slot = 0; slot <= s->players; slot++) tracking->nbottom[slot][BASE_DECK] = 0;
        memcpy(s->base, s->discard, (size_t)s->ndiscard);
        s->nbase = s->ndiscard;
        s->ndiscard = 0;
        shuffle_bytes(s->rng, s->base, s->nbase);
        s->reshuffles++;
    }
    return s->nbase > 0;
}

/* _draw_base: the top card of the base deck, to to_hand's hand (-1: elsewhere); the caller puts it there. */
static int draw_base(Core *s, int to_hand) {
    if (!refill_base(s)) return -1;
    kn_from_top(s, BASE_DECK, s->nbase, 1, to_hand);
    return s->base[--s->nbase];
}

/* _look_at_god_cards: the top two cards of a god deck lifted into a decision (D_KEEP: one to the
   hand; D_LOCK_CARD: one among the open cards), the other to go under the deck; a last card is
   taken at once. */
static void look_at_god_cards(Core *s, int seat, int god, int kind, int why) {
    int n = s->ngod[god];
    if (n == 1) { /* nothing to choose between: the card is taken at once */
        kn_from_top(s, god, 1, 1, kind == D_KEEP ? seat : -1);
        int card = s->gods[god][--s->ngod[god]];
        if (kind == D_KEEP)
            push_card(s, s->pl[seat].hand, &s->pl[seat].nhand, MAXC, card);
        else
            push_card(s, s->open, &s->nopen, MAXOPEN, card);
        return;
    }
    int take = n < 2 ? n : 2;
    uint8_t looked[2];
    for (int i = 0; i < take; i++) looked[i] = s->gods[god][n - 1 - i];
    kn_from_top(s, god, n, take, -1);
    s->ngod[god] -= (int16_t)take;
    Decision *d = ask_among(s, seat, kind, looked, take, why);
    if (d) d->god = (int8_t)god;
}

/* _step_game_phase: the locked areas' god cards (gods in alphabetical order), then the base cards. */
static void step_game_phase(Core *s) {
    s->phase = P_GAME;
    int seat = current(s);
    int count = ability(s, seat, G_FREYA) >= 2 ? 3 : 2;
    s->nopen = 0;
    s->open_closed = ability(s, seat, G_FREYA) >= 1;
    push_front(s, mk(S_GAME_ACTIONS, 0, 0, 0, 0));
    push_front(s, mk(S_OPEN_CARDS, 0, count, 0, 0));
    for (int g = NG - 1; g >= 0; g--)
        if (s->locks[g] == seat) push_front(s, mk(S_LOCK_CARD, 0, g, count, 0));
}

static void step_lock_card(Core *s, int god, int count) {
    if (s->nopen < count && s->ngod[god]) look_at_god_cards(s, current(s), god, D_LOCK_CARD, 0);
}

static void step_open_cards(Core *s, int count) {
    while (s->nopen < count) {
        int card = draw_base(s, -1);
        if (card < 0) break;
        s->open[s->nopen++] = (uint8_t)card;
    }
}

static void step_hand_limit(Core *s) {
    int seat = current(s);
    for (int i = 0; i < s->nopen; i++) push_card(s, s->discard, &s->ndiscard, MAXC, s->open[i]);
    s->nopen = 0;
    if (s->pl[seat].nhand > HAND_LIMIT) ask(s, seat, D_HAND_LIMIT);
}

/* _build (with _pay). Every caller has checked that the building can be paid; if one could not,
   the engines would differ from here on, so it is an error (ERROR_UNPAID), as in state.py. */
static void build_now(Core *s, int seat, int building, const int8_t *waived) {
    Player *p = &s->pl[seat];
    const int8_t *need = CT(s)->need[building];
    for (int r = 0; r < NR; r++) {
        int pay = need[r] - (waived ? waived[r] : 0);
        if (pay > 0 && p->res[r] < pay) {
            s->error = ERROR_UNPAID;
            return;
        }
    }
    for (int r = 0; r < NR; r++) {
        int pay = need[r] - (waived ? waived[r] : 0);
        if (pay > 0) p->res[r] -= pay;
    }
    if (building == MINE)
        p->mines++;
    else if (building == DRILL)
        p->drills++;
    else {
        p->temples[building]++;
        if (s->nsites[building] < SITES)
            s->sites[building][s->nsites[building]++] = (int8_t)seat;
        else
            s->error = ERROR_OVERFLOW;
        push_front(s, mk(S_TEMPLE_REWARDS, seat, building, 0, 0));
    }
}

static void step_do_build(Core *s, int seat, int building) {
    if (s->backstabbed) {
        s->backstabbed = 0;
        return;
    }
    build_now(s, seat, building, NULL);
}

static void step_temple_rewards(Core *s, int seat, int god) {
    gain_followers(s, seat, 1);
    if (s->finished) return;
    if (s->pl[seat].temples[god] >= LOCK && s->locks[god] < 0) {
        s->locks[god] = (int8_t)seat;
        gain_followers(s, seat, 1);
        if (s->finished) return;
    }
    if (s->ngod[god]) look_at_god_cards(s, seat, god, D_KEEP, 0);
}

static void unlock_if_broken(Core *s, int god) {
    int owner = s->locks[god];
    if (owner >= 0 && s->pl[owner].temples[god] < LOCK) s->locks[god] = -1;
}

static int attacks_allowed(const Core *s, int seat) { return s->players <= 3 && ability(s, seat, G_SURTUR) >= 1 ? 2 : 1; }

static int attack_bonus(const Core *s, int seat) {
    int level = ability(s, seat, G_SURTUR);
    if (s->players <= 3) return level >= 2 ? 1 : 0;
    return level;
}

static void step_attack_phase(Core *s) {
    s->phase = P_ATTACK;
    int active = current(s), n = s->players;
    int others[MAXP], m = 0;
    for (int i = 1; i < n; i++) others[m++] = (active + i) % n;
    /* sorted by (-followers, -resources, place among the others): a stable insertion sort */
    for (int i = 1; i < m; i++) {
        int v = others[i], j = i - 1;
        const Player *pv = &s->pl[v];
        int rv = pv->res[0] + pv->res[1] + pv->res[2];
        while (j >= 0) {
            const Player *pj = &s->pl[others[j]];
            int rj = pj->res[0] + pj->res[1] + pj->res[2];
            if (pj->followers < pv->followers || (pj->followers == pv->followers && rj < rv)) {
                others[j + 1] = others[j];
                j--;
            } else
                break;
        }
        others[j + 1] = v;
    }
    Step steps[2 * MAXP + 1];
    int k = 0;
    for (int i = 0; i < m; i++)
        for (int a = attacks_allowed(s, others[i]); a > 0; a--) steps[k++] = mk(S_ATTACKER, others[i], 0, 0, 0);
    steps[k++] = mk(S_ATTACK_DONE, 0, 0, 0, 0);
    then_steps(s, steps, k);
}

static void effect_steps(Core *s, int seat, int card, int target, int times) {
    /* then(*steps * times): pushed from the last */
    int n = CT(s)->neffects[card];
    for (int t = 0; t < times; t++)
        for (int i = n - 1; i >= 0; i--) push_front(s, mk(S_EFFECT, seat, card, i, target));
}

static void step_impact(Core *s) {
    effect_steps(s, s->attack.attacker, s->attack.card, s->attack.target, 1);
}

static void step_followers_phase(Core *s) {
    s->phase = P_FOLLOWERS;
    clear_attack(s, 2);
    ask_unless_only_done(s, current(s), D_FOLLOWERS);
}

static int destroyable(const Core *s, int target, int building, uint8_t *out) {
    const Player *p = &s->pl[target];
    int n = 0;
    if ((building == B_MINE || building == B_ANY) && p->mines > 0) out[n++] = MINE;
    if ((building == B_DRILL || building == B_ANY) && p->drills > 0) out[n++] = DRILL;
    if (building == B_TEMPLE || building == B_ANY)
        for (int g = 0; g < NG; g++)
            if (p->temples[g] > 0) out[n++] = (uint8_t)g;
    return n;
}

static int moves_of(const Core *s, int target, uint8_t *out) {
    int n = 0;
    for (int src = 0; src < NG; src++) {
        if (s->pl[target].temples[src] <= 0) continue;
        for (int i = 0; i < NG; i++) {
            int dst = CT(s)->god_order[i];
            if (dst != src && s->nsites[dst] < SITES && (s->locks[dst] < 0 || s->locks[dst] == target))
                out[n++] = (uint8_t)(src * 8 + dst);
        }
    }
    return n;
}

static void take_random(Core *s, int target, int count, uint8_t *taken, int *ntaken) {
    Player *t = &s->pl[target];
    int k = count < t->nhand ? count : t->nhand;
    *ntaken = 0;
    for (int i = 0; i < k; i++) {
        int j = below(s->rng, t->nhand);
        taken[(*ntaken)++] = t->hand[j];
        memmove(t->hand + j, t->hand + j + 1, (size_t)(t->nhand - j - 1));
        t->nhand--;
    }
}

/* _step_effect */
static void step_effect(Core *s, int seat, int card, int index, int target) {
    const Effect *e = &CT(s)->effects[card][index];
    Player *p = &s->pl[seat];
    int why = card;
    int n = s->players;
    int who[MAXP], nwho = 0;
    if (e->do_ == E_GAIN || e->do_ == E_FOLLOWERS) {
        if (e->who == WHO_ME)
            who[nwho++] = seat;
        else
            for (int i = e->who == WHO_ALL ? 0 : 1; i < n; i++) who[nwho++] = (seat + i) % n;
    }
    uint8_t tmp[MAXC];
    switch (e->do_) {
    case E_GAIN: {
        Step steps[MAXQ];
        int k = 0;
        for (int w = 0; w < nwho; w++) {
            if (e->resource == R_CHOICE) {
                for (int i = 0; i < e->amount && k < MAXQ; i++) steps[k++] = mk(S_CHOOSE, who[w], why, 0, 0);
            } else
                s->pl[who[w]].res[e->resource] += e->amount;
        }
        then_steps(s, steps, k);
        break;
    }
    case E_FOLLOWERS:
        for (int w = 0; w < nwho; w++) gain_followers(s, who[w], e->amount);
        break;
    case E_DRAW:
        if (e->source == SRC_GOD) {
            for (int i = 0; i < e->count; i++) push_front(s, mk(S_ASK_GOD_DRAW, seat, why, 0, 0));
        } else if (e->source == SRC_DISCARD) {
            for (int i = 0; i < e->count; i++) push_front(s, mk(S_ASK_DISCARD_PICK, seat, e->kind, why, 0));
        } else {
            for (int i = 0; i < e->count; i++) {
                int c = draw_base(s, seat);
                if (c >= 0) push_card(s, p->hand, &p->nhand, MAXC, c);
            }
        }
        break;
    case E_ACTIONS:
        s->actions += e->count;
        break;
    case E_ROLL: {
        int colour = e->die, count = e->count;
        roll(s, seat, &colour, &count, 1, why);
        break;
    }
    case E_BUILD:
        if (buildable(s, seat, e->discount, e->building, tmp)) {
            Decision *d = ask(s, seat, D_FREE_BUILD);
            if (d) {
                d->discount = (int8_t)e->discount;
                d->building = e->building;
                d->why = (int16_t)why;
            }
        }
        break;
    case E_CONVERT:
        if (p->res[e->give] >= e->amount) {
            Decision *d = ask(s, seat, D_CONVERT);
            if (d) {
                d->give = e->give;
                d->amount = e->amount;
                d->followers = e->followers;
                d->left = e->times;
                d->why = (int16_t)why;
            }
        }
        break;
    case E_LOOK: {
        Decision *d = ask(s, seat, D_LOOK);
        if (d) {
            for (int o = 0; o < n; o++)
                if (o != seat) d->items[d->n++] = (uint8_t)o;
            d->count = e->count;
            d->why = (int16_t)why;
        }
        break;
    }
    case E_PEEK_TAKE:
        if (refill_base(s)) {
            int k = e->count < s->nbase ? e->count : s->nbase;
            uint8_t peeked[MAXC];
            for (int i = 0; i < k; i++) peeked[i] = s->base[s->nbase - 1 - i];
            kn_from_top(s, BASE_DECK, s->nbase, k, -1);
            s->nbase -= (int16_t)k;
            ask_among(s, seat, D_PEEK, peeked, k, why);
        }
        break;
    case E_SWITCH_OPEN:
        if (s->nopen && refill_base(s)) {
            Decision *d = ask(s, seat, D_SWITCH);
            if (d) d->why = (int16_t)why;
        }
        break;
    case E_PLAY_YELLOW:
        s->free_yellow += e->count;
        break;
    case E_LEND: {
        uint8_t gods[NG];
        int k = 0;
        for (int i = 0; i < NG; i++) {
            int g = CT(s)->god_order[i];
            if (s->pl[seat].temples[g] == 0 && !s->lent[g]) gods[k++] = (uint8_t)g;
        }
        if (k) ask_among(s, seat, D_LEND, gods, k, why);
        break;
    }
    case E_STEAL_RESOURCE:
        for (int i = 0; i < e->amount; i++) push_front(s, mk(S_ASK_STEAL, seat, target, e->resource, why));
        break;
    case E_STEAL_CARD: {
        int k;
        take_random(s, target, e->count, tmp, &k);
        for (int i = 0; i < k; i++) push_card(s, p->hand, &p->nhand, MAXC, tmp[i]);
        kn_forget(s, target, tmp, k, 1u << seat);
        break;
    }
    case E_KILL:
        lose_followers(s, target, e->amount * (s->attack.present == 1 && s->attack.soulspear ? 2 : 1));
        break;
    case E_STEAL_FOLLOWERS: {
        int lost = lose_followers(s, target, e->amount * (s->attack.present == 1 && s->attack.soulspear ? 2 : 1));
        if (lost) gain_followers(s, seat, lost);
        break;
    }
    case E_DESTROY: {
        int k = destroyable(s, target, e->building, tmp);
        if (k) {
            Decision *d = ask_among(s, seat, D_DESTROY, tmp, k, why);
            if (d) d->target = (int8_t)target;
        }
        break;
    }
    case E_MOVE_TEMPLE: {
        int k = moves_of(s, target, tmp);
        if (k) {
            Decision *d = ask_among(s, seat, D_MOVE, tmp, k, why);
            if (d) d->target = (int8_t)target;
        }
        break;
    }
    case E_DISCARD: {
        int k;
        take_random(s, target, e->count, tmp, &k);
        for (int i = 0; i < k; i++) push_card(s, s->discard, &s->ndiscard, MAXC, tmp[i]);
        kn_forget(s, target, tmp, k, EVERYBODY);
        break;
    }
    }
}

static void step_ask_god_draw(Core *s, int seat, int why) {
    uint8_t gods[NG];
    int k = 0;
    for (int i = 0; i < NG; i++) {
        int g = CT(s)->god_order[i];
        if (s->ngod[g]) gods[k++] = (uint8_t)g;
    }
    if (k) ask_among(s, seat, D_GOD_DRAW, gods, k, why);
}

static void step_ask_discard_pick(Core *s, int seat, int kind, int why) {
    int resolving = -1;
    if (why >= WHY_OPTION && why < WHY_OPTION + NOPT) resolving = CT(s)->weapon_card[why - WHY_OPTION];
    uint8_t cards[MAXC];
    int k = distinct_sorted(CT(s), s->discard, s->ndiscard, kind, resolving, cards);
    if (k) ask_among(s, seat, D_DISCARD_PICK, cards, k, why);
}

static void steal(Core *s, int seat, int target, int r) {
    s->pl[target].res[r]--;
    s->pl[seat].res[r]++;
}

static void step_ask_steal(Core *s, int seat, int target, int resource, int why) {
    const int16_t *held = s->pl[target].res;
    if (resource == R_ANY || resource == R_CHOICE) {
        uint8_t options[NR];
        int k = 0;
        for (int r = 0; r < NR; r++)
            if (held[r] > 0) options[k++] = (uint8_t)r;
        if (k) {
            Decision *d = ask_among(s, seat, D_STEAL, options, k, why);
            if (d) d->target = (int8_t)target;
        }
    } else if (held[resource] > 0) {
        steal(s, seat, target, resource);
    }
}

static void step_window(Core *s, int window, int arg) {
    int n = s->players, cur = current(s);
    for (int i = n - 1; i >= 0; i--) push_front(s, mk(S_OFFER, (cur + i) % n, window, arg, 0));
}

static void step_offer(Core *s, int window, int seat, int arg) {
    int roles[3];
    if (!window_roles(s, window, seat, roles)) return;
    int options[3];
    int k = window_options(s, window, seat, options);
    Decision *d = ask(s, seat, D_WINDOW);
    if (d) {
        d->window = (int8_t)window;
        d->n = (int16_t)k;
        for (int i = 0; i < k; i++) d->items[i] = (uint8_t)options[i];
        d->arg = (int16_t)arg;
    }
}

static void start_attack(Core *s, int seat, int card, int target) {
    Player *p = &s->pl[seat];
    take(s, p->hand, &p->nhand, card);
    kn_forget_one(s, seat, card);
    if (target < 0) target = current(s);
    int power = CT(s)->power[card] + attack_bonus(s, seat);
    clear_attack(s, 1);
    Attack *at = &s->attack;
    at->attacker = (int8_t)seat;
    at->target = (int8_t)target;
    at->card = (int16_t)card;
    at->power = (int16_t)power;
    Step steps[2] = {mk(S_WINDOW, 0, W_ANNOUNCED, -1, 0), mk(S_DEFENCE, 0, 0, 0, 0)};
    then_steps(s, steps, 2);
}

static void resolve_attack(Core *s) {
    Attack *at = &s->attack;
    int target = at->target;
    push_card(s, s->discard, &s->ndiscard, MAXC, at->card);
    for (int i = 0; i < at->nused; i++) push_card(s, s->discard, &s->ndiscard, MAXC, at->used[i]);
    at->resolved = 1;
    if (at->defence >= at->power && !at->undefendable) {
        Step tail[2] = {mk(S_WINDOW, 0, W_DEFENDED, -1, 0), mk(S_AFTER_DEFENDED, 0, 0, 0, 0)};
        then_steps(s, tail, 2);
        for (int u = at->nused - 1; u >= 0; u--) effect_steps(s, target, at->used[u], target, 1);
    } else {
        push_front(s, mk(S_IMPACT, 0, 0, 0, 0));
    }
}

static void step_defence(Core *s) {
    Attack *at = &s->attack;
    if (at->cancelled) {
        at->resolved = 1;
        return;
    }
    if (at->undefendable)
        resolve_attack(s);
    else
        ask(s, at->target, D_DEFEND);
}

static void step_after_defended(Core *s) {
    Attack *at = &s->attack;
    if (at->present == 1 && at->again) {
        int card = at->card, attacker = at->attacker, target = at->target;
        take(s, s->discard, &s->ndiscard, card);
        push_card(s, s->pl[attacker].hand, &s->pl[attacker].nhand, MAXC, card);
        kn_learn_one(s, EVERYBODY, attacker, card); /* everybody saw it go back, and it is played again */
        start_attack(s, attacker, card, target);
    }
}

static void continue_waive(Core *s, int seat, int building, const int8_t *cost_in, int mask, const int8_t *waived_in,
                           int left, int why);

/* Whether one of a redecided decision's listed choices is still possible (_step_redecide). */
static int still_possible(const Core *s, const Decision *d, int item) {
    switch (d->kind) {
    case D_DISCARD_PICK: return contains(s->discard, s->ndiscard, item);
    case D_GOD_DRAW: return s->ngod[item] > 0;
    case D_LEND: return s->pl[d->seat].temples[item] == 0 && !s->lent[item];
    case D_STEAL: return s->pl[d->target].res[item] > 0;
    case D_DESTROY: {
        const Player *p = &s->pl[d->target];
        return item == MINE ? p->mines > 0 : item == DRILL ? p->drills > 0 : p->temples[item] > 0;
    }
    case D_MOVE: {
        int source = item >> 3, dest = item & 7, target = d->target;
        return s->pl[target].temples[source] > 0 && dest != source && s->nsites[dest] < SITES &&
               (s->locks[dest] < 0 || s->locks[dest] == target);
    }
    }
    return 1;
}

/* _step_redecide: a decision a god weapon interrupted comes back, asked again as the board is now. */
static void step_redecide(Core *s, int slot) {
    Decision d = s->saved[slot];
    s->saved_used[slot] = 0;
    int seat = d.seat;
    uint8_t tmp[MAXC];
    switch (d.kind) {
    case D_RESOURCES:
    case D_GAME:
    case D_BUILD:
    case D_FOLLOWERS: ask_unless_only_done(s, seat, d.kind); return;
    case D_HAND_LIMIT:
        if (s->pl[seat].nhand > HAND_LIMIT) ask(s, seat, D_HAND_LIMIT);
        return;
    case D_WAIVE: continue_waive(s, seat, d.building, d.cost, d.costmask, d.waived, d.left, d.why); return;
    case D_FREE_BUILD:
        if (!buildable(s, seat, d.discount, d.building, tmp)) return;
        break;
    case D_CONVERT:
        if (s->pl[seat].res[d.give] < d.amount) return;
        break;
    case D_SWITCH:
        if (!(s->nopen && refill_base(s))) return;
        break;
    case D_DISCARD_PICK:
    case D_GOD_DRAW:
    case D_LEND:
    case D_STEAL:
    case D_DESTROY:
    case D_MOVE: {
        int k = 0;
        for (int i = 0; i < d.n; i++)
            if (still_possible(s, &d, d.items[i])) d.items[k++] = d.items[i];
        d.n = (int16_t)k;
        if (!k) return;
        break;
    }
    }
    s->decision = d;
}

static void run_step(Core *s, Step st) {
    switch (st.name) {
    case S_TURN: step_turn(s); break;
    case S_RESOURCE_PHASE: step_resource_phase(s); break;
    case S_GAME_PHASE: step_game_phase(s); break;
    case S_BUILD_PHASE:
        s->phase = P_BUILDING;
        ask_unless_only_done(s, current(s), D_BUILD);
        break;
    case S_ATTACK_PHASE: step_attack_phase(s); break;
    case S_FOLLOWERS_PHASE: step_followers_phase(s); break;
    case S_END_TURN: step_end_turn(s); break;
    case S_RESOURCE_ACTIONS: ask_unless_only_done(s, current(s), D_RESOURCES); break;
    case S_GAME_ACTIONS: ask_unless_only_done(s, current(s), D_GAME); break;
    case S_HAND_LIMIT: step_hand_limit(s); break;
    case S_DICE_OUTCOME: step_dice_outcome(s, st.seat, st.a, st.b); break;
    case S_CHOOSE: {
        Decision *d = ask(s, st.seat, D_CHOOSE);
        if (d) d->why = st.a;
        break;
    }
    case S_WINDOW: step_window(s, st.a, st.b); break;
    case S_OFFER: step_offer(s, st.a, st.seat, st.b); break;
    case S_DO_BUILD: step_do_build(s, st.seat, st.a); break;
    case S_TEMPLE_REWARDS: step_temple_rewards(s, st.seat, st.a); break;
    case S_ATTACKER: {
        Decision *d = ask(s, st.seat, D_ATTACK);
        if (d) d->target = (int8_t)current(s);
        break;
    }
    case S_ATTACK_DONE: clear_attack(s, 0); break;
    case S_DEFENCE: step_defence(s); break;
    case S_AFTER_DEFENDED: step_after_defended(s); break;
    case S_IMPACT: step_impact(s); break;
    case S_EFFECT: step_effect(s, st.seat, st.a, st.b, st.c); break;
    case S_ASK_GOD_DRAW: step_ask_god_draw(s, st.seat, st.a); break;
    case S_ASK_DISCARD_PICK: step_ask_discard_pick(s, st.seat, st.a, st.b); break;
    case S_ASK_STEAL: step_ask_steal(s, st.seat, st.a, st.b, st.c); break;
    case S_ASK_FOLLOWERS: ask_unless_only_done(s, current(s), D_FOLLOWERS); break;
    case S_REDECIDE: step_redecide(s, st.a); break;
    case S_LOCK_CARD: step_lock_card(s, st.a, st.b); break;
    case S_OPEN_CARDS: step_open_cards(s, st.a); break;
    default: s->error = ERROR_OVERFLOW;
    }
}

static void step_run(Core *s) {
    while (s->decision.kind == D_NONE && s->nq && !s->finished && !s->error) {
        Step st = s->q[--s->nq];
        run_step(s, st);
    }
}

/* ---------------------------------------------------------------- settling a decision */

static int save_decision(Core *s, const Decision *d) {
    for (int i = 0; i < MAXSAVED; i++)
        if (!s->saved_used[i]) {
            s->saved_used[i] = 1;
            s->saved[i] = *d;
            return i;
        }
    s->error = ERROR_OVERFLOW;
    return 0;
}

static void play_weapon(Core *s, int seat, int option, const Decision *decision) {
    int card = CT(s)->weapon_card[option];
    Player *p = &s->pl[seat];
    take(s, p->hand, &p->nhand, card);
    kn_forget_one(s, seat, card);
    push_card(s, s->discard, &s->ndiscard, MAXC, card);
    Attack *at = &s->attack;
    if (decision->kind != D_WINDOW) push_front(s, mk(S_REDECIDE, 0, save_decision(s, decision), 0, 0));
    int why = WHY_OPTION + option;
    switch (option) {
    case O_BULLSEYE: push_front(s, mk(S_ASK_DISCARD_PICK, seat, K_ANY, why, 0)); break;
    case O_GJALLARHORN:
    case O_DAGGER:
        for (int i = 0; i < 2; i++)
            push_front(s, mk(S_ASK_DISCARD_PICK, seat, option == O_GJALLARHORN ? K_DEFENCE : K_ATTACK, why, 0));
        break;
    case O_THIEF: {
        uint8_t seats[MAXP], open[MAXOPEN];
        int k = 0;
        for (int o = 0; o < s->players; o++)
            if (o != seat && s->pl[o].nhand) seats[k++] = (uint8_t)o;
        int k2 = stealable_open(s, seat, open);
        Decision *d = ask(s, seat, D_THIEF);
        if (d) {
            d->n = (int16_t)k;
            memcpy(d->items, seats, (size_t)k);
            d->n2 = (int16_t)k2;
            memcpy(d->items2, open, (size_t)k2);
        }
        break;
    }
    case O_HAMMERTIME: {
        uint8_t cards[MAXC];
        int k = held_kind(s, seat, K_YELLOW, cards);
        Decision *d = ask(s, seat, D_HAMMER);
        if (d) {
            d->n = (int16_t)k;
            memcpy(d->items, cards, (size_t)k);
        }
        break;
    }
    case O_CROWN: {
        int start = decision->arg;
        Decision *d = ask(s, seat, D_FACE);
        if (d) {
            for (int i = start; i < s->ndice && d->n < MAXITEMS; i++) d->items[d->n++] = (uint8_t)i;
            if (s->ndice - start > MAXITEMS) s->error = ERROR_OVERFLOW;
        }
        break;
    }
    case O_TYRS_REVENGE:
        at->cancelled = 1;
        push_card(s, p->hand, &p->nhand, MAXC, at->card);
        kn_learn_one(s, EVERYBODY, seat, at->card);
        break;
    case O_VANISHED: {
        Decision *d = ask(s, seat, D_REDIRECT);
        if (d)
            for (int o = 0; o < s->players; o++)
                if (o != at->attacker && o != at->target) d->items[d->n++] = (uint8_t)o;
        break;
    }
    case O_WAR_HORN: at->undefendable = 1; break;
    case O_WRATH: at->power *= 2; break;
    case O_SOULSPEAR: at->soulspear = 1; break;
    case O_RESISTED: gain_followers(s, seat, 2); break;
    case O_SURTURS_CLAIM: at->again = 1; break;
    case O_BACKSTAB: s->backstabbed = 1; break;
    }
}

static void settle_weapon(Core *s, int seat, const Decision *d, int code) {
    Player *p = &s->pl[seat];
    int a = CA(code), b = CB(code);
    switch (d->kind) {
    case D_WINDOW: return;
    case D_THIEF: {
        int card;
        if (CK(code) == A_SEAT) {
            Player *t = &s->pl[a];
            int j = below(s->rng, t->nhand);
            card = t->hand[j];
            memmove(t->hand + j, t->hand + j + 1, (size_t)(t->nhand - j - 1));
            t->nhand--;
            uint8_t gone = (uint8_t)card;
            kn_forget(s, a, &gone, 1, 1u << seat);
        } else {
            card = a;
            take(s, s->open, &s->nopen, card);
            kn_learn_one(s, EVERYBODY, seat, card);
        }
        push_card(s, p->hand, &p->nhand, MAXC, card);
        return;
    }
    case D_HAMMER:
        take(s, p->hand, &p->nhand, a);
        kn_forget_one(s, seat, a);
        push_card(s, s->discard, &s->ndiscard, MAXC, a);
        effect_steps(s, seat, a, seat, 2);
        return;
    case D_FACE: s->dice[a][1] = (uint8_t)b; return;
    case D_REDIRECT: s->attack.target = (int8_t)a; return;
    }
}

static void start_free_build(Core *s, int seat, int building, int discount, int why);

/* _no_room is None: the building may still go up whatever it costs (the mine or drill limit,
   a free site in an area not locked by another player, a temple figure left). */
static int structure_allowed(const Core *s, int seat, int building) {
    const Player *p = &s->pl[seat];
    if (building == MINE) return p->mines < MAX_MINES;
    if (building == DRILL) return p->drills < MAX_DRILLS;
    return s->nsites[building] < SITES && (s->locks[building] < 0 || s->locks[building] == seat) &&
           total_temples(p) < TEMPLES_PER_PLAYER;
}

/* _continue_waive: what the player lacks is waived first; more lacking than the discount left
   covers, or no room for the building any more (both from what changed while the build
   waited), and the free build lapses. */
static void continue_waive(Core *s, int seat, int building, const int8_t *cost_in, int mask, const int8_t *waived_in,
                           int left, int why) {
    int8_t cost[NR], waived[NR];
    memcpy(cost, cost_in, NR);
    memcpy(waived, waived_in, NR);
    if (!structure_allowed(s, seat, building)) return;
    int lacking = 0;
    int8_t short_of[NR];
    for (int r = 0; r < NR; r++) {
        int sh = (mask >> r & 1) ? cost[r] - s->pl[seat].res[r] : 0;
        short_of[r] = (int8_t)(sh > 0 ? sh : 0);
        lacking += short_of[r];
    }
    if (lacking > left) return;
    for (int r = 0; r < NR; r++) {
        waived[r] = (int8_t)(waived[r] + short_of[r]);
        cost[r] = (int8_t)(cost[r] - short_of[r]);
    }
    left -= lacking;
    int any = 0;
    for (int r = 0; r < NR; r++)
        if ((mask >> r & 1) && cost[r] > 0) any = 1;
    if (left > 0 && any) {
        Decision *d = ask(s, seat, D_WAIVE);
        if (d) {
            d->building = (int8_t)building;
            memcpy(d->cost, cost, NR);
            memcpy(d->waived, waived, NR);
            d->costmask = (int8_t)mask;
            d->left = (int16_t)left;
            d->why = (int16_t)why;
        }
        return;
    }
    build_now(s, seat, building, waived);
}

static void start_free_build(Core *s, int seat, int building, int discount, int why) {
    const int8_t *need = CT(s)->need[building];
    int8_t cost[NR], waived[NR] = {0, 0, 0};
    int mask = 0;
    for (int r = 0; r < NR; r++) {
        cost[r] = need[r];
        if (need[r] > 0) mask |= 1 << r;
    }
    continue_waive(s, seat, building, cost, mask, waived, discount, why);
}

static void follower_action(Core *s, int seat, int code) {
    int kind = CK(code);
    Attack *at = &s->attack;
    if (kind == A_DONE) {
        clear_attack(s, 0);
        return;
    }
    Player *p = &s->pl[seat];
    if (kind == A_LOKI) {
        at->loki = 1;
        push_front(s, mk(S_ASK_FOLLOWERS, 0, 0, 0, 0));
        int colour = DIE_WHITE, count = ability(s, seat, G_LOKI);
        roll(s, seat, &colour, &count, 1, WHY_LOKI);
        return;
    }
    int k = kind == A_THOR ? 0 : kind == A_THOR2 ? 1 : kind == A_ODIN ? 2 : 3;
    int resource = CONV[k][0] == G_THOR ? CA(code) : R_DROP;
    p->res[resource] -= CONV[k][2];
    at->uses[k]++;
    gain_followers(s, seat, CONV[k][3]);
    if (!s->finished) ask_unless_only_done(s, seat, D_FOLLOWERS);
}

static void game_action(Core *s, int seat, int code) {
    Player *p = &s->pl[seat];
    int kind = CK(code), a = CA(code);
    if (kind == A_DONE) {
        push_front(s, mk(S_HAND_LIMIT, 0, 0, 0, 0));
        return;
    }
    push_front(s, mk(S_GAME_ACTIONS, 0, 0, 0, 0));
    if (kind == A_PLAY || kind == A_USE) {
        if (s->free_yellow > 0)
            s->free_yellow--;
        else
            s->actions--;
        if (kind == A_USE)
            take(s, s->open, &s->nopen, a);
        else {
            take(s, p->hand, &p->nhand, a);
            kn_forget_one(s, seat, a);
        }
        push_card(s, s->discard, &s->ndiscard, MAXC, a);
        effect_steps(s, seat, a, seat, 1);
    } else if (kind == A_TAKE) {
        s->actions--;
        p->res[a]++;
    } else if (kind == A_DRAW) {
        s->actions -= 2;
        for (int i = 0; i < 2; i++) {
            int c = draw_base(s, seat);
            if (c >= 0) push_card(s, p->hand, &p->nhand, MAXC, c);
        }
    } else if (kind == A_BUY) {
        s->actions--;
        take(s, s->open, &s->nopen, a);
        push_card(s, p->hand, &p->nhand, MAXC, a);
        if (!s->open_closed) kn_learn_one(s, EVERYBODY, seat, a); /* everybody saw the open card go into the hand */
    }
}

static void destroy_building(Core *s, int target, int building) {
    Player *p = &s->pl[target];
    if (building == MINE)
        p->mines--;
    else if (building == DRILL)
        p->drills--;
    else {
        p->temples[building]--;
        int16_t n = s->nsites[building];
        uint8_t tmp[SITES];
        for (int i = 0; i < n; i++) tmp[i] = (uint8_t)s->sites[building][i];
        take(s, tmp, &n, target);
        for (int i = 0; i < n; i++) s->sites[building][i] = (int8_t)tmp[i];
        s->nsites[building] = (int8_t)n;
        unlock_if_broken(s, building);
    }
}

static void move_temple(Core *s, int target, int source, int dest) {
    Player *p = &s->pl[target];
    p->temples[source]--;
    int16_t n = s->nsites[source];
    uint8_t tmp[SITES];
    for (int i = 0; i < n; i++) tmp[i] = (uint8_t)s->sites[source][i];
    take(s, tmp, &n, target);
    for (int i = 0; i < n; i++) s->sites[source][i] = (int8_t)tmp[i];
    s->nsites[source] = (int8_t)n;
    unlock_if_broken(s, source);
    p->temples[dest]++;
    if (s->nsites[dest] < SITES)
        s->sites[dest][s->nsites[dest]++] = (int8_t)target;
    else
        s->error = ERROR_OVERFLOW;
    if (p->temples[dest] >= LOCK && s->locks[dest] < 0) {
        s->locks[dest] = (int8_t)target;
        gain_followers(s, target, 1);
    }
}

static void defend(Core *s, int seat, int code) {
    Attack *at = &s->attack;
    if (CK(code) == A_DEFEND) {
        int card = CA(code);
        Player *p = &s->pl[seat];
        take(s, p->hand, &p->nhand, card);
        kn_forget_one(s, seat, card);
        push_card(s, at->used, &at->nused, MAXC, card);
        at->defence += CT(s)->power[card] + ability(s, seat, G_TYR);
        if (at->defence < at->power) {
            ask(s, seat, D_DEFEND);
            return;
        }
    }
    resolve_attack(s);
}

/* _settle */
static void settle(Core *s, int seat, const Decision *d, int code) {
    int kind = CK(code), a = CA(code), b = CB(code);
    if (kind == A_WEAPON) {
        play_weapon(s, seat, a, d);
        return;
    }
    if (weapon_decision(d->kind)) {
        settle_weapon(s, seat, d, code);
        return;
    }
    Player *p = &s->pl[seat];
    int16_t *res = p->res;
    switch (d->kind) {
    case D_CHOOSE: res[a]++; break;
    case D_RESOURCES:
        if (kind == A_TRADE) {
            res[a] -= 4;
            res[b] += 1;
        } else if (kind == A_SWAP) {
            res[a] -= ability(s, seat, G_HEIMDALL) == 1 ? 2 : 1;
            res[b] += 1;
        }
        if (kind != A_DONE) push_front(s, mk(S_RESOURCE_ACTIONS, 0, 0, 0, 0));
        break;
    case D_GAME: game_action(s, seat, code); break;
    case D_HAND_LIMIT:
        take(s, p->hand, &p->nhand, a);
        kn_forget_one(s, seat, a);
        push_card(s, s->discard, &s->ndiscard, MAXC, a);
        if (p->nhand > HAND_LIMIT) ask(s, seat, D_HAND_LIMIT);
        break;
    case D_BUILD:
        if (kind != A_DONE) {
            s->builds--;
            push_front(s, mk(S_BUILD_PHASE, 0, 0, 0, 0));
            push_front(s, mk(S_DO_BUILD, seat, a, 0, 0));
            if (s->builds == 0) push_front(s, mk(S_WINDOW, 0, W_BUILDING, a, 0));
        }
        break;
    case D_FREE_BUILD:
        if (kind != A_DONE) start_free_build(s, seat, a, d->discount, d->why);
        break;
    case D_WAIVE: {
        int8_t waived[NR], cost[NR];
        memcpy(waived, d->waived, NR);
        memcpy(cost, d->cost, NR);
        waived[a]++;
        cost[a]--;
        continue_waive(s, seat, d->building, cost, d->costmask, waived, d->left - 1, d->why);
        break;
    }
    case D_KEEP:
    case D_LOCK_CARD: {
        if (d->kind == D_KEEP)
            push_card(s, p->hand, &p->nhand, MAXC, a);
        else
            push_card(s, s->open, &s->nopen, MAXOPEN, a);
        uint8_t others[MAXITEMS];
        int16_t n = d->n;
        memcpy(others, d->items, (size_t)n);
        take(s, others, &n, a);
        int g = d->god;
        if (s->ngod[g] + n > MAXC) {
            s->error = ERROR_OVERFLOW;
            break;
        }
        memmove(s->gods[g] + n, s->gods[g], (size_t)s->ngod[g]);
        memcpy(s->gods[g], others, (size_t)n);
        s->ngod[g] += n;
        kn_to_bottom(s, g, others, n, 1u << seat);
        break;
    }
    case D_ATTACK:
        if (kind != A_PASS) start_attack(s, seat, a, -1);
        break;
    case D_DEFEND: defend(s, seat, code); break;
    case D_STEAL: steal(s, seat, d->target, a); break;
    case D_DESTROY: destroy_building(s, d->target, a); break;
    case D_MOVE: move_temple(s, d->target, a, b); break;
    case D_CONVERT:
        if (kind == A_CONVERT) {
            res[d->give] -= d->amount;
            gain_followers(s, seat, d->followers);
            Decision again = *d;
            again.left--;
            if (again.left > 0 && !s->finished) s->decision = again;
        }
        break;
    case D_LOOK: {
        int n = s->pl[a].nhand;
        uint8_t pool[MAXC];
        memcpy(pool, s->pl[a].hand, (size_t)n);
        if (d->count < n) shuffle_bytes(s->rng, pool, n); /* a look at part of a hand sees cards at random */
        kn_learn(s, 1u << seat, a, pool, d->count < n ? d->count : n);
        break;
    }
    case D_PEEK: {
        push_card(s, p->hand, &p->nhand, MAXC, a);
        uint8_t rest[MAXITEMS];
        int16_t n = d->n;
        memcpy(rest, d->items, (size_t)n);
        take(s, rest, &n, a);
        if (s->nbase + n > MAXC) {
            s->error = ERROR_OVERFLOW;
            break;
        }
        memmove(s->base + n, s->base, (size_t)s->nbase);
        memcpy(s->base, rest, (size_t)n);
        s->nbase += n;
        kn_to_bottom(s, BASE_DECK, rest, n, 1u << seat);
        break;
    }
    case D_SWITCH: {
        take(s, s->open, &s->nopen, a);
        memmove(s->base + 1, s->base, (size_t)s->nbase);
        s->base[0] = (uint8_t)a;
        s->nbase++;
        uint8_t out = (uint8_t)a; /* the card was open: those who saw it */
        kn_to_bottom(s, BASE_DECK, &out, 1, s->open_closed ? 1u << current(s) : EVERYBODY);
        kn_from_top(s, BASE_DECK, s->nbase, 1, -1);
        int fresh = s->base[--s->nbase];
        s->open[s->nopen++] = (uint8_t)fresh;
        break;
    }
    case D_DISCARD_PICK:
        take(s, s->discard, &s->ndiscard, a);
        push_card(s, p->hand, &p->nhand, MAXC, a);
        kn_learn_one(s, EVERYBODY, seat, a);
        break;
    case D_GOD_DRAW: look_at_god_cards(s, seat, a, D_KEEP, d->why); break;
    case D_LEND: s->lent[a] = 1; break;
    case D_FOLLOWERS: follower_action(s, seat, code); break;
    }
}

static void apply_code(Core *s, int seat, int code) {
    Decision d = s->decision;
    s->decision.kind = D_NONE;
    settle(s, seat, &d, code);
    step_run(s);
}

/* ---------------------------------------------------------------- evaluation (valda.search.evaluate) */

static double turns_left(const Core *s, int seat) {
    if (s->finished) return 0.0;
    double left = last_round(s) - s->round;
    int cur = current(s);
    if (seat == cur) return left + 0.5;
    int iseat = -1, icur = -1;
    for (int i = 0; i < s->norder; i++) {
        if (s->order[i] == seat) iseat = i;
        if (s->order[i] == cur) icur = i;
    }
    if (iseat >= 0 && icur >= 0 && iseat > icur) return left + 1.0;
    return left;
}

static int buildings(const Player *p) { return p->mines + p->drills + total_temples(p); }

static double attack_outlook(const Core *s, int seat, double turns) {
    const Attack *at = &s->attack;
    if (at->present != 1 || at->resolved || at->cancelled) return 0.0;
    int attacker = at->attacker, target = at->target;
    if (seat != attacker && seat != target) return 0.0;
    int missing = at->power - at->defence;
    double chance;
    if (at->undefendable)
        chance = 1.0;
    else if (missing <= 0)
        chance = 0.0;
    else {
        chance = 0.45 + 0.15 * missing;
        if (chance > 0.9) chance = 0.9;
    }
    const Player *victim = &s->pl[target];
    const Content *ct = CT(s);
    double gain = 0.0, loss = 0.0;
    int exposed = victim->followers - victim->floor;
    if (exposed < 0) exposed = 0;
    for (int i = 0; i < ct->neffects[at->card]; i++) {
        const Effect *e = &ct->effects[at->card][i];
        switch (e->do_) {
        case E_KILL: loss += e->amount < exposed ? e->amount : exposed; break;
        case E_STEAL_FOLLOWERS: {
            int taken = e->amount < exposed ? e->amount : exposed;
            gain += taken;
            loss += taken;
            break;
        }
        case E_STEAL_RESOURCE: {
            int held = victim->res[0] + victim->res[1] + victim->res[2];
            double worth = (e->amount < held ? e->amount : held) * 0.25;
            gain += worth;
            loss += worth;
            break;
        }
        case E_STEAL_CARD:
        case E_DISCARD: {
            double worth = (e->count < victim->nhand ? e->count : victim->nhand) * 0.3;
            gain += e->do_ == E_STEAL_CARD ? worth : 0.0;
            loss += worth;
            break;
        }
        case E_DESTROY:
        case E_MOVE_TEMPLE: loss += 0.25 * turns; break;
        }
    }
    return chance * (seat == attacker ? gain : -loss);
}

static double evaluate(const Core *s, int seat) {
    const Player *p = &s->pl[seat];
    const Content *ct = CT(s);
    double value = (double)p->followers;
    if (s->finished) return value + 0.01 * buildings(p);
    double turns = turns_left(s, seat);
    double income = ct->die_income * (p->mines * ct->resource_value[1] + p->drills * ct->resource_value[0]);
    for (int g = 0; g < NG; g++) {
        int level = p->temples[g] > 2 ? 2 : p->temples[g];
        if (level > 0) income += ct->ability_income[g][level];
    }
    value += income * turns;
    double usable = turns < 1.0 ? turns : 1.0;
    double held = 0.0;
    for (int r = 0; r < NR; r++) held += p->res[r] * ct->resource_value[r];
    value += usable * held;
    double cards = 0.0;
    for (int i = 0; i < p->nhand; i++) cards += ct->card_value[p->hand[i]];
    value += usable * cards;
    value += 0.1 * p->floor;
    value += attack_outlook(s, seat, turns);
    return value + 0.01 * buildings(p);
}

/* ---------------------------------------------------------------- Python: conversions */

static PyObject *int_list(const uint8_t *items, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(items[i]));
    return list;
}

static PyObject *int16_list(const int16_t *items, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(items[i]));
    return list;
}

static PyObject *int8_list(const int8_t *items, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(items[i]));
    return list;
}

static PyObject *get(PyObject *dict, const char *key) {
    PyObject *v = PyDict_GetItemString(dict, key);
    if (!v) PyErr_Format(PyExc_KeyError, "missing %s", key);
    return v;
}

static int get_int(PyObject *dict, const char *key, long *out) {
    PyObject *v = get(dict, key);
    if (!v) return -1;
    *out = PyLong_AsLong(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* A decision as a list: kind, seat, target, god, building, discount, give, window, amount, followers,
   left, count, why, arg, cost x3, waived x3, costmask, items, items2. */
static PyObject *decision_to_list(const Decision *d) {
    return Py_BuildValue("[iiiiiiiiiiiiiiiiiiiiiNN]", d->kind, d->seat, d->target, d->god, d->building, d->discount,
                         d->give, d->window, d->amount, d->followers, d->left, d->count, d->why, d->arg, d->cost[0],
                         d->cost[1], d->cost[2], d->waived[0], d->waived[1], d->waived[2], d->costmask,
                         int_list(d->items, d->n), int_list(d->items2, d->n2));
}

static int decision_from_list(PyObject *seq, Decision *d) {
    memset(d, 0, sizeof(Decision));
    PyObject *fast = PySequence_Fast(seq, "decision");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 23) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "decision: 23 fields");
        return -1;
    }
    long v[21];
    for (int i = 0; i < 21; i++) {
        v[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    d->kind = (int8_t)v[0], d->seat = (int8_t)v[1], d->target = (int8_t)v[2], d->god = (int8_t)v[3];
    d->building = (int8_t)v[4], d->discount = (int8_t)v[5], d->give = (int8_t)v[6], d->window = (int8_t)v[7];
    d->amount = (int16_t)v[8], d->followers = (int16_t)v[9], d->left = (int16_t)v[10], d->count = (int16_t)v[11];
    d->why = (int16_t)v[12], d->arg = (int16_t)v[13];
    for (int r = 0; r < NR; r++) {
        d->cost[r] = (int8_t)v[14 + r];
        d->waived[r] = (int8_t)v[17 + r];
    }
    d->costmask = (int8_t)v[20];
    int n = read_bytes(PySequence_Fast_GET_ITEM(fast, 21), d->items, MAXITEMS, "decision items");
    int n2 = n < 0 ? -1 : read_bytes(PySequence_Fast_GET_ITEM(fast, 22), d->items2, MAXOPEN, "decision items2");
    Py_DECREF(fast);
    if (n < 0 || n2 < 0) return -1;
    d->n = (int16_t)n;
    d->n2 = (int16_t)n2;
    return 0;
}

static PyObject *SS_export(SearchState *self, PyObject *unused) {
    Core *s = &self->c;
    int n = s->players;
    PyObject *players = PyList_New(n);
    for (int i = 0; i < n; i++) {
        Player *p = &s->pl[i];
        PyList_SET_ITEM(players, i,
                        Py_BuildValue("{s:N,s:i,s:i,s:N,s:i,s:i,s:N}", "resources", int16_list(p->res, NR), "mines",
                                      p->mines, "drills", p->drills, "temples", int16_list(p->temples, NG),
                                      "followers", p->followers, "floor", p->floor, "hand",
                                      int_list(p->hand, p->nhand)));
    }
    PyObject *gods = PyList_New(NG), *sites = PyList_New(NG);
    for (int g = 0; g < NG; g++) {
        PyList_SET_ITEM(gods, g, int_list(s->gods[g], s->ngod[g]));
        PyList_SET_ITEM(sites, g, int8_list(s->sites[g], s->nsites[g]));
    }
    PyObject *dice = PyList_New(s->ndice);
    for (int i = 0; i < s->ndice; i++) PyList_SET_ITEM(dice, i, Py_BuildValue("[ii]", s->dice[i][0], s->dice[i][1]));
    const Attack *at = &s->attack;
    PyObject *attack = Py_BuildValue("[iiiiiiiiiiiiiiiiN]", at->present, at->attacker, at->target, at->card,
                                     at->power, at->defence, at->cancelled, at->undefendable, at->resolved, at->again,
                                     at->soulspear, at->loki, at->uses[0], at->uses[1], at->uses[2], at->uses[3],
                                     int_list(at->used, at->nused));
    PyObject *decision;
    if (s->decision.kind == D_NONE) {
        decision = Py_None;
        Py_INCREF(decision);
    } else
        decision = decision_to_list(&s->decision);
    PyObject *queue = PyList_New(s->nq);
    for (int i = 0; i < s->nq; i++) {
        Step st = s->q[s->nq - 1 - i];
        PyObject *item;
        if (st.name == S_REDECIDE)
            item = Py_BuildValue("[iN]", S_REDECIDE, decision_to_list(&s->saved[st.a]));
        else
            item = Py_BuildValue("[iiiii]", st.name, st.seat, st.a, st.b, st.c);
        PyList_SET_ITEM(queue, i, item);
    }
    PyObject *rng = Py_BuildValue("[KKKK]", (unsigned long long)s->rng[0], (unsigned long long)s->rng[1],
                                  (unsigned long long)s->rng[2], (unsigned long long)s->rng[3]);
    PyObject *result = Py_BuildValue(
        "{s:i,s:i,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:i,s:N,s:i,s:i,s:i,s:i,s:i,s:N,s:i,s:N,s:N,s:N,s:N,s:i,"
        "s:i,s:i,s:i,s:i}",
        "players", n, "turnaround", s->turnaround, "race", s->race, "rng", rng, "seats", players, "base",
        int_list(s->base, s->nbase), "gods", gods, "discard", int_list(s->discard, s->ndiscard), "sites", sites,
        "locks", int8_list(s->locks, NG), "open", int_list(s->open, s->nopen), "round", s->round, "start", s->start,
        "order", int8_list(s->order, s->norder), "turn", s->turn, "phase", s->phase, "actions", s->actions,
        "free_yellow", s->free_yellow, "builds", s->builds, "lent", int8_list(s->lent, NG), "open_closed",
        s->open_closed, "dice", dice, "attack", attack, "decision", decision, "queue", queue, "backstabbed",
        s->backstabbed, "reshuffles", s->reshuffles, "winner", s->winner, "finished", s->finished, "error",
        s->error);
    return result;
}

#define CONTENT_CAPSULE "meadhall.games.valda._search.Content"

/* A state that holds (a new reference to) a pack's tables; its Core is the caller's to fill. */
static SearchState *new_state(PyObject *content) {
    SearchState *self = PyObject_New(SearchState, &SearchStateType);
    if (self) {
        self->content = Py_NewRef(content);
        self->kn = NULL;
    }
    return self;
}

static void SS_dealloc(SearchState *self) {
    Py_XDECREF(self->content);
    PyMem_Free(self->kn);
    PyObject_Free(self);
}

/* build(content, data): content as register_content gives it, data as export() gives it. */
static PyObject *build(PyObject *module, PyObject *args) {
    PyObject *content, *data;
    if (!PyArg_ParseTuple(args, "OO!", &content, &PyDict_Type, &data)) return NULL;
    const Content *ct = PyCapsule_GetPointer(content, CONTENT_CAPSULE);
    if (!ct) return NULL;
    SearchState *self = new_state(content);
    if (!self) return NULL;
    Core *s = &self->c;
    memset(s, 0, sizeof(Core));
    s->ct = ct;
    long v[64];
    long players, turnaround, race;
    if (get_int(data, "players", &players) || get_int(data, "turnaround", &turnaround) ||
        get_int(data, "race", &race))
        goto fail;
    if (players < 2 || players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "players out of range");
        goto fail;
    }
    s->players = (int)players, s->turnaround = (int)turnaround, s->race = (int)race;
    {
        PyObject *rng = get(data, "rng");
        if (!rng) goto fail;
        PyObject *fast = PySequence_Fast(rng, "rng");
        if (!fast || PySequence_Fast_GET_SIZE(fast) != 4) {
            Py_XDECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rng: four words");
            goto fail;
        }
        for (int i = 0; i < 4; i++) s->rng[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        Py_DECREF(fast);
        if (PyErr_Occurred()) goto fail;
    }
    PyObject *seats = get(data, "seats");
    if (!seats || PySequence_Size(seats) != players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one entry per seat");
        goto fail;
    }
    for (int i = 0; i < players; i++) {
        PyObject *seat = PySequence_GetItem(seats, i);
        if (!seat) goto fail;
        Player *p = &s->pl[i];
        long mines, drills, followers, floor;
        int ok = PyDict_Check(seat) && !get_int(seat, "mines", &mines) && !get_int(seat, "drills", &drills) &&
                 !get_int(seat, "followers", &followers) && !get_int(seat, "floor", &floor);
        if (ok) {
            p->mines = (int16_t)mines, p->drills = (int16_t)drills, p->followers = (int16_t)followers;
            p->floor = (int16_t)floor;
            PyObject *r = get(seat, "resources"), *t = get(seat, "temples"), *h = get(seat, "hand");
            ok = r && t && h && read_ints(r, v, NR, "resources") == NR;
            for (int k = 0; ok && k < NR; k++) p->res[k] = (int16_t)v[k];
            ok = ok && read_ints(t, v, NG, "temples") == NG;
            for (int k = 0; ok && k < NG; k++) p->temples[k] = (int16_t)v[k];
            int nh = ok ? read_bytes(h, p->hand, MAXC, "hand") : -1;
            ok = ok && nh >= 0;
            p->nhand = (int16_t)nh;
        }
        Py_DECREF(seat);
        if (!ok) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a seat");
            goto fail;
        }
    }
    {
        int n;
        PyObject *x;
        if (!(x = get(data, "base")) || (n = read_bytes(x, s->base, MAXC, "base")) < 0) goto fail;
        s->nbase = (int16_t)n;
        if (!(x = get(data, "discard")) || (n = read_bytes(x, s->discard, MAXC, "discard")) < 0) goto fail;
        s->ndiscard = (int16_t)n;
        if (!(x = get(data, "open")) || (n = read_bytes(x, s->open, MAXOPEN, "open")) < 0) goto fail;
        s->nopen = (int16_t)n;
        PyObject *gods = get(data, "gods"), *sites = get(data, "sites");
        if (!gods || !sites || PySequence_Size(gods) != NG || PySequence_Size(sites) != NG) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "seven gods");
            goto fail;
        }
        for (int g = 0; g < NG; g++) {
            PyObject *deck = PySequence_GetItem(gods, g), *owners = PySequence_GetItem(sites, g);
            int nd = deck ? read_bytes(deck, s->gods[g], MAXC, "god deck") : -1;
            int ns = owners ? read_ints(owners, v, SITES, "sites") : -1;
            Py_XDECREF(deck);
            Py_XDECREF(owners);
            if (nd < 0 || ns < 0) goto fail;
            s->ngod[g] = (int16_t)nd;
            s->nsites[g] = (int8_t)ns;
            for (int k = 0; k < ns; k++) s->sites[g][k] = (int8_t)v[k];
        }
        if (!(x = get(data, "locks")) || read_ints(x, v, NG, "locks") != NG) goto fail;
        for (int g = 0; g < NG; g++) s->locks[g] = (int8_t)v[g];
        if (!(x = get(data, "lent")) || read_ints(x, v, NG, "lent") != NG) goto fail;
        for (int g = 0; g < NG; g++) s->lent[g] = (int8_t)v[g];
        if (!(x = get(data, "order")) || (n = read_ints(x, v, MAXP, "order")) < 0) goto fail;
        s->norder = (int8_t)n;
        for (int k = 0; k < n; k++) s->order[k] = (int8_t)v[k];
    }
    {
        long round, start, turn, phase, actions, free_yellow, builds, open_closed, backstabbed, reshuffles, winner,
            finished;
        if (get_int(data, "round", &round) || get_int(data, "start", &start) || get_int(data, "turn", &turn) ||
            get_int(data, "phase", &phase) || get_int(data, "actions", &actions) ||
            get_int(data, "free_yellow", &free_yellow) || get_int(data, "builds", &builds) ||
            get_int(data, "open_closed", &open_closed) || get_int(data, "backstabbed", &backstabbed) ||
            get_int(data, "reshuffles", &reshuffles) || get_int(data, "winner", &winner) ||
            get_int(data, "finished", &finished))
            goto fail;
        s->round = (int8_t)round, s->start = (int8_t)start, s->turn = (int8_t)turn, s->phase = (int8_t)phase;
        s->actions = (int8_t)actions, s->free_yellow = (int8_t)free_yellow, s->builds = (int8_t)builds;
        s->open_closed = (int8_t)open_closed, s->backstabbed = (int8_t)backstabbed;
        s->reshuffles = (int16_t)reshuffles, s->winner = (int8_t)winner, s->finished = (int8_t)finished;
    }
    {
        PyObject *dice = get(data, "dice");
        if (!dice) goto fail;
        Py_ssize_t n = PySequence_Size(dice);
        if (n < 0 || n > MAXDICE) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many dice");
            goto fail;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *die = PySequence_GetItem(dice, i);
            int ok = die && read_ints(die, v, 2, "die") == 2;
            Py_XDECREF(die);
            if (!ok) goto fail;
            s->dice[i][0] = (uint8_t)v[0];
            s->dice[i][1] = (uint8_t)v[1];
        }
        s->ndice = (int16_t)n;
    }
    {
        PyObject *attack = get(data, "attack");
        if (!attack) goto fail;
        PyObject *fast = PySequence_Fast(attack, "attack");
        if (!fast) goto fail;
        if (PySequence_Fast_GET_SIZE(fast) != 17) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "attack: 17 fields");
            goto fail;
        }
        for (int i = 0; i < 16; i++) v[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        Attack *at = &s->attack;
        at->present = (int8_t)v[0], at->attacker = (int8_t)v[1], at->target = (int8_t)v[2];
        at->card = (int16_t)v[3], at->power = (int16_t)v[4], at->defence = (int16_t)v[5];
        at->cancelled = (int8_t)v[6], at->undefendable = (int8_t)v[7], at->resolved = (int8_t)v[8];
        at->again = (int8_t)v[9], at->soulspear = (int8_t)v[10], at->loki = (int8_t)v[11];
        for (int k = 0; k < 4; k++) at->uses[k] = (int8_t)v[12 + k];
        int n = PyErr_Occurred() ? -1 : read_bytes(PySequence_Fast_GET_ITEM(fast, 16), at->used, MAXC, "used");
        Py_DECREF(fast);
        if (n < 0) goto fail;
        at->nused = (int16_t)n;
    }
    {
        PyObject *decision = get(data, "decision");
        if (!decision) goto fail;
        if (decision == Py_None)
            s->decision.kind = D_NONE;
        else if (decision_from_list(decision, &s->decision) < 0)
            goto fail;
        PyObject *queue = get(data, "queue");
        if (!queue) goto fail;
        PyObject *fast = PySequence_Fast(queue, "queue");
        if (!fast) goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        if (n > MAXQ) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "queue too long");
            goto fail;
        }
        s->nq = (int16_t)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
            PyObject *first = PySequence_GetItem(item, 0);
            long name = first ? PyLong_AsLong(first) : -1;
            Py_XDECREF(first);
            if (PyErr_Occurred()) {
                Py_DECREF(fast);
                goto fail;
            }
            Step *st = &s->q[n - 1 - i];
            if (name == S_REDECIDE) {
                PyObject *saved = PySequence_GetItem(item, 1);
                int slot = -1;
                for (int k = 0; k < MAXSAVED; k++)
                    if (!s->saved_used[k]) {
                        slot = k;
                        break;
                    }
                int ok = saved && slot >= 0 && decision_from_list(saved, &s->saved[slot]) == 0;
                Py_XDECREF(saved);
                if (!ok) {
                    Py_DECREF(fast);
                    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many decisions to come back");
                    goto fail;
                }
                s->saved_used[slot] = 1;
                *st = mk(S_REDECIDE, 0, slot, 0, 0);
            } else {
                if (read_ints(item, v, 5, "step") != 5) {
                    Py_DECREF(fast);
                    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a step has five fields");
                    goto fail;
                }
                *st = mk((int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4]);
            }
        }
        Py_DECREF(fast);
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* ---------------------------------------------------------------- Python: the type */

static PyObject *SS_clone(SearchState *self, PyObject *unused) {
    SearchState *o = new_state(self->content);
    if (!o) return NULL;
    memcpy(&o->c, &self->c, sizeof(Core));
    return (PyObject *)o;
}

static PyObject *SS_legal_actions(SearchState *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    Codes codes;
    legal_codes(&self->c, (int)seat, &codes);
    PyObject *list = PyList_New(codes.n);
    if (!list) return NULL;
    for (int i = 0; i < codes.n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(codes.codes[i]));
    return list;
}

static PyObject *SS_apply_quiet(SearchState *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply_quiet(seat, code)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[0]), code = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    Core *s = &self->c;
    if (s->finished || s->decision.kind == D_NONE || s->decision.seat != seat) {
        PyErr_SetString(PyExc_ValueError, "not this seat's decision in the search state");
        return NULL;
    }
    apply_code(s, (int)seat, (int)code);
    if (s->error == ERROR_UNPAID) {
        PyErr_SetString(PyExc_ValueError, "a building cannot be paid (the reference engine refuses it too)");
        return NULL;
    }
    if (s->error == ERROR_MISSING) {
        PyErr_SetString(PyExc_ValueError, "a card or temple to take is not there (the reference engine refuses it too)");
        return NULL;
    }
    if (s->error) {
        PyErr_SetString(PyExc_RuntimeError, "the Valda search state overflowed its tables");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *SS_to_move(SearchState *self, PyObject *unused) {
    Core *s = &self->c;
    if (s->finished || s->decision.kind == D_NONE) return PyTuple_New(0);
    return Py_BuildValue("(i)", s->decision.seat);
}

static PyObject *SS_is_terminal(SearchState *self, PyObject *unused) { return PyBool_FromLong(self->c.finished); }

static PyObject *SS_scores(SearchState *self, PyObject *unused) {
    Core *s = &self->c;
    PyObject *list = PyList_New(s->players);
    for (int i = 0; i < s->players; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(s->pl[i].followers));
    return list;
}

static PyObject *SS_ranking(SearchState *self, PyObject *unused) {
    Core *s = &self->c;
    PyObject *list = PyList_New(s->players);
    for (int i = 0; i < s->players; i++) {
        int place = 1;
        for (int o = 0; o < s->players; o++) {
            int wi = i == s->winner, wo = o == s->winner;
            int fi = s->pl[i].followers, fo = s->pl[o].followers;
            int bi = buildings(&s->pl[i]), bo = buildings(&s->pl[o]);
            if (wo > wi || (wo == wi && (fo > fi || (fo == fi && bo > bi)))) place++;
        }
        PyList_SET_ITEM(list, i, PyLong_FromLong(place));
    }
    return list;
}

static PyObject *SS_evaluate(SearchState *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= self->c.players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    return PyFloat_FromDouble(evaluate(&self->c, (int)seat));
}

static PyObject *SS_evaluate_all(SearchState *self, PyObject *unused) {
    PyObject *list = PyList_New(self->c.players);
    for (int i = 0; i < self->c.players; i++) PyList_SET_ITEM(list, i, PyFloat_FromDouble(evaluate(&self->c, i)));
    return list;
}

/* ---------------------------------------------------------------- worlds (valda.belief.ValdaBelief.sample) */

enum { TO_DECISION, TO_GOD, TO_BASE, TO_OPEN, TO_HAND };
#define FITS_ANY -1
#define FITS_BASE -2

static Decision *decision_at(Core *s, int index) {
    if (index == 0) return &s->decision;
    return index - 1 < MAXSAVED ? &s->saved[index - 1] : NULL;
}

/* Where a dealt card goes: a place of a container, checked against its size. */
static uint8_t *place(Core *s, int to, int which, int position) {
    if (position < 0) return NULL;
    switch (to) {
    case TO_DECISION: {
        Decision *d = decision_at(s, which);
        return d && position < d->n ? &d->items[position] : NULL;
    }
    case TO_GOD: return which >= 0 && which < NG && position < s->ngod[which] ? &s->gods[which][position] : NULL;
    case TO_BASE: return position < s->nbase ? &s->base[position] : NULL;
    case TO_OPEN: return position < s->nopen ? &s->open[position] : NULL;
    case TO_HAND: return which >= 0 && which < s->players && position < s->pl[which].nhand ? &s->pl[which].hand[position] : NULL;
    }
    return NULL;
}

/* redeal(plan, rng_state) -> rng_state: the template's hidden cards dealt as the belief deals them.

   plan (int16 words): the unknown cards in the belief's order; the takes, each (fits, to, which,
   count, positions...) where fits is a god, FITS_BASE (base cards) or FITS_ANY; whether the
   decision's window options are worked out after the deal. (A view with another seat's hidden
   Hammertime choice is dealt by the belief itself.)
   The generator consumes what ValdaBelief.sample's consumes: the shuffle of the unknown cards,
   then the world's own seed. */
static PyObject *SS_redeal(SearchState *self, PyObject *args) {
    Py_buffer plan;
    unsigned long long r[4];
    if (!PyArg_ParseTuple(args, "y*(KKKK)", &plan, &r[0], &r[1], &r[2], &r[3])) return NULL;
    Core *s = &self->c;
    const Content *ct = CT(s);
    const int16_t *p = plan.buf;
    Py_ssize_t words = plan.len / 2, at = 0;
    uint64_t rng[4] = {r[0], r[1], r[2], r[3]};
    uint8_t pool[MAXC], used[MAXC];
    const char *problem = NULL;
#define NEXT(var)                                          \
    do {                                                   \
        if (at >= words) {                                 \
            problem = "the plan is cut short";             \
            goto done;                                     \
        }                                                  \
        (var) = p[at++];                                   \
    } while (0)
    int npool;
    NEXT(npool);
    if (npool < 0 || npool > MAXC) {
        problem = "too many unknown cards";
        goto done;
    }
    for (int i = 0; i < npool; i++) {
        int card;
        NEXT(card);
        pool[i] = (uint8_t)card;
    }
    shuffle_bytes(rng, pool, npool);
    seed_rng(s->rng, next64(rng) >> 2); /* Rng(rng.below(1 << 62)) */
    memset(used, 0, sizeof(used));
    int ntakes;
    NEXT(ntakes);
    for (int t = 0; t < ntakes; t++) {
        int fits, to, which, count, from = 0;
        NEXT(fits);
        NEXT(to);
        NEXT(which);
        NEXT(count);
        for (int k = 0; k < count; k++) {
            int position;
            NEXT(position);
            while (from < npool && (used[from] || (fits == FITS_BASE && ct->god[pool[from]] >= 0) ||
                                    (fits >= 0 && ct->god[pool[from]] != fits)))
                from++;
            if (from >= npool) {
                problem = "the view's hidden cards cannot be dealt";
                goto done;
            }
            uint8_t *slot = place(s, to, which, position);
            if (!slot) {
                problem = "a dealt card has no place";
                goto done;
            }
            *slot = pool[from];
            used[from++] = 1;
        }
    }
    for (int i = 0; i < npool; i++)
        if (!used[i]) {
            problem = "cards left over: the view does not add up";
            goto done;
        }
    int window;
    NEXT(window);
    if (window && s->decision.kind == D_WINDOW) {
        int options[3];
        Decision *d = &s->decision;
        d->n = (int16_t)window_options(s, d->window, d->seat, options);
        for (int i = 0; i < d->n; i++) d->items[i] = (uint8_t)options[i];
    }
#undef NEXT
done:
    PyBuffer_Release(&plan);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    return Py_BuildValue("(KKKK)", (unsigned long long)rng[0], (unsigned long long)rng[1],
                         (unsigned long long)rng[2], (unsigned long long)rng[3]);
}

/* The state as bytes (search_ext.h's core_to_bytes), its pack's tables left out (no pointer in
   the bytes): from_bytes(content, data) reads them back onto the same pack's tables. */
#define CORE_TAG "MHVA"
#define CORE_LAYOUT 1u

static PyObject *SS_to_bytes(SearchState *self, PyObject *unused) {
    Core copy = self->c;
    copy.ct = NULL;
    return core_to_bytes(CORE_TAG, CORE_LAYOUT, &copy, sizeof(Core));
}

static int decision_in_bounds(const Decision *d) { return d->n >= 0 && d->n <= MAXITEMS && d->n2 >= 0 && d->n2 <= MAXOPEN; }

/* Whether a core read from bytes keeps every count inside its arrays (no garbage indexes memory). */
static int core_in_bounds(const Core *s) {
    if (s->players < 2 || s->players > MAXP) return 0;
    for (int i = 0; i < s->players; i++)
        if (s->pl[i].nhand < 0 || s->pl[i].nhand > MAXC) return 0;
    if (s->nbase < 0 || s->nbase > MAXC || s->ndiscard < 0 || s->ndiscard > MAXC || s->nopen < 0 || s->nopen > MAXOPEN)
        return 0;
    for (int g = 0; g < NG; g++)
        if (s->ngod[g] < 0 || s->ngod[g] > MAXC || s->nsites[g] < 0 || s->nsites[g] > SITES) return 0;
    if (s->norder < 0 || s->norder > MAXP || s->ndice < 0 || s->ndice > MAXDICE || s->nq < 0 || s->nq > MAXQ) return 0;
    if (s->attack.nused < 0 || s->attack.nused > MAXC || !decision_in_bounds(&s->decision)) return 0;
    for (int i = 0; i < MAXSAVED; i++)
        if (!decision_in_bounds(&s->saved[i])) return 0;
    for (int i = 0; i < s->nq; i++)
        if (s->q[i].name == S_REDECIDE && (s->q[i].a < 0 || s->q[i].a >= MAXSAVED)) return 0;
    return 1;
}

/* from_bytes(content, data) -> SearchState: the state to_bytes() gave, on content's tables (the same pack's). */
static PyObject *from_bytes(PyObject *module, PyObject *args) {
    PyObject *content, *data;
    if (!PyArg_ParseTuple(args, "OO", &content, &data)) return NULL;
    const Content *ct = PyCapsule_GetPointer(content, CONTENT_CAPSULE);
    if (!ct) return NULL;
    SearchState *self = new_state(content);
    if (!self) return NULL;
    if (core_from_bytes(data, CORE_TAG, CORE_LAYOUT, &self->c, sizeof(Core)) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->c.ct = ct;
    if (!core_in_bounds(&self->c)) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "search state bytes out of bounds: not a state this engine wrote");
        return NULL;
    }
    return (PyObject *)self;
}

/* The object the pack's tables were registered for (register_content's owner), or None. */
static PyObject *SS_owner(SearchState *self, void *unused) {
    PyObject *owner = PyCapsule_GetContext(self->content);
    if (!owner) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    return Py_NewRef(owner);
}

static PyObject *SS_num_players(SearchState *self, void *unused) { return PyLong_FromLong(self->c.players); }

static PyGetSetDef SS_getset[] = {
    {"num_players", (getter)SS_num_players, NULL, "number of seats", NULL},
    {"owner", (getter)SS_owner, NULL, "what the pack's tables were registered for (register_content's owner)", NULL},
    {NULL}};

static PyMethodDef SS_methods[] = {
    {"clone", (PyCFunction)SS_clone, METH_NOARGS, "An independent copy."},
    {"legal_actions", (PyCFunction)SS_legal_actions, METH_O, "Legal action codes of a seat."},
    {"apply_quiet", (PyCFunction)(void (*)(void))SS_apply_quiet, METH_FASTCALL, "Apply a legal code for a seat."},
    {"to_move", (PyCFunction)SS_to_move, METH_NOARGS, "Seats that must decide now."},
    {"is_terminal", (PyCFunction)SS_is_terminal, METH_NOARGS, "True at the end of the game."},
    {"scores", (PyCFunction)SS_scores, METH_NOARGS, "Followers by seat."},
    {"ranking", (PyCFunction)SS_ranking, METH_NOARGS, "Places by seat with the tie-breaks."},
    {"evaluate", (PyCFunction)SS_evaluate, METH_O, "valda.search.evaluate for a seat."},
    {"evaluate_all", (PyCFunction)SS_evaluate_all, METH_NOARGS, "valda.search.evaluate for every seat."},
    {"export", (PyCFunction)SS_export, METH_NOARGS, "Every field as plain Python values."},
    {"redeal", (PyCFunction)SS_redeal, METH_VARARGS, "Deal the hidden cards as the belief does: (plan, rng state)."},
    {"to_bytes", (PyCFunction)SS_to_bytes, METH_NOARGS, "The whole state as bytes, its pack's tables left out."},
    {NULL}};

static PyTypeObject SearchStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "meadhall.games.valda._search.SearchState",
    .tp_basicsize = sizeof(SearchState),
    .tp_dealloc = (destructor)SS_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Valda position for search: int action codes, no events.",
    .tp_methods = SS_methods,
    .tp_getset = SS_getset,
};

static void free_content(PyObject *capsule) {
    PyObject *owner = PyCapsule_GetContext(capsule);
    PyMem_Free(PyCapsule_GetPointer(capsule, CONTENT_CAPSULE));
    Py_XDECREF(owner);
}

/* register_content(cards, weapon_cards, dice_resources, white, needs, god_order, evaluation[, owner]) -> content
   (an opaque object for build(); the tables are freed when it and every state built on it are gone;
   owner, kept as long as the tables, is what a state's `owner` gives back: the bridge pickles by it)
   cards: [(kind, god, power, [(do, resource, who, source, kind, die, building, give, amount, count,
           discount, followers, times), ...]), ...] in card-number order;
   weapon_cards: a card number (or -1) per option; dice_resources: [yellow, blue] x FACES x
   (drop, gold, diamond, choice); white: FACES followers; needs: 9 x 3; god_order: the pack's order;
   evaluation: (resource_value[3], die_income, ability_income[7][3], card_value[ncards]). */
static PyObject *register_content(PyObject *module, PyObject *args) {
    PyObject *cards, *weapon_cards, *dice, *white, *needs, *god_order, *evaluation, *owner = Py_None;
    if (!PyArg_ParseTuple(args, "OOOOOOO|O", &cards, &weapon_cards, &dice, &white, &needs, &god_order, &evaluation,
                          &owner))
        return NULL;
    Content *ct = PyMem_Calloc(1, sizeof(Content));
    if (!ct) return PyErr_NoMemory();
    long v[64];
    PyObject *fast = PySequence_Fast(cards, "cards");
    if (!fast) goto fail;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXC) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many cards");
        goto fail;
    }
    ct->ncards = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        int kind, god, power;
        PyObject *effects;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iiiO", &kind, &god, &power, &effects)) {
            Py_DECREF(fast);
            goto fail;
        }
        ct->kind[i] = (int8_t)kind, ct->god[i] = (int8_t)god, ct->power[i] = (int16_t)power;
        Py_ssize_t ne = PySequence_Size(effects);
        if (ne < 0 || ne > MAXE) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many effects on a card");
            goto fail;
        }
        ct->neffects[i] = (int8_t)ne;
        for (Py_ssize_t k = 0; k < ne; k++) {
            PyObject *e = PySequence_GetItem(effects, k);
            int ok = e && read_ints(e, v, 13, "effect") == 13;
            Py_XDECREF(e);
            if (!ok) {
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an effect has 13 fields");
                goto fail;
            }
            Effect *f = &ct->effects[i][k];
            f->do_ = (int8_t)v[0], f->resource = (int8_t)v[1], f->who = (int8_t)v[2], f->source = (int8_t)v[3];
            f->kind = (int8_t)v[4], f->die = (int8_t)v[5], f->building = (int8_t)v[6], f->give = (int8_t)v[7];
            f->amount = (int16_t)v[8], f->count = (int16_t)v[9], f->discount = (int16_t)v[10];
            f->followers = (int16_t)v[11], f->times = (int16_t)v[12];
        }
    }
    Py_DECREF(fast);
    if (read_ints(weapon_cards, v, NOPT, "weapon cards") != NOPT) goto fail_value;
    for (int o = 0; o < NOPT; o++) ct->weapon_card[o] = (int16_t)v[o];
    if (read_ints(dice, v, 2 * FACES * 4, "dice") != 2 * FACES * 4) goto fail_value;
    for (int i = 0; i < 2 * FACES * 4; i++) ct->die_resources[i / (FACES * 4)][(i / 4) % FACES][i % 4] = (int8_t)v[i];
    if (read_ints(white, v, FACES, "white") != FACES) goto fail_value;
    for (int i = 0; i < FACES; i++) ct->white[i] = (int8_t)v[i];
    if (read_ints(needs, v, 27, "needs") != 27) goto fail_value;
    for (int i = 0; i < 27; i++) ct->need[i / 3][i % 3] = (int8_t)v[i];
    if (read_ints(god_order, v, NG, "god order") != NG) goto fail_value;
    for (int i = 0; i < NG; i++) ct->god_order[i] = (int8_t)v[i];
    {
        PyObject *values = PySequence_Fast(evaluation, "evaluation");
        if (!values) goto fail;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(values);
        if (size != 25 + ct->ncards) {
            Py_DECREF(values);
            goto fail_value;
        }
        double x[25 + MAXC];
        for (Py_ssize_t i = 0; i < size; i++) x[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values, i));
        Py_DECREF(values);
        if (PyErr_Occurred()) goto fail;
        for (int r = 0; r < NR; r++) ct->resource_value[r] = x[r];
        ct->die_income = x[3];
        for (int g = 0; g < NG; g++)
            for (int l = 0; l < 3; l++) ct->ability_income[g][l] = x[4 + 3 * g + l];
        for (int c = 0; c < ct->ncards; c++) ct->card_value[c] = x[25 + c];
    }
    {
        PyObject *capsule = PyCapsule_New(ct, CONTENT_CAPSULE, free_content);
        if (!capsule) goto fail;
        /* The owner (the bridge's pack) lives as long as the tables: a state pickles by it. */
        if (owner != Py_None && PyCapsule_SetContext(capsule, Py_NewRef(owner)) < 0) {
            Py_DECREF(owner);
            Py_DECREF(capsule);
            return NULL;
        }
        return capsule;
    }
fail_value:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "content tables of the wrong size");
fail:
    PyMem_Free(ct);
    return NULL;
}

/* ---------------------------------------------------------------- what the bridge checks at import */

/* NAMES: {numbering: (name, ...)} in enum order; RULES: the rules' constants compiled in;
   LAYOUT: the numbers the bridge writes (reasons, buildings, redeal targets) and the tables' limits. */
static int add_int(PyObject *dict, const char *key, long value) {
    PyObject *v = PyLong_FromLong(value);
    int failed = !v || PyDict_SetItemString(dict, key, v) < 0;
    Py_XDECREF(v);
    return failed ? -1 : 0;
}

static int add_tables(PyObject *m) {
    PyObject *names = PyDict_New(), *rules = PyDict_New(), *layout = PyDict_New();
    if (!names || !rules || !layout) goto fail;
    for (size_t t = 0; t < sizeof NUMBERINGS / sizeof NUMBERINGS[0]; t++) {
        PyObject *tuple = PyTuple_New(NUMBERINGS[t].n);
        if (!tuple) goto fail;
        for (int i = 0; i < NUMBERINGS[t].n; i++) {
            const char *name = NUMBERINGS[t].names[i];
            PyObject *item = name ? PyUnicode_FromString(name) : Py_NewRef(Py_None);
            if (!item) {
                Py_DECREF(tuple);
                goto fail;
            }
            PyTuple_SET_ITEM(tuple, i, item);
        }
        int failed = PyDict_SetItemString(names, NUMBERINGS[t].key, tuple) < 0;
        Py_DECREF(tuple);
        if (failed) goto fail;
    }
    if (add_int(rules, "SITES", SITES) || add_int(rules, "ROUNDS", ROUNDS) || add_int(rules, "RACE_ROUNDS", RACE_ROUNDS) ||
        add_int(rules, "HAND_LIMIT", HAND_LIMIT) || add_int(rules, "TEMPLES_PER_PLAYER", TEMPLES_PER_PLAYER) ||
        add_int(rules, "LOCK", LOCK) || add_int(rules, "MAX_MINES", MAX_MINES) || add_int(rules, "MAX_DRILLS", MAX_DRILLS) ||
        add_int(rules, "RACE_GOAL", RACE_GOAL) || add_int(rules, "ACTIONS", ACTIONS) || add_int(rules, "BUILDS", BUILDS) ||
        add_int(rules, "FACES", FACES))
        goto fail;
    {
        PyObject *zones = Py_BuildValue("(iii)", SAFE_ZONES[0], SAFE_ZONES[1], SAFE_ZONES[2]);
        int failed = !zones || PyDict_SetItemString(rules, "SAFE_ZONES", zones) < 0;
        Py_XDECREF(zones);
        if (failed) goto fail;
        PyObject *conversions = PyDict_New();
        if (!conversions) goto fail;
        for (int k = 0; k < 4; k++) {
            PyObject *row = Py_BuildValue("(siiii)", GOD_NAMES_[CONV[k][0]], CONV[k][1], CONV[k][2], CONV[k][3], CONV[k][4]);
            failed = !row || PyDict_SetItemString(conversions, ACTION_NAMES_[CONV_ACTION[k]], row) < 0;
            Py_XDECREF(row);
            if (failed) {
                Py_DECREF(conversions);
                goto fail;
            }
        }
        failed = PyDict_SetItemString(rules, "CONVERSIONS", conversions) < 0;
        Py_DECREF(conversions);
        if (failed) goto fail;
    }
    if (add_int(layout, "WHY_OPTION", WHY_OPTION) || add_int(layout, "WHY_DICE", WHY_DICE) ||
        add_int(layout, "WHY_LOKI", WHY_LOKI) || add_int(layout, "WHY_FACE", WHY_FACE) ||
        add_int(layout, "TO_DECISION", TO_DECISION) || add_int(layout, "TO_GOD", TO_GOD) ||
        add_int(layout, "TO_BASE", TO_BASE) || add_int(layout, "TO_OPEN", TO_OPEN) || add_int(layout, "TO_HAND", TO_HAND) ||
        add_int(layout, "FITS_ANY", FITS_ANY) || add_int(layout, "FITS_BASE", FITS_BASE) ||
        add_int(layout, "MINE", MINE) || add_int(layout, "DRILL", DRILL) || add_int(layout, "MAX_CARDS", MAXC) ||
        add_int(layout, "MAX_EFFECTS", MAXE) || add_int(layout, "MAX_PARAMETER", MAX_PARAMETER))
        goto fail;
    if (PyModule_AddObject(m, "NAMES", names) < 0) goto fail;
    names = NULL;
    if (PyModule_AddObject(m, "RULES", rules) < 0) goto fail;
    rules = NULL;
    if (PyModule_AddObject(m, "LAYOUT", layout) < 0) goto fail;
    return 0;
fail:
    Py_XDECREF(names);
    Py_XDECREF(rules);
    Py_XDECREF(layout);
    return -1;
}

/* ---------------------------------------------------------------- many games at once (meadhall.rl.VectorEnv) */

/*
 * The C half of Valda's vector backend (native.VectorGames): games held as SearchStates in a
 * list, stepped by dense action index (valda.spaces' index), their seat to move and legal
 * mask written straight into the caller's buffers (numpy arrays). Dealing a game and a
 * finished game's rewards stay in Python, which sees one game end in hundreds of steps.
 * index_codes: int32 (A), the code of each index (-1: none in this pack); lookup: int32
 * (2 * A), (code, index) pairs sorted by code.
 */
typedef struct {
    Py_buffer view;
    int held;
} Buffer;

static int get_buffer(PyObject *object, Buffer *out, Py_ssize_t itemsize, Py_ssize_t items, int writable, const char *what) {
    out->held = 0;
    if (PyObject_GetBuffer(object, &out->view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    out->held = 1;
    if (out->view.itemsize != itemsize || out->view.len != itemsize * items) {
        PyErr_Format(PyExc_ValueError, "%s: a contiguous buffer of %zd items of %zd bytes", what, items, itemsize);
        return -1;
    }
    return 0;
}

static void release(Buffer *buffers, int n) {
    for (int i = 0; i < n; i++)
        if (buffers[i].held) PyBuffer_Release(&buffers[i].view);
}

/* The index of a code (lookup: sorted (code, index) pairs), or -1. */
static int index_of(const int32_t *lookup, int size, int code) {
    int lo = 0, hi = size - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, found = lookup[2 * mid];
        if (found == code) return lookup[2 * mid + 1];
        if (found < code) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Writes the seat to move and its mask of one game; -1 with an exception for a legal code without an index. */
static int show_game(const Core *s, const int32_t *lookup, int size, uint8_t *mask, int32_t *to_play) {
    memset(mask, 0, (size_t)size);
    int seat = s->finished || s->decision.kind == D_NONE ? -1 : s->decision.seat;
    *to_play = seat;
    if (seat < 0) return 0;
    Codes codes;
    legal_codes(s, seat, &codes);
    for (int i = 0; i < codes.n; i++) {
        int index = index_of(lookup, size, codes.codes[i]);
        if (index < 0) {
            PyErr_Format(PyExc_ValueError, "legal action code %d has no index in Valda's action space", codes.codes[i]);
            return -1;
        }
        mask[index] = 1;
    }
    return 0;
}

static SearchState *game_at(PyObject *games, Py_ssize_t i) {
    PyObject *item = PyList_GET_ITEM(games, i);
    if (!PyObject_TypeCheck(item, &SearchStateType)) {
        PyErr_SetString(PyExc_TypeError, "games: a list of SearchStates");
        return NULL;
    }
    return (SearchState *)item;
}

/* The slot named at place k of a slot list (k itself when fast is NULL); -1 with an error set when there is no such slot. */
static Py_ssize_t slot_index(PyObject *fast, Py_ssize_t k, Py_ssize_t n) {
    Py_ssize_t i = k;
    if (fast) {
        i = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fast, k));
        if (i == -1 && PyErr_Occurred()) return -1;
    }
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "no such slot");
        return -1;
    }
    return i;
}

/* vector_show(games, slots, lookup, masks, to_play): writes the seat to move and mask of games[slot] for each slot. */
static PyObject *vector_show(PyObject *module, PyObject *args) {
    PyObject *games, *slots, *lookup_object, *masks_object, *to_play_object;
    if (!PyArg_ParseTuple(args, "O!OOOO", &PyList_Type, &games, &slots, &lookup_object, &masks_object, &to_play_object))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(games);
    Buffer b[3];
    memset(b, 0, sizeof b);
    PyObject *fast = NULL, *result = NULL;
    Py_ssize_t pairs = PyObject_Length(lookup_object);
    if (pairs < 0) goto done;
    int size = (int)(pairs / 2);
    if (get_buffer(lookup_object, &b[0], 4, 2 * (Py_ssize_t)size, 0, "lookup") < 0) goto done;
    if (get_buffer(masks_object, &b[1], 1, n * size, 1, "masks") < 0) goto done;
    if (get_buffer(to_play_object, &b[2], 4, n, 1, "to_play") < 0) goto done;
    fast = PySequence_Fast(slots, "slots: a sequence of ints");
    if (!fast) goto done;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
        Py_ssize_t i = slot_index(fast, k, n);
        if (i < 0) goto done;
        SearchState *game = game_at(games, i);
        if (!game) goto done;
        if (show_game(&game->c, b[0].view.buf, size, (uint8_t *)b[1].view.buf + i * size, (int32_t *)b[2].view.buf + i) < 0)
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(fast);
    release(b, 3);
    return result;
}

/*
 * vector_step(games, actions, index_codes, lookup, masks, to_play, dones) -> list of the slots whose game ended:
 * applies actions[i] (an index) for the seat to move in each game; writes dones, and the seat to move and the
 * mask of every game still going (the caller deals the ended ones anew and shows them).
 */
static PyObject *vector_step(PyObject *module, PyObject *args) {
    PyObject *games, *objects[6];
    if (!PyArg_ParseTuple(args, "O!OOOOOO", &PyList_Type, &games, &objects[0], &objects[1], &objects[2], &objects[3],
                          &objects[4], &objects[5]))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(games);
    Buffer b[6];
    memset(b, 0, sizeof b);
    PyObject *ended = NULL;
    Py_ssize_t length = PyObject_Length(objects[1]);
    if (length < 0) goto fail;
    int size = (int)length;
    if (get_buffer(objects[0], &b[0], 8, n, 0, "actions") < 0) goto fail;
    if (get_buffer(objects[1], &b[1], 4, size, 0, "index_codes") < 0) goto fail;
    if (get_buffer(objects[2], &b[2], 4, 2 * (Py_ssize_t)size, 0, "lookup") < 0) goto fail;
    if (get_buffer(objects[3], &b[3], 1, n * size, 1, "masks") < 0) goto fail;
    if (get_buffer(objects[4], &b[4], 4, n, 1, "to_play") < 0) goto fail;
    if (get_buffer(objects[5], &b[5], 1, n, 1, "dones") < 0) goto fail;
    const int64_t *actions = b[0].view.buf;
    const int32_t *codes = b[1].view.buf, *lookup = b[2].view.buf;
    uint8_t *masks = b[3].view.buf, *dones = b[5].view.buf;
    int32_t *to_play = b[4].view.buf;
    ended = PyList_New(0);
    if (!ended) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        SearchState *game = game_at(games, i);
        if (!game) goto fail;
        Core *s = &game->c;
        int64_t action = actions[i];
        if (s->finished || s->decision.kind == D_NONE || action < 0 || action >= size || codes[action] < 0) {
            PyErr_Format(PyExc_ValueError, "game %zd: no decision, or action index %lld outside the space", i,
                         (long long)action);
            goto fail;
        }
        tracking = game->kn;
        apply_code(s, s->decision.seat, codes[action]);
        tracking = NULL;
        if (s->error) {
            PyErr_Format(PyExc_RuntimeError, "game %zd: the Valda search state refused the action (error %d)", i,
                         s->error);
            goto fail;
        }
        dones[i] = (uint8_t)(s->finished != 0);
        if (s->finished) {
            PyObject *slot = PyLong_FromSsize_t(i);
            if (!slot || PyList_Append(ended, slot) < 0) {
                Py_XDECREF(slot);
                goto fail;
            }
            Py_DECREF(slot);
        } else if (show_game(s, lookup, size, masks + i * size, to_play + i) < 0)
            goto fail;
    }
    release(b, 6);
    return ended;
fail:
    Py_XDECREF(ended);
    release(b, 6);
    return NULL;
}

/*
 * vector_deal(template, seed, hand, resources) -> SearchState: ValdaState.new in C. template: the position of
 * ValdaState(config, seed) with its decks unshuffled (the base deck and each god's deck in the pack's order);
 * hand: cards dealt to each seat; resources: the starting resources by place from the start player
 * (players * NR ints). The same draws as state.py: the base deck shuffled, then each god's deck in the pack's
 * order, the hands popped off the base deck seat by seat, the turnaround's start rolls, then the first round.
 */
static PyObject *vector_deal(PyObject *module, PyObject *args) {
    SearchState *template;
    unsigned long long seed;
    int hand;
    PyObject *resources_object;
    if (!PyArg_ParseTuple(args, "O!KiO", &SearchStateType, &template, &seed, &hand, &resources_object)) return NULL;
    long resources[MAXP * NR];
    int nresources = read_ints(resources_object, resources, MAXP * NR, "resources");
    if (nresources < 0) return NULL;
    const Core *t = &template->c;
    if (nresources != t->players * NR || hand < 0 || hand * t->players > t->nbase) {
        PyErr_SetString(PyExc_ValueError, "vector_deal: resources for each place, and a deck for the hands");
        return NULL;
    }
    SearchState *game = new_state(template->content);
    if (!game) return NULL;
    Core *s = &game->c;
    memcpy(s, t, sizeof(Core));
    game->kn = PyMem_Calloc(1, sizeof(Knowledge));
    if (!game->kn) {
        Py_DECREF(game);
        return PyErr_NoMemory();
    }
    seed_rng(s->rng, (uint64_t)seed);
    shuffle_bytes(s->rng, s->base, s->nbase);
    for (int i = 0; i < NG; i++) {
        int god = CT(s)->god_order[i];
        if (god >= 0 && god < NG) shuffle_bytes(s->rng, s->gods[god], s->ngod[god]);
    }
    for (int seat = 0; seat < s->players; seat++) {
        Player *p = &s->pl[seat];
        p->nhand = 0;
        for (int k = 0; k < hand; k++) p->hand[p->nhand++] = s->base[--s->nbase];
    }
    if (s->turnaround) {
        int rolling[MAXP], nrolling = s->players, rolls[MAXP];
        for (int i = 0; i < nrolling; i++) rolling[i] = i;
        while (nrolling > 1) {
            int best = 0;
            for (int i = 0; i < nrolling; i++) {
                rolls[i] = below(s->rng, 6) + 1;
                if (rolls[i] > best) best = rolls[i];
            }
            int kept = 0;
            for (int i = 0; i < nrolling; i++)
                if (rolls[i] == best) rolling[kept++] = rolling[i];
            nrolling = kept;
        }
        s->start = (int8_t)rolling[0];
    }
    for (int place = 0; place < s->players; place++) {
        Player *p = &s->pl[(s->start + place) % s->players];
        for (int r = 0; r < NR; r++) p->res[r] = (int16_t)resources[place * NR + r];
    }
    tracking = game->kn;
    begin_round(s);
    step_run(s);
    tracking = NULL;
    if (s->error) {
        Py_DECREF(game);
        PyErr_SetString(PyExc_RuntimeError, "the Valda search state overflowed its tables while dealing");
        return NULL;
    }
    return (PyObject *)game;
}


/*
 * vector_observe(games, slots, to_play, observations, tables): Valda's observation (valda.spaces'
 * observation_space, the same floats bit for bit) of the seat to move of games[slot] for each slot.
 * tables: int32, OBS_HEADER words [max_players, cards, gods, decisions, floats per observation, dice
 * shown], then the pack place of each C card (the pack's cards), of each C god (NG, -1: not in the
 * pack), the DECISIONS place of each C decision kind (D_COUNT), the PHASES place of each C phase (7). Each float is computed as Python computes it (in double, sums in the same order),
 * then stored as float32. known_hands comes from the game's Knowledge (vector_deal tracks it).
 */
#define OBS_SCALE 10.0
#define OBS_HEADER 6
static float *obs_relative(float *out, int other, int seat, int players, int slots) {
    for (int i = 0; i < slots; i++) out[i] = 0.0f;
    if (other >= 0 && other < players) out[((other - seat) % players + players) % players] = 1.0f;
    return out + slots;
}

static float *obs_counts(float *out, const uint8_t *items, int n, const int32_t *place, int size, double scale) {
    double found[MAXC];
    for (int i = 0; i < size; i++) found[i] = 0.0;
    for (int i = 0; i < n; i++) found[place[items[i]]] += 1.0 / scale;
    for (int i = 0; i < size; i++) out[i] = (float)found[i];
    return out + size;
}

static int decision_has_target(int kind) {
    return kind == D_ATTACK || kind == D_STEAL || kind == D_DESTROY || kind == D_MOVE;
}

static void observe_game(const Core *s, const Knowledge *kn, int seat, const int32_t *tables, float *o) {
    int slots = tables[0], ncards = tables[1], ngods = tables[2], ndecisions = tables[3], shown = tables[5];
    const int32_t *card_place = tables + OBS_HEADER, *god_place = card_place + CT(s)->ncards,
                  *decision_place = god_place + NG, *phase_place = decision_place + D_COUNT;
    int players = s->players;
    int god_of[NG]; /* the C god at each pack place */
    for (int g = 0; g < NG; g++)
        if (god_place[g] >= 0) god_of[god_place[g]] = g;
    /* game */
    int last = last_round(s);
    *o++ = (float)((double)s->round / (double)(last > 1 ? last : 1));
    *o++ = (float)(s->actions / 4.0);
    *o++ = (float)(s->builds / 4.0);
    *o++ = (float)(s->free_yellow / 4.0);
    *o++ = (float)(s->nbase / 100.0);
    *o++ = (float)(s->nopen / OBS_SCALE);
    *o++ = s->open_closed ? 1.0f : 0.0f;
    *o++ = s->backstabbed ? 1.0f : 0.0f;
    *o++ = s->finished ? 1.0f : 0.0f;
    *o++ = (float)(s->reshuffles / 4.0);
    for (int i = 0; i < 7; i++) o[i] = 0.0f;
    o[phase_place[s->phase]] = 1.0f;
    o += 7;
    o = obs_relative(o, current(s), seat, players, slots);
    o = obs_relative(o, s->start, seat, players, slots);
    /* seats */
    for (int offset = 0; offset < slots; offset++) {
        if (offset >= players) {
            for (int i = 0; i < 7 + ngods; i++) *o++ = 0.0f;
            continue;
        }
        const Player *p = &s->pl[(seat + offset) % players];
        for (int r = 0; r < NR; r++) *o++ = (float)(p->res[r] / OBS_SCALE);
        *o++ = (float)(p->mines / 4.0);
        *o++ = (float)(p->drills / 4.0);
        *o++ = (float)(p->followers / 20.0);
        *o++ = (float)(p->floor / 20.0);
        for (int k = 0; k < ngods; k++) *o++ = (float)(p->temples[god_of[k]] / 2.0);
    }
    /* hand */
    o = obs_counts(o, s->pl[seat].hand, s->pl[seat].nhand, card_place, ncards, 1.0);
    /* hand_sizes */
    for (int offset = 0; offset < slots; offset++)
        *o++ = offset < players ? (float)(s->pl[(seat + offset) % players].nhand / OBS_SCALE) : 0.0f;
    /* known_hands */
    for (int offset = 0; offset < slots; offset++) {
        for (int i = 0; i < ncards; i++) o[i] = 0.0f;
        if (offset < players) {
            int target = (seat + offset) % players;
            if (target != seat)
                for (int c = 0; c < CT(s)->ncards; c++) o[card_place[c]] = (float)kn->known[seat][target][c];
        }
        o += ncards;
    }
    /* open */
    int sees_open = !s->open_closed || seat == current(s);
    o = obs_counts(o, s->open, sees_open ? s->nopen : 0, card_place, ncards, 1.0);
    /* discard */
    o = obs_counts(o, s->discard, s->ndiscard, card_place, ncards, OBS_SCALE);
    /* sites */
    for (int k = 0; k < ngods; k++) {
        int g = god_of[k];
        double row[MAXP + 1];
        for (int i = 0; i < slots; i++) row[i] = 0.0;
        for (int i = 0; i < s->nsites[g]; i++) row[((s->sites[g][i] - seat) % players + players) % players] += 1.0;
        for (int i = 0; i < slots; i++) *o++ = (float)row[i];
        *o++ = s->locks[g] >= 0 ? 1.0f : 0.0f;
    }
    /* dice */
    for (int number = 0; number < shown; number++) {
        for (int i = 0; i < 1 + 3 + FACES; i++) o[i] = 0.0f;
        if (number < s->ndice) {
            o[0] = 1.0f;
            o[1 + s->dice[number][0]] = 1.0f;
            o[4 + s->dice[number][1]] = 1.0f;
        }
        o += 1 + 3 + FACES;
    }
    /* decision */
    const Decision *d = &s->decision;
    for (int i = 0; i < ndecisions; i++) o[i] = 0.0f;
    if (d->kind == D_NONE) {
        o += ndecisions;
        for (int i = 0; i < 2 * slots; i++) *o++ = 0.0f;
    } else {
        o[decision_place[d->kind]] = 1.0f;
        o += ndecisions;
        o = obs_relative(o, d->seat, seat, players, slots);
        o = obs_relative(o, decision_has_target(d->kind) ? d->target : -1, seat, players, slots);
    }
    /* to_move */
    for (int i = 0; i < slots; i++) o[i] = 0.0f;
    if (!s->finished && d->kind != D_NONE) o[((d->seat - seat) % players + players) % players] = 1.0f;
}

static PyObject *vector_observe(PyObject *module, PyObject *args) {
    PyObject *games, *slots, *objects[3];
    if (!PyArg_ParseTuple(args, "O!OOOO", &PyList_Type, &games, &slots, &objects[0], &objects[1], &objects[2]))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(games);
    Buffer b[3];
    memset(b, 0, sizeof b);
    PyObject *fast = NULL, *result = NULL;
    Py_ssize_t ntables = PyObject_Length(objects[2]);
    if (ntables < 0) goto done;
    if (get_buffer(objects[2], &b[2], 4, ntables, 0, "tables") < 0) goto done;
    const int32_t *tables = b[2].view.buf;
    if (ntables < OBS_HEADER || tables[4] < 0) {
        PyErr_SetString(PyExc_ValueError, "vector_observe: tables as VectorGames makes them");
        goto done;
    }
    Py_ssize_t size = tables[4];
    if (get_buffer(objects[0], &b[0], 4, n, 0, "to_play") < 0) goto done;
    if (get_buffer(objects[1], &b[1], 4, n * size, 1, "observations") < 0) goto done;
    const int32_t *to_play = b[0].view.buf;
    float *observations = b[1].view.buf;
    if (slots != Py_None) {
        fast = PySequence_Fast(slots, "slots: a sequence of ints or None");
        if (!fast) goto done;
    }
    Py_ssize_t count = fast ? PySequence_Fast_GET_SIZE(fast) : n;
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t i = slot_index(fast, k, n);
        if (i < 0) goto done;
        SearchState *game = game_at(games, i);
        if (!game) goto done;
        const Core *s = &game->c;
        if (!game->kn || ntables != OBS_HEADER + CT(s)->ncards + NG + D_COUNT + 7) {
            PyErr_SetString(PyExc_ValueError, "vector_observe: a game dealt by vector_deal, and tables for its pack");
            goto done;
        }
        float *row = observations + i * size;
        int seat = to_play[i];
        if (seat < 0) /* no seat to move: nothing to show */
            for (Py_ssize_t j = 0; j < size; j++) row[j] = 0.0f;
        else
            observe_game(s, game->kn, seat, tables, row);
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(fast);
    release(b, 3);
    return result;
}

static PyMethodDef module_methods[] = {
    {"build", build, METH_VARARGS, "A SearchState from (content, data as export() gives it)."},
    {"register_content", register_content, METH_VARARGS, "A content pack's tables, for build()."},
    {"from_bytes", from_bytes, METH_VARARGS, "The SearchState whose to_bytes() gave the bytes, on (content, bytes)."},
    {"vector_step", vector_step, METH_VARARGS, "Step many games by action index into buffers (VectorGames)."},
    {"vector_pick", vector_pick, METH_VARARGS, "A legal index per row of masks, by uniforms (search_ext.h)."},
    {"vector_deal", vector_deal, METH_VARARGS, "ValdaState.new in C, from an unshuffled template (VectorGames)."},
    {"vector_show", vector_show, METH_VARARGS, "Write some games' seat to move and mask into buffers (VectorGames)."},
    {"vector_observe", vector_observe, METH_VARARGS, "Write some games' observation of the seat to move (VectorGames)."},
    {NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "meadhall.games.valda._search", "The Valda search engine (C).", -1, module_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search(void) { return search_module(&module_def, &SearchStateType, add_tables); }
