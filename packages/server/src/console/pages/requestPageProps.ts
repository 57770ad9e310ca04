import type { ConsoleCertificate } from '../certificates.js';
import type { RequestView } from '../requestView.js';
import type { FieldError, PageFrame } from './Layout.js';

/**
 * The request page's props, read by the page (RequestPage.tsx) and its clerk's forms
 * (RequestActions.tsx), which the page places: so neither imports the other's types.
 */

/** What the request page shows (console/requestView.ts) and the certificates a clerk may issue (console/certificates.ts). */
export interface RequestPageData extends RequestView {
  certificates: ConsoleCertificate[];
}

export interface RequestPageProps {
  frame: PageFrame;
  request: RequestPageData;
  /** A finished action's message (?hotovo=…). */
  done: string | null;
  /** The form that was sent with errors, and its errors and values. */
  form?: { action: 'status' | 'issue' | 'correct'; errors: FieldError[]; values: Record<string, string> };
}
