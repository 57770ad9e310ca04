import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

/**
 * The small fixed lists of the form, seeded into the `code_lists` table at start and served
 * from there. Codes are the ones the register uses; names in Czech and English.
 * See docs/reference-data.md for where each list comes from.
 */
export interface CodeListItem {
  code: string;
  name_cz: string;
  name_en: string;
  disabled?: boolean;
}

/** The list names are the API paths: GET /api/ros/{name}. */
export const CODE_LIST_NAMES = [
  'delivery-types',
  'duplicate-types',
  'document-types',
  'verification-types',
  'dial-codes',
  'activity-types',
] as const;
export type CodeListName = (typeof CODE_LIST_NAMES)[number];

const DELIVERY_TYPES: CodeListItem[] = [
  { code: 'DATOVKOU', name_cz: 'Do datové schránky', name_en: 'To a data mailbox' },
  { code: 'EMAIL', name_cz: 'E-mailem', name_en: 'By e-mail' },
  { code: 'POSTA', name_cz: 'Poštou na kontaktní adresu', name_en: 'By post to the contact address' },
  {
    code: 'OSOBNE',
    name_cz: 'Osobní převzetí na Úřadu pro civilní letectví',
    name_en: 'In person at the Civil Aviation Authority',
  },
];

/** `disabled` items are shown but cannot be chosen (the authority can switch one off). */
const DUPLICATE_TYPES: CodeListItem[] = [
  { code: 'POSKOZENI', name_cz: 'Poškození dokladu', name_en: 'Damaged document', disabled: false },
  {
    code: 'ODCIZENI',
    name_cz: 'Ztráta nebo odcizení dokladu',
    name_en: 'Lost or stolen document',
    disabled: false,
  },
];

const DOCUMENT_TYPES: CodeListItem[] = [
  { code: 'OP_CR', name_cz: 'Občanský průkaz ČR', name_en: 'Czech identity card' },
  { code: 'PAS', name_cz: 'Cestovní pas', name_en: 'Passport' },
];

/** How the current employment is proven; OSVEDCENI1 is the form's default. */
const VERIFICATION_TYPES: CodeListItem[] = [
  {
    code: 'OSVEDCENI1',
    name_cz: 'Potvrzení zaměstnavatele o zaměstnání',
    name_en: "Employer's confirmation of employment",
  },
  {
    code: 'OSVEDCENI2',
    name_cz: 'Čestné prohlášení žadatele (OSVČ, bez zaměstnavatele)',
    name_en: "Applicant's declaration (self-employed, no employer)",
  },
  {
    code: 'OSVEDCENI3',
    name_cz: 'Jiný doklad (smlouva, potvrzení školy)',
    name_en: 'Other document (contract, school certificate)',
  },
];

const ACTIVITY_TYPES: CodeListItem[] = [
  { code: '1', name_cz: 'Zaměstnání', name_en: 'Employment' },
  { code: '2', name_cz: 'Studium', name_en: 'Education' },
  { code: '3', name_cz: 'Jiné', name_en: 'Other' },
];

/**
 * Telephone country codes: +420 first, then the EU and EEA, the neighbours and the
 * countries most applicants come from, alphabetically by Czech name. Names come from
 * the same country names as the countries list.
 */
const DIAL_CODES: Array<[dial: string, alpha2: string]> = [
  ['+420', 'CZ'],
  ['+421', 'SK'],
  ['+49', 'DE'],
  ['+43', 'AT'],
  ['+48', 'PL'],
  ['+36', 'HU'],
  ['+32', 'BE'],
  ['+359', 'BG'],
  ['+385', 'HR'],
  ['+357', 'CY'],
  ['+45', 'DK'],
  ['+372', 'EE'],
  ['+358', 'FI'],
  ['+33', 'FR'],
  ['+30', 'GR'],
  ['+353', 'IE'],
  ['+39', 'IT'],
  ['+371', 'LV'],
  ['+370', 'LT'],
  ['+352', 'LU'],
  ['+356', 'MT'],
  ['+31', 'NL'],
  ['+351', 'PT'],
  ['+40', 'RO'],
  ['+386', 'SI'],
  ['+34', 'ES'],
  ['+46', 'SE'],
  ['+354', 'IS'],
  ['+423', 'LI'],
  ['+47', 'NO'],
  ['+41', 'CH'],
  ['+44', 'GB'],
  ['+380', 'UA'],
  ['+373', 'MD'],
  ['+381', 'RS'],
  ['+387', 'BA'],
  ['+382', 'ME'],
  ['+389', 'MK'],
  ['+355', 'AL'],
  ['+90', 'TR'],
  ['+7', 'RU'],
  ['+375', 'BY'],
  ['+995', 'GE'],
  ['+374', 'AM'],
  ['+994', 'AZ'],
  ['+7', 'KZ'],
  ['+1', 'US'],
  ['+1', 'CA'],
  ['+84', 'VN'],
  ['+86', 'CN'],
  ['+91', 'IN'],
  ['+81', 'JP'],
  ['+82', 'KR'],
  ['+972', 'IL'],
  ['+971', 'AE'],
  ['+61', 'AU'],
  ['+64', 'NZ'],
  ['+55', 'BR'],
  ['+52', 'MX'],
  ['+20', 'EG'],
  ['+27', 'ZA'],
];

const czech = new Intl.Collator('cs');

function dialCodes(): CodeListItem[] {
  // One row per dial code: codes shared by several countries (+1, +7) name them all.
  const byDial = new Map<string, { cz: string[]; en: string[] }>();
  for (const [dial, alpha2] of DIAL_CODES) {
    const entry = byDial.get(dial) ?? { cz: [], en: [] };
    entry.cz.push(countryName(alpha2, 'cs'));
    entry.en.push(countryName(alpha2, 'en'));
    byDial.set(dial, entry);
  }
  const items = [...byDial].map(([code, n]) => ({
    code,
    name_cz: n.cz.join(' / '),
    name_en: n.en.join(' / '),
  }));
  const [first, ...rest] = items;
  return first ? [first, ...rest.sort((a, b) => czech.compare(a.name_cz, b.name_cz))] : [];
}

export function codeListDefinitions(): Record<CodeListName, CodeListItem[]> {
  return {
    'delivery-types': DELIVERY_TYPES,
    'duplicate-types': DUPLICATE_TYPES,
    'document-types': DOCUMENT_TYPES,
    'verification-types': VERIFICATION_TYPES,
    'dial-codes': dialCodes(),
    'activity-types': ACTIVITY_TYPES,
  };
}

// ---------------------------------------------------------------------------------------
// Countries
// ---------------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
let localesRegistered = false;
function registerLocales(): void {
  if (localesRegistered) return;
  countries.registerLocale(require('i18n-iso-countries/langs/cs.json'));
  countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
  localesRegistered = true;
}

/** Short, everyday names where the library's is long or formal. */
const NAME_OVERRIDES: Record<string, { cs?: string; en?: string }> = {
  CZ: { cs: 'Česká republika', en: 'Czech Republic' },
};

export function countryName(alpha2: string, lang: 'cs' | 'en'): string {
  registerLocales();
  const override = NAME_OVERRIDES[alpha2]?.[lang];
  if (override) return override;
  return countries.getName(alpha2, lang, { select: 'official' }) ?? alpha2;
}

export interface Country {
  code: string;
  code_csu: string;
  name_cz: string;
  name_en: string;
}

/** The special entry "stateless or not specified"; its ČSÚ code is 000 (no ISO 3166 number). */
export const STATELESS_COUNTRY: Country = {
  code: '##',
  code_csu: '000',
  name_cz: 'Bez státní příslušnosti / neuvedeno',
  name_en: 'Stateless / not specified',
};

/**
 * Every ISO 3166-1 country of i18n-iso-countries plus "##". code_csu is ČSÚ's country
 * code (Číselník zemí, ČZEM), which is the ISO 3166-1 numeric code as three digits
 * (the Czech Republic 203).
 */
export function countryList(): Country[] {
  registerLocales();
  const list: Country[] = Object.keys(countries.getAlpha2Codes()).map((code) => ({
    code,
    code_csu: countries.alpha2ToNumeric(code) ?? '',
    name_cz: countryName(code, 'cs'),
    name_en: countryName(code, 'en'),
  }));
  list.push(STATELESS_COUNTRY);
  return list;
}

export function sortCountries(list: Country[], lang: 'cs' | 'en'): Country[] {
  const collator = new Intl.Collator(lang);
  const key = lang === 'cs' ? 'name_cz' : 'name_en';
  return [...list].sort((a, b) => collator.compare(a[key], b[key]) || a.code.localeCompare(b.code));
}
