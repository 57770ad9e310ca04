import type { Prefill, PrefillField } from '@ros/domain';
import { useTranslation } from 'react-i18next';

/** Order of the summary: the form's sections. */
const ORDER: readonly PrefillField[] = [
  'first_name',
  'last_name',
  'birth_name',
  'sex',
  'birth_date',
  'birth_number',
  'birth_state',
  'birth_municipality',
  'birth_district',
  'citizen_of_1',
  'citizen_of_2',
  'other_citizenships',
  'document_type',
  'document_number',
  'home_street',
  'home_house_num',
  'home_org_num',
  'home_city',
  'home_zip',
  'home_state',
  'contact_company',
  'contact_street',
  'contact_house_num',
  'contact_org_num',
  'contact_city',
  'contact_zip',
  'contact_state',
  'telephone',
  'email',
  'data_mailbox',
  'delivery_type',
  'employer_current_name',
  'employer_current_from',
  'employer_current_position',
  'employer_current_description',
  'reason_for_request',
  'past_activities',
  'abroad_stay',
];

function isoToCzech(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

/** The prefilled values as a description list; read-only ones are marked (text, not only colour). */
export function PrefillSummary({ prefill }: { prefill: Prefill }) {
  const { t } = useTranslation();
  const readOnly = new Set(prefill.readOnly);
  const v = prefill.values;

  const show = (field: PrefillField): string => {
    const value = v[field];
    if (field === 'sex' && typeof value === 'string') return t(`FORM.SEX.${value}`);
    if (field === 'birth_date' && typeof value === 'string') return isoToCzech(value);
    if (field === 'document_type' && typeof value === 'string') return t(`FORM.DOCUMENT_TYPE.${value}`);
    if (field === 'past_activities' && Array.isArray(value)) {
      return (value as Array<{ from: string; to: string; type: string; field1: string; field2: string }>)
        .map(
          (a) =>
            `${a.from}–${a.to}: ${t(`FORM.ACTIVITY_TYPE.${a.type || '3'}`)}, ${[a.field1, a.field2].filter(Boolean).join(', ')}`,
        )
        .join('\n');
    }
    if (field === 'abroad_stay' && Array.isArray(value)) {
      return (value as Array<{ state: string; reason: string }>)
        .map((s) => `${s.state}: ${s.reason}`)
        .join('\n');
    }
    if (Array.isArray(value)) return value.join(', ');
    return typeof value === 'string' ? value : '';
  };

  return (
    <dl className="prefill-summary" data-testid="prefill-summary">
      {ORDER.filter((f) => v[f] !== undefined).map((f) => (
        <div key={f} className="prefill-summary__row" data-field={f}>
          <dt>
            {t(`FORM.FIELDS.${f}`)}
            {readOnly.has(f) && (
              <span className="prefill-summary__locked"> ({t('FORM.PREFILL.READ_ONLY')})</span>
            )}
          </dt>
          <dd>{show(f)}</dd>
        </div>
      ))}
    </dl>
  );
}
