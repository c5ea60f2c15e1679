/*--------------------------------------------------------------------*/
/*--- Callgrind                                                    ---*/
/*---                                                     cycles.c ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of Callgrind, a Valgrind tool for call graph
   profiling programs.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 3 of the
   License, or (at your option) any later version.

   The GNU General Public License is contained in the file COPYING.
*/

/* --cycle-estimation: a deterministic time estimate per instruction.

   Each guest instruction gets two costs when it is first translated, in
   centi-cycles (100 = one cycle) of a CPU model (--cycle-model): Ct, its
   reciprocal throughput, and Cl, its latency.  bbcc.c adds the sums of a
   block's instructions up to the exit taken to the running cost, as it
   does for Ir; dump.c multiplies each instruction's costs by its execution
   count.  So an executed instruction costs nothing more than Ir does.

   The costs come from cycletab_amd64.h, generated from LLVM's scheduling
   models by scripts/gen-cycle-table.py.  The decoder below does not
   disassemble: Valgrind already knows each instruction's length (the
   IMark), so reading the prefixes, the opcode and the ModRM byte is
   enough to tell the instruction's form, and the generator costs exactly
   the forms this decoder can produce.  A full disassembler (Capstone)
   would need a C library inside the tool for no better key.

   Instructions without a table entry cost a flat cycle (CYC_FLAT) and are
   counted per form as they execute (one counter increment added to their
   translation only), so the report at exit names what is missing. */

#include "global.h"

#if defined(VGA_amd64)

/* Which fields of the key decide an instruction's cost, per opcode. */
#define F_VALID 0x001
#define F_P66   0x002
#define F_REP   0x004
#define F_W     0x008
#define F_L     0x010
#define F_MEM   0x020
#define F_REG   0x040
#define F_RM    0x080
#define F_B     0x100
#define F_LOCK  0x200

/* A decoded form, packed; scripts/gen-cycle-table.py's pack() sorts the
   table with the same layout. */
#define CYC_KEY(enc,map,op,p66,rep,w,l,mem,reg,rm,b,lock)                  \
   ( ((UInt)(enc) << 30) | ((UInt)(map) << 27) | ((UInt)(op) << 19)        \
   | ((UInt)(p66) << 18) | ((UInt)(rep) << 16) | ((UInt)(w) << 15)         \
   | ((UInt)(l) << 13)   | ((UInt)(mem) << 12) | ((UInt)(reg) << 9)        \
   | ((UInt)(rm) << 6)   | ((UInt)(b) << 5)    | ((UInt)(lock) << 4) )

#define KEY_ENC(k)  ((k) >> 30)
#define KEY_MAP(k)  (((k) >> 27) & 7)
#define KEY_OP(k)   (((k) >> 19) & 0xff)

#define CYC_NONE 0xffff   /* the model has no data for this form */

typedef struct {
   UInt   key;
   UShort mnemonic;        /* index in cyc_mnemonics */
   UShort cost[4][2];      /* per model: {Ct, Cl} */
} CycEntry;

#include "cycletab_amd64.h"

STATIC_ASSERT(CYC_MODEL_COUNT <= 4);

enum { ENC_LEGACY, ENC_VEX, ENC_EVEX };

/* Legacy opcodes with a ModRM byte, one bit each: the one-byte map and the
   0F map (0F38 and 0F3A opcodes all have one). */
static Bool has_modrm_legacy(UInt map, UInt op)
{
   if (map == 0) {
      if (op < 0x40) return (op & 7) < 4;
      if (op >= 0x80 && op < 0x90) return True;
      if (op >= 0xD8 && op < 0xE0) return True;
      switch (op) {
      case 0x62: case 0x63: case 0x69: case 0x6B:
      case 0xC0: case 0xC1: case 0xC4: case 0xC5: case 0xC6: case 0xC7:
      case 0xD0: case 0xD1: case 0xD2: case 0xD3:
      case 0xF6: case 0xF7: case 0xFE: case 0xFF:
         return True;
      default:
         return False;
      }
   }
   if (map == 1) {
      if (op >= 0x30 && op < 0x38) return False;
      if (op >= 0x80 && op < 0x90) return False;
      if (op >= 0xC8 && op < 0xD0) return False;
      switch (op) {
      case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0A:
      case 0x0B: case 0x0C: case 0x0E: case 0x0F: case 0x77: case 0xA0:
      case 0xA1: case 0xA2: case 0xA8: case 0xA9: case 0xAA:
         return False;
      default:
         return True;
      }
   }
   return True;
}

/* The form of the instruction at p (len bytes), or 0xffffffff when its
   bytes end before the form is known.  Key fields the opcode's costs do
   not depend on are cleared; an opcode the table does not know keeps all. */
static UInt decode_form(const UChar* p, UInt len)
{
   UInt i = 0, enc = ENC_LEGACY, map = 0, op, w = 0, l = 0, b = 0;
   UInt p66 = 0, rep = 0, lock = 0, mem = 0, reg = 0, rm = 0;
   Bool modrm;

   /* Legacy prefixes, then REX (a REX before another prefix is ignored). */
   for (; i < len; i++) {
      UChar c = p[i];
      if (c == 0x66) p66 = 1, w = 0;
      else if (c == 0xF3) rep = 1, w = 0;
      else if (c == 0xF2) rep = 2, w = 0;
      else if (c == 0xF0) lock = 1, w = 0;
      else if (c == 0x2E || c == 0x36 || c == 0x3E || c == 0x26
               || c == 0x64 || c == 0x65 || c == 0x67) w = 0;
      else if ((c & 0xF0) == 0x40) w = (c >> 3) & 1;
      else break;
   }
   if (i >= len) return 0xffffffff;

   if (p[i] == 0xC5) {                       /* two-byte VEX */
      if (i + 2 >= len) return 0xffffffff;
      enc = ENC_VEX; map = 1; w = 0;
      l = (p[i+1] >> 2) & 1;
      p66 = (p[i+1] & 3) == 1; rep = (p[i+1] & 3) < 2 ? 0 : (p[i+1] & 3) - 1;
      op = p[i+2]; i += 3;
   } else if (p[i] == 0xC4) {                /* three-byte VEX */
      if (i + 3 >= len) return 0xffffffff;
      enc = ENC_VEX; map = p[i+1] & 0x1F;
      w = p[i+2] >> 7; l = (p[i+2] >> 2) & 1;
      p66 = (p[i+2] & 3) == 1; rep = (p[i+2] & 3) < 2 ? 0 : (p[i+2] & 3) - 1;
      op = p[i+3]; i += 4;
   } else if (p[i] == 0x62) {                /* EVEX */
      if (i + 4 >= len) return 0xffffffff;
      enc = ENC_EVEX; map = p[i+1] & 7;
      w = p[i+2] >> 7;
      p66 = (p[i+2] & 3) == 1; rep = (p[i+2] & 3) < 2 ? 0 : (p[i+2] & 3) - 1;
      l = (p[i+3] >> 5) & 3; b = (p[i+3] >> 4) & 1;
      op = p[i+4]; i += 5;
   } else if (p[i] == 0x0F) {
      if (i + 1 >= len) return 0xffffffff;
      if (p[i+1] == 0x38 || p[i+1] == 0x3A) {
         if (i + 2 >= len) return 0xffffffff;
         map = p[i+1] == 0x38 ? 2 : 3;
         op = p[i+2]; i += 3;
      } else {
         map = 1; op = p[i+1]; i += 2;
      }
   } else {
      op = p[i]; i += 1;
   }
   if (enc == ENC_LEGACY) modrm = has_modrm_legacy(map, op);
   else modrm = !(enc == ENC_VEX && map == 1 && op == 0x77);
   if (modrm) {
      if (i >= len) return 0xffffffff;
      mem = (p[i] >> 6) != 3;
      reg = (p[i] >> 3) & 7;
      rm = mem ? 0 : p[i] & 7;
   }

   {
      /* Maps past 0F3A (EVEX's FP16 maps) have no entries. */
      UShort f = map > 3 ? 0 : cyc_opcode_fields[enc][map][op];
      if (f) {
         if (!(f & F_P66))  p66 = 0;
         if (!(f & F_REP))  rep = 0;
         if (!(f & F_W))    w = 0;
         if (!(f & F_L))    l = 0;
         if (!(f & F_MEM))  mem = 0;
         if (!(f & F_REG))  reg = 0;
         if (!(f & F_RM))   rm = 0;
         if (!(f & F_B))    b = 0;
         if (!(f & F_LOCK)) lock = 0;
      }
   }
   return CYC_KEY(enc, map, op, p66, rep, w, l, mem, reg, rm, b, lock);
}

static const CycEntry* lookup(UInt key)
{
   Int lo = 0, hi = sizeof(cyc_table) / sizeof(cyc_table[0]) - 1;
   while (lo <= hi) {
      Int mid = (lo + hi) / 2;
      if (cyc_table[mid].key == key) return &cyc_table[mid];
      if (cyc_table[mid].key < key) lo = mid + 1;
      else hi = mid - 1;
   }
   return 0;
}

#else  /* !VGA_amd64: no table; --cycle-estimation=yes is refused */

#define CYC_MODEL_COUNT 1
static const HChar* const cyc_model_names[1] = { "znver4" };

#endif

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

static Int model = 0;

Bool CLG_(cycle_set_model)(const HChar* name)
{
   Int m;
   for (m = 0; m < CYC_MODEL_COUNT; m++)
      if (VG_(strcmp)(name, cyc_model_names[m]) == 0) {
         model = m;
         return True;
      }
   return False;
}

const HChar* CLG_(cycle_model_list)(void)
{
   static HChar list[128];
   Int m;
   list[0] = 0;
   for (m = 0; m < CYC_MODEL_COUNT; m++) {
      if (m) VG_(strcat)(list, ", ");
      VG_(strcat)(list, cyc_model_names[m]);
   }
   return list;
}

const HChar* CLG_(cycle_model_name)(void)
{
   return cyc_model_names[model];
}

void CLG_(cycle_check_options)(void)
{
   if (!CLG_(clo).cycle_estimation) return;
#if !defined(VGA_amd64)
   VG_(fmsg_bad_option)("--cycle-estimation=yes",
                        "Cycle estimation has a cost table for amd64 only.\n");
#endif
}

/*------------------------------------------------------------*/
/*--- Costs at translation, counts of fallbacks            ---*/
/*------------------------------------------------------------*/

/* Forms without costs, in the order first seen; their counters are
   incremented by the instrumented code, so they must not move. */
#define MAX_FALLBACK_FORMS 512
static UInt  fallback_key[MAX_FALLBACK_FORMS];
static ULong fallback_exec[MAX_FALLBACK_FORMS];
static Int   fallback_forms = 0;
static ULong fallback_translated = 0;

static ULong* fallback_counter(UInt key)
{
   Int i;
   for (i = 0; i < fallback_forms; i++)
      if (fallback_key[i] == key) return &fallback_exec[i];
   if (fallback_forms == MAX_FALLBACK_FORMS)   /* the last slot takes the rest */
      return &fallback_exec[MAX_FALLBACK_FORMS - 1];
   fallback_key[fallback_forms] = key;
   return &fallback_exec[fallback_forms++];
}

/* Set ct/cl of an instruction; returns the execution counter to
   increment when the table has no costs for it, else 0. */
ULong* CLG_(cycle_cost)(Addr addr, UInt len, UShort* ct, UShort* cl)
{
#if defined(VGA_amd64)
   UInt key = decode_form((const UChar*)addr, len);
   const CycEntry* e = key == 0xffffffff ? 0 : lookup(key);
   if (e && e->cost[model][0] != CYC_NONE) {
      *ct = e->cost[model][0];
      *cl = e->cost[model][1];
      return 0;
   }
   *ct = *cl = CYC_FLAT;
   fallback_translated++;
   return fallback_counter(key);
#else
   *ct = *cl = CYC_FLAT;
   return 0;
#endif
}

/* A readable name of a form without costs: the model's mnemonic when
   llvm-mc knows the instruction, else its encoding. */
static void form_name(UInt key, HChar* buf, SizeT size)
{
#if defined(VGA_amd64)
   static const HChar* const enc_name[] = { "", "vex.", "evex.", "?." };
   static const HChar* const map_name[] = { "", "0f ", "0f38 ", "0f3a ",
                                            "map4 ", "map5 ", "map6 ", "map7 " };
   const CycEntry* e;
   if (key == 0xffffffff) {
      VG_(snprintf)(buf, size, "(truncated instruction)");
      return;
   }
   e = lookup(key);
   if (e) {
      VG_(snprintf)(buf, size, "%s", cyc_mnemonics[e->mnemonic]);
      return;
   }
   VG_(snprintf)(buf, size, "%s%s%s%s%s%02x%s%s",
                 (key >> 4) & 1 ? "lock " : "",
                 enc_name[KEY_ENC(key)],
                 (key >> 18) & 1 ? "66 " : "",
                 ((key >> 16) & 3) == 1 ? "f3 " : ((key >> 16) & 3) == 2 ? "f2 " : "",
                 map_name[KEY_MAP(key)], KEY_OP(key),
                 (key >> 15) & 1 ? " W1" : "",
                 (key >> 12) & 1 ? " mem" : "");
#else
   VG_(snprintf)(buf, size, "?");
#endif
}

/*------------------------------------------------------------*/
/*--- Report at exit                                       ---*/
/*------------------------------------------------------------*/

/* How many executed instructions fell back to the flat cost, and the most
   frequent forms: with -v, and always when over 0.1% of those executed. */
void CLG_(cycle_report)(ULong executed)
{
   ULong fell = 0;
   Int i, shown;
   Bool done[MAX_FALLBACK_FORMS];

   if (!CLG_(clo).cycle_estimation) return;
   for (i = 0; i < fallback_forms; i++) fell += fallback_exec[i];
   if (VG_(clo_verbosity) < 2 && fell * 1000 <= executed) return;

   VG_(umsg)("Cycle estimation (%s): %llu of %llu executed instructions "
             "(%llu.%02llu%%) had no cost in the table and counted %d.%02d "
             "cycle each.\n",
             cyc_model_names[model], fell, executed,
             executed ? fell * 100 / executed : 0,
             executed ? fell * 10000 / executed % 100 : 0,
             CYC_FLAT / 100, CYC_FLAT % 100);
   for (i = 0; i < fallback_forms; i++) done[i] = False;
   for (shown = 0; shown < 10; shown++) {
      Int best = -1;
      HChar name[64];
      for (i = 0; i < fallback_forms; i++)
         if (!done[i] && fallback_exec[i] > 0
             && (best < 0 || fallback_exec[i] > fallback_exec[best]))
            best = i;
      if (best < 0) break;
      done[best] = True;
      form_name(fallback_key[best], name, sizeof name);
      VG_(umsg)("   %'12llu  %s\n", fallback_exec[best], name);
   }
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("Cycle estimation: %llu translated instructions without "
                "costs, %d distinct forms.\n", fallback_translated,
                fallback_forms);
}

/*--------------------------------------------------------------------*/
/*--- end                                                 cycles.c ---*/
/*--------------------------------------------------------------------*/
