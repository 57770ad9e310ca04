import { DECIDED_STATUSES, firstState, requestState, type StatusAnswer, stateWords } from '@ros/domain';
import { LangLink, useLang } from '../shell/lang';
import { useT } from '../shell/translate';
import { displayDate } from './lookup';

/** One step of the timeline: done (with its date), or the current wait. */
interface Step {
  key: string;
  title: string;
  date?: string;
  note?: string | null;
  /** Our own words about what to do (not the authority's note). */
  hint?: string;
  current?: boolean;
  link?: { to: string; text: string };
}

/**
 * Where the request is, as dated steps (docs/status.md): filled in on the portal (paper) or sent
 * electronically (NIA); on the paper route "waiting for your signed request" until the authority
 * receives it; every change the authority reported, with its note; a decision last (an issued
 * certificate links to its validity check when the authority gave its id). Nothing of the person:
 * only statuses, dates and the note. The words are @ros/domain's statusWords (issue 36).
 */
export function Timeline({ answer }: { answer: StatusAnswer }) {
  const { t } = useT();
  const lang = useLang();
  const steps: Step[] = [
    {
      key: 'submitted',
      title: stateWords(lang, firstState(answer.channel)).step,
      date: displayDate(answer.submitted_at),
    },
  ];
  if (answer.status === 'new') {
    steps.push({
      key: 'waiting',
      title: stateWords(lang, requestState('new', answer.channel)).step,
      ...(answer.channel === 'pdf' ? { hint: t('STATUS.STEP.WAITING_PAPER_NOTE') } : {}),
      current: true,
    });
  }
  answer.events.forEach((e, i) => {
    const last = i === answer.events.length - 1;
    const issued = e.status === 'issued' && last && answer.certificate;
    steps.push({
      key: `${e.status}-${i}`,
      title: stateWords(lang, requestState(e.status, answer.channel)).step,
      date: displayDate(e.at),
      note: e.note,
      current: last && !DECIDED_STATUSES.includes(e.status),
      ...(issued ? { link: { to: `/check?id=${answer.certificate}`, text: t('STATUS.VALIDITY_LINK') } } : {}),
    });
  });
  return (
    <ol className="status-timeline" data-testid="status-timeline">
      {steps.map((s) => (
        <li
          key={s.key}
          className={`status-timeline__step${s.current ? ' status-timeline__step--current' : ''}`}
          data-testid="status-step"
          aria-current={s.current ? 'step' : undefined}
        >
          <span className="status-timeline__dot" aria-hidden="true" />
          <div className="status-timeline__body">
            <p className="status-timeline__title">
              {s.title}
              {s.current ? <span className="visually-hidden"> ({t('STATUS.CURRENT')})</span> : null}
            </p>
            {s.date ? <p className="status-timeline__date">{s.date}</p> : null}
            {s.hint ? <p className="status-timeline__hint">{s.hint}</p> : null}
            {s.note ? (
              // The authority writes its note in Czech, also on the English page (WCAG 3.1.2).
              <p className="status-timeline__note" lang="cs" data-testid="status-note">
                {s.note}
              </p>
            ) : null}
            {s.link ? (
              <LangLink to={s.link.to} data-testid="status-validity-link">
                {s.link.text}
              </LangLink>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
