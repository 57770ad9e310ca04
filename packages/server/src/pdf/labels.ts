/**
 * Texts of the request PDF in Czech and English: its headings, labels and notes. The PDF is a
 * document the applicant signs, so these live with it on the server rather than in the browser's
 * translation files. What the applicant agrees to (the declarations, consents and attachments
 * notes) is not here: it is the legal texts of @ros/domain, versioned, the same the dialog showed.
 * Where the request stands is said in @ros/domain's statusWords, as on every other surface
 * (issue 36).
 */
import {
  type AbroadStay,
  AUTHORITY,
  authorityPostalAddress,
  type PastActivity,
  type PrintedFieldName,
  type SectionName,
  stateWords,
} from '@ros/domain';

const cs_ = (s: Parameters<typeof stateWords>[1]) => stateWords('cs', s).step;
const en_ = (s: Parameters<typeof stateWords>[1]) => stateWords('en', s).step;

/** Where to deliver the paper and the attachments (@ros/domain's AUTHORITY, issue 36). */
const deliverCs = `Adresa úřadu: ${authorityPostalAddress('cs')} (poštou nebo osobně na podatelně); datová schránka úřadu: ${AUTHORITY.dataBox} (žádost podepsaná uznávaným elektronickým podpisem).`;
const deliverEn = `The Authority's address: ${authorityPostalAddress('en')} (by post or in person at its mail room); its data box: ${AUTHORITY.dataBox} (the request signed with a recognised electronic signature).`;
export type PdfLanguage = 'cs' | 'en';

/** Field labels by catalogue name, for any catalogue (FieldLabels is to PdfLabels' `fields` as Catalogue is to FIELDS). */
export type FieldLabels = { readonly [name: string]: string };

export interface PdfLabels {
  title: string;
  titleDuplicate: string;
  intro: string;
  /** The intro of a request sent after NIA sign-in: the authority has it, nothing to print or sign. */
  introNia: string;
  reference: string;
  /** When the request was made (stored); not when the authority received it (issue 28). */
  created: string;
  /** Where the request stands: prepared for signature, sent electronically, received. */
  status: string;
  statusPaper: string;
  statusNia: string;
  /** `{time}`: when the authority marked it received (intake API). */
  statusReceived: string;
  /** After the label of a value the form did not show but the register supplied. */
  fromRegister: string;
  requestKind: string;
  kindNew: string;
  kindDuplicate: string;
  empty: string;
  yes: string;
  no: string;
  /** The headings of the form's sections (FORM_SECTIONS, by name), then the PDF's own parts. */
  sections: Record<SectionName | 'declarations' | 'signature' | 'attachments', string>;
  /**
   * A field's label by its catalogue name (FIELDS of @ros/domain): one for every field the PDF
   * prints a row of (PrintedFieldName), so a printed field without a label does not compile.
   */
  fields: Record<PrintedFieldName, string>;
  /**
   * The rows fields' labels by column name; `period` is a past activity's from and to, printed in
   * one row.
   */
  columns: {
    past_activities: Record<'period' | Exclude<keyof PastActivity, 'from' | 'to'>, string>;
    abroad_stay: Record<keyof AbroadStay, string>;
  };
  sex: Record<'0' | '1' | '2', string>;
  activityRow: string;
  abroadRow: string;
  noActivities: string;
  noAbroad: string;
  declarationChecked: string;
  declarationUnchecked: string;
  place: string;
  date: string;
  signatureLine: string;
  signatureNote: string;
  /** Instead of the signature lines after NIA sign-in. */
  signatureNoteNia: string;
  submitted: string;
  submittedNia: string;
  page: string;
  /** After a label repeated on the next page for the rest of a long value (pdf/layout.ts). */
  continued: string;
  confirmation: string;
  /** The status page's access code (docs/status.md), next to the reference. */
  accessCode: string;
  /** Beside the QR code of the status link, above the link itself. */
  statusNote: string;
}

const cs: PdfLabels = {
  title: 'Žádost o vydání dokladu o spolehlivosti',
  titleDuplicate: 'Žádost o vydání duplikátu dokladu o spolehlivosti',
  intro: `Úřad pro civilní letectví – registr ověření spolehlivosti (ROS). Žádost vytiskněte, vlastnoručně podepište a doručte úřadu i s přílohami. ${deliverCs}`,
  introNia: `Úřad pro civilní letectví – registr ověření spolehlivosti (ROS). ${cs_('sent')} po přihlášení národní elektronickou identitou (NIA): tento výtisk je pro vaši potřebu, netiskněte ho ani nepodepisujte. Případné přílohy doručte úřadu s uvedením čísla žádosti. ${deliverCs}`,
  reference: 'Číslo žádosti',
  created: 'Vyplněno',
  status: 'Stav',
  statusPaper: cs_('waiting_paper'),
  statusNia: cs_('sent'),
  statusReceived: `${cs_('received')} {time}`,
  fromRegister: ' (z registru)',
  accessCode: 'Přístupový kód ke stavu žádosti',
  statusNote:
    'Stav vyřizování žádosti uvidíte na stránce níže (nebo naskenujte QR kód vlevo); otevře se s číslem žádosti a přístupovým kódem:',
  requestKind: 'Druh žádosti',
  kindNew: 'Nový doklad',
  kindDuplicate: 'Duplikát dokladu',
  empty: '—',
  yes: 'Ano',
  no: 'Ne',
  sections: {
    personal: 'Osobní údaje',
    birth: 'Narození',
    identity: 'Totožnost a státní občanství',
    home: 'Adresa trvalého pobytu',
    contact_address: 'Kontaktní adresa',
    contact: 'Kontaktní údaje',
    employer: 'Současný zaměstnavatel',
    activities: 'Předchozí činnosti',
    abroad: 'Pobyty v zahraničí',
    duplicate: 'Důvod vydání duplikátu',
    declarations: 'Prohlášení žadatele',
    signature: 'Podpis',
    attachments: 'Přílohy',
  },
  fields: {
    first_name: 'Jméno',
    last_name: 'Příjmení',
    birth_name: 'Rodné příjmení',
    sex: 'Pohlaví',
    birth_date: 'Datum narození',
    birth_state: 'Stát narození',
    birth_municipality: 'Místo narození',
    birth_district: 'Okres narození',
    birth_number: 'Rodné číslo',
    document_type: 'Typ dokladu totožnosti',
    document_number: 'Číslo dokladu totožnosti',
    citizen_of_1: 'Státní občanství',
    citizen_of_2: 'Druhé státní občanství',
    other_citizenships: 'Další státní občanství',
    home_street: 'Ulice',
    home_house_num: 'Číslo popisné',
    home_org_num: 'Číslo orientační',
    home_city: 'Obec',
    home_zip: 'PSČ',
    home_state: 'Stát',
    contact_company: 'Firma',
    contact_street: 'Ulice',
    contact_house_num: 'Číslo popisné',
    contact_org_num: 'Číslo orientační',
    contact_city: 'Obec',
    contact_zip: 'PSČ',
    contact_state: 'Stát',
    telephone: 'Telefon',
    email: 'E-mail',
    data_mailbox: 'Datová schránka',
    delivery_type: 'Způsob doručení',
    employer_current_name: 'Zaměstnavatel',
    employer_current_from: 'Zaměstnán(a) od',
    employer_verification_type: 'Způsob doložení zaměstnání',
    employer_current_position: 'Pracovní pozice',
    employer_current_description: 'Popis činnosti',
    reason_for_request: 'Důvod žádosti',
    duplicate_type: 'Důvod',
  },
  columns: {
    past_activities: {
      period: 'Období',
      type: 'Druh činnosti',
      field1: 'Zaměstnavatel, škola nebo podrobnosti',
      field2: 'Funkce nebo obor studia',
    },
    abroad_stay: { state: 'Stát', reason: 'Důvod pobytu' },
  },
  sex: { '1': 'Muž', '2': 'Žena', '0': 'Neuvedeno' },
  activityRow: 'Činnost {n}',
  abroadRow: 'Pobyt {n}',
  noActivities: 'Žádné předchozí činnosti nebyly uvedeny.',
  noAbroad: 'Žádné pobyty v zahraničí nebyly uvedeny.',
  declarationChecked: 'zaškrtnuto',
  declarationUnchecked: 'nezaškrtnuto',
  place: 'V',
  date: 'dne',
  signatureLine: 'Podpis žadatele',
  signatureNote: 'Podpis musí být vlastnoruční, nebo žádost podepište uznávaným elektronickým podpisem.',
  signatureNoteNia:
    'Žádost byla podána elektronicky po přihlášení národní elektronickou identitou (NIA); vlastnoruční podpis se nevyžaduje.',
  submitted: 'Podání',
  submittedNia: 'elektronicky po přihlášení přes NIA',
  page: 'Strana {page} z {pages}',
  continued: '(pokračování)',
  confirmation: `${cs_('filled')} pod číslem {reference}. ${cs_('waiting_paper')}: stáhněte si ji jako PDF, podepište ji a doručte úřadu.`,
};

const en: PdfLabels = {
  title: 'Request for a background-check certificate',
  titleDuplicate: 'Request for a duplicate background-check certificate',
  intro: `Civil Aviation Authority of the Czech Republic – background-check register (ROS). Print the request, sign it by hand and deliver it to the Authority with its attachments. ${deliverEn}`,
  introNia: `Civil Aviation Authority of the Czech Republic – background-check register (ROS). ${en_('sent')} after signing in with the national electronic identity (NIA): this copy is for your records, do not print or sign it. Deliver any attachments to the Authority quoting the reference number. ${deliverEn}`,
  reference: 'Reference number',
  created: 'Filled in',
  status: 'Status',
  statusPaper: en_('waiting_paper'),
  statusNia: en_('sent'),
  statusReceived: `${en_('received')} on {time}`,
  fromRegister: ' (from the register)',
  accessCode: 'Access code for the request status',
  statusNote:
    'Follow the request on the page below (or scan the QR code on the left); it opens with the reference number and the access code:',
  requestKind: 'Kind of request',
  kindNew: 'New certificate',
  kindDuplicate: 'Duplicate certificate',
  empty: '—',
  yes: 'Yes',
  no: 'No',
  sections: {
    personal: 'Personal data',
    birth: 'Birth',
    identity: 'Identity and citizenship',
    home: 'Permanent address',
    contact_address: 'Contact address',
    contact: 'Contact details',
    employer: 'Current employer',
    activities: 'Past activities',
    abroad: 'Stays abroad',
    duplicate: 'Reason for the duplicate',
    declarations: 'Declarations of the applicant',
    signature: 'Signature',
    attachments: 'Attachments',
  },
  fields: {
    first_name: 'First name',
    last_name: 'Last name',
    birth_name: 'Birth name',
    sex: 'Sex',
    birth_date: 'Date of birth',
    birth_state: 'Country of birth',
    birth_municipality: 'Place of birth',
    birth_district: 'District of birth',
    birth_number: 'Birth number',
    document_type: 'Identity document type',
    document_number: 'Identity document number',
    citizen_of_1: 'Citizenship',
    citizen_of_2: 'Second citizenship',
    other_citizenships: 'Other citizenships',
    home_street: 'Street',
    home_house_num: 'House number',
    home_org_num: 'Street number',
    home_city: 'City',
    home_zip: 'Postcode',
    home_state: 'Country',
    contact_company: 'Company',
    contact_street: 'Street',
    contact_house_num: 'House number',
    contact_org_num: 'Street number',
    contact_city: 'City',
    contact_zip: 'Postcode',
    contact_state: 'Country',
    telephone: 'Telephone',
    email: 'E-mail',
    data_mailbox: 'Data mailbox',
    delivery_type: 'Delivery',
    employer_current_name: 'Employer',
    employer_current_from: 'Employed since',
    employer_verification_type: 'Proof of employment',
    employer_current_position: 'Position',
    employer_current_description: 'Description of work',
    reason_for_request: 'Reason for the request',
    duplicate_type: 'Reason',
  },
  columns: {
    past_activities: {
      period: 'Period',
      type: 'Kind of activity',
      field1: 'Employer, school or details',
      field2: 'Function or field of study',
    },
    abroad_stay: { state: 'Country', reason: 'Reason for the stay' },
  },
  sex: { '1': 'Male', '2': 'Female', '0': 'Unspecified' },
  activityRow: 'Activity {n}',
  abroadRow: 'Stay {n}',
  noActivities: 'No past activities were given.',
  noAbroad: 'No stays abroad were given.',
  declarationChecked: 'ticked',
  declarationUnchecked: 'not ticked',
  place: 'Place',
  date: 'Date',
  signatureLine: "Applicant's signature",
  signatureNote: 'Sign by hand, or sign the request with a recognised electronic signature.',
  signatureNoteNia:
    'The request was submitted electronically after signing in with the national electronic identity (NIA); no handwritten signature is needed.',
  submitted: 'Submitted',
  submittedNia: 'electronically, after NIA sign-in',
  page: 'Page {page} of {pages}',
  continued: '(continued)',
  confirmation: `${en_('filled')} under reference number {reference}. ${en_('waiting_paper')}: download it as a PDF, sign it and deliver it to the Authority.`,
};

export const PDF_LABELS: Record<PdfLanguage, PdfLabels> = { cs, en };

/**
 * The labels the sections of a catalogue print with (pdf/model.ts pdfSections): PdfLabels for
 * FIELDS; for a test catalogue with a field more, PdfLabels with its label added to `fields`, the
 * way the catalogue is passed in (requests/catalogueField.test.ts).
 */
export type CatalogueLabels = Omit<PdfLabels, 'fields'> & { fields: FieldLabels };

/** The domain's one template filler, where the server's texts have always taken it from. */
export { fill } from '@ros/domain';
