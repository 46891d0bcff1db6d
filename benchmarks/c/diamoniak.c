/* Diamoniak's default game as a C program written as carefully as the compiled kernel: the yardstick
 * of toolkit/games/diamoniak/kernel.py. benchmarks/bench_simulate.py compiles it with
 * `cc -O3 -march=native`, runs it and the kernel on the same games and checks that both give the same
 * records (summed over the games).
 *
 * It follows the kernel step for step, so that the two differ only in the compiler:
 *  - the same state layout: per card type the pile and the discard area, per seat and type the castle
 *    and the right side, per seat the colour (-1: none) and the sums kept beside the arrays (castle
 *    cards, cards on the right, diamonds, fairies), all int64; the game's small numbers (phase, seat to
 *    move, turns, pile and discard counts, the record's counters) in one struct that stays in registers;
 *  - the same steps (`_choose`, `_apply`, `_resolve`, `_buy`, `_lose`, ...) as `static inline`
 *    functions, and the same loop (`_play_one`), race bookkeeping included;
 *  - the same chance: toolkit/sim/card_order.py's splitmix64 stream, game g of a run seeded
 *    game_seed(run_seed, g); the pile's cards laid out by type and Fisher-Yates shuffled (the stream's
 *    state in a register) at the first draw and after each reshuffle of the discard area, and each draw
 *    taking the top card of that order (nothing laid out again between shuffles).
 * Every seat plays the default player (until-witch, fairy-first, buy-most: the witch takes castle cards
 * on the right, then diamonds, then the castle), with no variant.
 *
 * The deck and the rule numbers come from the catalogue, through the command line:
 *
 *   diamoniak GAMES RUN_SEED START PLAYERS CASTLE_SIZE PRICE WITCH_TAKES MAX_TURNS KIND COLOUR COUNT ...
 *
 * one KIND COLOUR COUNT triple per card type in catalogue order (KIND: 0 castle, 1 diamond, 2 witch,
 * 3 fairy; COLOUR: a number per castle colour, -1 for none). It plays games START .. START+GAMES-1 and
 * prints one line of names and numbers: the wins of each seat, the games nobody won, the sums over the
 * games of each other record field (turns, stalled, lead_changes, winner_deficit, witch_strikes,
 * purchases, reshuffles, fairies_spent), and the seconds the games took, on the clock and of CPU.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int64_t i64;
typedef uint64_t u64;

enum { CASTLE, DIAMOND, WITCH, FAIRY };               /* card kinds */
enum { TURN, CHANCE, MORE, WITCH_PHASE, OVER };       /* game phases */
enum { DRAW, STOP, PASS, BUY, SPEND_FAIRY, LOSE };    /* a seat's decision */
enum { OTHERS, DIAMONDS, OWN_CASTLE };                /* the witch's zones */
enum { MAX_TYPES = 64, MAX_PLAYERS = 8, MAX_CARDS = 100000, FIELDS = 9 };

static const int zone_order[3] = { OTHERS, DIAMONDS, OWN_CASTLE };  /* the default player's */

/* the game (the kernel's _encode_game): the deck by card type and the rule numbers */
static int types;
static i64 kinds[MAX_TYPES], colours[MAX_TYPES], counts[MAX_TYPES], colour_ok[MAX_TYPES];
static int colour_count;
static i64 players, castle_size, price, witch_takes, max_turns;

/* one game's arrays (the kernel's _scratch), reused from game to game */
static i64 pile[MAX_TYPES], discard[MAX_TYPES];
static i64 castle[MAX_PLAYERS][MAX_TYPES], side[MAX_PLAYERS][MAX_TYPES];
static i64 hand_colour[MAX_PLAYERS], csum[MAX_PLAYERS], ssum[MAX_PLAYERS], diamonds[MAX_PLAYERS],
           fairies[MAX_PLAYERS], worst[MAX_PLAYERS];
static i64 loss_side[MAX_TYPES], loss_castle[MAX_TYPES];
static uint32_t order[MAX_CARDS];

/* the game's numbers (the kernel's tuple s) */
typedef struct {
    i64 phase, player, turns, drawn, last_built, passes, winner, pile_n, pile_w, disc_n, disc_w,
        witches, purchases, reshuffles, spent;
} Numbers;

/* --- splitmix64, as toolkit/fast/rng.py --- */

#define GOLDEN 0x9E3779B97F4A7C15ULL

static inline u64 mix64(u64 z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline u64 game_seed(u64 run_seed, u64 index)
{
    return mix64(mix64(run_seed) ^ (index * 0xD1B54A32D192ED03ULL));
}

/* rng.shuffle_into: the pile's cards laid out by type into `order`, Fisher-Yates shuffled; their number */
static inline i64 shuffle_into(u64 *stream)
{
    i64 n = 0;
    for (int i = 0; i < types; i++)
        for (i64 k = 0; k < pile[i]; k++)
            order[n++] = (uint32_t)i;
    u64 state = *stream;
    for (i64 i = n - 1; i > 0; i--) {
        state += GOLDEN;
        u64 j = mix64(state) % (u64)(i + 1);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    *stream = state;
    return n;
}

/* --- the steps --- */

static inline int anyone_can_win(void)
{
    for (i64 p = 0; p < players; p++) {
        i64 mine = hand_colour[p];
        if (mine >= 0) {
            if (colour_ok[mine])
                return 1;
            continue;
        }
        for (int c = 0; c < colour_count; c++) {  /* a colour nobody builds */
            if (!colour_ok[c])
                continue;
            int taken = 0;
            for (i64 q = 0; q < players; q++)
                taken |= hand_colour[q] == c;
            if (!taken)
                return 1;
        }
    }
    return 0;
}

static inline int can_buy(unsigned me, i64 seller)
{
    i64 mine = hand_colour[me];
    if (seller == (i64)me || mine < 0 || diamonds[me] < price)
        return 0;
    for (int i = 0; i < types; i++)
        if (colours[i] == mine && kinds[i] == CASTLE && side[seller][i] > 0)
            return 1;
    return 0;
}

/* buy-most: the seller holding most cards of my colour, ties to the nearest seat clockwise; or -1 */
static inline i64 sellers_best(unsigned me)
{
    i64 mine = hand_colour[me], best = -1, best_held = -1, best_gap = 0;
    if (mine < 0 || diamonds[me] < price)  /* no seller can sell to me (can_buy's first test, once) */
        return -1;
    for (i64 p = 0; p < players; p++) {
        if (!can_buy(me, p))
            continue;
        i64 held = 0;
        for (int i = 0; i < types; i++)
            if (colours[i] == mine)
                held += side[p][i];
        i64 gap = p > (i64)me ? p - (i64)me : p + players - (i64)me;  /* seats clockwise, no division */
        if (held > best_held || (held == best_held && gap < best_gap)) {
            best = p;
            best_held = held;
            best_gap = gap;
        }
    }
    return best;
}

static inline int can_draw(const Numbers *s)
{
    return s->pile_n > 0 || s->disc_n > 0;
}

static inline int check_win(unsigned player, Numbers *s)
{
    if (csum[player] >= castle_size) {
        s->winner = player;
        s->phase = OVER;
        return 1;
    }
    return 0;
}

static inline void end_turn(Numbers *s)
{
    s->player = s->player + 1 == players ? 0 : s->player + 1;  /* no division */
    s->turns++;
    s->drawn = 0;
    s->phase = TURN;
}

/* rule 6 (an empty pile takes the discard area), then a chance point; 1 when the pile was reshuffled */
static inline int start_draw(Numbers *s)
{
    int reshuffled = 0;
    if (s->pile_n == 0) {
        for (int i = 0; i < types; i++) {
            pile[i] = discard[i];
            discard[i] = 0;
        }
        s->pile_n = s->disc_n;
        s->pile_w = s->disc_w;
        s->disc_n = 0;
        s->disc_w = 0;
        s->reshuffles++;
        reshuffled = 1;
    }
    s->phase = CHANCE;
    return reshuffled;
}

/* card type `card` comes off the pile and goes where the rules say */
static inline void resolve(int card, Numbers *s)
{
    unsigned player = (unsigned)s->player;
    pile[card]--;
    s->pile_n--;
    s->drawn++;
    s->passes = 0;
    s->last_built = 0;
    i64 kind = kinds[card];
    if (kind == WITCH) {
        discard[card]++;
        s->pile_w--;
        s->witches++;
        s->disc_n++;
        s->disc_w++;
        s->phase = WITCH_PHASE;
        return;
    }
    int claimed = 0;
    if (kind == CASTLE) {
        i64 colour = colours[card];
        if (hand_colour[player] == colour) {
            castle[player][card]++;
            csum[player]++;
            s->last_built = 1;
        } else {
            int free = hand_colour[player] < 0;
            if (free)
                for (i64 q = 0; q < players; q++)
                    if (hand_colour[q] == colour)
                        free = 0;
            if (free) {
                hand_colour[player] = colour;
                castle[player][card]++;
                csum[player]++;
                s->last_built = 1;
                claimed = 1;
            } else {
                side[player][card]++;
                ssum[player]++;
            }
        }
    } else {
        side[player][card]++;
        ssum[player]++;
        if (kind == DIAMOND)
            diamonds[player]++;
        else
            fairies[player]++;
    }
    if (check_win(player, s))
        return;
    if (claimed && !anyone_can_win()) {
        s->phase = OVER;
        return;
    }
    s->phase = MORE;
}

/* the seller's card of my colour held most (ties to the lowest type) for `price` diamonds to the seller */
static inline void buy(i64 seller, Numbers *s)
{
    unsigned player = (unsigned)s->player;
    i64 mine = hand_colour[player];
    int bought = -1;
    i64 most = 0;
    for (int i = 0; i < types; i++)
        if (colours[i] == mine && side[seller][i] > most) {
            bought = i;
            most = side[seller][i];
        }
    side[seller][bought]--;  /* a castle card: only castle cards have a colour */
    ssum[seller]--;
    castle[player][bought]++;
    csum[player]++;
    i64 to_pay = price;
    for (int i = 0; i < types; i++) {
        if (kinds[i] != DIAMOND)
            continue;
        i64 paid = to_pay < side[player][i] ? to_pay : side[player][i];
        side[player][i] -= paid;
        ssum[player] -= paid;
        diamonds[player] -= paid;
        to_pay -= paid;
        side[seller][i] += paid;
        ssum[seller] += paid;
        diamonds[seller] += paid;
    }
    s->purchases++;
    s->passes = 0;
    if (check_win(player, s))
        return;
    end_turn(s);
}

static inline void spend_fairy(Numbers *s)
{
    unsigned player = (unsigned)s->player;
    for (int i = 0; i < types; i++)
        if (kinds[i] == FAIRY && side[player][i] > 0) {
            side[player][i]--;
            ssum[player]--;
            fairies[player]--;
            discard[i]++;
            s->disc_n++;
            break;
        }
    s->spent++;
    end_turn(s);
}

static inline void pass(Numbers *s)
{
    if (++s->passes >= players) {
        s->phase = OVER;
        return;
    }
    end_turn(s);
}

/* the cards of the loss go to the discard area; the game stalls when nobody can complete a castle */
static inline void lose(Numbers *s)
{
    unsigned player = (unsigned)s->player;
    for (int i = 0; i < types; i++) {
        i64 lost_side = loss_side[i], lost_castle = loss_castle[i];
        if (lost_side + lost_castle == 0)
            continue;
        side[player][i] -= lost_side;
        ssum[player] -= lost_side;
        if (kinds[i] == DIAMOND)
            diamonds[player] -= lost_side;
        else if (kinds[i] == FAIRY)
            fairies[player] -= lost_side;
        castle[player][i] -= lost_castle;
        csum[player] -= lost_castle;
        discard[i] += lost_side + lost_castle;
        s->disc_n += lost_side + lost_castle;
    }
    if (!anyone_can_win()) {
        s->phase = OVER;
        return;
    }
    end_turn(s);
}

/* up to `witch_takes` cards, zone by zone, in each zone the type held most first (ties to the lowest) */
static inline void loss_by_order(const Numbers *s)
{
    unsigned player = (unsigned)s->player;
    for (int i = 0; i < types; i++)
        loss_side[i] = loss_castle[i] = 0;
    i64 left = csum[player] + ssum[player] - fairies[player];
    if (left > witch_takes)
        left = witch_takes;
    for (int slot = 0; slot < 3; slot++) {
        int zone = zone_order[slot];
        i64 *at = zone == OWN_CASTLE ? loss_castle : loss_side;
        while (left > 0) {
            int best = -1;
            i64 most = 0;
            for (int i = 0; i < types; i++) {
                i64 held;
                if (zone == OWN_CASTLE)
                    held = castle[player][i];
                else if ((zone == OTHERS && kinds[i] == CASTLE) || (zone == DIAMONDS && kinds[i] == DIAMOND))
                    held = side[player][i];
                else
                    held = 0;
                held -= at[i];
                if (held > most) {
                    best = i;
                    most = held;
                }
            }
            if (best < 0)
                break;
            i64 n = left < most ? left : most;
            at[best] += n;
            left -= n;
        }
    }
}

/* the default player's decision: buy, draw or pass; draw again until a witch; a fairy, else the loss */
static inline int choose(const Numbers *s, i64 *argument)
{
    unsigned player = (unsigned)s->player;
    if (s->phase == TURN) {
        i64 seller = sellers_best(player);
        if (seller >= 0) {
            *argument = seller;
            return BUY;
        }
        return can_draw(s) ? DRAW : PASS;
    }
    if (s->phase == MORE)
        return can_draw(s) ? DRAW : STOP;
    if (fairies[player] > 0)
        return SPEND_FAIRY;
    loss_by_order(s);
    return LOSE;
}

/* a decision played by the rules; 1 when it reshuffled the discard area into the pile */
static inline int apply(int verb, i64 argument, Numbers *s)
{
    switch (verb) {
    case DRAW:
        return start_draw(s);
    case BUY:
        buy(argument, s);
        break;
    case STOP:
        end_turn(s);
        break;
    case PASS:
        pass(s);
        break;
    case SPEND_FAIRY:
        spend_fairy(s);
        break;
    default:
        lose(s);
    }
    return 0;
}

/* one game from the card order of `stream`: its record, in the kernel's FIELDS order */
static inline void play_one(u64 stream, i64 result[FIELDS])
{
    i64 pile_n = 0, pile_w = 0;
    for (int i = 0; i < types; i++) {
        pile[i] = counts[i];
        discard[i] = 0;
        pile_n += counts[i];
        if (kinds[i] == WITCH)
            pile_w += counts[i];
        for (i64 p = 0; p < players; p++)
            castle[p][i] = side[p][i] = 0;
    }
    for (i64 p = 0; p < players; p++)
        hand_colour[p] = -1, csum[p] = ssum[p] = diamonds[p] = fairies[p] = worst[p] = 0;
    Numbers s = { .phase = TURN, .turns = 1, .winner = -1, .pile_n = pile_n, .pile_w = pile_w };
    i64 leader = -1, changes = 0, order_n = 0;
    int order_valid = 0;
    if (!anyone_can_win())
        s.phase = OVER;
    i64 looked_turns = s.turns;
    while (s.phase != OVER) {
        i64 argument = 0;
        int verb = choose(&s, &argument);
        if (apply(verb, argument, &s))
            order_valid = 0;
        i64 turns = s.turns;
        if (s.phase == CHANCE && turns <= max_turns) {  /* the top card of the shuffled order */
            if (!order_valid) {
                order_n = shuffle_into(&stream);
                order_valid = 1;
            }
            resolve((int)order[--order_n], &s);
        }
        if (turns != looked_turns || s.phase == OVER) {  /* the race, after each turn and at the end */
            i64 top = csum[0];
            for (i64 p = 1; p < players; p++)
                if (csum[p] > top)
                    top = csum[p];
            i64 leaders = 0, first = -1;
            for (i64 p = 0; p < players; p++) {
                if (top - csum[p] > worst[p])
                    worst[p] = top - csum[p];
                if (csum[p] == top) {
                    leaders++;
                    if (first < 0)
                        first = p;
                }
            }
            if (leaders == 1) {
                if (leader >= 0 && first != leader)
                    changes++;
                leader = first;
            }
            looked_turns = turns;
        }
        if (turns > max_turns)
            break;
    }
    result[0] = s.winner;
    result[1] = s.turns;
    result[2] = s.phase == OVER && s.winner < 0;
    result[3] = changes;
    result[4] = s.winner >= 0 ? worst[s.winner] : 0;
    result[5] = s.witches;
    result[6] = s.purchases;
    result[7] = s.reshuffles;
    result[8] = s.spent;
}

int main(int argc, char **argv)
{
    if (argc < 10 || (argc - 9) % 3 != 0 || (argc - 9) / 3 > MAX_TYPES) {
        fprintf(stderr, "usage: %s GAMES RUN_SEED START PLAYERS CASTLE_SIZE PRICE WITCH_TAKES MAX_TURNS "
                        "KIND COLOUR COUNT ...\n", argv[0]);
        return 2;
    }
    long games = atol(argv[1]);
    u64 run_seed = strtoull(argv[2], NULL, 10), start = strtoull(argv[3], NULL, 10);
    players = atoi(argv[4]);
    castle_size = atoi(argv[5]);
    price = atoi(argv[6]);
    witch_takes = atoi(argv[7]);
    max_turns = atoi(argv[8]);
    types = (argc - 9) / 3;
    i64 deck = 0;
    for (int i = 0; i < types; i++) {
        kinds[i] = atoi(argv[9 + 3 * i]);
        colours[i] = atoi(argv[10 + 3 * i]);
        counts[i] = atoi(argv[11 + 3 * i]);
        deck += counts[i];
        if (colours[i] >= colour_count)
            colour_count = (int)colours[i] + 1;
    }
    if (players < 1 || players > MAX_PLAYERS || deck > MAX_CARDS || max_turns < 1) {
        fprintf(stderr, "%s: players 1-%d, at most %d cards, max_turns at least 1\n", argv[0], MAX_PLAYERS,
                MAX_CARDS);
        return 2;
    }
    for (int c = 0; c < colour_count; c++) {  /* the castle cards of this colour can complete a castle */
        i64 total = 0;
        for (int i = 0; i < types; i++)
            total += kinds[i] == CASTLE && colours[i] == c ? counts[i] : 0;
        colour_ok[c] = total >= castle_size;
    }
    static const char *names[FIELDS] = { "winner", "turns", "stalled", "lead_changes", "winner_deficit",
                                         "witch_strikes", "purchases", "reshuffles", "fairies_spent" };
    long wins[MAX_PLAYERS] = {0}, nobody = 0;
    i64 sums[FIELDS] = {0}, result[FIELDS];
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (long g = 0; g < games; g++) {
        play_one(game_seed(run_seed, start + (u64)g), result);
        if (result[0] >= 0)
            wins[result[0]]++;
        else
            nobody++;
        for (int f = 1; f < FIELDS; f++)
            sums[f] += result[f];
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("wins");
    for (i64 p = 0; p < players; p++)
        printf(" %ld", wins[p]);
    printf(" nobody %ld", nobody);
    for (int f = 1; f < FIELDS; f++)
        printf(" %s %lld", names[f], (long long)sums[f]);
    printf(" seconds %.6f cpu %.6f\n",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
           (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec));
    return 0;
}
