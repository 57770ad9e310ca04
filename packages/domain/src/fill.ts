/**
 * Replaces each `{name}` placeholder of a text with its value; a placeholder without a value (an
 * own property of `values`) stays as it is. The one template filler of the legal texts, the PDF,
 * the e-mails and the SMS (the browser's texts go through i18next's own interpolation).
 */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (Object.hasOwn(values, k) ? String(values[k]) : m));
}
