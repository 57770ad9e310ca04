import type { FormValues } from '@ros/domain';
import { useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import { Button } from '../../components/Button';
import { useT } from '../../shell/translate';
import type { ComboOption } from '../Combobox';
import { useMunicipalities } from '../reference';
import { useRequestForm } from './context';
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
    <>
      <ComboField {...common} options={options} onChange={onPick} loading={!municipalities && !error} />
      {error && (
        <div className="card" role="alert">
          <p>{t('FORM.LISTS_ERROR')}</p>
          <Button onClick={retry}>{t('FORM.RETRY')}</Button>
        </div>
      )}
    </>
  );
}
