/**
 * Who is using the authority's console (issue 38, docs/console.md): a staff member signed in
 * through the authority's identity provider, with the role the console gave them.
 * - reader: looks (the queue, a request, its PDF);
 * - clerk: looks and acts on requests (receive, status, issue, correct, resend);
 * - admin: what a clerk does, and the audit trail and the administration pages.
 */
export const STAFF_ROLES = ['reader', 'clerk', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (v: unknown): v is StaffRole =>
  typeof v === 'string' && (STAFF_ROLES as readonly string[]).includes(v);

/** The console's pages live under this path (and its sign-in cookie is scoped to it). */
export const CONSOLE_PATH = '/urad';

export interface Staff {
  /** The provider's `sub`. */
  subject: string;
  /** The display name from the provider (name, else given + family name, else the subject). */
  name: string;
  role: StaffRole;
  /** The audit trail's actor: `staff:SUBJECT` (at most 120 characters, intake/audit.ts). */
  actor: string;
  /** The session's CSRF token, put in every form of the console. */
  csrf: string;
  /** The session row's id (sha256 of the cookie value). */
  sessionId: string;
}

/** Whether the role may change a request (receive, status, issue, correct, resend). */
export const mayAct = (role: StaffRole): boolean => role === 'clerk' || role === 'admin';
/** Whether the role may see the audit trail and the administration pages. */
export const mayAdminister = (role: StaffRole): boolean => role === 'admin';
