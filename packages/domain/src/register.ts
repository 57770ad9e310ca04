import { z } from 'zod';

/**
 * The register's view of a person and of a certificate as the search, the sign-in session and the
 * validity check answer it (spec section 3): schemas and their types. The rules read them
 * (prefill.ts, search.ts, validity.ts) and the API contract's answers are made of them (api/).
 */

/** A past activity as the register keeps it. typ: 1 employment, 2 education, 3 other. */
export const registerActivitySchema = /* @__PURE__ */ z.object({
  /** MM/YYYY */
  zam_od: z.string(),
  /** MM/YYYY */
  zam_do: z.string(),
  typ: z.number(),
  /** employer, school or detailed information (form field1) */
  zamestnavatel: z.string(),
  /** function or field of study (form field2) */
  funkce: z.string(),
});
export type RegisterActivity = z.infer<typeof registerActivitySchema>;

/** A stay abroad as the register keeps it: state code and reason. */
export const registerAbroadStaySchema = /* @__PURE__ */ z.object({ stat: z.string(), duvod: z.string() });
export type RegisterAbroadStay = z.infer<typeof registerAbroadStaySchema>;

const categorySchema = /* @__PURE__ */ z.object({ valid_until: z.string() });

// The `@__PURE__` marks inside the schemas below let a bundle that does not use a schema drop all
// of it (a method call in an argument would otherwise be kept): the browser builds none of them
// while a page loads (issue 37).

/** The person's certificate as the search answers it (spec section 3, validity record). */
export const registerRecordSchema = /* @__PURE__ */ z.object({
  id: z.number(),
  /** 'Ano' valid, 'Ne' not valid */
  stav: z.string(),
  /** dd.mm.yyyy */
  platnost_do: z.string(),
  a1a3: /* @__PURE__ */ categorySchema.nullable(),
  a2: /* @__PURE__ */ categorySchema.nullable(),
});
export type RegisterRecord = z.infer<typeof registerRecordSchema>;

/** A text the register may not know: absent or null. */
const maybe = () => z.string().nullable().optional();

/**
 * A person as the register knows them, in the register's Czech field names (spec section 3,
 * "Registry record fields read in prefill"). Text fields the register does not know are
 * absent or null. The birth data (dat_nar, misto_nar, okres_nar, stat_nar) are not in the
 * spec's list; the register holds them and the prefill uses them so a found person does not
 * have to type what the authority already knows.
 */
export const registerPersonSchema = /* @__PURE__ */ z.object({
  jmeno: z.string(),
  prijmeni: z.string(),
  /** birth surname */
  rodne_prijm: maybe(),
  /** '1' male, '2' female, '0' unspecified (also accepted: 'M', 'Z'/'Ž', 'F') */
  pohlavi: maybe(),
  /** birth number, with or without slash */
  rc: maybe(),
  /** birth date, YYYY-MM-DD */
  dat_nar: maybe(),
  /** birth municipality: a municipality code for a birth in CZ, free text elsewhere */
  misto_nar: maybe(),
  /** birth district code (CZ births only) */
  okres_nar: maybe(),
  /** birth state, country code */
  stat_nar: maybe(),
  /** home street with house number and optional orientation number ("Dlouhá 12/5") */
  ulice: maybe(),
  mesto: maybe(),
  psc: maybe(),
  /** home state, country code */
  stat: maybe(),
  /** first citizenship, country code */
  st_kod: maybe(),
  /** document type: 'ID' identity card, 'P' passport */
  typ_op_pas: maybe(),
  /** document number */
  op_pas: maybe(),
  /** document number given in the last web request */
  web_op_pas: maybe(),
  /** second citizenship */
  web_st_kod2: maybe(),
  /** other citizenships, country codes */
  web_st5_kody: z.array(z.string()).nullable().optional(),
  web_zamestnavatel: maybe(),
  /** MM/YYYY */
  web_zam_od: maybe(),
  web_funkce: maybe(),
  web_popis_cinnosti: maybe(),
  web_duvod_zadosti: maybe(),
  web_kont_firma: maybe(),
  web_kont_ulice: maybe(),
  web_kont_cp: maybe(),
  web_kont_co: maybe(),
  web_kont_mesto: maybe(),
  web_kont_psc: maybe(),
  web_kont_stat: maybe(),
  tel: maybe(),
  email: maybe(),
  /** data mailbox id (7 characters) */
  dat_schranka: maybe(),
  /** delivery type code, e.g. EMAIL, DATOVKOU */
  typ_predani: maybe(),
  /** function the certificate was issued for (kept, not prefilled) */
  funkce_platnost: maybe(),
  activities: z.array(registerActivitySchema).nullable().optional(),
  abroad_stay: z.array(registerAbroadStaySchema).nullable().optional(),
});
export type RegisterPerson = z.infer<typeof registerPersonSchema>;

/**
 * Answer of both search calls: the person, with `record` when they hold a certificate, and
 * `match`: the proof that this search found this person (a short-lived random token, see
 * docs/register.md). The browser sends it back with validate and submit; only through it
 * (or a NIA sign-in) does the server link a request to a register person.
 */
export const searchAnswerSchema = /* @__PURE__ */ registerPersonSchema.extend({
  record: /* @__PURE__ */ registerRecordSchema.optional(),
  match: /* @__PURE__ */ z.string().optional(),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

const czechDate = /* @__PURE__ */ z.string().regex(/^\d{2}\.\d{2}\.\d{4}$/);

/**
 * GET /api/ros/{id}/validity (spec sections 3 and 7): the certificate as the public check shows
 * it. stav 'Ano': valid today, 'Ne': revoked or expired; jmeno and prijmeni hold the first three
 * letters; a1a3 and a2 only while valid.
 */
export const validityAnswerSchema = /* @__PURE__ */ z.object({
  data: z.object({
    stav: z.enum(['Ano', 'Ne']),
    platnost_do: czechDate,
    jmeno: z.string(),
    prijmeni: z.string(),
  }),
  a1a3: /* @__PURE__ */ z.object({ valid_until: czechDate }).optional(),
  a2: /* @__PURE__ */ z.object({ valid_until: czechDate }).optional(),
});
