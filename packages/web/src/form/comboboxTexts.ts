import { useMemo } from 'react';
import type { ComboboxTexts } from '../components/Combobox';
import { useT } from '../shell/translate';

/** The form's words for its comboboxes (countries, municipalities, citizenships), in the page's language. */
export function useComboboxTexts(): ComboboxTexts {
  const { t } = useT();
  return useMemo(
    () => ({
      typeToSearch: t('FORM.COMBOBOX.TYPE_TO_SEARCH'),
      options: t('FORM.COMBOBOX.OPTIONS'),
      loading: t('FORM.COMBOBOX.LOADING'),
      noItems: t('FORM.COMBOBOX.NO_ITEMS'),
      results: (count) => t('FORM.COMBOBOX.RESULTS', { count }),
      reverted: (typed, label) => t('FORM.COMBOBOX.REVERTED', { typed, label }),
      revertedEmpty: (typed) => t('FORM.COMBOBOX.REVERTED_EMPTY', { typed }),
    }),
    [t],
  );
}
