import type { Municipality } from '@ros/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import type { ComboOption } from '../Combobox';
import { useMunicipalities } from '../reference';
import { ComboField } from './controls';

/**
 * The birth municipality of a Czech birth: a searchable list of the 6,258 municipalities,
 * fetched when this box first shows (the birth country is the Czech Republic), not with step 2
 * (issue 14). `onChange` gets the chosen municipality (its district follows).
 */
export function MunicipalityField({ onChange }: { onChange: (m: Municipality | undefined) => void }) {
  const { t } = useTranslation();
  const { municipalities, error, retry } = useMunicipalities();
  const options = useMemo<ComboOption[]>(
    () => (municipalities ?? []).map((m) => ({ value: m.code, label: m.long_name })),
    [municipalities],
  );
  return (
    <>
      <ComboField
        path="birth_municipality"
        options={options}
        onChange={(code) => onChange(municipalities?.find((m) => m.code === code))}
      />
      {error && (
        <div className="card" role="alert">
          <p>{t('FORM.LISTS_ERROR')}</p>
          <Button onClick={retry}>{t('FORM.RETRY')}</Button>
        </div>
      )}
    </>
  );
}
