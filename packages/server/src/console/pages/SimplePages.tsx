import { CONSOLE_PATH } from '../staff.js';
import { T } from '../texts.js';
import { pragueTime } from '../time.js';
import { Layout, Notice, type PageFrame } from './Layout.js';

/** The sign-in page: one button to the authority's provider, and why the last attempt failed. */
export function SignInPage({
  frame,
  error,
  signedOut,
}: {
  frame: PageFrame;
  error: string | null;
  signedOut: boolean;
}) {
  return (
    <Layout frame={frame} title={T.signInTitle}>
      <h1>{T.signInTitle}</h1>
      {signedOut ? <Notice kind="success">{T.signedOut}</Notice> : null}
      {error ? <Notice kind="danger">{T.signInErrors[error] ?? T.signInErrors.failed}</Notice> : null}
      <p className="lead">{T.signInLead}</p>
      <p>
        <a className="btn btn--primary btn--l" href={`${CONSOLE_PATH}/prihlaseni/zahajit`}>
          {T.signInButton}
        </a>
      </p>
    </Layout>
  );
}

export type MessageKind = 'forbidden' | 'notFound' | 'badRequest' | 'gone';

const MESSAGES: Record<MessageKind, { title: string; text: string }> = {
  forbidden: { title: T.forbiddenTitle, text: T.forbiddenText },
  notFound: { title: T.notFoundTitle, text: T.notFoundText },
  badRequest: { title: T.badRequestTitle, text: T.badRequestText },
  // A form sent to an erased request (410): what stays, and that it takes nothing.
  gone: { title: T.erasedTitle, text: T.erasedText },
};

/** 400, 403, 404 and 410 as pages. */
export function MessagePage({ frame, kind }: { frame: PageFrame; kind: MessageKind }) {
  const { title, text } = MESSAGES[kind];
  return (
    <Layout frame={frame} title={title}>
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <a href={CONSOLE_PATH}>{T.backToQueue}</a>
      </p>
    </Layout>
  );
}

export interface AuditRowView {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  detail: string | null;
}

/** The administrator's view of the audit trail (newest first), filtered by who or which request. */
export function AuditPage({
  frame,
  rows,
  actor,
  target,
}: {
  frame: PageFrame;
  rows: AuditRowView[];
  actor: string;
  target: string;
}) {
  return (
    <Layout frame={{ ...frame, current: 'audit' }} title={T.auditTitle}>
      <h1>{T.auditTitle}</h1>
      <p>{T.auditLead}</p>
      <form method="get" action={`${CONSOLE_PATH}/audit`} className="console-search">
        <div className="console-field">
          <label htmlFor="audit-kdo">{T.auditFilterActor}</label>
          <input
            id="audit-kdo"
            name="actor"
            type="text"
            maxLength={120}
            defaultValue={actor}
            autoComplete="off"
          />
        </div>
        <div className="console-field">
          <label htmlFor="audit-zadost">{T.auditFilterTarget}</label>
          <input
            id="audit-zadost"
            name="target"
            type="text"
            maxLength={60}
            defaultValue={target}
            autoComplete="off"
          />
        </div>
        <div className="console-field">
          <button type="submit" className="btn btn--primary">
            {T.auditFilter}
          </button>
        </div>
      </form>
      <div className="console-table-wrap">
        <table className="console-table">
          <caption>{T.auditTitle}</caption>
          <thead>
            <tr>
              <th scope="col">{T.auditColumns.at}</th>
              <th scope="col">{T.auditColumns.actor}</th>
              <th scope="col">{T.auditColumns.action}</th>
              <th scope="col">{T.auditColumns.target}</th>
              <th scope="col">{T.auditColumns.outcome}</th>
              <th scope="col">{T.auditColumns.detail}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{pragueTime(r.at)}</td>
                <td>{r.actor}</td>
                <td>{r.action}</td>
                <td>{r.target ?? ''}</td>
                <td>{r.outcome}</td>
                <td>{r.detail ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Layout>
  );
}
