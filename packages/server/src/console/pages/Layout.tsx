import type { ReactNode } from 'react';
import { CONSOLE_PATH, mayAdminister, type Staff } from '../staff.js';
import { T } from '../texts.js';

/** What every page of the console is drawn with. */
export interface PageFrame {
  /** The stylesheet's address (the web build's hashed console CSS, console/stylesheet.ts). */
  stylesheet: string | null;
  /** The signed-in staff member; null on the sign-in page and the error pages before sign-in. */
  staff: Staff | null;
  /** Which item of the navigation is this page. */
  current?: 'queue' | 'audit' | 'admin';
}

/** A hidden field with the session's CSRF token: every form of the console that changes anything. */
export function Csrf({ staff }: { staff: Staff }) {
  return <input type="hidden" name="csrf" value={staff.csrf} />;
}

/**
 * The page: the portal's header (brand, the console's navigation, who is signed in and the
 * sign-out button), one `main` with the page's `h1`, no script. The title names the page first.
 */
export function Layout({ frame, title, children }: { frame: PageFrame; title: string; children: ReactNode }) {
  const { staff } = frame;
  return (
    <html lang="cs">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} – ${T.product}`}</title>
        {frame.stylesheet ? <link rel="stylesheet" href={frame.stylesheet} /> : null}
      </head>
      <body className="console-body">
        <a className="skip-link" href="#obsah">
          {T.skip}
        </a>
        <header className="header">
          <div className="container header__bar">
            <a href={CONSOLE_PATH} className="header__brand">
              <span className="header__authority">{T.product}</span>
            </a>
            {staff ? (
              <div className="console-user">
                <span>
                  {T.signedInAs} {staff.name} ({T.roles[staff.role]})
                </span>
                <form method="post" action={`${CONSOLE_PATH}/odhlaseni`}>
                  <Csrf staff={staff} />
                  <button type="submit" className="btn btn--outlined">
                    {T.signOut}
                  </button>
                </form>
              </div>
            ) : null}
          </div>
          {staff ? (
            <div className="container console-navrow">
              <nav className="console-nav" aria-label={T.navLabel}>
                <ul>
                  <li>
                    <a href={CONSOLE_PATH} aria-current={frame.current === 'queue' ? 'page' : undefined}>
                      {T.navQueue}
                    </a>
                  </li>
                  {mayAdminister(staff.role) ? (
                    <li>
                      <a
                        href={`${CONSOLE_PATH}/audit`}
                        aria-current={frame.current === 'audit' ? 'page' : undefined}
                      >
                        {T.navAudit}
                      </a>
                    </li>
                  ) : null}
                  {mayAdminister(staff.role) ? (
                    <li>
                      <a
                        href={`${CONSOLE_PATH}/sprava`}
                        aria-current={frame.current === 'admin' ? 'page' : undefined}
                      >
                        {T.navAdmin}
                      </a>
                    </li>
                  ) : null}
                </ul>
              </nav>
            </div>
          ) : null}
        </header>
        <main id="obsah" className="console-main" tabIndex={-1}>
          <div className="container">{children}</div>
        </main>
        <footer className="footer">
          <div className="container footer__inner">
            <p>{T.authority}</p>
          </div>
        </footer>
      </body>
    </html>
  );
}

/** A success or problem message at the top of a page (announced: role status / alert). */
export function Notice({ kind, children }: { kind: 'success' | 'danger' | 'info'; children: ReactNode }) {
  return (
    <div className={`alert alert--${kind}`} role={kind === 'danger' ? 'alert' : 'status'}>
      <div className="alert__body">
        <p className="alert__text">{children}</p>
      </div>
    </div>
  );
}

export interface FieldError {
  /** The id of the control the error belongs to (the summary links to it). */
  field: string;
  message: string;
}

/** The error summary: a list of links to the fields, focused first by its heading's position. */
export function ErrorSummary({ errors }: { errors: FieldError[] }) {
  if (errors.length === 0) return null;
  return (
    <div className="alert alert--danger" role="alert" aria-labelledby="chyby-nadpis">
      <div className="alert__body">
        <h2 id="chyby-nadpis" className="alert__text">
          {T.errorSummary}
        </h2>
        <ul>
          {errors.map((e) => (
            <li key={e.field}>
              <a href={`#${e.field}`}>{e.message}</a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The message under a control that has an error (its id is named by the control's aria-describedby). */
export function FieldMessage({ id, error }: { id: string; error: FieldError | undefined }) {
  return error ? (
    <p className="console-error" id={`${id}-chyba`}>
      {error.message}
    </p>
  ) : null;
}
