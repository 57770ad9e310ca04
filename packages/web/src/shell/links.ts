import type { Lang } from './lang';

/**
 * External links of the footer and the cookie bar: pages of the Civil Aviation Authority
 * (caa.gov.cz). One place to change them when the authority's web moves.
 */
export interface ExternalLinks {
  contacts: string;
  accessibility: string;
  privacy: string;
  social: string;
  authority: string;
}

export const CONTACT_MAILBOX = 'ros@caa.gov.cz';

export const EXTERNAL_LINKS: Record<Lang, ExternalLinks> = {
  cs: {
    authority: 'https://www.caa.gov.cz/',
    contacts: 'https://www.caa.gov.cz/kontakty/',
    accessibility: 'https://www.caa.gov.cz/prohlaseni-o-pristupnosti/',
    privacy: 'https://www.caa.gov.cz/zpracovani-osobnich-udaju/',
    social: 'https://www.linkedin.com/company/urad-pro-civilni-letectvi/',
  },
  en: {
    authority: 'https://www.caa.gov.cz/en/',
    contacts: 'https://www.caa.gov.cz/en/contacts/',
    accessibility: 'https://www.caa.gov.cz/en/accessibility-statement/',
    privacy: 'https://www.caa.gov.cz/en/personal-data-processing/',
    social: 'https://www.linkedin.com/company/urad-pro-civilni-letectvi/',
  },
};
