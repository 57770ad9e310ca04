import { firstState, stateWords } from '@ros/domain';
import { CONSOLE_PATH, mayAct } from '../staff.js';
import { T } from '../texts.js';
import { pragueTime } from '../time.js';
import { Csrf, ErrorSummary, Layout, Notice } from './Layout.js';
import { RequestActions } from './RequestActions.js';
import type { RequestPageProps } from './requestPageProps.js';
import { stepWords } from './words.js';

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

      <RequestActions p={p} />

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
