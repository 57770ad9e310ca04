import { useT } from '../../../shell/translate';
import { useRequestForm } from '../context';
import { SectionFields } from '../SectionFields';

/**
 * Stays abroad (a new request's: FORM_SECTIONS): a list of rows (RowsField, by the entry's
 * kind) in this section's words; the first row added explains what to attach (a notice, once).
 */
export function AbroadSection() {
  const { t } = useT();
  const { modalShown, openAbroadModal } = useRequestForm();
  return (
    <SectionFields
      name="abroad"
      intro={<p>{t('FORM.ABROAD.INTRO')}</p>}
      place={{
        abroad_stay: {
          list: {
            name: 'abroad',
            texts: {
              row: 'FORM.ABROAD.ROW',
              add: 'FORM.ABROAD.ADD',
              remove: 'FORM.ABROAD.REMOVE',
              removeTip: 'FORM.TOOLTIPS.REMOVE_ABROAD',
              limit: 'FORM.ABROAD.LIMIT',
            },
            columnLabel: (column) => t(column === 'state' ? 'FORM.ABROAD.STATE' : 'FORM.ABROAD.REASON'),
            onAdd: () => {
              if (modalShown) return false;
              openAbroadModal();
              return true;
            },
          },
        },
      }}
    />
  );
}
