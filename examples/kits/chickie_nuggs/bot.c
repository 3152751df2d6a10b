/* Chickie Nuggs starter kit (C99, the standard library only): a bot that reads its observation.

   It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
   line on standard output, flushed. Compile it and play it locally against the built-in bots:

       cc -std=c99 -O2 -o bot examples/kits/chickie_nuggs/bot.c
       python -m games play chickie_nuggs --seat "cmd:./bot" --seat heuristic

   The strategy is a start: it places its best nugget on its tray ("place:nugget4" before "place:nugget1"),
   else steals from the seat with the most cards in hand (hand_sizes), else plays at random among the legal
   actions. Improve choose(): everything the seat may know is in the observation (hand, trays, hand_sizes,
   discard, log, ...; see the game's reference on the site). */

/* ---- The protocol, in plain C (C99, the standard library only): read a line, find a value by its key, answer
   one of the legal actions exactly as given. A value is kept as the span of its JSON text in the line. ---- */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *start; size_t length; } Span; /* a JSON value's text; length 0: absent */

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* The end of the JSON value that starts at p (strings, numbers, literals, arrays and objects). */
static const char *skip_value(const char *p) {
    p = skip_space(p);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++) if (*p == '\\' && p[1]) p++;
        return *p ? p + 1 : p;
    }
    if (*p == '[' || *p == '{') {
        int depth = 0;
        do {
            if (*p == '"') { p = skip_value(p); continue; }
            if (*p == '[' || *p == '{') depth++;
            if (*p == ']' || *p == '}') depth--;
            p++;
        } while (*p && depth > 0);
        return p;
    }
    while (*p && *p != ',' && *p != ']' && *p != '}' && *p != ' ') p++;
    return p;
}

/* The value of `key` in the object `object` (not in objects nested in it). */
static Span member(Span object, const char *key) {
    Span none = {NULL, 0};
    const char *p = skip_space(object.start), *end = object.start + object.length;
    size_t key_length = strlen(key);
    if (!object.length || *p != '{') return none;
    p = skip_space(p + 1);
    while (p < end && *p == '"') {
        const char *name = p + 1, *after = skip_value(p);
        int match = (size_t)(after - 1 - name) == key_length && strncmp(name, key, key_length) == 0;
        p = skip_space(after);
        if (*p != ':') return none;
        p = skip_space(p + 1);
        const char *value_end = skip_value(p);
        if (match) { Span found = {p, (size_t)(value_end - p)}; return found; }
        p = skip_space(value_end);
        if (*p == ',') p = skip_space(p + 1);
    }
    return none;
}

/* The elements of the array `array`, at most `most` of them; returns how many. */
static int elements(Span array, Span *out, int most) {
    const char *p = array.length ? skip_space(array.start) : "";
    int count = 0;
    if (*p != '[') return 0;
    p = skip_space(p + 1);
    while (*p && *p != ']' && count < most) {
        const char *end = skip_value(p);
        out[count].start = p;
        out[count].length = (size_t)(end - p);
        count++;
        p = skip_space(end);
        if (*p == ',') p = skip_space(p + 1);
    }
    return count;
}

/* Whether the value is the JSON string `text` (no escapes). */
static int is_string(Span value, const char *text) {
    size_t length = strlen(text);
    return value.length == length + 2 && value.start[0] == '"' && strncmp(value.start + 1, text, length) == 0;
}

/* A generator seeded from the start message's seed: the same match plays the same way. */
static uint64_t rng_state = 88172645463325252ULL;
static void seed_from(Span seed) {
    rng_state = 1469598103934665603ULL;
    for (size_t i = 0; i < seed.length; i++) rng_state = (rng_state ^ (unsigned char)seed.start[i]) * 1099511628211ULL;
    if (!rng_state) rng_state = 1;
}
static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

#define MOST_ACTIONS 4096

/* ---- The strategy: one of the legal actions, exactly as given. ---- */
static Span choose(Span observation, Span *legal, int count) {
    Span sizes[16];
    int seats = elements(member(observation, "hand_sizes"), sizes, 16);
    int best = -1, best_nugget = 0, steal = -1, steal_size = -1;
    for (int i = 0; i < count; i++) {
        int number = 0, seat = 0, used = 0;
        if (sscanf(legal[i].start, "\"place:nugget%d\"%n", &number, &used) == 1 && used && number > best_nugget) {
            best = i;
            best_nugget = number;
        }
        used = 0;
        if (sscanf(legal[i].start, "\"steal:%d\"%n", &seat, &used) == 1 && used && seat >= 0 && seat < seats) {
            int size = atoi(sizes[seat].start);
            if (size > steal_size) { steal = i; steal_size = size; }
        }
    }
    if (best >= 0) return legal[best];
    if (steal >= 0) return legal[steal];
    return legal[next_random() % (uint64_t)count];
}

int main(void) {
    static char line[1 << 22]; /* an observation fits: the longest of any game is a few KB */
    static Span legal[MOST_ACTIONS];
    while (fgets(line, sizeof line, stdin)) {
        Span message = {line, strlen(line)};
        Span type = member(message, "type");
        if (is_string(type, "start")) {
            seed_from(member(message, "seed"));
        } else if (is_string(type, "act")) {
            int count = elements(member(message, "legal_actions"), legal, MOST_ACTIONS);
            Span action = choose(member(message, "observation"), legal, count);
            printf("{\"action\":%.*s}\n", (int)action.length, action.start);
            fflush(stdout); /* unflushed, the answer never arrives */
        } else if (is_string(type, "end")) {
            fprintf(stderr, "places: %.*s\n", (int)member(member(message, "outcome"), "places").length,
                    member(member(message, "outcome"), "places").start); /* the log shows standard error */
            break;
        }
    }
    return 0;
}
