import type { ValidationError } from '@ros/domain';
import { useEffect, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { Button } from '../../components/Button';
import { LangLink } from '../../shell/lang';
import { useT } from '../../shell/translate';
import { fieldId, useCoverage, useCoverageOk, useFormStatus } from './context';
import { useErrorTexts } from './messages';
import { monthRanges, useActivityLabel } from './sections/ActivitiesSection';

/** What just happened to the request that the user must see: one message per event. */
export type FormEventKind = 'invalid' | 'timeNotCovered' | 'submitError' | 'botCheck' | 'niaMismatch';
export interface FormEvent {
  kind: FormEventKind;
  /** Counts the events, so the same kind twice moves focus again. */
  n: number;
}

/** The alert text of each event (the spec's ALERTS keys). */
const EVENT_KEYS: Record<Exclude<FormEventKind, 'invalid'>, string> = {
  timeNotCovered: 'ALERTS.TIME_NOT_COVERED',
  submitError: 'ALERTS.SUBMIT_FORM_ERROR',
  botCheck: 'ALERTS.SUBMIT_BOT_CHECK_FAILED',
  niaMismatch: 'ALERTS.SSO_MISMATCH',
};
/** Each message's heading: the name focus announces (issue 27: an alert with no name said little). */
const EVENT_TITLES: Record<Exclude<FormEventKind, 'invalid'>, string> = {
  timeNotCovered: 'FORM.NOTICE.TITLE_TIME_NOT_COVERED',
  submitError: 'FORM.NOTICE.TITLE_SUBMIT_ERROR',
  botCheck: 'FORM.NOTICE.TITLE_SUBMIT_ERROR',
  niaMismatch: 'FORM.NOTICE.TITLE_NIA_MISMATCH',
};

/**
 * Moves the page to a message at the top of the form and focus onto it, so it is seen and read
 * out (focus announces its name and text), and the next Tab reaches its links.
 */
function useShowOnEvent(event: FormEvent | null, ref: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!event || !el) return;
    window.scrollTo({ top: 0 });
    el.focus({ preventScroll: true });
    // On a phone the page head can push the box down: its heading must be in view.
    const top = el.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) el.scrollIntoView?.({ block: 'start' });
  }, [event, ref]);
}

/** Entries in the order of the page (the controls' order in the document). */
function inPageOrder(paths: string[]): string[] {
  const el = (p: string) => document.getElementById(fieldId(p));
  return [...paths].sort((a, b) => {
    const x = el(a);
    const y = el(b);
    if (!x || !y) return x ? -1 : y ? 1 : 0;
    return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}

/**
 * The top of the form after a finish or a send (GOV.UK error summary): a failed finish lists
 * every problem in page order, each naming its field and linking to it; a refused or failed send
 * says why and what to do. Nothing else is shown for the same event (no alert on top).
 */
export function ErrorSummary({ event, onRetry }: { event: FormEvent | null; onRetry: () => void }) {
  const { t } = useT();
  const texts = useErrorTexts();
  const activityLabel = useActivityLabel();
  const activities = useWatch({ name: 'past_activities' }) as Array<{ type: string }>;
  const errors = useFormStatus((s) => (s.attempted ? s.errors : null));
  const coverage = useCoverage();
  const coverageOk = useCoverageOk();
  const summaryRef = useRef<HTMLElement>(null);
  const noticeRef = useRef<HTMLElement>(null);
  useShowOnEvent(event?.kind === 'invalid' ? event : null, summaryRef);
  useShowOnEvent(event && event.kind !== 'invalid' ? event : null, noticeRef);

  const labelFor = (path: string): { prefix: string; label: string } => {
    const [top = '', index, field = ''] = path.split('.');
    if (top === 'past_activities' && index !== undefined) {
      const type = activities[Number(index)]?.type ?? '';
      return {
        prefix: `${t('FORM.ACTIVITY.ROW', { n: Number(index) + 1 })}: `,
        label: activityLabel(field, type),
      };
    }
    if (top === 'abroad_stay' && index !== undefined) {
      return {
        prefix: `${t('FORM.ABROAD.ROW', { n: Number(index) + 1 })}: `,
        label: t(`FORM.ABROAD.${field.toUpperCase()}`),
      };
    }
    return { prefix: '', label: t(`FORM.FIELDS.${top}`) };
  };
  const entry = (path: string, e: ValidationError) => {
    const { prefix, label } = labelFor(path);
    return prefix + texts.inSummary(path, e, label);
  };

  const list = errors ? inPageOrder(Object.keys(errors)) : [];
  const showSummary = errors !== null && (list.length > 0 || !coverageOk);
  const notice = event && event.kind !== 'invalid' ? event.kind : null;

  return (
    <>
      {notice && (
        <section
          ref={noticeRef}
          className={`form-notice form-notice--${notice === 'timeNotCovered' ? 'warning' : 'danger'}`}
          tabIndex={-1}
          // Read once, on focus (its heading and its text): not also a live region, which would
          // have it said twice (issue 35).
          aria-labelledby="form-notice-title"
          aria-describedby="form-notice-text"
          data-testid="form-notice"
          data-alert-key={EVENT_KEYS[notice]}
        >
          <h2 id="form-notice-title" className="form-notice__title">
            {t(EVENT_TITLES[notice])}
          </h2>
          <p id="form-notice-text">{t(EVENT_KEYS[notice])}</p>
          {notice === 'submitError' && <p>{t('FORM.NOTICE.SUBMIT_ERROR_NEXT')}</p>}
          {(notice === 'submitError' || notice === 'botCheck') && (
            <Button variant="outlined" onClick={onRetry} data-testid="notice-retry">
              {t('FORM.NOTICE.RETRY')}
            </Button>
          )}
          {notice === 'timeNotCovered' && <a href="#section-activities">{t('FORM.NOTICE.TO_ACTIVITIES')}</a>}
          {notice === 'niaMismatch' && <LangLink to="/">{t('FORM.NOTICE.HOME')}</LangLink>}
        </section>
      )}
      {showSummary && (
        <section
          ref={summaryRef}
          className="error-summary"
          tabIndex={-1}
          // Read once per finish, on focus (its name and its text), not again at each keystroke
          // that changes its list: not a live region (issue 35).
          aria-labelledby="error-summary-title"
          aria-describedby="error-summary-text"
          data-testid="error-summary"
          data-alert-key={list.length > 0 ? 'ALERTS.FORM_INVALID' : 'ALERTS.TIME_NOT_COVERED'}
        >
          <h2 id="error-summary-title">{t('FORM.SUMMARY.HEADING')}</h2>
          <p id="error-summary-text">
            {t(list.length > 0 ? 'ALERTS.FORM_INVALID' : 'ALERTS.TIME_NOT_COVERED')}
          </p>
          <ul>
            {list.map((path) => (
              <li key={path}>
                <a
                  href={`#${fieldId(path)}`}
                  onClick={(ev) => {
                    const el = document.getElementById(fieldId(path));
                    if (!el) return;
                    ev.preventDefault();
                    el.scrollIntoView?.({ block: 'center' });
                    // A group (a fieldset of boxes) is not focusable: its first box is.
                    const box = el.matches('input, select, textarea')
                      ? el
                      : (el.querySelector<HTMLElement>('input, select, textarea') ?? el);
                    box.focus();
                  }}
                >
                  {entry(path, errors?.[path] as ValidationError)}
                </a>
              </li>
            ))}
            {!coverageOk && (
              <li>
                <a href="#section-activities">
                  {t('FORM.SUMMARY.NOT_COVERED', { months: monthRanges(coverage.uncovered).join(', ') })}
                </a>
              </li>
            )}
          </ul>
        </section>
      )}
    </>
  );
}
