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
  /** A correction (issue 38): the corrected outcome in our words, and the reason (its note). */
  outcome?: string;
  /** Our own words about what to do (not the authority's note). */
  hint?: string;
  current?: boolean;
  link?: { to: string; text: string };
}

/**
 * Where the request is, as dated steps (docs/status.md): filled in on the portal (paper) or sent
 * electronically (NIA); on the paper route "waiting for your signed request" until the authority
 * receives it; every change the authority reported, with its note; a decision last (an issued
 * certificate links to its validity check when the authority gave its id). A correction of a
 * decision (issue 38) is a step of its own, "Decision corrected", with the corrected outcome and
 * the reason; a decision it replaced says so. The current outcome is always the last event's.
 * Nothing of the person: only statuses, dates and the note. The words are @ros/domain's
 * statusWords (issue 36).
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
    const words = stateWords(lang, requestState(e.status, answer.channel)).step;
    // A decision that a later correction replaced: history, never the outcome.
    const corrected =
      DECIDED_STATUSES.includes(e.status) && answer.events.slice(i + 1).some((later) => later.correction);
    steps.push({
      key: `${e.status}-${i}`,
      ...(e.correction ? { title: t('STATUS.STEP.CORRECTED'), outcome: words } : { title: words }),
      date: displayDate(e.at),
      note: e.note,
      ...(corrected ? { hint: t('STATUS.STEP.CORRECTED_LATER') } : {}),
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
            {s.outcome ? (
              <p className="status-timeline__outcome" data-testid="status-corrected-outcome">
                {s.outcome}
              </p>
            ) : null}
            {s.hint ? <p className="status-timeline__hint">{s.hint}</p> : null}
            {s.outcome && s.note ? (
              <p className="status-timeline__note" data-testid="status-correction-reason">
                {t('STATUS.STEP.CORRECTION_REASON')} <span lang="cs">{s.note}</span>
              </p>
            ) : s.note ? (
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
