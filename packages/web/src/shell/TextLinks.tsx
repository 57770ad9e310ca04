import { cloneElement, type ReactElement, type ReactNode } from 'react';
import { useT } from './translate';

/**
 * A translated text whose `<name>…</name>` parts become the given elements (links), e.g.
 * "Google's <privacy>Privacy Policy</privacy> apply". Only flat, named tags, which is all the
 * translation files use: react-i18next's <Trans> and its HTML parser cost 5 kB gzipped on the
 * check page and the form for that (issue 14). An unknown tag shows its text only.
 */
export function TextLinks({
  i18nKey,
  components,
}: {
  i18nKey: string;
  components: Record<string, ReactElement<{ children?: ReactNode }>>;
}) {
  const { t } = useT();
  const text = t(i18nKey);
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(/<(\w+)>(.*?)<\/\1>/g)) {
    const [whole, name = '', inner = ''] = match;
    parts.push(text.slice(last, match.index));
    const element = components[name];
    parts.push(element ? cloneElement(element, { key: parts.length }, inner) : inner);
    last = match.index + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
