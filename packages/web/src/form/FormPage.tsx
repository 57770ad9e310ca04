import { defaultFormValues, prefillFromRegister } from '@ros/domain';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../components/Button';
import { Spinner } from '../components/Spinner';
import { useLang } from '../shell/lang';
import { useHeaderTitle } from '../shell/title';
import { clearDraft, loadDraft } from './draft';
import { LeaveGuardHost } from './LeaveDialog';
import { type FormStart, RequestForm } from './RequestForm';
import { useReferenceLists } from './reference';
import { type SearchOutcome, SearchStep } from './SearchStep';
import './form.css';

type View = { step: 'search' } | { step: 'form'; start: FormStart; found: boolean };

function startFromDraft(duplicate: boolean): View | null {
  const d = loadDraft(duplicate);
  if (!d) return null;
  return {
    step: 'form',
    found: !d.noPrefill,
    start: {
      // A draft saved before dial_code was a form value kept the choice beside the values.
      values: { ...defaultFormValues(), ...(d.dialCode ? { dial_code: d.dialCode } : {}), ...d.values },
      readOnly: d.readOnly,
      noPrefill: d.noPrefill,
      dataMailboxDelivery: d.dataMailboxDelivery,
      birthNameTouched: d.birthNameTouched,
      modalShown: d.modalShown,
    },
  };
}

const manualStart = (): FormStart => ({
  values: defaultFormValues(),
  readOnly: [],
  noPrefill: true,
  dataMailboxDelivery: false,
});

/**
 * The request form screen (spec section 2). Step 1 finds the person (unless the eid query
 * parameter is present); a match prefills step 2, the full request. A draft of step 2
 * survives a reload of the tab.
 */
export default function FormPage({ duplicate }: { duplicate: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [params] = useSearchParams();
  useHeaderTitle(duplicate ? 'TITLE.DUPLICATE' : 'TITLE.DEFAULT');
  const eid = params.has('eid');
  const [view, setView] = useState<View>(
    () =>
      startFromDraft(duplicate) ??
      (eid ? { step: 'form', found: false, start: manualStart() } : { step: 'search' }),
  );
  const [formKey, setFormKey] = useState(0);
  const [sent, setSent] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { lists, error, retry } = useReferenceLists(lang);

  // Leaving the form screen inside the app ends the draft (asked first when something was
  // typed): only a reload of the tab brings it back. Runs after the form's last save.
  useEffect(() => () => clearDraft(), []);

  // Moving to the next step: focus goes to its heading, so screen readers announce it.
  useEffect(() => {
    if (view.step !== 'search') headingRef.current?.focus();
  }, [view.step]);

  const onDone = (o: SearchOutcome) => {
    if (o.kind === 'manual') {
      setView({ step: 'form', found: false, start: manualStart() });
    } else {
      const prefill = prefillFromRegister(o.person, { duplicate });
      setView({
        step: 'form',
        found: true,
        start: {
          values: { ...defaultFormValues(), ...prefill.values },
          readOnly: prefill.readOnly,
          noPrefill: false,
          dataMailboxDelivery: Boolean(prefill.values.data_mailbox),
        },
      });
    }
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0 });
  };

  const onExit = () => {
    clearDraft();
    setView(eid ? { step: 'form', found: false, start: manualStart() } : { step: 'search' });
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0 });
  };

  // The host shows the form's "leave?" question on in-app navigation away.
  return (
    <LeaveGuardHost>
      <div className="request-form">
        <h1>{t(duplicate ? 'FORM.HEADING_DUPLICATE' : 'FORM.HEADING')}</h1>
        {view.step === 'search' && <SearchStep duplicate={duplicate} onDone={onDone} />}
        {view.step === 'form' && (
          <>
            <section className="card" aria-labelledby="step2-title" hidden={sent}>
              <h2 id="step2-title" ref={headingRef} tabIndex={-1}>
                {t(view.found ? 'FORM.PREFILL.HEADING' : 'FORM.MANUAL.HEADING')}
              </h2>
              <p>{t(view.found ? 'FORM.PREFILL.INTRO' : 'FORM.MANUAL.NOTE')}</p>
            </section>
            {lists ? (
              <RequestForm
                key={formKey}
                duplicate={duplicate}
                start={view.start}
                lists={lists}
                onExit={onExit}
                onSubmitted={() => setSent(true)}
              />
            ) : error ? (
              <div className="card" role="alert">
                <p>{t('FORM.LISTS_ERROR')}</p>
                <Button onClick={retry}>{t('FORM.RETRY')}</Button>
              </div>
            ) : (
              <Spinner label={t('FORM.LOADING')} />
            )}
          </>
        )}
      </div>
    </LeaveGuardHost>
  );
}
