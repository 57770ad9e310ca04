import {
  buildFormSchema,
  type Catalogue,
  FIELDS,
  type FormContext,
  type FormFieldName,
  type FormValues,
  isFieldRequired,
  issuesToFieldErrors,
  specOrder,
  type ValidationError,
} from '@ros/domain';

/**
 * What the form's rules say about the current values, kept outside React state so that each
 * control re-renders only when its own message changes (useFormStatus with a selector), not
 * the whole form on every keystroke.
 *
 * Why not react-hook-form's zodResolver: its errors are per field and updated only for the field
 * that changed, while our rules cross fields (a Czech citizenship makes the birth number required,
 * DATOVKOU the data mailbox, `fromToDate`) and a message shows on every field the user changed or
 * after a finish (spec section 4; docs/requirements.md, product decisions, "Errors after Finish").
 * So the whole shared schema (`buildFormSchema`) runs on each change here, as the server runs it.
 */
export interface FormStatus {
  /** Every field error by control path: the browser's rules first, then the server's findings. */
  errors: Readonly<Record<string, ValidationError>>;
  /** No rule fails and no server finding still holds. */
  formOk: boolean;
  /** Top-level fields required with the current values (for "(optional)"). */
  required: ReadonlySet<FormFieldName>;
  /** Paths the user changed (a message shows only there until a finish). */
  changed: ReadonlySet<string>;
  /** A finish was tried: every invalid field shows its message. */
  attempted: boolean;
}

/** A field error the server found on submit, with the value it judged (JSON). */
interface ServerError {
  error: ValidationError;
  sent: string;
}

/** The value at a dotted path ('past_activities.0.from'), as JSON so lists compare too. */
export const valueAt = (values: FormValues, path: string): string =>
  JSON.stringify(
    path
      .split('.')
      .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as never)[k] : undefined), values) ?? null,
  );

export class FormStatusStore {
  private readonly listeners = new Set<() => void>();
  private schema: ReturnType<typeof buildFormSchema> | undefined;
  /** The rules have run on the values (not yet while the form loads: see the constructor). */
  private checked = false;
  private server: Record<string, ServerError> = {};
  private values: FormValues;
  state: FormStatus;

  constructor(
    readonly ctx: FormContext,
    values: FormValues,
    private readonly catalogue: Catalogue = FIELDS,
  ) {
    this.values = values;
    // While the form loads nothing shows a message (nothing is changed, no finish tried) and the
    // finish bar is not in the page yet: the schema is built and run after the first render
    // (check(), from the form's effect), not in it, so that the form's first screen is not
    // held up by it on a phone (issue 37). Until then the form is not OK and only "(optional)"
    // (the required set, from the catalogue's rules) is known.
    this.state = {
      errors: {},
      formOk: false,
      required: this.requiredNow(),
      changed: new Set(),
      attempted: false,
    };
  }

  /** Builds the rules' schema (the first run then only runs it: two shorter tasks than one). */
  prepare(): ReturnType<typeof buildFormSchema> {
    this.schema ??= buildFormSchema(this.ctx, undefined, this.catalogue);
    return this.schema;
  }

  /** Runs the rules on the values if they have not run yet; a finish asks it first. */
  check(): void {
    if (!this.checked) this.publish(this.compute(this.state.changed, this.state.attempted));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): FormStatus => this.state;

  /** The values changed (every keystroke): the rules run again. */
  update(values: FormValues): void {
    this.values = values;
    this.publish(this.compute(this.state.changed, this.state.attempted));
  }

  markChanged(path: string): void {
    if (this.state.changed.has(path)) return;
    this.publish({ ...this.state, changed: new Set(this.state.changed).add(path) });
  }

  setAttempted(): void {
    this.check();
    if (!this.state.attempted) this.publish({ ...this.state, attempted: true });
  }

  /** The server's findings (400 INVALID_FORM): each stays while its field keeps the judged value. */
  setServerErrors(errors: Record<string, ValidationError>): void {
    this.server = Object.fromEntries(
      Object.entries(errors).map(([path, error]) => [path, { error, sent: valueAt(this.values, path) }]),
    );
    const changed = new Set([...this.state.changed, ...Object.keys(errors)]);
    this.publish(this.compute(changed, true));
  }

  private requiredNow(): ReadonlySet<FormFieldName> {
    return new Set(
      specOrder(this.catalogue).filter((f) => isFieldRequired(f, this.values, this.ctx, this.catalogue)),
    ) as ReadonlySet<FormFieldName>;
  }

  private compute(changed: ReadonlySet<string>, attempted: boolean): FormStatus {
    const schema = this.prepare();
    this.checked = true;
    const parsed = schema.safeParse(this.values);
    const errors: Record<string, ValidationError> = parsed.success
      ? {}
      : issuesToFieldErrors(parsed.error.issues);
    let serverInvalid = false;
    for (const [path, s] of Object.entries(this.server)) {
      if (valueAt(this.values, path) !== s.sent) continue;
      serverInvalid = true;
      if (!(path in errors)) errors[path] = s.error;
    }
    return {
      errors,
      formOk: parsed.success && !serverInvalid,
      required: this.requiredNow(),
      changed,
      attempted,
    };
  }

  private publish(next: FormStatus): void {
    this.state = next;
    for (const l of this.listeners) l();
  }
}
