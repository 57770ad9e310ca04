import {
  codedValues,
  FIELDS,
  type FormFieldName,
  type FormValues,
  formatBirthNumber,
  formatTelephone,
  isField2Enabled,
  isFieldHidden,
  isoToDisplay,
  requiredAttachments,
  type ValueSpec,
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

/**
 * Looks up the names of the codes in `values` (a few small queries): every code of a country,
 * code-list, municipality or district field of the catalogue (fields.ts), in either mode.
 * Unknown codes stay as they are.
 */
export async function loadCodeNames(db: Db, values: FormValues, lang: PdfLanguage): Promise<CodeNames> {
  const coded = [...codedValues(values, { duplicate: false }), ...codedValues(values, { duplicate: true })];
  const codesOf = (kind: ValueSpec['kind']) => [
    ...new Set(coded.filter((c) => c.spec.kind === kind).map((c) => c.code)),
  ];
  const countryCodes = codesOf('country');
  const municipalityCodes = codesOf('municipality');
  const districtCodes = codesOf('district');
  const listNames = [
    ...new Set(
      coded.flatMap(({ spec }) =>
        spec.kind === 'list'
          ? [spec.list]
          : spec.kind === 'choice' && spec.names !== 'sex'
            ? [spec.names]
            : [],
      ),
    ),
  ];
  const [countries, lists, municipalities, districts] = await Promise.all([
    countryCodes.length > 0
      ? db.kysely
          .selectFrom('countries')
          .select(['code', 'name_cz', 'name_en'])
          .where('code', 'in', countryCodes)
          .execute()
      : Promise.resolve([]),
    listNames.length > 0
      ? db.kysely
          .selectFrom('code_lists')
          .select(['list', 'code', 'name_cz', 'name_en'])
          .where('list', 'in', listNames)
          .execute()
      : Promise.resolve([]),
    municipalityCodes.length > 0
      ? db.kysely
          .selectFrom('municipalities')
          .select(['code', 'name'])
          .where('code', 'in', municipalityCodes)
          .execute()
      : Promise.resolve([]),
    districtCodes.length > 0
      ? db.kysely
          .selectFrom('districts')
          .select(['code', 'name'])
          .where('code', 'in', districtCodes)
          .execute()
      : Promise.resolve([]),
  ]);
  const pick = (r: { name_cz: string; name_en: string }) => (lang === 'en' ? r.name_en : r.name_cz);
  const countryNames = new Map(countries.map((r) => [r.code, pick(r)]));
  const itemNames = new Map(lists.map((r) => [`${r.list}\u0000${r.code}`, pick(r)]));
  const municipalityNames = new Map(municipalities.map((r) => [r.code, r.name]));
  const districtNames = new Map(districts.map((r) => [r.code, r.name]));
  return {
    country: (c) => countryNames.get(c) ?? c,
    listItem: (l, c) => itemNames.get(`${l}\u0000${c}`) ?? c,
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

/** The top-level fields holding one string. */
type ScalarName = {
  [K in FormFieldName]: FormValues[K] extends string ? K : never;
}[FormFieldName];

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
  // Duplicate mode hides sex, the birth details, other citizenships, the employer, past
  // activities and stays abroad (spec section 2): the PDF shows what the form showed.
  const hidden = (f: FormFieldName) => isFieldHidden(f, { duplicate: dup });
  /** A value as the reader knows it: a code by its name, by the field's kind in the catalogue. */
  const named = (spec: ValueSpec, code: string): string => {
    if (code === '') return '';
    switch (spec.kind) {
      case 'country':
        return names.country(code);
      case 'list':
        return names.listItem(spec.list, code);
      case 'municipality':
        return names.municipality(code);
      case 'district':
        return names.district(code);
      case 'choice':
        return spec.names === 'sex'
          ? (L.sex[code as keyof typeof L.sex] ?? code)
          : names.listItem(spec.names, code);
      default:
        return code;
    }
  };
  /** A top-level field's row (none when hidden); free text (a birth outside CZ) as it was typed. */
  const field = (label: string, name: ScalarName, value: string = v[name]): PdfRow[] => {
    const spec = FIELDS[name];
    if (hidden(name) || (spec.enabled && !spec.enabled(v))) return [];
    return [row(label, spec.freeText?.(v) ? value : named(spec, value))];
  };
  const items = (label: string, name: 'other_citizenships' | 'duplicate_type'): PdfRow[] =>
    hidden(name) ? [] : [row(label, v[name].map((c) => named(FIELDS[name].item, c)).join(', '))];
  const columns = FIELDS.past_activities.columns;

  const sections: PdfSection[] = [];
  const section = (heading: string, rows: PdfRow[], extra: Partial<PdfSection> = {}) =>
    sections.push({ heading, rows, groups: [], ...extra });

  section(L.sections.personal, [
    ...field(F.first_name, 'first_name'),
    ...field(F.last_name, 'last_name'),
    ...field(F.birth_name, 'birth_name'),
    ...field(F.sex, 'sex'),
  ]);
  if (!hidden('birth_date')) {
    section(L.sections.birth, [
      ...field(F.birth_date, 'birth_date', displayDate(v.birth_date)),
      ...field(F.birth_state, 'birth_state'),
      ...field(F.birth_municipality, 'birth_municipality'),
      ...field(F.birth_district, 'birth_district'),
    ]);
  }
  section(L.sections.identity, [
    ...field(F.birth_number, 'birth_number', displayBirthNumber(v.birth_number)),
    ...field(F.document_type, 'document_type'),
    ...field(F.document_number, 'document_number'),
    ...field(F.citizen_of_1, 'citizen_of_1'),
    // A second citizenship beside ## is not one (normalizeFormValues stores it empty): shown empty.
    row(F.citizen_of_2, named(FIELDS.citizen_of_2, v.citizen_of_2)),
    ...items(F.other_citizenships, 'other_citizenships'),
  ]);
  section(L.sections.home, [
    ...field(F.street, 'home_street'),
    ...field(F.house_num, 'home_house_num'),
    ...field(F.org_num, 'home_org_num'),
    ...field(F.city, 'home_city'),
    ...field(F.zip, 'home_zip'),
    ...field(F.state, 'home_state'),
  ]);
  section(L.sections.contactAddress, [
    ...field(F.company, 'contact_company'),
    ...field(F.street, 'contact_street'),
    ...field(F.house_num, 'contact_house_num'),
    ...field(F.org_num, 'contact_org_num'),
    ...field(F.city, 'contact_city'),
    ...field(F.zip, 'contact_zip'),
    ...field(F.state, 'contact_state'),
  ]);
  section(L.sections.contact, [
    // '+420 603 123 456'; a request stored before the dial code existed shows the number alone.
    row(F.telephone, formatTelephone(v.telephone, v.dial_code ?? '')),
    ...field(F.email, 'email'),
    row(F.data_mailbox, v.data_mailbox),
    ...field(F.delivery_type, 'delivery_type'),
  ]);
  if (!hidden('employer_current_name')) {
    section(L.sections.employer, [
      ...field(F.employer_current_name, 'employer_current_name'),
      ...field(F.employer_current_from, 'employer_current_from'),
      ...field(F.employer_verification_type, 'employer_verification_type'),
      ...field(F.employer_current_position, 'employer_current_position'),
      ...field(F.employer_current_description, 'employer_current_description'),
      ...field(F.reason_for_request, 'reason_for_request'),
    ]);
  }
  if (!hidden('past_activities')) {
    section(L.sections.activities, [], {
      groups: v.past_activities.map((a, i) => ({
        heading: fill(L.activityRow, { n: i + 1 }),
        rows: [
          row(F.period, `${a.from} – ${a.to}`),
          row(F.activity_type, named(columns.type, a.type)),
          row(F.field1, a.field1),
          ...(isField2Enabled(a.type) ? [row(F.field2, a.field2)] : []),
        ],
      })),
      ...(v.past_activities.length === 0 ? { note: L.noActivities } : {}),
    });
  }
  if (!hidden('abroad_stay')) {
    section(L.sections.abroad, [], {
      groups: v.abroad_stay.map((s, i) => ({
        heading: fill(L.abroadRow, { n: i + 1 }),
        rows: [
          row(F.abroad_state, named(FIELDS.abroad_stay.columns.state, s.state)),
          row(F.abroad_reason, s.reason),
        ],
      })),
      ...(v.abroad_stay.length === 0 ? { note: L.noAbroad } : {}),
    });
  }
  if (!hidden('duplicate_type')) section(L.sections.duplicate, items(F.duplicate_type, 'duplicate_type'));

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
