import {
  availableDeliveryTypes,
  birthStateChangePatch,
  buildFormSchema,
  canAddAbroadStay,
  computeCoverage,
  DELIVERY_DATA_MAILBOX,
  dataMailboxError,
  defaultFormContext,
  emptyAbroadStay,
  emptyPastActivity,
  type FormFieldName,
  type FormValues,
  formatMonthYear,
  isBirthNumberEnabled,
  isDataMailboxShown,
  isDistrictEnabled,
  isField2Enabled,
  isFieldHidden,
  isFieldRequired,
  isSecondCitizenshipEnabled,
  issuesToFieldErrors,
  MAX_UNCOVERED_MONTHS,
  type MonthYear,
  maxLengthFor,
  monthIndex,
  normalizeMonthYear,
  type PrefillField,
  requiredAttachments,
  SEX_CODES,
  toggleDuplicateType,
  type ValidationError,
} from '@ros/domain';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Path, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { Tooltip } from '../components/Tooltip';
import { useAlerts } from '../shell/alerts';
import { useLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { Combobox, type ComboOption } from './Combobox';
import { ConfirmDialog, type ConfirmVariant, confirmVariant } from './ConfirmDialog';
import { DateInput } from './DateInput';
import { clearDraft, type Draft, saveDraft } from './draft';
import { Field, useMessageText } from './fields';
import { useLeaveGuard } from './leaveGuard';
import { Modal } from './Modal';
import { type CodeItem, type DuplicateType, itemName, type ReferenceLists } from './reference';
import { SuccessView } from './SuccessView';
import {
  invalidFormErrors,
  isNiaMismatch,
  isTimeNotCovered,
  newIdempotencyKey,
  type SubmitAnswer,
  submitBody,
  submitRequest,
  validateRequest,
} from './submit';

export interface FormStart {
  values: FormValues;
  readOnly: PrefillField[];
  noPrefill: boolean;
  dataMailboxDelivery: boolean;
  birthNameTouched?: boolean;
  modalShown?: boolean;
  /** The search answer's `match`: the proof the server links the register person by. */
  match?: string;
}

/** The id of a control by its value path ('past_activities.0.from' -> 'past_activities-0-from'). */
export const fieldId = (path: string) => path.replace(/\./g, '-');

/** Consecutive months as ranges ("04/2020–12/2021", "03/2025"). */
export function monthRanges(months: readonly MonthYear[]): string[] {
  const out: string[] = [];
  let start: MonthYear | undefined;
  let prev: MonthYear | undefined;
  for (const m of months) {
    if (start && prev && monthIndex(m) === monthIndex(prev) + 1) {
      prev = m;
      continue;
    }
    if (start && prev) out.push(rangeText(start, prev));
    start = m;
    prev = m;
  }
  if (start && prev) out.push(rangeText(start, prev));
  return out;
}
const rangeText = (a: MonthYear, b: MonthYear) =>
  monthIndex(a) === monthIndex(b) ? formatMonthYear(a) : `${formatMonthYear(a)}–${formatMonthYear(b)}`;

/** The value at a dotted path ('past_activities.0.from'), as JSON so lists compare too. */
const valueAt = (values: FormValues, path: string): string =>
  JSON.stringify(
    path
      .split('.')
      .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as never)[k] : undefined), values) ?? null,
  );

/** A field error the server found on submit, with the value it judged (JSON). */
interface ServerError {
  error: ValidationError;
  sent: string;
}

/**
 * Step 2 of the request form (spec section 2): every section of the request, the field
 * reactions of section 4 and the rules of section 5, all from @ros/domain.
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
  const { t } = useTranslation();
  const lang = useLang();
  const alerts = useAlerts();
  const message = useMessageText();
  const uid = useId().replace(/:/g, '');

  const form = useForm<FormValues>({ defaultValues: start.values, mode: 'onChange' });
  const { register, setValue, control, watch, getValues } = form;
  const activities = useFieldArray({ control, name: 'past_activities' });
  const stays = useFieldArray({ control, name: 'abroad_stay' });
  const values = watch();

  const readOnly = useMemo(() => new Set<FormFieldName>(start.readOnly), [start.readOnly]);
  const ctx = useMemo(
    () =>
      defaultFormContext({
        duplicate,
        noPrefill: start.noPrefill,
        readOnly,
        dataMailboxDelivery: start.dataMailboxDelivery,
        // The dial code must be one of the list (decision 0003); the server checks it too.
        dialCodes: lists.dialCodes.length > 0 ? new Set(lists.dialCodes.map((d) => d.code)) : undefined,
      }),
    [duplicate, start.noPrefill, readOnly, start.dataMailboxDelivery, lists.dialCodes],
  );
  const schema = useMemo(() => buildFormSchema(ctx), [ctx]);
  const parsed = schema.safeParse(values);
  const errors: Record<string, ValidationError> = parsed.success
    ? {}
    : issuesToFieldErrors(parsed.error.issues);
  // The server's own findings (400 INVALID_FORM, e.g. a code no longer in its lists) stay on a
  // field until its value changes; the browser's rules come first.
  const [serverErrors, setServerErrors] = useState<Record<string, ServerError>>({});
  let serverInvalid = false;
  for (const [path, s] of Object.entries(serverErrors)) {
    if (valueAt(values, path) !== s.sent) continue;
    serverInvalid = true;
    if (!(path in errors)) errors[path] = s.error;
  }
  const formOk = parsed.success && !serverInvalid;
  const coverage = computeCoverage({
    employerFrom: values.employer_current_from,
    activities: values.past_activities,
  });
  const coverageOk = duplicate || coverage.ok;
  const valid = formOk && coverageOk;

  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [finishCount, setFinishCount] = useState(0);
  // Finish -> validate -> confirmation dialog -> submit -> success (spec section 4).
  const metadata = useMetadata();
  const [dialog, setDialog] = useState<ConfirmVariant | null>(null);
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState<SubmitAnswer | null>(null);
  const busy = useRef(false);
  const idempotency = useRef<{ key: string; body: string } | null>(null);
  const [birthNameTouched, setBirthNameTouched] = useState(
    start.birthNameTouched ?? (readOnly.has('birth_name') || start.values.birth_name !== ''),
  );
  const [modalShown, setModalShown] = useState(start.modalShown ?? false);
  const [modalOpen, setModalOpen] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  // Focus to move after the next render (a new row's first box, back to a button).
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  useEffect(() => {
    if (focusTarget === null) return;
    document.getElementById(focusTarget)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const markChanged = (path: string) => {
    setChanged((prev) => (prev.has(path) ? prev : new Set(prev).add(path)));
  };
  const set = (path: Path<FormValues>, value: unknown) => {
    setValue(path, value as never, { shouldDirty: true });
    markChanged(path);
  };

  // The draft follows every change; it lives in this tab only (sessionStorage).
  useEffect(() => {
    if (done) return;
    const draft: Draft = {
      version: 1,
      duplicate,
      values: getValues(),
      readOnly: start.readOnly,
      noPrefill: start.noPrefill,
      dataMailboxDelivery: start.dataMailboxDelivery,
      birthNameTouched,
      modalShown,
      ...(start.match ? { match: start.match } : {}),
    };
    saveDraft(draft);
  });

  // Leaving the page with input the user typed asks first.
  const dirty = changed.size > 0 && !done;
  useLeaveGuard(dirty);

  // The error summary takes focus after each failed finish.
  useEffect(() => {
    if (finishCount > 0) summaryRef.current?.focus();
  }, [finishCount]);
  // The SMS notification needs a telephone: removing the number clears the choice.
  const noPhone = values.telephone.trim() === '';
  useEffect(() => {
    if (noPhone && getValues('send_notifications_phone')) setValue('send_notifications_phone', false);
  }, [noPhone, getValues, setValue]);

  // --- lists -------------------------------------------------------------------------
  const countryOptions = useMemo<ComboOption[]>(
    () => lists.countries.map((c) => ({ value: c.code, label: lang === 'en' ? c.name_en : c.name_cz })),
    [lists.countries, lang],
  );
  const countryName = (code: string) => countryOptions.find((o) => o.value === code)?.label ?? code;
  const municipalityOptions = useMemo<ComboOption[]>(
    () => lists.municipalities.map((m) => ({ value: m.code, label: m.long_name })),
    [lists.municipalities],
  );
  const hasDataMailbox =
    ctx.dataMailboxDelivery ||
    (isDataMailboxShown(ctx) && values.data_mailbox !== '' && dataMailboxError(values.data_mailbox) === null);
  const deliveryTypes = availableDeliveryTypes(lists.deliveryTypes, hasDataMailbox);

  // DATOVKOU disappears with the data mailbox: a choice of it goes with it.
  useEffect(() => {
    if (values.delivery_type === DELIVERY_DATA_MAILBOX && !hasDataMailbox) {
      setValue('delivery_type', '', { shouldDirty: true });
    }
  }, [values.delivery_type, hasDataMailbox, setValue]);

  // --- errors ------------------------------------------------------------------------
  const errorText = (path: string): string => {
    const e = errors[path];
    if (!e || !(changed.has(path) || attempted)) return '';
    const max = e.params?.max !== undefined ? Number(e.params.max) : maxLengthFor(path);
    return message(e.key, max);
  };
  const hidden = (f: FormFieldName) => isFieldHidden(f, ctx);
  const optional = (f: FormFieldName) => !isFieldRequired(f, values, ctx);

  const labelFor = (path: string): string => {
    const parts = path.split('.');
    if (parts[0] === 'past_activities' && parts.length === 3) {
      const type = values.past_activities[Number(parts[1])]?.type ?? '';
      return `${t('FORM.ACTIVITY.ROW', { n: Number(parts[1]) + 1 })}: ${activityLabel(parts[2] as string, type)}`;
    }
    if (parts[0] === 'abroad_stay' && parts.length === 3) {
      return `${t('FORM.ABROAD.ROW', { n: Number(parts[1]) + 1 })}: ${t(`FORM.ABROAD.${parts[2]?.toUpperCase()}`)}`;
    }
    return t(`FORM.FIELDS.${parts[0]}`);
  };
  const activityLabel = (field: string, type: string) =>
    field === 'field1' || field === 'field2'
      ? t(`FORM.ACTIVITY.${field.toUpperCase()}_${type || '0'}`)
      : t(`FORM.ACTIVITY.${field.toUpperCase()}`);

  // --- controls ----------------------------------------------------------------------
  /** A text input bound to a path, with its label, "(optional)" and first error. */
  const text = (
    path: Path<FormValues>,
    opts: {
      label?: string;
      hint?: string;
      autoComplete?: string;
      inputMode?: 'text' | 'numeric' | 'email' | 'tel';
      type?: string;
      optional?: boolean;
      disabled?: boolean;
      onChange?: (v: string) => void;
      onBlur?: () => void;
      className?: string;
      /** What the field is: an info button with a tooltip beside the label. */
      info?: string;
    } = {},
  ) => {
    const id = fieldId(path);
    const top = path.split('.')[0] as FormFieldName;
    const isOptional = opts.optional ?? (path.includes('.') ? duplicate : optional(top));
    const error = errorText(path);
    return (
      <Field
        id={id}
        label={opts.label ?? t(`FORM.FIELDS.${path}`)}
        hint={opts.hint}
        optional={isOptional}
        error={error}
        info={opts.info}
        className={opts.className}
      >
        {(describedBy, invalid) => (
          <input
            id={id}
            className="input"
            type={opts.type ?? 'text'}
            inputMode={opts.inputMode}
            autoComplete={opts.autoComplete ?? 'off'}
            maxLength={maxLengthFor(path)}
            readOnly={readOnly.has(path as FormFieldName)}
            disabled={opts.disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-required={!isOptional || undefined}
            {...register(path, {
              onChange: (e) => {
                markChanged(path);
                opts.onChange?.(e.target.value);
              },
              onBlur: opts.onBlur,
            })}
          />
        )}
      </Field>
    );
  };

  /** A fixed value shown as a read-only text box (prefilled lists). */
  const fixed = (id: string, label: string, shown: string, info?: string) => (
    <Field id={id} label={label} info={info}>
      {(describedBy) => (
        <input id={id} className="input" readOnly value={shown} aria-describedby={describedBy} />
      )}
    </Field>
  );

  /** A native select of coded items. */
  const select = (
    path: Path<FormValues>,
    items: ReadonlyArray<{ code: string; name: string }>,
    opts: {
      label?: string;
      disabled?: boolean;
      onChange?: (v: string) => void;
      optional?: boolean;
      info?: string;
    } = {},
  ) => {
    const id = fieldId(path);
    const top = path.split('.')[0] as FormFieldName;
    const label = opts.label ?? t(`FORM.FIELDS.${path}`);
    const current = String(getValues(path) ?? '');
    if (readOnly.has(path as FormFieldName)) {
      return fixed(id, label, items.find((i) => i.code === current)?.name ?? current, opts.info);
    }
    const isOptional = opts.optional ?? (path.includes('.') ? duplicate : optional(top));
    return (
      <Field id={id} label={label} optional={isOptional} error={errorText(path)} info={opts.info}>
        {(describedBy, invalid) => (
          <select
            id={id}
            className="input"
            disabled={opts.disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            aria-required={!isOptional || undefined}
            {...register(path, {
              onChange: (e) => {
                markChanged(path);
                opts.onChange?.(e.target.value);
              },
            })}
          >
            <option value="">{t('FORM.CHOOSE')}</option>
            {items.map((i) => (
              <option key={i.code} value={i.code}>
                {i.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    );
  };

  /** A searchable list (countries, municipalities). */
  const combo = (
    path: Path<FormValues>,
    options: readonly ComboOption[],
    opts: { label?: string; disabled?: boolean; onChange?: (v: string) => void; optional?: boolean } = {},
  ) => {
    const id = fieldId(path);
    const top = path.split('.')[0] as FormFieldName;
    const label = opts.label ?? t(`FORM.FIELDS.${path}`);
    const current = String(getValues(path) ?? '');
    if (readOnly.has(path as FormFieldName)) {
      return fixed(id, label, options.find((o) => o.value === current)?.label ?? current);
    }
    const isOptional = opts.optional ?? (path.includes('.') ? duplicate : optional(top));
    return (
      <Field id={id} label={label} optional={isOptional} error={errorText(path)}>
        {(describedBy, invalid) => (
          <Combobox
            id={id}
            options={options}
            value={current}
            disabled={opts.disabled}
            required={!isOptional}
            invalid={invalid}
            describedBy={describedBy}
            onChange={(v) => {
              set(path, v);
              opts.onChange?.(v);
            }}
          />
        )}
      </Field>
    );
  };

  const named = (items: readonly CodeItem[]) => items.map((i) => ({ code: i.code, name: itemName(i, lang) }));

  // --- reactions ---------------------------------------------------------------------
  const onBirthState = (next: string, previous: string) => {
    const patch = birthStateChangePatch(previous, next);
    for (const [k, v] of Object.entries(patch)) setValue(k as Path<FormValues>, v as never);
  };
  const onMunicipality = (code: string) => {
    const m = lists.municipalities.find((x) => x.code === code);
    setValue('birth_district', m?.district ?? '', { shouldDirty: true });
    if (m) markChanged('birth_district');
  };
  const copyHomeAddress = () => {
    const v = getValues();
    const pairs: Array<[Path<FormValues>, string]> = [
      ['contact_street', v.home_street],
      ['contact_house_num', v.home_house_num],
      ['contact_org_num', v.home_org_num],
      ['contact_city', v.home_city],
      ['contact_zip', v.home_zip],
      ['contact_state', v.home_state],
    ];
    for (const [p, value] of pairs) set(p, value);
  };
  const onEmployerFromBlur = () => {
    const v = getValues();
    const normal = normalizeMonthYear(v.employer_current_from);
    if (normal && normal !== v.employer_current_from) setValue('employer_current_from', normal);
    if (!changed.has('employer_current_from')) return;
    const c = computeCoverage({
      employerFrom: normal ?? v.employer_current_from,
      activities: v.past_activities,
    });
    if (c.uncovered.length > MAX_UNCOVERED_MONTHS) {
      alerts.show({ type: 'warning', key: 'ALERTS.TIME_NOT_COVERED' });
    }
  };
  const normalizeOnBlur = (path: Path<FormValues>) => () => {
    const v = String(getValues(path) ?? '');
    const normal = normalizeMonthYear(v);
    if (normal && normal !== v) setValue(path, normal as never);
  };
  const addActivity = () => {
    activities.append(emptyPastActivity(), { shouldFocus: false });
    const index = values.past_activities.length;
    setFocusTarget(fieldId(`past_activities.${index}.from`));
  };
  const removeActivity = (i: number) => {
    activities.remove(i);
    markChanged('past_activities');
    setFocusTarget('add-activity');
  };
  const addStay = () => {
    stays.append(emptyAbroadStay(), { shouldFocus: false });
    markChanged('abroad_stay');
    const index = values.abroad_stay.length;
    if (!modalShown) {
      setModalShown(true);
      setModalOpen(true);
    } else {
      setFocusTarget(fieldId(`abroad_stay.${index}.state`));
    }
  };
  const removeStay = (i: number) => {
    stays.remove(i);
    markChanged('abroad_stay');
    setFocusTarget('add-abroad');
  };

  const onFinish = () => {
    setAttempted(true);
    if (!valid) {
      alerts.show({ type: 'warning', key: 'ALERTS.FORM_INVALID' });
      if (!coverageOk) alerts.show({ type: 'warning', key: 'ALERTS.TIME_NOT_COVERED' });
      window.scrollTo({ top: 0 });
      setFinishCount((n) => n + 1);
      return;
    }
    if (busy.current) return;
    busy.current = true;
    // A failed validate call counts as fine: the dialog opens anyway.
    void validateRequest(getValues(), duplicate, start.match).then((answer) => {
      busy.current = false;
      setDialog(confirmVariant(answer, duplicate));
    });
  };
  const closeDialog = () => {
    setDialog(null);
    setFocusTarget('finish');
  };
  const onSubmit = async () => {
    // A second click while sending is ignored.
    if (busy.current) return;
    busy.current = true;
    setProcessing(true);
    const v = getValues();
    const body = submitBody(
      v,
      lang,
      duplicate,
      { email: v.send_notifications_email, phone: v.send_notifications_phone },
      start.match,
    );
    // The same body keeps its key, so a retry after a lost answer cannot store it twice.
    const json = JSON.stringify(body);
    if (idempotency.current?.body !== json) idempotency.current = { key: newIdempotencyKey(), body: json };
    try {
      const answer = await submitRequest(body, idempotency.current.key, metadata);
      clearDraft();
      setDialog(null);
      setDone(answer);
      onSubmitted?.();
      window.scrollTo({ top: 0 });
    } catch (error) {
      const fieldErrors = invalidFormErrors(error);
      if (fieldErrors) {
        // The server's rules rejected fields: show them as a failed finish does (messages on the
        // fields, the summary with focus, FORM_INVALID). Nothing was stored.
        setServerErrors(
          Object.fromEntries(
            Object.entries(fieldErrors).map(([path, e]) => [path, { error: e, sent: valueAt(v, path) }]),
          ),
        );
        setChanged((prev) => new Set([...prev, ...Object.keys(fieldErrors)]));
        setAttempted(true);
        setDialog(null);
        alerts.show({ type: 'warning', key: 'ALERTS.FORM_INVALID' });
        window.scrollTo({ top: 0 });
        setFinishCount((n) => n + 1);
      } else if (isNiaMismatch(error)) {
        alerts.show({ type: 'danger', key: 'ALERTS.SSO_MISMATCH', timeout: 0 });
        closeDialog();
        window.scrollTo({ top: 0 });
      } else if (isTimeNotCovered(error)) {
        alerts.show({ type: 'warning', key: 'ALERTS.TIME_NOT_COVERED', timeout: 0 });
        closeDialog();
        window.scrollTo({ top: 0 });
      } else {
        alerts.show({ type: 'danger', key: 'ALERTS.SUBMIT_FORM_ERROR', timeout: 0 });
        closeDialog();
        window.scrollTo({ top: 0 });
      }
    } finally {
      busy.current = false;
      setProcessing(false);
    }
  };
  const onStartOver = () => {
    if (dirty && !window.confirm(t('FORM.START_OVER_CONFIRM'))) return;
    clearDraft();
    onExit();
  };

  const errorList = Object.entries(errors);
  const uncoveredRanges = duplicate ? [] : monthRanges(coverage.uncovered);
  const finishState = valid ? 'valid' : !formOk ? 'invalid' : 'uncovered';

  const section = (key: string, children: ReactNode, extra?: ReactNode) => (
    <section className="card form-section" aria-labelledby={`${uid}-${key}`} id={`section-${key}`}>
      <h2 id={`${uid}-${key}`}>{t(`FORM.SECTIONS.${key}`)}</h2>
      {extra}
      <div className="form-grid">{children}</div>
    </section>
  );

  const birthCz = isDistrictEnabled(values.birth_state);

  // Duplicate mode hides the stays abroad (a prefill may still hold some): no attachment note, as in the PDF.
  if (done)
    return (
      <SuccessView answer={done} email={values.email} attachments={requiredAttachments(values, duplicate)} />
    );

  return (
    <form
      noValidate
      className="request"
      onSubmit={(e) => {
        e.preventDefault();
        onFinish();
      }}
    >
      {attempted && (!formOk || !coverageOk) && (
        <div
          ref={summaryRef}
          className="error-summary"
          tabIndex={-1}
          role="alert"
          aria-labelledby={`${uid}-summary`}
          data-testid="error-summary"
        >
          <h2 id={`${uid}-summary`}>{t('FORM.SUMMARY.HEADING')}</h2>
          <ul>
            {errorList.map(([path, e]) => (
              <li key={path}>
                <a
                  href={`#${fieldId(path)}`}
                  onClick={(ev) => {
                    const el = document.getElementById(fieldId(path));
                    if (!el) return;
                    ev.preventDefault();
                    el.scrollIntoView?.({ block: 'center' });
                    // A group (the duplicate types' fieldset) is not focusable: its first box is.
                    const box = el.matches('input, select, textarea')
                      ? el
                      : (el.querySelector<HTMLElement>('input, select, textarea') ?? el);
                    box.focus();
                  }}
                >
                  {labelFor(path)}:{' '}
                  {message(e.key, e.params?.max !== undefined ? Number(e.params.max) : maxLengthFor(path))}
                </a>
              </li>
            ))}
            {!coverageOk && (
              <li>
                <a href="#section-activities">
                  {t('FORM.SUMMARY.NOT_COVERED', { months: uncoveredRanges.join(', ') })}
                </a>
              </li>
            )}
          </ul>
        </div>
      )}

      <p className="form-intro">{t(start.noPrefill ? 'FORM.INTRO_MANUAL' : 'FORM.INTRO_PREFILLED')}</p>

      {section(
        'personal',
        <>
          {text('first_name', {
            autoComplete: 'given-name',
          })}
          {text('last_name', {
            autoComplete: 'family-name',
            onChange: (v) => {
              if (!birthNameTouched && !readOnly.has('birth_name')) setValue('birth_name', v);
            },
          })}
          {text('birth_name', { onChange: () => setBirthNameTouched(true) })}
          {!hidden('sex') &&
            select(
              'sex',
              SEX_CODES.map((c) => ({ code: c, name: t(`FORM.SEX.${c}`) })),
            )}
        </>,
      )}

      {!hidden('birth_date') &&
        section(
          'birth',
          <>
            <Field
              id="birth_date"
              label={t('FORM.FIELDS.birth_date')}
              hint={t('FORM.HINTS.birth_date')}
              error={errorText('birth_date')}
            >
              {(describedBy, invalid) => (
                <DateInput
                  id="birth_date"
                  value={values.birth_date}
                  readOnly={readOnly.has('birth_date')}
                  describedBy={describedBy}
                  invalid={invalid}
                  onChange={(iso) => set('birth_date', iso)}
                />
              )}
            </Field>
            {combo('birth_state', countryOptions, {
              onChange: (v) => onBirthState(v, values.birth_state),
            })}
            {birthCz
              ? combo('birth_municipality', municipalityOptions, { onChange: onMunicipality })
              : text('birth_municipality', { hint: t('FORM.HINTS.birth_municipality_abroad') })}
            {select(
              'birth_district',
              lists.districts.map((d) => ({ code: d.code, name: d.name })),
              { disabled: !birthCz, optional: !birthCz },
            )}
          </>,
        )}

      {section(
        'identity',
        <>
          {text('birth_number', {
            // Duplicate mode hides the birth date, so it cannot gate the birth number there.
            disabled: !duplicate && !readOnly.has('birth_number') && !isBirthNumberEnabled(values.birth_date),
            hint: t(
              isBirthNumberEnabled(values.birth_date) || duplicate
                ? 'FORM.HINTS.birth_number'
                : 'FORM.HINTS.birth_number_disabled',
            ),
            inputMode: 'numeric',
            info: t('FORM.TOOLTIPS.FIELDS.birth_number'),
          })}
          {select('document_type', named(lists.documentTypes))}
          {text('document_number', { info: t('FORM.TOOLTIPS.FIELDS.document_number') })}
          {combo('citizen_of_1', countryOptions, {
            onChange: (v) => {
              if (!isSecondCitizenshipEnabled(v)) setValue('citizen_of_2', '');
            },
          })}
          {combo('citizen_of_2', countryOptions, {
            disabled: !isSecondCitizenshipEnabled(values.citizen_of_1),
          })}
          {!hidden('other_citizenships') && (
            <OtherCitizenships
              options={countryOptions}
              value={values.other_citizenships}
              readOnly={readOnly.has('other_citizenships')}
              nameOf={countryName}
              error={errorText('other_citizenships')}
              onChange={(next) => set('other_citizenships', next)}
            />
          )}
        </>,
      )}

      {section(
        'home',
        <>
          {text('home_street', { autoComplete: 'address-line1' })}
          {text('home_house_num')}
          {text('home_org_num')}
          {text('home_city', { autoComplete: 'address-level2' })}
          {text('home_zip', { autoComplete: 'postal-code' })}
          {combo('home_state', countryOptions)}
        </>,
      )}

      {section(
        'contact_address',
        <>
          {text('contact_company', { autoComplete: 'organization' })}
          {text('contact_street')}
          {text('contact_house_num')}
          {text('contact_org_num')}
          {text('contact_city')}
          {text('contact_zip')}
          {combo('contact_state', countryOptions)}
        </>,
        !duplicate && (
          <p>
            <Button variant="outlined" onClick={copyHomeAddress} data-testid="copy-home">
              {t('FORM.COPY_HOME')}
            </Button>
          </p>
        ),
      )}

      {section(
        'contact',
        <>
          <div className="field-group">
            <Field id="dial_code" label={t('FORM.FIELDS.dial_code')} error={errorText('dial_code')}>
              {(describedBy, invalid) => (
                <select
                  id="dial_code"
                  className="input"
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  {...register('dial_code', { onChange: () => markChanged('dial_code') })}
                >
                  {lists.dialCodes.map((d) => (
                    <option key={d.code} value={d.code}>
                      {d.code} {itemName(d, lang)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {text('telephone', {
              inputMode: 'tel',
              autoComplete: 'tel-national',
              hint: t('FORM.HINTS.telephone'),
            })}
          </div>
          {text('email', { type: 'email', inputMode: 'email', autoComplete: 'email' })}
          {isDataMailboxShown(ctx) &&
            text('data_mailbox', {
              hint: t('FORM.HINTS.data_mailbox'),
              info: t('FORM.TOOLTIPS.FIELDS.data_mailbox'),
            })}
          {select('delivery_type', named(deliveryTypes), { info: t('FORM.TOOLTIPS.FIELDS.delivery_type') })}
        </>,
      )}

      {!hidden('employer_current_name') &&
        section(
          'employer',
          <>
            {text('employer_current_name', { autoComplete: 'organization' })}
            {text('employer_current_from', {
              hint: t('FORM.HINTS.month_year_employer'),
              onBlur: onEmployerFromBlur,
            })}
            {text('employer_current_description', { className: 'form-grid__wide' })}
            {select('employer_verification_type', named(lists.verificationTypes), {
              optional: false,
              info: t('FORM.TOOLTIPS.FIELDS.employer_verification_type'),
            })}
          </>,
        )}

      {!hidden('past_activities') && (
        <section className="card form-section" aria-labelledby={`${uid}-activities`} id="section-activities">
          <h2 id={`${uid}-activities`}>{t('FORM.SECTIONS.activities')}</h2>
          <p>{t('FORM.ACTIVITY.INTRO')}</p>
          <div
            className={`coverage${coverage.ok ? ' coverage--ok' : ''}`}
            data-testid="coverage"
            aria-live="polite"
          >
            {coverage.uncovered.length === 0
              ? t('FORM.COVERAGE.ALL')
              : t('FORM.COVERAGE.MISSING', {
                  count: coverage.uncovered.length,
                  months: uncoveredRanges.join(', '),
                })}
          </div>
          {activities.fields.map((row, i) => {
            const type = values.past_activities[i]?.type ?? '';
            const p = (f: string) => `past_activities.${i}.${f}` as Path<FormValues>;
            return (
              <fieldset key={row.id} className="row-card" data-testid="activity-row">
                <legend>{t('FORM.ACTIVITY.ROW', { n: i + 1 })}</legend>
                <div className="form-grid">
                  {text(p('from'), {
                    label: t('FORM.ACTIVITY.FROM'),
                    hint: t('FORM.HINTS.month_year'),
                    onBlur: normalizeOnBlur(p('from')),
                  })}
                  {text(p('to'), {
                    label: t('FORM.ACTIVITY.TO'),
                    hint: t('FORM.HINTS.month_year'),
                    onBlur: normalizeOnBlur(p('to')),
                  })}
                  {select(p('type'), named(lists.activityTypes), {
                    label: t('FORM.ACTIVITY.TYPE'),
                    onChange: (v) => {
                      if (!isField2Enabled(v)) setValue(p('field2'), '' as never);
                    },
                  })}
                  {text(p('field1'), { label: activityLabel('field1', type) })}
                  {text(p('field2'), {
                    label: activityLabel('field2', type),
                    disabled: !isField2Enabled(type),
                    optional: duplicate || !isField2Enabled(type),
                  })}
                </div>
                <RemoveRowButton
                  label={t('FORM.ACTIVITY.REMOVE', { n: i + 1 })}
                  tooltip={t('FORM.TOOLTIPS.REMOVE_ACTIVITY')}
                  onClick={() => removeActivity(i)}
                />
              </fieldset>
            );
          })}
          <button
            id="add-activity"
            type="button"
            className="btn btn--outlined btn--m"
            onClick={addActivity}
            data-testid="add-activity"
          >
            {t('FORM.ACTIVITY.ADD')}
          </button>
        </section>
      )}

      {!hidden('abroad_stay') && (
        <section className="card form-section" aria-labelledby={`${uid}-abroad`} id="section-abroad">
          <h2 id={`${uid}-abroad`}>{t('FORM.SECTIONS.abroad')}</h2>
          <p>{t('FORM.ABROAD.INTRO')}</p>
          {stays.fields.map((row, i) => {
            const p = (f: string) => `abroad_stay.${i}.${f}` as Path<FormValues>;
            const reasonId = fieldId(p('reason'));
            return (
              <fieldset key={row.id} className="row-card" data-testid="abroad-row">
                <legend>{t('FORM.ABROAD.ROW', { n: i + 1 })}</legend>
                <div className="form-grid">
                  {combo(p('state'), countryOptions, { label: t('FORM.ABROAD.STATE') })}
                  <Field
                    id={reasonId}
                    label={t('FORM.ABROAD.REASON')}
                    optional={duplicate}
                    error={errorText(p('reason'))}
                    className="form-grid__wide"
                  >
                    {(describedBy, invalid) => (
                      <textarea
                        id={reasonId}
                        className="input"
                        rows={3}
                        maxLength={maxLengthFor(p('reason'))}
                        aria-describedby={describedBy}
                        aria-invalid={invalid || undefined}
                        aria-required={!duplicate || undefined}
                        {...register(p('reason'), { onChange: () => markChanged(p('reason')) })}
                      />
                    )}
                  </Field>
                </div>
                <RemoveRowButton
                  label={t('FORM.ABROAD.REMOVE', { n: i + 1 })}
                  tooltip={t('FORM.TOOLTIPS.REMOVE_ABROAD')}
                  onClick={() => removeStay(i)}
                />
              </fieldset>
            );
          })}
          {canAddAbroadStay(values.abroad_stay) ? (
            <button
              id="add-abroad"
              type="button"
              className="btn btn--outlined btn--m"
              onClick={addStay}
              data-testid="add-abroad"
            >
              {t('FORM.ABROAD.ADD')}
            </button>
          ) : (
            <p className="field__hint">{t('FORM.ABROAD.LIMIT')}</p>
          )}
        </section>
      )}

      {duplicate && (
        <DuplicateTypes
          items={lists.duplicateTypes}
          lang={lang}
          value={values.duplicate_type}
          error={errorText('duplicate_type')}
          onChange={(next) => set('duplicate_type', next)}
        />
      )}

      <div className="form-actions">
        {/* The tooltip explains the ⚠ / 🕒 icon; the same state is in the button's name for screen readers. */}
        <Tooltip
          content={finishState === 'valid' ? null : t(`FORM.TOOLTIPS.FINISH.${finishState}`)}
          position="top"
          tapToggle={false}
        >
          {(describedBy) => (
            <Button
              type="submit"
              variant={valid ? 'primary' : 'outlined'}
              size="l"
              expandMobile
              className={`finish finish--${finishState}`}
              id="finish"
              data-testid="finish"
              data-state={finishState}
              aria-describedby={describedBy}
            >
              <span aria-hidden="true" className="finish__icon">
                {finishState === 'invalid' ? '⚠' : finishState === 'uncovered' ? '🕒' : '✓'}
              </span>{' '}
              {t('FORM.FINISH')}
              {finishState !== 'valid' && (
                <span className="visually-hidden"> ({t(`FORM.FINISH_STATE.${finishState}`)})</span>
              )}
            </Button>
          )}
        </Tooltip>
        <Button variant="link" onClick={onStartOver}>
          {t('FORM.START_OVER')}
        </Button>
      </div>

      {dialog && (
        <ConfirmDialog
          variant={dialog}
          nia={nia}
          email={values.email}
          telephone={values.telephone}
          notifyEmail={values.send_notifications_email}
          notifyPhone={values.send_notifications_phone}
          onNotifyEmail={(on) => setValue('send_notifications_email', on)}
          onNotifyPhone={(on) => setValue('send_notifications_phone', on)}
          processing={processing}
          onSubmit={() => void onSubmit()}
          onClose={closeDialog}
        />
      )}

      {modalOpen && (
        <Modal
          titleId={`${uid}-modal`}
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
  );
}

function OtherCitizenships({
  options,
  value,
  readOnly,
  nameOf,
  error,
  onChange,
}: {
  options: readonly ComboOption[];
  value: string[];
  readOnly: boolean;
  nameOf: (code: string) => string;
  /** Only the server finds one here (a code it does not know). */
  error: string;
  onChange: (next: string[]) => void;
}) {
  const { t } = useTranslation();
  const rest = useMemo(() => options.filter((o) => !value.includes(o.value)), [options, value]);
  const listId = 'other_citizenships-chosen';
  return (
    <Field
      id="other_citizenships"
      label={t('FORM.FIELDS.other_citizenships')}
      optional
      hint={readOnly ? undefined : t('FORM.HINTS.other_citizenships')}
      error={error}
      className="form-grid__wide"
    >
      {(describedBy, invalid) => (
        <>
          {value.length > 0 && (
            <ul className="chips" id={listId} aria-label={t('FORM.FIELDS.other_citizenships')}>
              {value.map((code) => (
                <li key={code} className="chip">
                  {nameOf(code)}
                  {!readOnly && (
                    <button
                      type="button"
                      className="chip__remove"
                      aria-label={t('FORM.REMOVE_ITEM', { name: nameOf(code) })}
                      onClick={() => onChange(value.filter((c) => c !== code))}
                    >
                      ×
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {!readOnly && value.length > 1 && (
            <button
              type="button"
              className="chips__clear"
              onClick={() => {
                onChange([]);
                // The button goes with the chips: focus stays in the field.
                document.getElementById('other_citizenships')?.focus();
              }}
            >
              {t('FORM.COMBOBOX.CLEAR_ALL')}
            </button>
          )}
          {readOnly ? (
            <input id="other_citizenships" className="input" readOnly value={value.map(nameOf).join(', ')} />
          ) : (
            <Combobox
              id="other_citizenships"
              options={rest}
              value=""
              clearOnSelect
              invalid={invalid}
              describedBy={describedBy}
              onChange={(code) => code && onChange([...value, code])}
            />
          )}
        </>
      )}
    </Field>
  );
}

/** The remove button of a past-activity or stay-abroad row, with its tooltip (a tap removes, not explains). */
function RemoveRowButton({
  label,
  tooltip,
  onClick,
}: {
  label: string;
  tooltip: string;
  onClick: () => void;
}) {
  return (
    <Tooltip content={tooltip} position="right" tapToggle={false}>
      {(describedBy) => (
        <Button variant="link" aria-describedby={describedBy} onClick={onClick}>
          {label}
        </Button>
      )}
    </Tooltip>
  );
}

function DuplicateTypes({
  items,
  lang,
  value,
  error,
  onChange,
}: {
  items: readonly DuplicateType[];
  lang: 'cs' | 'en';
  value: string[];
  error: string;
  onChange: (next: string[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="card form-section" aria-labelledby="duplicate-types-title">
      <h2 id="duplicate-types-title">{t('FORM.SECTIONS.duplicate')}</h2>
      <fieldset
        id="duplicate_type"
        className={`field${error ? ' field--invalid' : ''}`}
        aria-describedby={error ? 'duplicate_type-error' : undefined}
      >
        <legend className="field__label">{t('FORM.FIELDS.duplicate_type')}</legend>
        {/* The server's list names the reasons, as the PDF does; one switched off stays visible. */}
        {items.map((item) => (
          <label key={item.code} className="check">
            <input
              type="checkbox"
              checked={value.includes(item.code)}
              disabled={item.disabled === true && !value.includes(item.code)}
              onChange={() => onChange(toggleDuplicateType(value, item.code))}
            />{' '}
            {lang === 'en' ? item.name_en : item.name_cz}
          </label>
        ))}
        {error && (
          <p id="duplicate_type-error" className="field__error">
            {error}
          </p>
        )}
      </fieldset>
    </section>
  );
}
