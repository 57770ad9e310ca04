import { canAddAbroadStay, emptyAbroadStay, type FormValues, MAX_TEXT_LINES } from '@ros/domain';
import { type Path, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useT } from '../../../shell/translate';
import { CatalogueField } from '../CatalogueField';
import { fieldId, useRequestForm } from '../context';
import { SectionCard } from '../SectionCard';
import { RemoveRowButton } from './ActivitiesSection';

/** Stays abroad (a new request's: FORM_SECTIONS); the first added row explains what to attach. */
export function AbroadSection() {
  const { t } = useT();
  const { status, focusLater, modalShown, openAbroadModal } = useRequestForm();
  const { control } = useFormContext<FormValues>();
  const rows = useFieldArray({ control, name: 'abroad_stay' });
  const stays = useWatch<FormValues, 'abroad_stay'>({ name: 'abroad_stay' });
  const add = () => {
    const index = rows.fields.length;
    rows.append(emptyAbroadStay(), { shouldFocus: false });
    status.markChanged('abroad_stay');
    if (!modalShown) openAbroadModal();
    else focusLater(fieldId(`abroad_stay.${index}.state`));
  };
  const remove = (i: number) => {
    rows.remove(i);
    status.markChanged('abroad_stay');
    focusLater('add-abroad');
  };
  return (
    <SectionCard name="abroad">
      <p>{t('FORM.ABROAD.INTRO')}</p>
      {rows.fields.map((row, i) => {
        const p = (f: string) => `abroad_stay.${i}.${f}` as Path<FormValues>;
        return (
          <fieldset key={row.id} className="row-card" data-testid="abroad-row">
            <legend>{t('FORM.ABROAD.ROW', { n: i + 1 })}</legend>
            <div className="form-grid">
              <CatalogueField path={p('state')} label={t('FORM.ABROAD.STATE')} />
              <CatalogueField
                path={p('reason')}
                label={t('FORM.ABROAD.REASON')}
                hint={t('FORM.HINTS.free_text', { max: MAX_TEXT_LINES })}
                rows={3}
                className="form-grid__wide"
              />
            </div>
            <RemoveRowButton
              label={t('FORM.ABROAD.REMOVE', { n: i + 1 })}
              tooltip={t('FORM.TOOLTIPS.REMOVE_ABROAD')}
              onClick={() => remove(i)}
            />
          </fieldset>
        );
      })}
      {canAddAbroadStay(stays) ? (
        <button
          id="add-abroad"
          type="button"
          className="btn btn--outlined btn--m"
          onClick={add}
          data-testid="add-abroad"
        >
          {t('FORM.ABROAD.ADD')}
        </button>
      ) : (
        <p className="field__hint">{t('FORM.ABROAD.LIMIT')}</p>
      )}
    </SectionCard>
  );
}
