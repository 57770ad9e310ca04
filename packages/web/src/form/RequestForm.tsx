import {
  computeCoverage,
  defaultFormContext,
  type FormFieldName,
  type FormValues,
  isFieldHidden,
  type PrefillField,
  requiredAttachments,
} from '@ros/domain';
import { useEffect, useMemo, useState } from 'react';
import { FormProvider, useForm, useFormContext, useWatch } from 'react-hook-form';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { useT } from '../shell/translate';
import type { ComboOption } from './Combobox';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
import { clearDraft } from './draft';
import { useLeaveGuard } from './leaveGuard';
import { Modal } from './Modal';
import type { ReferenceLists } from './reference';
import { fieldId, RequestFormProvider, type RequestFormShared, useStatusOf } from './request/context';
import { ErrorSummary } from './request/ErrorSummary';
import { FinishBar } from './request/FinishBar';
import { AbroadSection } from './request/sections/AbroadSection';
import { ActivitiesSection } from './request/sections/ActivitiesSection';
import { ContactAddressSection, HomeAddressSection } from './request/sections/AddressSections';
import { BirthSection } from './request/sections/BirthSection';
import { ContactSection } from './request/sections/ContactSection';
import { DuplicateSection } from './request/sections/DuplicateSection';
import { EmployerSection } from './request/sections/EmployerSection';
import { IdentitySection } from './request/sections/IdentitySection';
import { PersonalSection } from './request/sections/PersonalSection';
import { FormStatusStore } from './request/status';
import { useDraft } from './request/useDraft';
import { useReveal } from './request/useReveal';
import { useSubmitFlow } from './request/useSubmitFlow';
import { SuccessView } from './SuccessView';

export { fieldId } from './request/context';
export { monthRanges } from './request/sections/ActivitiesSection';

/** Step 2's sections rendered with the page itself (the first screen); the rest follow, one per task. */
const FIRST_SECTIONS = 2;

export interface FormStart {
  values: FormValues;
  readOnly: PrefillField[];
  noPrefill: boolean;
  dataMailboxDelivery: boolean;
  /** The register knows the person as a Czech citizen (registerFormContext): the birth number is required. */
  czechCitizen?: boolean;
  birthNameTouched?: boolean;
  modalShown?: boolean;
  /** The search answer's `match`: the proof the server links the register person by. */
  match?: string;
}

/**
 * Step 2 of the request form (spec section 2): the sections of the request (request/sections/),
 * the rules of section 5 from @ros/domain (request/status.ts), the message at the top after a
 * finish or send (request/ErrorSummary.tsx), the finish (request/FinishBar.tsx) and the send
 * (request/useSubmitFlow.ts). Values live in react-hook-form; each part reads what it needs.
 */
export function RequestForm({
  duplicate,
  start,
  lists,
  onExit,
  onSubmitted,
  nia = false,
}: {
  duplicate: boolean;
  start: FormStart;
  /** Signed in through NIA with a complete identity (the declarations say so). */
  nia?: boolean;
  lists: ReferenceLists;
  onExit: () => void;
  /** Called once the request is stored (the success view replaces the form). */
  onSubmitted?: () => void;
}) {
  const { t } = useT();
  const lang = useLang();
  const metadata = useMetadata();
  const form = useForm<FormValues>({ defaultValues: start.values, mode: 'onChange' });

  const readOnly = useMemo(() => new Set<FormFieldName>(start.readOnly), [start.readOnly]);
  // The context and the rules are fixed for the life of the form (a new start mounts a new form).
  const [status] = useState(
    () =>
      new FormStatusStore(
        defaultFormContext({
          duplicate,
          noPrefill: start.noPrefill,
          readOnly,
          dataMailboxDelivery: start.dataMailboxDelivery,
          czechCitizen: start.czechCitizen ?? false,
          // The dial code must be one of the list (decision 0003); the server checks it too.
          dialCodes: lists.dialCodes.length > 0 ? new Set(lists.dialCodes.map((d) => d.code)) : undefined,
        }),
        start.values,
      ),
  );
  useEffect(() => {
    const sub = form.watch(() => status.update(form.getValues()));
    return () => sub.unsubscribe();
  }, [form, status]);

  const [birthNameTouched, setBirthNameTouched] = useState(
    start.birthNameTouched ?? (readOnly.has('birth_name') || start.values.birth_name !== ''),
  );
  const [modalShown, setModalShown] = useState(start.modalShown ?? false);
  const [modalOpen, setModalOpen] = useState(false);

  // Focus to move after the next render (a new row's first box, back to a button).
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  useEffect(() => {
    if (focusTarget === null) return;
    document.getElementById(focusTarget)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const countryOptions = useMemo<ComboOption[]>(
    () => lists.countries.map((c) => ({ value: c.code, label: lang === 'en' ? c.name_en : c.name_cz })),
    [lists.countries, lang],
  );

  const shared = useMemo<RequestFormShared>(
    () => ({
      duplicate,
      nia,
      ctx: status.ctx,
      readOnly,
      lists,
      lang,
      status,
      countryOptions,
      focusLater: setFocusTarget,
      birthNameTouched,
      setBirthNameTouched,
      modalShown,
      openAbroadModal: () => {
        setModalShown(true);
        setModalOpen(true);
      },
    }),
    [duplicate, nia, status, readOnly, lists, lang, countryOptions, birthNameTouched, modalShown],
  );

  const flow = useSubmitFlow({
    form,
    status,
    duplicate,
    lang,
    botCheck: metadata,
    match: start.match,
    onSubmitted,
  });
  useDraft(form, {
    duplicate,
    readOnly: start.readOnly,
    noPrefill: start.noPrefill,
    dataMailboxDelivery: start.dataMailboxDelivery,
    czechCitizen: start.czechCitizen ?? false,
    birthNameTouched,
    modalShown,
    match: start.match,
    done: flow.done !== null,
  });

  // Leaving the page with input the user typed asks first.
  const changedSomething = useStatusOf(status, (s) => s.changed.size > 0);
  const dirty = changedSomething && !flow.done;
  useLeaveGuard(dirty);

  /** The rules and (normal mode) the month coverage, judged now. */
  const validNow = () => {
    if (!status.state.formOk) return false;
    // The coverage is of the employer and past activities, which duplicate mode hides.
    if (isFieldHidden('past_activities', status.ctx)) return true;
    const v = form.getValues();
    return computeCoverage({ employerFrom: v.employer_current_from, activities: v.past_activities }).ok;
  };
  const onStartOver = () => {
    if (dirty && !window.confirm(t('FORM.START_OVER_CONFIRM'))) return;
    clearDraft();
    onExit();
  };

  // The sections read all they need from the two contexts below: made once, so that a render of
  // the form itself (its first change, the finish) does not render every field again (issue 14).
  const sections = useMemo(
    () => [
      <PersonalSection key="personal" />,
      <BirthSection key="birth" />,
      <IdentitySection key="identity" />,
      <HomeAddressSection key="home" />,
      <ContactAddressSection key="contact-address" />,
      <ContactSection key="contact" />,
      <EmployerSection key="employer" />,
      <ActivitiesSection key="activities" />,
      <AbroadSection key="abroad" />,
      <DuplicateSection key="duplicate" />,
    ],
    [],
  );
  // The first screen at once, the rest one section per task (no long task at load); the finish
  // bar comes with the last, and a finish (Enter in a box included) puts them all in first.
  const reveal = useReveal(sections.length, FIRST_SECTIONS);
  const finish = () => {
    reveal.revealAll();
    flow.finish(validNow());
  };

  if (flow.done) {
    const values = form.getValues();
    // Duplicate mode hides the stays abroad (a prefill may still hold some): no attachment note, as in the PDF.
    return (
      <SuccessView
        answer={flow.done}
        email={values.email}
        attachments={requiredAttachments(values, duplicate)}
      />
    );
  }

  return (
    <RequestFormProvider value={shared}>
      <FormProvider {...form}>
        <form
          noValidate
          className="request"
          onSubmit={(e) => {
            e.preventDefault();
            finish();
          }}
        >
          <ErrorSummary event={flow.event} onRetry={finish} />
          <p className="form-intro">{t(start.noPrefill ? 'FORM.INTRO_MANUAL' : 'FORM.INTRO_PREFILLED')}</p>
          {sections.slice(0, reveal.shown)}
          {reveal.all && <FinishBar validating={flow.validating} onStartOver={onStartOver} />}
          {flow.dialog && (
            <ConfirmDialogHost
              variant={flow.dialog}
              nia={nia}
              processing={flow.processing}
              onSubmit={() => void flow.submit()}
              onClose={flow.closeDialog}
            />
          )}
          {modalOpen && (
            <Modal
              titleId="abroad-modal-title"
              title={t('FORM.ABROAD.MODAL_TITLE')}
              closeLabel={t('FORM.ABROAD.MODAL_CLOSE')}
              onClose={() => {
                setModalOpen(false);
                setFocusTarget(fieldId('abroad_stay.0.state'));
              }}
            >
              <p>{t('FORM.ABROAD.MODAL_TEXT')}</p>
            </Modal>
          )}
        </form>
      </FormProvider>
    </RequestFormProvider>
  );
}

/** The confirmation dialog with the contact values it shows and the notification choices. */
function ConfirmDialogHost(
  props: Omit<
    ConfirmDialogProps,
    'email' | 'telephone' | 'notifyEmail' | 'notifyPhone' | 'onNotifyEmail' | 'onNotifyPhone'
  >,
) {
  const { setValue } = useFormContext<FormValues>();
  const [email, telephone, notifyEmail, notifyPhone] = useWatch<
    FormValues,
    ['email', 'telephone', 'send_notifications_email', 'send_notifications_phone']
  >({ name: ['email', 'telephone', 'send_notifications_email', 'send_notifications_phone'] });
  return (
    <ConfirmDialog
      {...props}
      email={email}
      telephone={telephone}
      notifyEmail={notifyEmail}
      notifyPhone={notifyPhone}
      onNotifyEmail={(on) => setValue('send_notifications_email', on)}
      onNotifyPhone={(on) => setValue('send_notifications_phone', on)}
    />
  );
}
