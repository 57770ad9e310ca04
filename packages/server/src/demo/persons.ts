import { addDays } from '@ros/domain';
import type { Db } from '../db/database.js';
import { registerToday } from '../records/records.js';
import { insertRecord } from '../records/repository.js';
import { type PersonInput, savePerson } from '../register/persons.js';

/**
 * The documented demo people (docs/register.md): each path of the search step can be tried
 * with them. Made-up people; birth numbers pass the modulo-11 check. Person ids and their
 * certificate ids are 1001 and up (the validity demo keeps its own range). Each has a NIA
 * identifier `demo-nia-<id>`, so the local NIA-like provider can sign them in (docs/nia.md).
 */

export const DEMO_PERSONS: readonly PersonInput[] = [
  {
    // A Czech citizen with a valid certificate and every field filled.
    id: 1001,
    nia_identifier: 'demo-nia-1001',
    aifo: 'demo-aifo-1001',
    person: {
      jmeno: 'Štěpán',
      prijmeni: 'Dvořák',
      rodne_prijm: 'Dvořák',
      pohlavi: '1',
      rc: '850315/1008',
      dat_nar: '1985-03-15',
      misto_nar: '554782',
      okres_nar: '40924',
      stat_nar: 'CZ',
      ulice: 'Korunní 2569/108',
      mesto: 'Praha',
      psc: '101 00',
      stat: 'CZ',
      st_kod: 'CZ',
      typ_op_pas: 'ID',
      op_pas: '123456789',
      web_st5_kody: [],
      web_zamestnavatel: 'Letiště Praha, a. s.',
      web_zam_od: '03/2019',
      web_funkce: 'Technik odbavení',
      web_popis_cinnosti: 'Odbavení zavazadel v neveřejné části letiště',
      web_duvod_zadosti: 'Vstup do vyhrazeného bezpečnostního prostoru',
      web_kont_ulice: 'Korunní',
      web_kont_cp: '2569',
      web_kont_co: '108',
      web_kont_mesto: 'Praha',
      web_kont_psc: '101 00',
      web_kont_stat: 'CZ',
      tel: '601 123 456',
      email: 'stepan.dvorak@example.cz',
      typ_predani: 'EMAIL',
      funkce_platnost: 'A1/A3, A2',
      activities: [
        {
          zam_od: '09/2014',
          zam_do: '02/2019',
          typ: 1,
          zamestnavatel: 'České aerolinie a.s.',
          funkce: 'Mechanik',
        },
        {
          zam_od: '09/2010',
          zam_do: '06/2014',
          typ: 2,
          zamestnavatel: 'ČVUT v Praze',
          funkce: 'Letecká doprava',
        },
      ],
      abroad_stay: [],
    },
  },
  {
    // No certificate (a duplicate request for him goes to the birth-number retry).
    id: 1002,
    nia_identifier: 'demo-nia-1002',
    person: {
      jmeno: 'Karel',
      prijmeni: 'Procházka',
      rodne_prijm: 'Procházka',
      pohlavi: '1',
      rc: '780704/1000',
      dat_nar: '1978-07-04',
      misto_nar: '582786',
      okres_nar: '40711',
      stat_nar: 'CZ',
      ulice: 'Masarykova 12',
      mesto: 'Brno',
      psc: '602 00',
      stat: 'CZ',
      st_kod: 'CZ',
      typ_op_pas: 'ID',
      op_pas: '234567890',
      tel: '702 345 678',
      email: 'karel.prochazka@example.cz',
      typ_predani: 'EMAIL',
    },
  },
  {
    // Has a data mailbox: delivery through it, the field read-only.
    id: 1003,
    nia_identifier: 'demo-nia-1003',
    person: {
      jmeno: 'Martin',
      prijmeni: 'Horák',
      rodne_prijm: 'Horák',
      pohlavi: '1',
      rc: '720228/1009',
      dat_nar: '1972-02-28',
      misto_nar: '554782',
      okres_nar: '40924',
      stat_nar: 'CZ',
      ulice: 'Vinohradská 1511/230',
      mesto: 'Praha',
      psc: '100 00',
      stat: 'CZ',
      st_kod: 'CZ',
      typ_op_pas: 'P',
      op_pas: '45123456',
      tel: '603 456 789',
      email: 'martin.horak@example.cz',
      dat_schranka: 'h7k2m9p',
      typ_predani: 'DATOVKOU',
      web_zamestnavatel: 'Czech Airlines Technics, a.s.',
      web_zam_od: '05/2015',
      web_funkce: 'Inspektor',
      web_popis_cinnosti: 'Kontrola letadel před odletem',
    },
  },
  {
    // A foreign citizen born abroad: no birth number, birth place as free text, passport.
    id: 1004,
    nia_identifier: 'demo-nia-1004',
    person: {
      jmeno: 'Anna',
      prijmeni: 'Kowalska',
      rodne_prijm: 'Nowak',
      pohlavi: '2',
      dat_nar: '1990-06-21',
      misto_nar: 'Kraków',
      stat_nar: 'PL',
      ulice: 'Evropská 2590/33',
      mesto: 'Praha',
      psc: '160 00',
      stat: 'CZ',
      st_kod: 'PL',
      typ_op_pas: 'P',
      op_pas: 'EA1234567',
      tel: '604 567 890',
      email: 'anna.kowalska@example.pl',
      typ_predani: 'EMAIL',
      abroad_stay: [{ stat: 'PL', duvod: 'Trvalé bydliště do roku 2021' }],
    },
  },
  {
    // Born before 1954: a 9-digit birth number. His certificate has expired.
    id: 1005,
    nia_identifier: 'demo-nia-1005',
    person: {
      jmeno: 'Josef',
      prijmeni: 'Veselý',
      rodne_prijm: 'Veselý',
      pohlavi: '1',
      rc: '500412/123',
      dat_nar: '1950-04-12',
      misto_nar: '582786',
      okres_nar: '40711',
      stat_nar: 'CZ',
      ulice: 'Kounicova 684/10',
      mesto: 'Brno',
      psc: '602 00',
      stat: 'CZ',
      st_kod: 'CZ',
      typ_op_pas: 'ID',
      op_pas: '345678901',
      email: 'josef.vesely@example.cz',
      typ_predani: 'EMAIL',
    },
  },
  {
    // A woman: month of birth + 50 in the birth number (12 May 1990 -> 905512).
    id: 1006,
    nia_identifier: 'demo-nia-1006',
    person: {
      jmeno: 'Eva',
      prijmeni: 'Marková',
      rodne_prijm: 'Nováková',
      pohlavi: '2',
      rc: '905512/1009',
      dat_nar: '1990-05-12',
      misto_nar: '554782',
      okres_nar: '40924',
      stat_nar: 'CZ',
      ulice: 'Na Příkopě 859/22',
      mesto: 'Praha',
      psc: '110 00',
      stat: 'CZ',
      st_kod: 'CZ',
      web_st_kod2: 'SK',
      typ_op_pas: 'ID',
      op_pas: '456789012',
      tel: '605 678 901',
      email: 'eva.markova@example.cz',
      typ_predani: 'EMAIL',
    },
  },
  {
    // Past activities leave a gap (07/2021 - 12/2023): the coverage warning.
    id: 1007,
    nia_identifier: 'demo-nia-1007',
    person: {
      jmeno: 'Tomáš',
      prijmeni: 'Král',
      rodne_prijm: 'Král',
      pohlavi: '1',
      rc: '880911/1003',
      dat_nar: '1988-09-11',
      misto_nar: '554782',
      okres_nar: '40924',
      stat_nar: 'CZ',
      ulice: 'Jugoslávských partyzánů 1580/3',
      mesto: 'Praha',
      psc: '160 00',
      stat: 'CZ',
      st_kod: 'CZ',
      typ_op_pas: 'ID',
      op_pas: '567890123',
      tel: '606 789 012',
      email: 'tomas.kral@example.cz',
      typ_predani: 'EMAIL',
      web_zamestnavatel: 'Smartwings, a.s.',
      web_zam_od: '01/2024',
      web_funkce: 'Palubní průvodčí',
      web_popis_cinnosti: 'Služba na palubě letadel',
      activities: [
        {
          zam_od: '09/2016',
          zam_do: '06/2021',
          typ: 1,
          zamestnavatel: 'Travel Service, a.s.',
          funkce: 'Steward',
        },
      ],
    },
  },
];

/** Certificates of the demo people, relative to the day of seeding (days from today). */
const DEMO_RECORDS: ReadonlyArray<{
  id: number;
  person: number;
  validDays: number;
  a1a3: boolean;
  a2: boolean;
}> = [
  { id: 1001, person: 1001, validDays: 300, a1a3: true, a2: true },
  { id: 1003, person: 1003, validDays: 200, a1a3: true, a2: false },
  { id: 1004, person: 1004, validDays: 250, a1a3: false, a2: true },
  { id: 1005, person: 1005, validDays: -120, a1a3: false, a2: false },
  { id: 1006, person: 1006, validDays: 330, a1a3: false, a2: false },
  { id: 1007, person: 1007, validDays: 45, a1a3: false, a2: false },
];

/** Whether a stored person still is the demo person of that id (an operator may have loaded over it). */
function sameIdentity(data: string, id: number): boolean {
  const demo = DEMO_PERSONS.find((p) => p.id === Number(id))?.person;
  try {
    const p = JSON.parse(data) as { jmeno?: unknown; prijmeni?: unknown; dat_nar?: unknown };
    return !!demo && p.jmeno === demo.jmeno && p.prijmeni === demo.prijmeni && p.dat_nar === demo.dat_nar;
  } catch {
    return false;
  }
}

/**
 * Loads the demo people and their certificates. Idempotent, and it only ever touches rows it
 * created (marked `demo = 1`, migration 0006): a person or certificate with a demo id that an
 * operator loaded is left alone, and gets no demo NIA identifier and no demo certificate.
 */
export async function seedDemoPersons(db: Db, now: Date = new Date()): Promise<void> {
  const today = registerToday(now);
  const ids = DEMO_PERSONS.map((p) => p.id ?? 0);
  const demoPeople = new Set<number>();
  await db.kysely.transaction().execute(async (trx) => {
    const existing = new Map(
      (await trx.selectFrom('persons').select(['id', 'demo', 'data']).where('id', 'in', ids).execute()).map(
        (r) => [Number(r.id), Number(r.demo) === 1 && sameIdentity(r.data, r.id)],
      ),
    );
    for (const p of DEMO_PERSONS) {
      if (p.id === undefined) continue;
      const mine = existing.get(p.id);
      if (mine === undefined) {
        await savePerson(trx, db.dialect, p, now);
        await trx.updateTable('persons').set({ demo: 1 }).where('id', '=', p.id).execute();
        demoPeople.add(p.id);
      } else if (mine) {
        demoPeople.add(p.id);
        // Demo data loaded before NIA sign-in existed: give the demo people their NIA identifiers.
        if (p.nia_identifier) {
          await trx
            .updateTable('persons')
            .set({ nia_identifier: p.nia_identifier })
            .where('id', '=', p.id)
            .where('demo', '=', 1)
            .where('nia_identifier', 'is', null)
            .execute();
        }
      }
      // else: an operator's person with a demo id: never touched.
    }
  });
  for (const r of DEMO_RECORDS) {
    const person = DEMO_PERSONS.find((p) => p.id === r.person)?.person;
    if (!person || !demoPeople.has(r.person)) continue;
    const until = addDays(today, r.validDays);
    const created = await insertRecord(
      db,
      {
        id: r.id,
        person_id: r.person,
        stav: 'Ano',
        platnost_do: until,
        a1a3_valid_until: r.a1a3 ? until : null,
        a2_valid_until: r.a2 ? addDays(until, -30) : null,
        first_name: person.jmeno,
        last_name: person.prijmeni,
      },
      now,
    );
    if (created) await db.kysely.updateTable('records').set({ demo: 1 }).where('id', '=', r.id).execute();
  }
}
