import { coverageOk, type FormValues, normalizeMonthYear } from '@ros/domain';
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { InlineMessage } from '../../../shell/alerts';
import { useT } from '../../../shell/translate';
import { CatalogueField } from '../CatalogueField';
import { fieldId, useCoverageOk, useFormStatus, useRequestForm } from '../context';
import { SectionFields } from '../SectionFields';

/** The current employer (a new request's: FORM_SECTIONS). */
export function EmployerSection() {
  const { t } = useT();
  const { ctx } = useRequestForm();
  const { getValues, setValue } = useFormContext<FormValues>();
  // Under the start box, not at the top of the page (issue 27): stays until closed or fixed.
  const [uncovered, setUncovered] = useState(false);
  const startChanged = useFormStatus((s) => s.changed.has('employer_current_from'));
  // The warning goes once the activities cover the years (issue 36: it outlived the section's
  // "The last 5 years are covered").
  const covered = useCoverageOk();

  // Leaving the start box after a change: MM/YYYY, and a warning when months stay uncovered.
  const onFromBlur = () => {
    const v = getValues();
    const normal = normalizeMonthYear(v.employer_current_from);
    if (normal && normal !== v.employer_current_from) setValue('employer_current_from', normal);
    if (!startChanged) return;
    setUncovered(!coverageOk({ ...v, employer_current_from: normal ?? v.employer_current_from }, ctx));
  };

  return (
    <SectionFields
      name="employer"
      // The proof of employment last, below the description (the catalogue has the spec's order).
      order={[
        'employer_current_name',
        'employer_current_from',
        'employer_current_description',
        'employer_verification_type',
      ]}
      place={{
        employer_current_name: { autoComplete: 'organization' },
        employer_current_from: () => (
          <>
            <CatalogueField
              path="employer_current_from"
              hint={t('FORM.HINTS.month_year_employer')}
              onBlur={onFromBlur}
            />
            <InlineMessage
              message={uncovered && !covered ? { type: 'warning', key: 'ALERTS.TIME_NOT_COVERED' } : null}
              onDismiss={() => setUncovered(false)}
              focusAfter={() => document.getElementById(fieldId('employer_current_from'))}
              testId="coverage-notice"
              className="form-grid__wide"
            />
          </>
        ),
        // Up to 240 characters: a box that shows them.
        employer_current_description: { rows: 3, className: 'form-grid__wide' },
        employer_verification_type: { radio: true, className: 'form-grid__wide' },
      }}
    />
  );
}
