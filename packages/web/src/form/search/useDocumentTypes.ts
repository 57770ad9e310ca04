import { type CodeItem, FORM_DOCUMENT_TYPES } from '@ros/domain';
import { startTransition, useEffect, useState } from 'react';
import { apiGet } from '../../api/client';
import { useLang } from '../../shell/lang';
import { useT } from '../../shell/translate';

export interface DocumentTypeOption {
  code: string;
  name: string;
}

/**
 * The search's document types in the page's language: the list of GET /api/ros/document-types
 * (`CodeItem`s, the API contract). Without it the form's own types (`FORM_DOCUMENT_TYPES` of
 * `@ros/domain`, named by the texts `FORM.DOCUMENT_TYPE.*`) still let the user search. No
 * options until the answer (or its failure) is in: `loaded` says when.
 */
export function useDocumentTypes(): { loaded: boolean; options: DocumentTypeOption[] } {
  const { t } = useT();
  const lang = useLang();
  const [list, setList] = useState<CodeItem[] | 'own' | null>(null);

  useEffect(() => {
    let live = true;
    apiGet<CodeItem[]>('/document-types')
      .then((answer) => {
        // A transition (issue 29): the step re-renders in slices, not one task on a slow phone.
        if (live) startTransition(() => setList(Array.isArray(answer) && answer.length > 0 ? answer : 'own'));
      })
      .catch(() => {
        if (live) setList('own');
      });
    return () => {
      live = false;
    };
  }, []);

  if (list === null) return { loaded: false, options: [] };
  const options =
    list === 'own'
      ? FORM_DOCUMENT_TYPES.map((code) => ({ code, name: t(`FORM.DOCUMENT_TYPE.${code}`) }))
      : list.map((d) => ({ code: d.code, name: lang === 'en' ? d.name_en : d.name_cz }));
  return { loaded: true, options };
}
