import {
  type FormValues,
  formatBirthNumber,
  formatTelephone,
  isoToDisplay,
  requiredAttachments,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import type { StoredRequest } from '../requests/repository.js';
import { fill, PDF_LABELS, type PdfLabels, type PdfLanguage } from './labels.js';

/**
 * The request as a document, in its language, with every code replaced by its name from the
 * reference data. Plain data (structured-clone safe): the main thread builds it (it needs the
 * database), a worker lays it out (render.ts).
 */
export interface PdfRow {
  label: string;
  value: string;
}
export interface PdfGroup {
  heading: string;
  rows: PdfRow[];
}
export interface PdfSection {
  heading: string;
  rows: PdfRow[];
  groups: PdfGroup[];
  /** A sentence shown when the section has nothing else (e.g. "No stays abroad were given."). */
  note?: string;
}
export interface PdfModel {
  lang: PdfLanguage;
  /** BCP 47 tag of the document's language */
  langTag: string;
  title: string;
  intro: string;
  reference: string;
  header: PdfRow[];
  sections: PdfSection[];
  declarations: { heading: string; items: Array<{ text: string; checked: boolean; state: string }> };
  attachments: { heading: string; items: string[] } | null;
  /** `lines`: place, date and a line to sign on; false after NIA sign-in (the note says why). */
  signature: { heading: string; place: string; date: string; line: string; note: string; lines: boolean };
  /** '{page}' and '{pages}' are filled in by the renderer. */
  pageTemplate: string;
  /** Document information: subject line. */
  subject: string;
}

/** Names of the codes a request uses, by kind, in one language. */
export interface CodeNames {
  country(code: string): string;
  listItem(list: string, code: string): string;
  municipality(code: string): string;
  district(code: string): string;
}

/** Looks up the names of the codes in `values` (a few small queries). Unknown codes stay as they are. */
export async function loadCodeNames(db: Db, values: FormValues, lang: PdfLanguage): Promise<CodeNames> {
  const countryCodes = new Set<string>(
    [
      values.birth_state,
      values.citizen_of_1,
      values.citizen_of_2,
      values.home_state,
      values.contact_state,
      ...values.other_citizenships,
      ...values.abroad_stay.map((s) => s.state),
    ].filter((c) => c !== ''),
  );
  const [countries, lists, municipalities, districts] = await Promise.all([
    countryCodes.size > 0
      ? db.kysely
          .selectFrom('countries')
          .select(['code', 'name_cz', 'name_en'])
          .where('code', 'in', [...countryCodes])
          .execute()
      : Promise.resolve([]),
    db.kysely
      .selectFrom('code_lists')
      .select(['list', 'code', 'name_cz', 'name_en'])
      .where('list', 'in', [
        'delivery-types',
        'document-types',
        'duplicate-types',
        'verification-types',
        'activity-types',
      ])
      .execute(),
    values.birth_municipality !== ''
      ? db.kysely
          .selectFrom('municipalities')
          .select(['code', 'name'])
          .where('code', '=', values.birth_municipality)
          .execute()
      : Promise.resolve([]),
    values.birth_district !== ''
      ? db.kysely
          .selectFrom('districts')
          .select(['code', 'name'])
          .where('code', '=', values.birth_district)
          .execute()
      : Promise.resolve([]),
  ]);
  const pick = (r: { name_cz: string; name_en: string }) => (lang === 'en' ? r.name_en : r.name_cz);
  const countryNames = new Map(countries.map((r) => [r.code, pick(r)]));
  const listNames = new Map(lists.map((r) => [`${r.list}\u0000${r.code}`, pick(r)]));
  const municipalityNames = new Map(municipalities.map((r) => [r.code, r.name]));
  const districtNames = new Map(districts.map((r) => [r.code, r.name]));
  return {
    country: (c) => countryNames.get(c) ?? c,
    listItem: (l, c) => listNames.get(`${l}\u0000${c}`) ?? c,
    municipality: (c) => municipalityNames.get(c) ?? c,
    district: (c) => districtNames.get(c) ?? c,
  };
}

/** 'YYYY-MM-DD' -> 'dd.mm.yyyy' (the spec's date format in both languages); other text as it is. */
export function displayDate(iso: string): string {
  return isoToDisplay(iso.trim()) ?? iso;
}

const pragueDateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Prague',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An instant as 'dd.mm.yyyy HH:MM' in Prague. */
export function displayDateTime(iso: string): string {
  const parts = Object.fromEntries(pragueDateTime.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}`;
}

/** A Czech birth number as written (850315/1008); a foreign number as it was given. */
function displayBirthNumber(s: string): string {
  return /^\d{9,10}$/.test(s) ? formatBirthNumber(s) : s;
}

export function buildPdfModel(request: StoredRequest, names: CodeNames): PdfModel {
  const lang = request.language;
  const L: PdfLabels = PDF_LABELS[lang];
  const F = L.fields;
  const v = request.values;
  const dup = request.duplicate;
  // Sent after NIA sign-in: the authority has it already; nothing is printed or signed.
  const nia = request.viaNia;
  const val = (s: string) => (s.trim() === '' ? L.empty : s);
  const row = (label: string, value: string): PdfRow => ({ label, value: val(value) });
  const countryRow = (label: string, code: string) => row(label, code ? names.country(code) : '');

  const sections: PdfSection[] = [];
  const section = (heading: string, rows: PdfRow[], extra: Partial<PdfSection> = {}) =>
    sections.push({ heading, rows, groups: [], ...extra });

  section(L.sections.personal, [
    row(F.first_name, v.first_name),
    row(F.last_name, v.last_name),
    row(F.birth_name, v.birth_name),
    // Duplicate mode hides sex, the birth details, other citizenships, the employer, past
    // activities and stays abroad (spec section 2): the PDF shows what the form showed.
    ...(dup ? [] : [row(F.sex, v.sex === '' ? '' : L.sex[v.sex])]),
  ]);
  if (!dup) {
    section(L.sections.birth, [
      row(F.birth_date, displayDate(v.birth_date)),
      countryRow(F.birth_state, v.birth_state),
      row(
        F.birth_municipality,
        v.birth_state === 'CZ' ? names.municipality(v.birth_municipality) : v.birth_municipality,
      ),
      ...(v.birth_state === 'CZ' ? [row(F.birth_district, names.district(v.birth_district))] : []),
    ]);
  }
  section(L.sections.identity, [
    row(F.birth_number, displayBirthNumber(v.birth_number)),
    row(F.document_type, v.document_type ? names.listItem('document-types', v.document_type) : ''),
    row(F.document_number, v.document_number),
    countryRow(F.citizen_of_1, v.citizen_of_1),
    countryRow(F.citizen_of_2, v.citizen_of_2),
    ...(dup ? [] : [row(F.other_citizenships, v.other_citizenships.map((c) => names.country(c)).join(', '))]),
  ]);
  section(L.sections.home, [
    row(F.street, v.home_street),
    row(F.house_num, v.home_house_num),
    row(F.org_num, v.home_org_num),
    row(F.city, v.home_city),
    row(F.zip, v.home_zip),
    countryRow(F.state, v.home_state),
  ]);
  section(L.sections.contactAddress, [
    row(F.company, v.contact_company),
    row(F.street, v.contact_street),
    row(F.house_num, v.contact_house_num),
    row(F.org_num, v.contact_org_num),
    row(F.city, v.contact_city),
    row(F.zip, v.contact_zip),
    countryRow(F.state, v.contact_state),
  ]);
  section(L.sections.contact, [
    // '+420 603 123 456'; a request stored before the dial code existed shows the number alone.
    row(F.telephone, formatTelephone(v.telephone, v.dial_code ?? '')),
    row(F.email, v.email),
    row(F.data_mailbox, v.data_mailbox),
    row(F.delivery_type, v.delivery_type ? names.listItem('delivery-types', v.delivery_type) : ''),
  ]);
  if (!dup) {
    section(L.sections.employer, [
      row(F.employer_current_name, v.employer_current_name),
      row(F.employer_current_from, v.employer_current_from),
      row(
        F.employer_verification_type,
        v.employer_verification_type
          ? names.listItem('verification-types', v.employer_verification_type)
          : '',
      ),
      row(F.employer_current_position, v.employer_current_position),
      row(F.employer_current_description, v.employer_current_description),
      row(F.reason_for_request, v.reason_for_request),
    ]);
    section(L.sections.activities, [], {
      groups: v.past_activities.map((a, i) => ({
        heading: fill(L.activityRow, { n: i + 1 }),
        rows: [
          row(F.period, `${a.from} – ${a.to}`),
          row(F.activity_type, a.type ? names.listItem('activity-types', a.type) : ''),
          row(F.field1, a.field1),
          ...(a.type === '3' ? [] : [row(F.field2, a.field2)]),
        ],
      })),
      ...(v.past_activities.length === 0 ? { note: L.noActivities } : {}),
    });
    section(L.sections.abroad, [], {
      groups: v.abroad_stay.map((s, i) => ({
        heading: fill(L.abroadRow, { n: i + 1 }),
        rows: [countryRow(F.abroad_state, s.state), row(F.abroad_reason, s.reason)],
      })),
      ...(v.abroad_stay.length === 0 ? { note: L.noAbroad } : {}),
    });
  } else {
    section(L.sections.duplicate, [
      row(F.duplicate_type, v.duplicate_type.map((c) => names.listItem('duplicate-types', c)).join(', ')),
    ]);
  }

  // Statements 1-3 are required to submit, so a stored request has them ticked.
  const ticked = [true, true, true, v.send_notifications_email, v.send_notifications_phone];
  const attachments = requiredAttachments(v, dup).map((a) =>
    a === 'abroad' ? L.attachmentsAbroad : L.attachmentsForeigner,
  );

  return {
    lang,
    langTag: lang === 'en' ? 'en-GB' : 'cs-CZ',
    title: dup ? L.titleDuplicate : L.title,
    intro: nia ? L.introNia : L.intro,
    reference: request.reference,
    header: [
      { label: L.reference, value: request.reference },
      { label: L.received, value: displayDateTime(request.createdAt) },
      { label: L.requestKind, value: dup ? L.kindDuplicate : L.kindNew },
      ...(nia ? [{ label: L.submitted, value: L.submittedNia }] : []),
    ],
    sections,
    declarations: {
      heading: L.sections.declarations,
      items: L.declarations.map((label, i) => {
        const checked = ticked[i] === true;
        const text = i === 0 && nia ? L.declarationSignatureNia : label;
        return { text, checked, state: checked ? L.declarationChecked : L.declarationUnchecked };
      }),
    },
    attachments: attachments.length > 0 ? { heading: L.sections.attachments, items: attachments } : null,
    signature: {
      heading: L.sections.signature,
      place: L.place,
      date: L.date,
      line: L.signatureLine,
      note: nia ? L.signatureNoteNia : L.signatureNote,
      lines: !nia,
    },
    pageTemplate: `${request.reference} · ${L.page}`,
    subject: `${dup ? L.titleDuplicate : L.title} ${request.reference}`,
  };
}
