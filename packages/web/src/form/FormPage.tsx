import { type Prefill, prefillFromRegister } from '@ros/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../components/Button';
import { useHeaderTitle } from '../shell/title';
import { PrefillSummary } from './PrefillSummary';
import { type SearchOutcome, SearchStep } from './SearchStep';
import './form.css';

type View = { step: 'search' } | { step: 'prefilled'; prefill: Prefill } | { step: 'manual' };

/**
 * The request form screen (spec section 2). Step 1 finds the person (unless the eid query
 * parameter is present); a match prefills the form. Until the full form lands (issue 5) a
 * match shows the prefilled values and "fill without document" a short note.
 */
export default function FormPage({ duplicate }: { duplicate: boolean }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  useHeaderTitle(duplicate ? 'TITLE.DUPLICATE' : 'TITLE.DEFAULT');
  const eid = params.has('eid');
  const [view, setView] = useState<View>(eid ? { step: 'manual' } : { step: 'search' });
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Moving to the next step: focus goes to its heading, so screen readers announce it.
  useEffect(() => {
    if (view.step !== 'search') headingRef.current?.focus();
  }, [view.step]);

  const onDone = (o: SearchOutcome) => {
    if (o.kind === 'manual') setView({ step: 'manual' });
    else setView({ step: 'prefilled', prefill: prefillFromRegister(o.person, { duplicate }) });
    window.scrollTo({ top: 0 });
  };

  return (
    <div className="request-form">
      <h1>{t(duplicate ? 'FORM.HEADING_DUPLICATE' : 'FORM.HEADING')}</h1>
      {view.step === 'search' && <SearchStep duplicate={duplicate} onDone={onDone} />}
      {view.step === 'prefilled' && (
        <section className="card" aria-labelledby="prefill-title">
          <h2 id="prefill-title" ref={headingRef} tabIndex={-1}>
            {t('FORM.PREFILL.HEADING')}
          </h2>
          <p>{t('FORM.PREFILL.INTRO')}</p>
          <PrefillSummary prefill={view.prefill} />
          <Button variant="outlined" onClick={() => setView({ step: 'search' })}>
            {t('FORM.BACK_TO_SEARCH')}
          </Button>
        </section>
      )}
      {view.step === 'manual' && (
        <section className="card" aria-labelledby="manual-title">
          <h2 id="manual-title" ref={headingRef} tabIndex={-1}>
            {t('FORM.MANUAL.HEADING')}
          </h2>
          <p>{t('FORM.MANUAL.NOTE')}</p>
          {!eid && (
            <Button variant="outlined" onClick={() => setView({ step: 'search' })}>
              {t('FORM.BACK_TO_SEARCH')}
            </Button>
          )}
        </section>
      )}
    </div>
  );
}
