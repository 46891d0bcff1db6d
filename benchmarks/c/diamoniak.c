/* Diamoniak's default game as a plain C program: the yardstick of the compiled kernel
 * (benchmarks/bench_simulate.py compiles it with `cc -O2`, runs it and the kernel on the same games and
 * checks that both count the same winners and lengths).
 *
 * The game of toolkit/games/diamoniak/engine.py, every seat playing the default player of
 * toolkit/games/diamoniak/policies.py (until-witch, fairy-first, buy-most), with no variant. Chance is
 * toolkit/sim/card_order.py's: game g of a run is the splitmix64 stream game_seed(run_seed, g); the pile
 * is shuffled (Fisher-Yates from the top over the cards laid out by type) at the first draw and after each
 * reshuffle of the discard area, and a draw takes the top card (the last of the order).
 *
 * The deck and the rule numbers come from the catalogue, through the command line:
 *
 *   diamoniak GAMES RUN_SEED START PLAYERS CASTLE_SIZE PRICE WITCH_TAKES MAX_TURNS KIND COLOUR COUNT ...
 *
 * one KIND COLOUR COUNT triple per card type in catalogue order (KIND: 0 castle, 1 diamond, 2 witch,
 * 3 fairy; COLOUR: a number per castle colour, -1 for none). It plays games START .. START+GAMES-1 and
 * prints one line: the wins of each seat, the games nobody won, the sum of the games' turns (the
 * engine's state.turns), and the seconds the games took, on the clock and of the process's CPU time.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { CASTLE, DIAMOND, WITCH, FAIRY };
enum { MAX_TYPES = 64, MAX_PLAYERS = 8, MAX_CARDS = 100000 };

/* the game: the deck by card type and the rule numbers */
static int types, players, castle_size, price, witch_takes, max_turns;
static int kind[MAX_TYPES], colour[MAX_TYPES], count[MAX_TYPES];
static int colours;                 /* castle colours numbered 0 .. colours-1 */
static int colour_ok[MAX_TYPES];    /* the castle cards of this colour can complete a castle */

/* one game's state */
static int pile[MAX_TYPES], discard[MAX_TYPES], pile_n, discard_n;
static int order[MAX_CARDS], order_n;  /* the pile in shuffled order, the top card last */
static int castle[MAX_PLAYERS][MAX_TYPES], side[MAX_PLAYERS][MAX_TYPES];
static int hand_colour[MAX_PLAYERS], castle_n[MAX_PLAYERS], side_n[MAX_PLAYERS], diamonds[MAX_PLAYERS],
           fairies[MAX_PLAYERS];

/* --- splitmix64, as toolkit/sim/card_order.py --- */

static uint64_t stream;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t game_seed(uint64_t run_seed, uint64_t index)
{
    return mix64(mix64(run_seed) ^ (index * 0xD1B54A32D192ED03ULL));
}

static int below(int n)
{
    stream += 0x9E3779B97F4A7C15ULL;
    return (int)(mix64(stream) % (uint64_t)n);
}

/* the pile's cards laid out by type, then shuffled */
static void shuffle_pile(void)
{
    int n = 0;
    for (int i = 0; i < types; i++)
        for (int k = 0; k < pile[i]; k++)
            order[n++] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    order_n = n;
}

/* --- the rules --- */

/* some player builds this colour */
static int built(int c)
{
    for (int p = 0; p < players; p++)
        if (hand_colour[p] == c)
            return 1;
    return 0;
}

/* some player can still complete a castle */
static int anyone_can_win(void)
{
    for (int p = 0; p < players; p++) {
        if (hand_colour[p] >= 0) {
            if (colour_ok[hand_colour[p]])
                return 1;
            continue;
        }
        for (int c = 0; c < colours; c++) {
            if (colour_ok[c] && !built(c))
                return 1;
        }
    }
    return 0;
}

/* buy-most: the seller holding most cards of my colour (ties: the nearest seat clockwise), or -1 */
static int seller_for(int me)
{
    int mine = hand_colour[me], best = -1, best_held = -1, best_gap = 0;
    if (mine < 0 || diamonds[me] < price)
        return -1;
    for (int p = 0; p < players; p++) {
        if (p == me)
            continue;
        int held = 0, sells = 0;
        for (int i = 0; i < types; i++)
            if (colour[i] == mine) {
                held += side[p][i];
                sells |= kind[i] == CASTLE && side[p][i] > 0;
            }
        int gap = (p - me + players) % players;
        if (sells && (held > best_held || (held == best_held && gap < best_gap))) {
            best = p;
            best_held = held;
            best_gap = gap;
        }
    }
    return best;
}

/* the seller's card of my colour held most (ties: the first type) for `price` diamonds, paid to the seller */
static void buy(int me, int seller)
{
    int bought = -1, most = 0, to_pay = price;
    for (int i = 0; i < types; i++)
        if (colour[i] == hand_colour[me] && side[seller][i] > most) {
            bought = i;
            most = side[seller][i];
        }
    side[seller][bought]--;
    side_n[seller]--;
    castle[me][bought]++;
    castle_n[me]++;
    for (int i = 0; i < types && to_pay > 0; i++) {
        if (kind[i] != DIAMOND)
            continue;
        int paid = side[me][i] < to_pay ? side[me][i] : to_pay;
        side[me][i] -= paid;
        side_n[me] -= paid;
        diamonds[me] -= paid;
        side[seller][i] += paid;
        side_n[seller] += paid;
        diamonds[seller] += paid;
        to_pay -= paid;
    }
}

/* fairy-first: a held fairy goes with the witch; else she takes `witch_takes` cards, from the castle cards
 * on the right, then the diamonds, then the castle, in each the type held most first (ties: the first).
 * 0 when after the loss nobody can complete a castle any more (the game stalls). */
static int witch_strikes(int me)
{
    if (fairies[me] > 0) {
        for (int i = 0; i < types; i++)
            if (kind[i] == FAIRY && side[me][i] > 0) {
                side[me][i]--;
                side_n[me]--;
                fairies[me]--;
                discard[i]++;
                discard_n++;
                return 1;
            }
    }
    int left = castle_n[me] + side_n[me] - fairies[me];
    if (left > witch_takes)
        left = witch_takes;
    for (int zone = 0; zone < 3; zone++) {  /* castle cards on the right, diamonds, own castle */
        while (left > 0) {
            int best = -1, most = 0;
            for (int i = 0; i < types; i++) {
                int held = zone == 2 ? castle[me][i]
                         : kind[i] == (zone == 0 ? CASTLE : DIAMOND) ? side[me][i] : 0;
                if (held > most) {
                    best = i;
                    most = held;
                }
            }
            if (best < 0)
                break;
            int n = left < most ? left : most;
            if (zone == 2) {
                castle[me][best] -= n;
                castle_n[me] -= n;
            } else {
                side[me][best] -= n;
                side_n[me] -= n;
                if (zone == 1)
                    diamonds[me] -= n;
            }
            discard[best] += n;
            discard_n += n;
            left -= n;
        }
    }
    return anyone_can_win();
}

/* one game from the card order of `seed`: its winner (-1: none) and its turns */
static void play(uint64_t seed, int *winner, int *turns_out)
{
    int deck = 0;
    for (int i = 0; i < types; i++) {
        pile[i] = count[i];
        discard[i] = 0;
        deck += count[i];
        for (int p = 0; p < players; p++)
            castle[p][i] = side[p][i] = 0;
    }
    for (int p = 0; p < players; p++)
        hand_colour[p] = -1, castle_n[p] = side_n[p] = diamonds[p] = fairies[p] = 0;
    pile_n = deck;
    discard_n = 0;
    stream = seed;
    int shuffled = 0, player = 0, turns = 1, passes = 0;
    *winner = -1;
    *turns_out = 1;
    if (!anyone_can_win())
        return;
    for (;;) {  /* one turn of `player` */
        int seller = seller_for(player), over = 0;
        if (seller >= 0) {
            buy(player, seller);
            passes = 0;
            if (castle_n[player] >= castle_size) {
                *winner = player;
                break;
            }
        } else if (pile_n == 0 && discard_n == 0) {
            if (++passes >= players)
                break;  /* stalled: nobody can act any more */
        } else {
            for (;;) {  /* until-witch: draw while there are cards, until a witch comes */
                if (pile_n == 0) {  /* the discard area becomes the pile */
                    for (int i = 0; i < types; i++) {
                        pile[i] = discard[i];
                        discard[i] = 0;
                    }
                    pile_n = discard_n;
                    discard_n = 0;
                    shuffled = 0;
                }
                if (!shuffled) {
                    shuffle_pile();
                    shuffled = 1;
                }
                int card = order[--order_n];
                pile[card]--;
                pile_n--;
                passes = 0;
                if (kind[card] == WITCH) {
                    discard[card]++;
                    discard_n++;
                    over = !witch_strikes(player);
                    break;
                }
                int claimed = 0;
                if (kind[card] == CASTLE && hand_colour[player] == colour[card]) {
                    castle[player][card]++;
                    castle_n[player]++;
                } else if (kind[card] == CASTLE && hand_colour[player] < 0 && !built(colour[card])) {
                    hand_colour[player] = colour[card];
                    castle[player][card]++;
                    castle_n[player]++;
                    claimed = 1;
                } else {
                    side[player][card]++;
                    side_n[player]++;
                    diamonds[player] += kind[card] == DIAMOND;
                    fairies[player] += kind[card] == FAIRY;
                }
                if (castle_n[player] >= castle_size) {
                    *winner = player;
                    over = 1;
                    break;
                }
                if (claimed && !anyone_can_win()) {
                    over = 1;  /* stalled */
                    break;
                }
                if (pile_n == 0 && discard_n == 0)
                    break;
            }
            if (over)
                break;
        }
        player = (player + 1) % players;  /* the turn ends */
        if (++turns > max_turns)
            break;
    }
    *turns_out = turns;
}

int main(int argc, char **argv)
{
    if (argc < 10 || (argc - 9) % 3 != 0 || (argc - 9) / 3 > MAX_TYPES) {
        fprintf(stderr, "usage: %s GAMES RUN_SEED START PLAYERS CASTLE_SIZE PRICE WITCH_TAKES MAX_TURNS "
                        "KIND COLOUR COUNT ...\n", argv[0]);
        return 2;
    }
    long games = atol(argv[1]);
    uint64_t run_seed = strtoull(argv[2], NULL, 10), start = strtoull(argv[3], NULL, 10);
    players = atoi(argv[4]);
    castle_size = atoi(argv[5]);
    price = atoi(argv[6]);
    witch_takes = atoi(argv[7]);
    max_turns = atoi(argv[8]);
    types = (argc - 9) / 3;
    int deck = 0;
    for (int i = 0; i < types; i++) {
        kind[i] = atoi(argv[9 + 3 * i]);
        colour[i] = atoi(argv[10 + 3 * i]);
        count[i] = atoi(argv[11 + 3 * i]);
        deck += count[i];
        if (colour[i] >= colours)
            colours = colour[i] + 1;
    }
    if (players < 1 || players > MAX_PLAYERS || deck > MAX_CARDS || max_turns < 1 || colours > MAX_TYPES) {
        fprintf(stderr, "%s: players 1-%d, at most %d cards, max_turns at least 1\n", argv[0], MAX_PLAYERS, MAX_CARDS);
        return 2;
    }
    for (int c = 0; c < colours; c++) {
        int total = 0;
        for (int i = 0; i < types; i++)
            total += kind[i] == CASTLE && colour[i] == c ? count[i] : 0;
        colour_ok[c] = total >= castle_size;
    }
    long wins[MAX_PLAYERS] = {0}, nobody = 0, turns = 0;
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (long g = 0; g < games; g++) {
        int winner, length;
        play(game_seed(run_seed, start + (uint64_t)g), &winner, &length);
        if (winner >= 0)
            wins[winner]++;
        else
            nobody++;
        turns += length;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("wins");
    for (int p = 0; p < players; p++)
        printf(" %ld", wins[p]);
    printf(" nobody %ld turns %ld seconds %.6f cpu %.6f\n", nobody, turns,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
           (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec));
    return 0;
}
