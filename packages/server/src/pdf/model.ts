import {
  type AnySpec,
  attachmentNotes,
  type Catalogue,
  codedValues,
  FIELDS,
  FORM_SECTIONS,
  type FormValues,
  formatAccessCode,
  isFieldEnabled,
  isPrintedField,
  isSectionShown,
  LEGAL_TEXT_VERSIONS,
  type LegalTextVersion,
  legalStatements,
  printedValue,
  requiredAttachments,
  type ValueSpec,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import { legalVariant, type StoredRequest } from '../requests/repository.js';
import { type CatalogueLabels, fill, PDF_LABELS, type PdfLanguage } from './labels.js';

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
  /** The status page (docs/status.md): its link as a QR code and the note beside it. */
  status?: { url: string; note: string };
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
 * Unknown codes stay as they are. `catalogue`: FIELDS; a test passes one with a field more.
 */
export async function loadCodeNames(
  db: Db,
  values: FormValues,
  lang: PdfLanguage,
  catalogue: Catalogue = FIELDS,
): Promise<CodeNames> {
  const coded = [
    ...codedValues(values, { duplicate: false }, catalogue),
    ...codedValues(values, { duplicate: true }, catalogue),
  ];
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

/**
 * A printed field's label, by its catalogue name. The labels of FIELDS have one for each
 * (PdfLabels' `fields` is a record over PrintedFieldName); a catalogue's field without one is an
 * error, never its raw name on a document the applicant signs.
 */
function fieldLabel(labels: CatalogueLabels, name: string): string {
  const label = Object.hasOwn(labels.fields, name) ? labels.fields[name] : undefined;
  if (label === undefined) throw new Error(`the PDF has no label for the field ${name}`);
  return label;
}

/**
 * The sections of a request's values, as the form has them (FORM_SECTIONS: those its mode shows;
 * in each, the catalogue's fields of that section in catalogue order, each as its entry says:
 * `print`, `format`, a code by its name). `catalogue`: FIELDS; a test passes one with a field more,
 * and `labels` with that field's label added (CatalogueLabels).
 */
export function pdfSections(
  values: FormValues,
  duplicate: boolean,
  labels: CatalogueLabels,
  names: CodeNames,
  catalogue: Catalogue = FIELDS,
): PdfSection[] {
  const mode = { duplicate };
  const raw = values as unknown as Record<string, unknown>;
  const row = (label: string, value: string): PdfRow => ({
    label,
    value: value.trim() === '' ? labels.empty : value,
  });
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
          ? (labels.sex[code as keyof typeof labels.sex] ?? code)
          : names.listItem(spec.names, code);
      default:
        return code;
    }
  };
  /** A top-level field's rows: none when off (hidden, disabled) unless printed always; free text as typed. */
  const fieldRows = (name: string, spec: AnySpec): PdfRow[] => {
    // Not printed under a label of its own (isPrintedField); the kinds again narrow the type.
    if (!isPrintedField(spec) || spec.kind === 'boolean' || spec.kind === 'rows') return [];
    const label = fieldLabel(labels, name);
    if (spec.kind === 'items') {
      if (!isFieldEnabled(name, values, mode, catalogue)) return [];
      return [row(label, ((raw[name] as string[]) ?? []).map((c) => named(spec.item, c)).join(', '))];
    }
    const value = String(raw[name] ?? '');
    if (spec.print === 'always') return [row(label, named(spec, value))];
    if (spec.print === 'filled' && value.trim() === '') return [];
    if (!isFieldEnabled(name, values, mode, catalogue)) return [];
    const shown = printedValue(spec, value, values);
    const text = spec.freeText?.(values) ? shown : named(spec, shown);
    return [row(spec.print === 'filled' ? `${label}${labels.fromRegister}` : label, text)];
  };
  const activity = FIELDS.past_activities.columns;
  const abroad = FIELDS.abroad_stay.columns;
  const activityLabels = labels.columns.past_activities;
  const abroadLabels = labels.columns.abroad_stay;
  /** The rows fields: a group per row, or the note that there is none. */
  const rowGroups: Record<string, () => Pick<PdfSection, 'groups' | 'note'>> = {
    past_activities: () => ({
      groups: values.past_activities.map((a, i) => ({
        heading: fill(labels.activityRow, { n: i + 1 }),
        rows: [
          row(activityLabels.period, `${a.from} – ${a.to}`),
          row(activityLabels.type, named(activity.type, a.type)),
          row(activityLabels.field1, a.field1),
          ...(isFieldEnabled(`past_activities.${i}.field2`, values, mode, catalogue)
            ? [row(activityLabels.field2, a.field2)]
            : []),
        ],
      })),
      ...(values.past_activities.length === 0 ? { note: labels.noActivities } : {}),
    }),
    abroad_stay: () => ({
      groups: values.abroad_stay.map((s, i) => ({
        heading: fill(labels.abroadRow, { n: i + 1 }),
        rows: [row(abroadLabels.state, named(abroad.state, s.state)), row(abroadLabels.reason, s.reason)],
      })),
      ...(values.abroad_stay.length === 0 ? { note: labels.noAbroad } : {}),
    }),
  };

  const sections: PdfSection[] = [];
  for (const { name: section } of FORM_SECTIONS) {
    // Duplicate mode hides the birth details, the employer, past activities and stays abroad
    // (spec section 2), a new request the duplicate types: the PDF shows what the form showed.
    if (!isSectionShown(section, mode)) continue;
    const out: PdfSection = { heading: labels.sections[section], rows: [], groups: [] };
    for (const [name, spec] of Object.entries(catalogue)) {
      if (spec.section !== section) continue;
      if (spec.kind === 'rows') {
        const groups = rowGroups[name];
        if (groups && isFieldEnabled(name, values, mode, catalogue)) Object.assign(out, groups());
      } else out.rows.push(...fieldRows(name, spec));
    }
    sections.push(out);
  }
  return sections;
}

/**
 * `versions`: the legal texts' versions (@ros/domain LEGAL_TEXT_VERSIONS); a test passes its own
 * list to show that a stored request keeps its version's texts when a new one is added.
 * `catalogue`: FIELDS, and `labels` PDF_LABELS; a test passes a catalogue with a field more and
 * the labels with its label added (pdfSections).
 */
export function buildPdfModel(
  request: StoredRequest,
  names: CodeNames,
  versions: readonly LegalTextVersion[] = LEGAL_TEXT_VERSIONS,
  /** When the authority marked the request received (intake API); null until then. */
  receivedAt: string | null = null,
  /** The status page's access code and link (docs/status.md): printed next to the reference. */
  status?: { code: string; url: string },
  allLabels: Readonly<Record<PdfLanguage, CatalogueLabels>> = PDF_LABELS,
  catalogue: Catalogue = FIELDS,
): PdfModel {
  const lang = request.language;
  const labels = allLabels[lang];
  const values = request.values;
  const duplicate = request.duplicate;
  // Sent after NIA sign-in: the authority has it already; nothing is printed or signed.
  const nia = request.viaNia;
  const sections = pdfSections(values, duplicate, labels, names, catalogue);

  // The texts of the version the applicant was shown, whatever the current one is (issue 22).
  const statements = legalStatements(request.legal.version, lang, legalVariant(request), values, versions);
  const attachments = attachmentNotes(
    request.legal.version,
    lang,
    requiredAttachments(values, duplicate),
    versions,
  );

  return {
    lang,
    langTag: lang === 'en' ? 'en-GB' : 'cs-CZ',
    title: duplicate ? labels.titleDuplicate : labels.title,
    intro: nia ? labels.introNia : labels.intro,
    reference: request.reference,
    header: [
      { label: labels.reference, value: request.reference },
      ...(status ? [{ label: labels.accessCode, value: formatAccessCode(status.code) }] : []),
      { label: labels.created, value: displayDateTime(request.createdAt) },
      // What the PDF is (issue 28): a paper request reaches the authority only once it is sent
      // signed; "received" only once the authority has marked it so.
      {
        label: labels.status,
        value: receivedAt
          ? fill(labels.statusReceived, { time: displayDateTime(receivedAt) })
          : nia
            ? labels.statusNia
            : labels.statusPaper,
      },
      { label: labels.requestKind, value: duplicate ? labels.kindDuplicate : labels.kindNew },
      ...(nia ? [{ label: labels.submitted, value: labels.submittedNia }] : []),
    ],
    sections,
    declarations: {
      heading: labels.sections.declarations,
      items: statements.map(({ key, text }) => {
        const checked = request.legal.ticked[key] === true;
        return { text, checked, state: checked ? labels.declarationChecked : labels.declarationUnchecked };
      }),
    },
    attachments: attachments.length > 0 ? { heading: labels.sections.attachments, items: attachments } : null,
    signature: {
      heading: labels.sections.signature,
      place: labels.place,
      date: labels.date,
      line: labels.signatureLine,
      note: nia ? labels.signatureNoteNia : labels.signatureNote,
      lines: !nia,
    },
    pageTemplate: `${request.reference} · ${labels.page}`,
    subject: `${duplicate ? labels.titleDuplicate : labels.title} ${request.reference}`,
    ...(status ? { status: { url: status.url, note: labels.statusNote } } : {}),
  };
}
