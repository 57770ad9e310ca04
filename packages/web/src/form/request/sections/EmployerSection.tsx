import {
  computeCoverage,
  type FormValues,
  isFieldHidden,
  MAX_UNCOVERED_MONTHS,
  normalizeMonthYear,
} from '@ros/domain';
import { useFormContext } from 'react-hook-form';
import { useAlerts } from '../../../shell/alerts';
import { useT } from '../../../shell/translate';
import { CatalogueField } from '../CatalogueField';
import { useFormStatus, useRequestForm } from '../context';
import { Section } from '../controls';

/** The current employer (not in duplicate mode). */
export function EmployerSection() {
  const { ctx } = useRequestForm();
  if (isFieldHidden('employer_current_name', ctx)) return null;
  return <EmployerFields />;
}

function EmployerFields() {
  const { t } = useT();
  const { getValues, setValue } = useFormContext<FormValues>();
  const alerts = useAlerts();
  const startChanged = useFormStatus((s) => s.changed.has('employer_current_from'));

  // Leaving the start box after a change: MM/YYYY, and a warning when months stay uncovered.
  const onFromBlur = () => {
    const v = getValues();
    const normal = normalizeMonthYear(v.employer_current_from);
    if (normal && normal !== v.employer_current_from) setValue('employer_current_from', normal);
    if (!startChanged) return;
    const c = computeCoverage({
      employerFrom: normal ?? v.employer_current_from,
      activities: v.past_activities,
    });
    if (c.uncovered.length > MAX_UNCOVERED_MONTHS) {
      alerts.show({ type: 'warning', key: 'ALERTS.TIME_NOT_COVERED' });
    }
  };

  return (
    <Section name="employer">
      <CatalogueField path="employer_current_name" autoComplete="organization" />
      <CatalogueField
        path="employer_current_from"
        hint={t('FORM.HINTS.month_year_employer')}
        onBlur={onFromBlur}
      />
      {/* Up to 240 characters: a box that shows them. */}
      <CatalogueField path="employer_current_description" rows={3} className="form-grid__wide" />
      <CatalogueField
        path="employer_verification_type"
        radio
        optional={false}
        info={t('FORM.TOOLTIPS.FIELDS.employer_verification_type')}
        className="form-grid__wide"
      />
    </Section>
  );
}
