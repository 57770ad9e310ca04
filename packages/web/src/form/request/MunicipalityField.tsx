import type { FormValues } from '@ros/domain';
import { useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import { Button } from '../../components/Button';
import type { ComboOption } from '../../components/Combobox';
import { InlineMessage } from '../../shell/alerts';
import { useT } from '../../shell/translate';
import { useMunicipalities } from '../reference';
import { fieldId, useRequestForm } from './context';
import { ComboField, type CommonProps } from './controls';

/**
 * The birth municipality of a Czech birth (the catalogue's kind `municipality` while it is not
 * free text): a searchable list of the 6,258 municipalities, fetched when this box first shows
 * (the birth country is the Czech Republic), not with step 2 (issue 14). Choosing one sets the
 * birth district, which follows the municipality; `onChange` gets the new and previous code.
 */
export function MunicipalityField({
  onChange,
  ...common
}: CommonProps & { onChange?: (next: string, previous: string) => void }) {
  const { t } = useT();
  const { status } = useRequestForm();
  const { setValue } = useFormContext<FormValues>();
  const { municipalities, error, retry } = useMunicipalities();
  const options = useMemo<ComboOption[]>(
    () => (municipalities ?? []).map((m) => ({ value: m.code, label: m.long_name })),
    [municipalities],
  );
  const onPick = (code: string, previous: string) => {
    const m = municipalities?.find((x) => x.code === code);
    setValue('birth_district', m?.district ?? '', { shouldDirty: true });
    if (m) status.markChanged('birth_district');
    onChange?.(code, previous);
  };
  return (
    // One cell of the section's grid: the box with its message under it (the region, empty while
    // the list loads or has loaded, takes no cell of its own).
    <div>
      <ComboField {...common} options={options} onChange={onPick} loading={!municipalities && !error} />
      {/* The list failed: said under the box, in a region that is in the page while it loads
          (issue 35); "Try again" puts focus back in the box while it loads again. */}
      <InlineMessage
        message={error ? { type: 'danger', key: 'FORM.LISTS_ERROR' } : null}
        action={
          <Button
            onClick={() => {
              retry();
              document.getElementById(fieldId(common.path))?.focus();
            }}
          >
            {t('FORM.RETRY')}
          </Button>
        }
        testId="municipalities-error"
      />
    </div>
  );
}
