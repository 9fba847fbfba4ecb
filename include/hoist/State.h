// The CPU state a lifted function reads and writes, as a C struct generated from State.def.
// Harnesses fill one, call a lifted function (`fn_<addr>(&state, mem)`, or its symbol's name),
// and read it back.
#ifndef HOIST_STATE_H
#define HOIST_STATE_H

#include <stdint.h>

typedef uint8_t hoist_I8;
typedef uint16_t hoist_I16;
typedef uint32_t hoist_I32;
typedef uint64_t hoist_I64;
typedef struct hoist_V256 {
  uint64_t lanes[4];
} hoist_V256;
typedef struct hoist_V512 {
  uint64_t lanes[8];
} hoist_V512;
typedef long double hoist_F80;

typedef struct HoistState {
#define HOIST_STATE_REG(Name, Kind) hoist_##Kind Name;
#define HOIST_STATE_ARRAY(Name, Kind, Count) hoist_##Kind Name[Count];
#include "hoist/State.def"
} HoistState;

/* Field indices of HoistState, in table order; the IR struct has the same indices. */
enum HoistStateField {
#define HOIST_STATE_REG(Name, Kind) HOIST_FIELD_##Name,
#define HOIST_STATE_ARRAY(Name, Kind, Count) HOIST_FIELD_##Name,
#include "hoist/State.def"
  HOIST_FIELD_COUNT
};

#endif
