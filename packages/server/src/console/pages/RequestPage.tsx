import {
  DECIDED_STATUSES,
  firstState,
  nextStatuses,
  type RequestStatus,
  requestState,
  stateWords,
} from '@ros/domain';
import type { ConsoleCertificate } from '../certificates.js';
import type { RequestView } from '../requestView.js';
import { CONSOLE_PATH, mayAct } from '../staff.js';
import { T } from '../texts.js';
import { czechDate, pragueTime } from '../time.js';
import {
  Csrf,
  ErrorSummary,
  type FieldError,
  FieldMessage,
  Layout,
  Notice,
  type PageFrame,
} from './Layout.js';

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

export const stepWords = (status: RequestStatus, viaNia: boolean) =>
  stateWords('cs', requestState(status, viaNia ? 'nia' : 'pdf')).step;

function Certificates(props: {
  name: string;
  idPrefix: string;
  request: RequestPageData;
  chosen: string | undefined;
  error: FieldError | undefined;
  allowNone?: boolean;
}) {
  const { request } = props;
  return (
    <fieldset
      className="console-field"
      aria-describedby={props.error ? `${props.idPrefix}-chyba` : undefined}
    >
      <legend id={props.idPrefix}>{props.allowNone ? T.correctCertificate : T.issueCertificate}</legend>
      <FieldMessage id={props.idPrefix} error={props.error} />
      {props.allowNone ? (
        <label className="console-radio">
          <input type="radio" name={props.name} value="" defaultChecked={!props.chosen} />
          <span>{T.noCertificate}</span>
        </label>
      ) : null}
      {request.certificates.map((c, i) => (
        <label className="console-radio" key={c.id}>
          <input
            type="radio"
            name={props.name}
            value={c.id}
            id={i === 0 && !props.allowNone ? `${props.idPrefix}-prvni` : undefined}
            defaultChecked={props.chosen === c.id}
          />
          <span>
            {c.id}, {T.certificateValidTo} {c.validTo ? czechDate(c.validTo) : '–'} (
            {c.inForce ? T.certificateInForce : T.certificateNotInForce})
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function Actions({ p }: { p: RequestPageProps }) {
  const { request: r, frame } = p;
  const staff = frame.staff;
  if (!staff || r.erased) return null;
  if (!mayAct(staff.role)) return <p>{T.readerNote}</p>;
  const base = `${CONSOLE_PATH}/zadost/${r.reference}`;
  const decided = DECIDED_STATUSES.includes(r.status);
  const moves = nextStatuses(r.status).filter((s) => s !== 'issued' && s !== 'received');
  const errorOf = (action: string, field: string) =>
    p.form?.action === action ? p.form.errors.find((e) => e.field === field) : undefined;
  const sentValue = (action: string, name: string) =>
    p.form?.action === action ? p.form.values[name] : undefined;
  const noteError = errorOf('status', 'stav-poznamka');
  const reasonError = errorOf('correct', 'oprava-duvod');
  return (
    <section aria-labelledby="ukony">
      <h2 id="ukony">{T.actionsTitle}</h2>
      <div className="console-actions">
        {r.status === 'new' ? (
          <section aria-labelledby="prevzeti">
            <h3 id="prevzeti">{T.receiveTitle}</h3>
            <p>{T.receiveText}</p>
            <form method="post" action={`${base}/prevzit`}>
              <Csrf staff={staff} />
              <button type="submit" className="btn btn--primary">
                {T.receiveButton}
              </button>
            </form>
          </section>
        ) : null}
        {!decided && moves.length > 0 ? (
          <section aria-labelledby="zmena-stavu">
            <h3 id="zmena-stavu">{T.statusTitle}</h3>
            <form method="post" action={`${base}/stav`}>
              <Csrf staff={staff} />
              <div className="console-field">
                <label htmlFor="stav-novy">{T.statusNew}</label>
                <select id="stav-novy" name="status" defaultValue={sentValue('status', 'status')}>
                  {moves.map((s) => (
                    <option key={s} value={s}>
                      {stepWords(s, r.viaNia)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="console-field">
                <label htmlFor="stav-poznamka">{T.statusNote}</label>
                <p className="console-hint" id="stav-poznamka-napoveda">
                  {T.statusNoteHint}
                </p>
                <FieldMessage id="stav-poznamka" error={noteError} />
                <textarea
                  id="stav-poznamka"
                  name="note"
                  maxLength={500}
                  defaultValue={sentValue('status', 'note')}
                  aria-describedby={`stav-poznamka-napoveda${noteError ? ' stav-poznamka-chyba' : ''}`}
                  aria-invalid={noteError ? true : undefined}
                />
              </div>
              <button type="submit" className="btn btn--primary">
                {T.statusButton}
              </button>
            </form>
          </section>
        ) : null}
        {!decided && r.status !== 'new' ? (
          <section aria-labelledby="vydani">
            <h3 id="vydani">{T.issueTitle}</h3>
            {r.certificates.length === 0 ? (
              <p>{T.issueNone}</p>
            ) : (
              <form method="post" action={`${base}/vydat`}>
                <Csrf staff={staff} />
                <Certificates
                  name="certificate"
                  idPrefix="vydani-doklad"
                  request={r}
                  chosen={sentValue('issue', 'certificate')}
                  error={errorOf('issue', 'vydani-doklad')}
                />
                <button type="submit" className="btn btn--primary">
                  {T.issueButton}
                </button>
              </form>
            )}
          </section>
        ) : null}
        {decided ? (
          <section aria-labelledby="oprava">
            <h3 id="oprava">{T.correctTitle}</h3>
            <p>{T.correctText}</p>
            <form method="post" action={`${base}/oprava`}>
              <Csrf staff={staff} />
              <div className="console-field">
                <label htmlFor="oprava-stav">{T.correctStatus}</label>
                <select
                  id="oprava-stav"
                  name="status"
                  defaultValue={sentValue('correct', 'status') ?? r.status}
                >
                  {(
                    ['received', 'in_progress', 'documents_needed', 'issued', 'refused', 'withdrawn'] as const
                  ).map((s) => (
                    <option key={s} value={s}>
                      {stepWords(s, r.viaNia)}
                    </option>
                  ))}
                </select>
              </div>
              <Certificates
                name="certificate"
                idPrefix="oprava-doklad"
                request={r}
                chosen={sentValue('correct', 'certificate')}
                error={errorOf('correct', 'oprava-doklad')}
                allowNone
              />
              <div className="console-field">
                <label htmlFor="oprava-duvod">{T.correctReason}</label>
                <FieldMessage id="oprava-duvod" error={reasonError} />
                <textarea
                  id="oprava-duvod"
                  name="reason"
                  maxLength={500}
                  required
                  defaultValue={sentValue('correct', 'reason')}
                  aria-describedby={reasonError ? 'oprava-duvod-chyba' : undefined}
                  aria-invalid={reasonError ? true : undefined}
                />
              </div>
              <button type="submit" className="btn btn--primary">
                {T.correctButton}
              </button>
            </form>
          </section>
        ) : null}
      </div>
    </section>
  );
}

export function RequestPage(p: RequestPageProps) {
  const r = p.request;
  const staff = p.frame.staff;
  const base = `${CONSOLE_PATH}/zadost/${r.reference}`;
  return (
    <Layout frame={p.frame} title={T.requestTitle(r.reference)}>
      <p>
        <a href={CONSOLE_PATH}>{T.backToQueue}</a>
      </p>
      <h1>{T.requestTitle(r.reference)}</h1>
      {p.done && T.done[p.done] ? <Notice kind="success">{T.done[p.done]}</Notice> : null}
      <ErrorSummary errors={p.form?.errors ?? []} />
      {r.erased ? (
        <div className="alert alert--info">
          <div className="alert__body">
            <h2 className="alert__text">{T.erasedTitle}</h2>
            <p>{T.erasedText}</p>
          </div>
        </div>
      ) : null}

      <h2>{T.overview}</h2>
      <dl className="console-dl">
        <dt>{T.currentStatus}</dt>
        <dd>{stepWords(r.status, r.viaNia)}</dd>
        <dt>{T.submittedAt}</dt>
        <dd>{pragueTime(r.createdAt)}</dd>
        <dt>{T.receivedAt}</dt>
        <dd>{r.receivedAt ? pragueTime(r.receivedAt) : '–'}</dd>
        <dt>{T.channel}</dt>
        <dd>{r.viaNia ? T.channelNia : T.channelPaper}</dd>
        <dt>{T.language}</dt>
        <dd>{T.languages[r.language] ?? r.language}</dd>
        <dt>{T.kind}</dt>
        <dd>{r.duplicate ? T.kindDuplicate : T.kindFirst}</dd>
      </dl>

      <Actions p={p} />

      {r.sections.map((s) => (
        <section key={s.title} aria-label={s.title}>
          <h2>{s.title}</h2>
          <dl className="console-dl">
            {s.rows.map((row) => [
              <dt key={`${row.label}-t`}>{row.label}</dt>,
              <dd key={`${row.label}-d`}>{row.value}</dd>,
            ])}
          </dl>
        </section>
      ))}

      {r.legal === null ? null : (
        <section aria-labelledby="prohlaseni">
          <h2 id="prohlaseni">{T.legalTitle}</h2>
          <p>
            {T.legalVersion}: {r.legal.version}
          </p>
          <ul>
            {r.legal.items.map((item) => (
              <li key={item.key}>
                {item.text} <strong>({item.ticked ? T.legalTicked : T.legalNotTicked})</strong>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="prubeh">
        <h2 id="prubeh">{T.historyTitle}</h2>
        <div className="console-table-wrap">
          <table className="console-table" aria-labelledby="prubeh">
            <thead>
              <tr>
                <th scope="col">{T.historyAt}</th>
                <th scope="col">{T.historyStatus}</th>
                <th scope="col">{T.historyNote}</th>
                <th scope="col">{T.historyCertificate}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>{pragueTime(r.createdAt)}</td>
                <td>{stateWords('cs', firstState(r.viaNia ? 'nia' : 'pdf')).step}</td>
                <td />
                <td />
              </tr>
              {r.history.map((h) => (
                <tr key={h.id}>
                  <td>{pragueTime(h.at)}</td>
                  <td>
                    {h.correction ? <strong>{T.correctionMark}: </strong> : null}
                    {stepWords(h.status, r.viaNia)}
                  </td>
                  <td>{h.note ?? ''}</td>
                  <td>{h.certificate ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="oznameni">
        <h2 id="oznameni">{T.noticesTitle}</h2>
        {r.notices.length === 0 ? (
          <p>{T.noticesNone}</p>
        ) : (
          <div className="console-table-wrap">
            <table className="console-table" aria-labelledby="oznameni">
              <thead>
                <tr>
                  <th scope="col">{T.noticeColumns.channel}</th>
                  <th scope="col">{T.noticeColumns.state}</th>
                  <th scope="col">{T.noticeColumns.created}</th>
                  <th scope="col">{T.noticeColumns.sent}</th>
                  <th scope="col">{T.noticeColumns.attempts}</th>
                </tr>
              </thead>
              <tbody>
                {r.notices.map((n) => (
                  <tr key={n.id}>
                    <td>{T.noticeChannel[n.channel] ?? n.channel}</td>
                    <td>
                      {T.noticeState[n.state] ?? n.state}
                      {n.state === 'given_up' && staff && mayAct(staff.role) && !r.erased ? (
                        <form method="post" action={`${base}/oznameni/${n.id}/znovu`}>
                          <Csrf staff={staff} />
                          <button type="submit" className="btn btn--secondary">
                            {T.resend}
                            <span className="visually-hidden">
                              {' '}
                              ({T.noticeChannel[n.channel] ?? n.channel})
                            </span>
                          </button>
                        </form>
                      ) : null}
                    </td>
                    <td>{pragueTime(n.createdAt)}</td>
                    <td>{n.sentAt ? pragueTime(n.sentAt) : '–'}</td>
                    <td>{n.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {r.erased ? null : (
        <section aria-labelledby="pdf">
          <h2 id="pdf">{T.pdfTitle}</h2>
          <p>
            <a href={`${base}/pdf`}>{T.pdfOpen}</a>
          </p>
          <iframe className="console-pdf" src={`${base}/pdf`} title={T.pdfFrame(r.reference)} />
        </section>
      )}
    </Layout>
  );
}
