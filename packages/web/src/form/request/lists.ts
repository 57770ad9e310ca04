import type { CodeListName } from '@ros/domain';
import { type CodeItem, itemName, type ReferenceLists } from '../reference';

// The code lists of the catalogue (fields.ts `list`) among the pick lists step 2 has loaded.

export interface ListItem {
  code: string;
  name: string;
}

/** A code list's item; a duplicate reason may be switched off by the authority (`disabled`). */
type ListedItem = CodeItem & { disabled?: boolean };

/** Where each code list of the catalogue (fields.ts) is among the loaded pick lists. */
const LIST_OF: Record<CodeListName, (lists: ReferenceLists) => readonly ListedItem[]> = {
  'document-types': (l) => l.documentTypes,
  'delivery-types': (l) => l.deliveryTypes,
  'dial-codes': (l) => l.dialCodes,
  'verification-types': (l) => l.verificationTypes,
  'duplicate-types': (l) => l.duplicateTypes,
  'activity-types': (l) => l.activityTypes,
};

/** The loaded items of a code list by its catalogue name, as the server gives them. */
export const codeItems = (lists: ReferenceLists, list: CodeListName): readonly ListedItem[] =>
  LIST_OF[list](lists);

/** The items of a code list by its catalogue name; a dial code shows its code first ('+420 (Czech Republic)'). */
export function listItems(lists: ReferenceLists, list: CodeListName, lang: 'cs' | 'en'): ListItem[] {
  return LIST_OF[list](lists).map((i) => ({
    code: i.code,
    // The code first, then the country in brackets: the code stays visible in a narrow box.
    name: list === 'dial-codes' ? `${i.code} (${itemName(i, lang)})` : itemName(i, lang),
  }));
}
