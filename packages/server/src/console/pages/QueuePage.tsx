import { requestState, stateWords } from '@ros/domain';
import type { QueueRow, QueueTab } from '../queue.js';
import { QUEUE_TABS } from '../queue.js';
import type { SearchRow } from '../search.js';
import { CONSOLE_PATH } from '../staff.js';
import { T } from '../texts.js';
import { czechDate, pragueTime } from '../time.js';
import { ErrorSummary, type FieldError, FieldMessage, Layout, type PageFrame } from './Layout.js';

/** One row of the queue or of a search's results. */
export type QueueRowView = QueueRow | SearchRow;

/** What the search form was given (as typed, for showing it again). */
export interface SearchInput {
  reference: string;
  name: string;
  birthDate: string;
  birthNumber: string;
}

export interface QueuePageProps {
  frame: PageFrame;
  counts: Record<QueueTab, number>;
  /** The tab shown, or null when the page shows a search's results. */
  tab: QueueTab | null;
  search: SearchInput;
  searchErrors: FieldError[];
  rows: QueueRowView[];
  /** The address of the next page, when there is one. */
  next: string | null;
  /** Whether this is a later page (a link back to the first). */
  paged: boolean;
  firstPage: string;
  now: Date;
}

const statusText = (status: QueueRow['status'], viaNia: boolean) =>
  stateWords('cs', requestState(status, viaNia ? 'nia' : 'pdf')).state;

function ageDays(createdAt: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(createdAt).getTime()) / 86_400_000));
}

function SearchField(props: {
  id: string;
  name: keyof SearchInput;
  label: string;
  hint: string;
  value: string;
  errors: FieldError[];
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
}) {
  const error = props.errors.find((e) => e.field === props.id);
  const described = [`${props.id}-napoveda`, error ? `${props.id}-chyba` : null].filter(Boolean).join(' ');
  return (
    <div className="console-field">
      <label htmlFor={props.id}>{props.label}</label>
      <p className="console-hint" id={`${props.id}-napoveda`}>
        {props.hint}
      </p>
      <FieldMessage id={props.id} error={error} />
      <input
        id={props.id}
        name={props.name}
        type="text"
        defaultValue={props.value}
        maxLength={100}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        spellCheck={false}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
      />
    </div>
  );
}

export function QueuePage(p: QueuePageProps) {
  const title = p.tab ? `${T.queueTitle}: ${T.tabs[p.tab]}` : T.searchResults;
  return (
    <Layout frame={p.frame} title={title}>
      <h1>{T.queueTitle}</h1>
      <ErrorSummary errors={p.searchErrors} />
      <search aria-labelledby="hledat-nadpis">
        <form method="get" action={CONSOLE_PATH}>
          <h2 id="hledat-nadpis">{T.searchTitle}</h2>
          <div className="console-search">
            <SearchField
              id="hledat-cislo"
              name="reference"
              label={T.searchReference}
              hint={T.searchReferenceHint}
              value={p.search.reference}
              errors={p.searchErrors}
            />
            <SearchField
              id="hledat-jmeno"
              name="name"
              label={T.searchName}
              hint={T.searchNameHint}
              value={p.search.name}
              errors={p.searchErrors}
            />
            <SearchField
              id="hledat-narozeni"
              name="birthDate"
              label={T.searchBirthDate}
              hint={T.searchBirthDateHint}
              value={p.search.birthDate}
              errors={p.searchErrors}
            />
            <SearchField
              id="hledat-rc"
              name="birthNumber"
              label={T.searchBirthNumber}
              hint={T.searchBirthNumberHint}
              value={p.search.birthNumber}
              errors={p.searchErrors}
              inputMode="numeric"
            />
          </div>
          <button type="submit" className="btn btn--primary">
            {T.searchButton}
          </button>
        </form>
      </search>

      <nav className="console-tabs" aria-label={T.tabsLabel}>
        <ul>
          {QUEUE_TABS.map((tab) => (
            <li key={tab}>
              <a href={`${CONSOLE_PATH}?stav=${tab}`} aria-current={p.tab === tab ? 'page' : undefined}>
                {T.tabs[tab]} ({p.counts[tab]})
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <h2 id="seznam">{p.tab ? T.tabs[p.tab] : T.searchResults}</h2>
      {p.rows.length === 0 ? (
        <p>{p.tab ? T.queueEmpty : T.searchNone}</p>
      ) : (
        <div className="console-table-wrap">
          <table className="console-table" aria-labelledby="seznam">
            <thead>
              <tr>
                <th scope="col">{T.columns.reference}</th>
                <th scope="col">{T.columns.name}</th>
                <th scope="col">{T.columns.birthDate}</th>
                <th scope="col">{T.columns.channel}</th>
                <th scope="col">{T.columns.language}</th>
                <th scope="col">{T.columns.duplicate}</th>
                <th scope="col">{T.columns.age}</th>
                {p.tab ? null : <th scope="col">{T.columns.status}</th>}
              </tr>
            </thead>
            <tbody>
              {p.rows.map((r) => (
                <tr key={r.reference}>
                  <th scope="row">
                    <a href={`${CONSOLE_PATH}/zadost/${r.reference}`}>{r.reference}</a>
                  </th>
                  <td>{'erased' in r && r.erased ? <em>{T.erasedMark}</em> : r.name}</td>
                  <td>{r.birthDate ? czechDate(r.birthDate) : ''}</td>
                  <td>{r.viaNia ? T.channelNia : T.channelPaper}</td>
                  <td>{T.languages[r.language] ?? r.language}</td>
                  <td>{r.duplicate ? T.kindDuplicate : T.kindFirst}</td>
                  <td>
                    <time dateTime={r.createdAt}>{pragueTime(r.createdAt)}</time> (
                    {T.daysAgo(ageDays(r.createdAt, p.now))})
                  </td>
                  {p.tab ? null : <td>{statusText(r.status, r.viaNia)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="console-pager">
        {p.paged ? <a href={p.firstPage}>{T.firstPage}</a> : null}
        {p.next ? <a href={p.next}>{T.nextPage}</a> : null}
      </div>
    </Layout>
  );
}
