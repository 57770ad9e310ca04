import type { RequestStatus } from '@ros/domain';
import { CONSOLE_PATH } from '../staff.js';
import { T } from '../texts.js';
import { Csrf, Layout, type PageFrame } from './Layout.js';
import { stepWords } from './words.js';

export interface PreviewPageProps {
  frame: PageFrame;
  reference: string;
  viaNia: boolean;
  /** Where the confirmed form goes (…/stav, …/vydat, …/oprava). */
  action: 'stav' | 'vydat' | 'oprava';
  status: RequestStatus;
  note: string | null;
  certificate: string | null;
  correction: boolean;
  /** How many notifications the change will queue (the applicant's choice of channels). */
  notices: number;
  /** The validity check's address of the certificate, as the status page links it. */
  certificateLink: string | null;
}

/**
 * The applicant's view of a change before it is saved (issue 38 item 5): the new line of the
 * status page's timeline in its words, the note, the certificate's link, and how many
 * notifications go out. The form carries the values again with `potvrdit=1`.
 */
export function PreviewPage(p: PreviewPageProps) {
  const staff = p.frame.staff;
  const base = `${CONSOLE_PATH}/zadost/${p.reference}`;
  return (
    <Layout frame={p.frame} title={`${T.previewTitle} – ${p.reference}`}>
      <h1>{T.previewTitle}</h1>
      <p>{T.previewLead}</p>
      <section className="console-preview" aria-labelledby="nahled-radek">
        <h2 id="nahled-radek">{T.previewStatusLine}</h2>
        <p>
          {p.correction ? <strong>{T.correctionMark}: </strong> : null}
          {stepWords(p.status, p.viaNia)}
        </p>
        {p.note ? (
          <>
            <h3>{p.correction ? T.correctReason : T.previewNote}</h3>
            <p>{p.note}</p>
          </>
        ) : null}
        {p.certificateLink ? (
          <>
            <h3>{T.previewCertificate}</h3>
            <p>{p.certificateLink}</p>
          </>
        ) : null}
        <p>{T.previewNotices(p.notices)}</p>
      </section>
      {staff ? (
        <form method="post" action={`${base}/${p.action}`}>
          <Csrf staff={staff} />
          <input type="hidden" name="status" value={p.status} />
          {p.note !== null ? (
            <input type="hidden" name={p.correction ? 'reason' : 'note'} value={p.note} />
          ) : null}
          {p.certificate ? <input type="hidden" name="certificate" value={p.certificate} /> : null}
          <input type="hidden" name="potvrdit" value="1" />
          <div className="console-pager">
            <button type="submit" className="btn btn--primary">
              {T.previewSave}
            </button>
            <a href={base}>{T.previewBack}</a>
          </div>
        </form>
      ) : null}
    </Layout>
  );
}
