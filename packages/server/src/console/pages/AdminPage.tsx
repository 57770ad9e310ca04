import { SCOPES, type Scope, type TokenInfo } from '../../intake/tokens.js';
import { CONSOLE_PATH, type Staff } from '../staff.js';
import { T } from '../texts.js';
import { pragueTime } from '../time.js';
import {
  Csrf,
  ErrorSummary,
  type FieldError,
  FieldMessage,
  Layout,
  Notice,
  type PageFrame,
} from './Layout.js';

/**
 * The administrator's page (/urad/sprava, console/routes/admin.ts): the intake API's tokens
 * (a new one shown once, here and never again), and the retention purge's state.
 */

export interface AdminView {
  tokens: TokenInfo[];
  retention: {
    /** Requests the next purge would erase now. */
    due: number;
    receivedDays: number;
    unreceivedDays: number;
    /** The last purge's audit row (not a dry run), or null when the audit trail holds none. */
    lastPurge: { at: string; actor: string; detail: string | null } | null;
  };
}

export interface CreateForm {
  name: string;
  scopes: Scope[];
}

/** The form field of a scope's checkbox (the console's forms keep one value per name). */
export const scopeField = (scope: Scope) => `scope_${scope}`;

const time = (iso: string | null) => (iso ? pragueTime(iso) : '–');

export function AdminPage(props: {
  frame: PageFrame;
  staff: Staff;
  view: AdminView;
  form: CreateForm;
  errors: FieldError[];
  created: { name: string; token: string } | null;
  done: string | null;
}) {
  const { staff, view, form, errors, created } = props;
  const errorOf = (field: string) => errors.find((e) => e.field === field);
  const nameError = errorOf('token-nazev');
  const scopesError = errorOf('token-opravneni-0');
  const r = view.retention;
  return (
    <Layout frame={{ ...props.frame, current: 'admin' }} title={T.adminTitle}>
      <h1>{T.adminTitle}</h1>
      {props.done ? <Notice kind="success">{T.adminDone[props.done]}</Notice> : null}
      {created ? (
        <section aria-labelledby="novy-token">
          <h2 id="novy-token">{T.adminCreated(created.name)}</h2>
          <Notice kind="info">{T.adminCreatedOnce}</Notice>
          <p>
            <code>{created.token}</code>
          </p>
        </section>
      ) : null}
      <ErrorSummary errors={errors} />

      <section aria-labelledby="tokeny">
        <h2 id="tokeny">{T.adminTokensTitle}</h2>
        <p>{T.adminTokensLead}</p>
        {view.tokens.length === 0 ? (
          <p>{T.adminTokensNone}</p>
        ) : (
          <div className="console-table-wrap">
            <table className="console-table" aria-labelledby="tokeny">
              <thead>
                <tr>
                  <th scope="col">{T.adminColumns.name}</th>
                  <th scope="col">{T.adminColumns.scopes}</th>
                  <th scope="col">{T.adminColumns.created}</th>
                  <th scope="col">{T.adminColumns.createdBy}</th>
                  <th scope="col">{T.adminColumns.lastUsed}</th>
                  <th scope="col">{T.adminColumns.revoked}</th>
                </tr>
              </thead>
              <tbody>
                {view.tokens.map((t) => (
                  <tr key={t.name}>
                    <td>{t.name}</td>
                    <td>{t.scopes.join(', ')}</td>
                    <td>{time(t.createdAt)}</td>
                    <td>{t.createdBy}</td>
                    <td>{time(t.lastUsedAt)}</td>
                    <td>
                      {t.revokedAt ? (
                        time(t.revokedAt)
                      ) : (
                        <form
                          method="post"
                          action={`${CONSOLE_PATH}/sprava/tokeny/${encodeURIComponent(t.name)}/zrusit`}
                        >
                          <Csrf staff={staff} />
                          <button
                            type="submit"
                            className="btn btn--outlined"
                            aria-label={T.adminRevokeLabel(t.name)}
                          >
                            {T.adminRevoke}
                          </button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

        <h3 id="novy">{T.adminCreateTitle}</h3>
        <form method="post" action={`${CONSOLE_PATH}/sprava/tokeny`} aria-labelledby="novy">
          <Csrf staff={staff} />
          <div className="console-field">
            <label htmlFor="token-nazev">{T.adminName}</label>
            <p className="console-hint" id="token-nazev-napoveda">
              {T.adminNameHint}
            </p>
            <FieldMessage id="token-nazev" error={nameError} />
            <input
              id="token-nazev"
              name="name"
              type="text"
              maxLength={64}
              defaultValue={form.name}
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={`token-nazev-napoveda${nameError ? ' token-nazev-chyba' : ''}`}
            />
          </div>
          <fieldset
            className="console-field"
            aria-describedby={scopesError ? 'token-opravneni-0-chyba' : undefined}
          >
            <legend>{T.adminScopes}</legend>
            <FieldMessage id="token-opravneni-0" error={scopesError} />
            {SCOPES.map((s, i) => (
              <label className="console-radio" key={s}>
                <input
                  type="checkbox"
                  name={scopeField(s)}
                  value="1"
                  id={`token-opravneni-${i}`}
                  defaultChecked={form.scopes.includes(s)}
                />
                <span>
                  {s} – {T.adminScopeWords[s]}
                </span>
              </label>
            ))}
          </fieldset>
          <div className="console-field">
            <button type="submit" className="btn btn--primary">
              {T.adminCreate}
            </button>
          </div>
        </form>
      </section>

      <section aria-labelledby="uchovavani">
        <h2 id="uchovavani">{T.adminRetentionTitle}</h2>
        <p>{T.adminRetentionLead}</p>
        <dl className="console-dl">
          <dt>{T.adminRetentionDue}</dt>
          <dd>{r.due}</dd>
          <dt>{T.adminRetentionReceived}</dt>
          <dd>{T.adminDays(r.receivedDays)} (ROS_RETENTION_RECEIVED_DAYS)</dd>
          <dt>{T.adminRetentionUnreceived}</dt>
          <dd>{T.adminDays(r.unreceivedDays)} (ROS_RETENTION_UNRECEIVED_DAYS)</dd>
          <dt>{T.adminRetentionLast}</dt>
          <dd>
            {r.lastPurge
              ? `${pragueTime(r.lastPurge.at)}, ${r.lastPurge.actor}${r.lastPurge.detail ? ` (${r.lastPurge.detail})` : ''}`
              : T.adminRetentionNever}
          </dd>
        </dl>
      </section>
    </Layout>
  );
}
