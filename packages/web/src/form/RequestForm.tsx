import {
  applicantEmail,
  attachmentNotes,
  type Catalogue,
  CONTACT_DETAIL_FIELDS,
  type ContactDetails,
  coverageOk,
  currentLegalVersion,
  FIELDS,
  FORM_SECTIONS,
  type FormValues,
  isSectionShown,
  requiredAttachments,
  type SectionName,
} from '@ros/domain';
import { useEffect, useMemo, useState } from 'react';
import { FormProvider, useForm, useFormContext, useWatch } from 'react-hook-form';
import { Button } from '../components/Button';
import type { ComboOption } from '../components/Combobox';
import { Dialog } from '../components/Dialog';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { nextTask } from '../shell/tasks';
import { useT } from '../shell/translate';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
import { clearDraft, type FormStart, startContext } from './draft';
import { useLeaveGuard } from './leaveGuard';
import type { ReferenceLists } from './reference';
import {
  fieldId,
  RequestFormProvider,
  type RequestFormShared,
  useRequestForm,
  useStatusOf,
} from './request/context';
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

export type { FormStart } from './draft';

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
  onSessionExpired,
  catalogue = FIELDS,
}: {
  duplicate: boolean;
  start: FormStart;
  /** Signed in through NIA with a complete identity (the declarations say so). */
  nia?: boolean;
  /** A send was refused because the sign-in has ended (401 SESSION_EXPIRED). */
  onSessionExpired?: () => void;
  lists: ReferenceLists;
  onExit: () => void;
  /** Called once the request is stored (the success view replaces the form). */
  onSubmitted?: () => void;
  /** The field catalogue the form is drawn from and checked by (a test gives one with a field more). */
  catalogue?: Catalogue;
}) {
  const { t } = useT();
  const lang = useLang();
  const metadata = useMetadata();
  const form = useForm<FormValues>({ defaultValues: start.values, mode: 'onChange' });

  // The context and the rules are fixed for the life of the form (a new start mounts a new form).
  const [status] = useState(
    () =>
      new FormStatusStore(
        startContext(
          start,
          duplicate,
          // The dial code must be one of the list (decision 0003); the server checks it too.
          lists.dialCodes.length > 0 ? new Set(lists.dialCodes.map((d) => d.code)) : undefined,
        ),
        start.values,
        catalogue,
      ),
  );
  const readOnly = status.ctx.readOnly;
  useEffect(() => {
    const sub = form.watch(() => status.update(form.getValues()));
    // The rules' first run after the first screen (request/status.ts), in two tasks of their own:
    // the schema is built in one, run in the next.
    let live = true;
    void nextTask()
      .then(() => live && status.prepare())
      .then(nextTask)
      .then(() => live && status.check());
    return () => {
      sub.unsubscribe();
      live = false;
    };
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
      catalogue,
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
    [duplicate, nia, status, catalogue, readOnly, lists, lang, countryOptions, birthNameTouched, modalShown],
  );

  // Leaving the page with input the user typed asks first, also after a reload restored it
  // (start.typed: the restored values are this form's start, so nothing counts as changed).
  const changedSomething = useStatusOf(status, (s) => s.changed.size > 0);
  const typed = Boolean(start.typed) || changedSomething;

  const flow = useSubmitFlow({
    form,
    status,
    duplicate,
    lang,
    botCheck: metadata,
    match: start.match,
    onSubmitted,
    onSessionExpired,
  });
  // The starting record as it is now (its values are the form's, read on each save).
  const now = useMemo<FormStart>(
    () => ({ ...start, birthNameTouched, modalShown, typed }),
    [start, birthNameTouched, modalShown, typed],
  );
  useDraft(form, now, duplicate, flow.done !== null);
  const dirty = typed && !flow.done;
  useLeaveGuard(dirty);

  /** The rules and (a new request) the month coverage, judged now. */
  const validNow = () => {
    status.check();
    return status.state.formOk && coverageOk(form.getValues(), status.ctx);
  };
  const onStartOver = () => {
    if (dirty && !window.confirm(t('FORM.START_OVER_CONFIRM'))) return;
    clearDraft();
    onExit();
  };

  // The sections read all they need from the two contexts below: made once, so that a render of
  // the form itself (its first change, the finish) does not render every field again (issue 14).
  const sections = useMemo(
    () => FORM_SECTIONS.map(({ name }) => <ShownSection key={name} name={name} />),
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
        email={applicantEmail(values)}
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
          // How many of step 2's sections are in the page so far (they arrive one per task): tests
          // wait for the finish bar as long as this grows (test/requestForm.tsx findFinish).
          data-shown={reveal.shown}
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
              reason={flow.reason}
              nia={nia}
              duplicate={duplicate}
              processing={flow.processing}
              onSubmit={(agreement) => void flow.submit(agreement)}
              onClose={flow.closeDialog}
            />
          )}
          {modalOpen && (
            <AbroadNotice
              onClose={() => {
                setModalOpen(false);
                setFocusTarget(fieldId('abroad_stay.0.state'));
              }}
            />
          )}
        </form>
      </FormProvider>
    </RequestFormProvider>
  );
}

/** The component of each section of the form (FORM_SECTIONS of @ros/domain gives their order). */
const SECTION_VIEWS: Record<SectionName, () => React.ReactNode> = {
  personal: PersonalSection,
  birth: BirthSection,
  identity: IdentitySection,
  home: HomeAddressSection,
  contact_address: ContactAddressSection,
  contact: ContactSection,
  employer: EmployerSection,
  activities: ActivitiesSection,
  abroad: AbroadSection,
  duplicate: DuplicateSection,
};

/** A section where the mode shows it (duplicate mode hides birth, employer, activities and abroad). */
function ShownSection({ name }: { name: SectionName }) {
  const { ctx } = useRequestForm();
  if (!isSectionShown(name, ctx)) return null;
  const View = SECTION_VIEWS[name];
  return <View />;
}

/** The stay-abroad notice: what to attach for a stay abroad, shown at the first one added. */
function AbroadNotice({ onClose }: { onClose: () => void }) {
  const { t } = useT();
  const lang = useLang();
  return (
    <Dialog
      title={t('FORM.ABROAD.MODAL_TITLE')}
      text={
        <>
          {/* The legal texts' note, word for word as the success screen and the PDF (issue 36). */}
          <p data-testid="abroad-modal-note">{attachmentNotes(currentLegalVersion(), lang, ['abroad'])[0]}</p>
          <p>{t('FORM.ABROAD.MODAL_NEXT')}</p>
        </>
      }
      onCancel={onClose}
      testId="abroad-dialog"
      actions={<Button onClick={onClose}>{t('FORM.ABROAD.MODAL_CLOSE')}</Button>}
    />
  );
}

/** The confirmation dialog with the contact values it shows and the notification choices. */
function ConfirmDialogHost(
  props: Omit<
    ConfirmDialogProps,
    'contact' | 'notifyEmail' | 'notifyPhone' | 'onNotifyEmail' | 'onNotifyPhone'
  >,
) {
  const { setValue } = useFormContext<FormValues>();
  const details = useWatch<FormValues, typeof CONTACT_DETAIL_FIELDS>({ name: CONTACT_DETAIL_FIELDS });
  const [notifyEmail, notifyPhone] = useWatch<
    FormValues,
    ['send_notifications_email', 'send_notifications_phone']
  >({ name: ['send_notifications_email', 'send_notifications_phone'] });
  const contact = Object.fromEntries(CONTACT_DETAIL_FIELDS.map((f, i) => [f, details[i]])) as ContactDetails;
  return (
    <ConfirmDialog
      {...props}
      contact={contact}
      notifyEmail={notifyEmail}
      notifyPhone={notifyPhone}
      onNotifyEmail={(on) => setValue('send_notifications_email', on)}
      onNotifyPhone={(on) => setValue('send_notifications_phone', on)}
    />
  );
}
