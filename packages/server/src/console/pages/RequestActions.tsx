import { DECIDED_STATUSES, nextStatuses } from '@ros/domain';
import { CONSOLE_PATH, mayAct } from '../staff.js';
import { T } from '../texts.js';
import { czechDate } from '../time.js';
import { Csrf, type FieldError, FieldMessage } from './Layout.js';
import type { RequestPageData, RequestPageProps } from './requestPageProps.js';
import { stepWords } from './words.js';

/**
 * The clerk's forms on the request page (console/routes/actions.ts answers them): receive, change
 * the status with a note, issue with one of the person's certificates, correct a decision. None
 * for a reader (a sentence says who acts) or an erased request.
 */

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

export function RequestActions({ p }: { p: RequestPageProps }) {
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
