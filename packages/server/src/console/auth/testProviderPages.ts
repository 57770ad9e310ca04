import { esc, page } from '../../nia/testProvider.js';
import { CONSOLE_TEST_PROVIDER_PATH } from './paths.js';
import { TEST_STAFF } from './testStaff.js';

/**
 * The local staff provider's pages (Czech, with English beside it like /nia-test's): the picker
 * of test staff and the error page. Plain HTML, no script; axe-checked in testProvider.test.ts.
 */

export function pickerPage(uid: string): string {
  const base = `${CONSOLE_TEST_PROVIDER_PATH}/interaction/${esc(uid)}`;
  const options = TEST_STAFF.map(
    (s, n) =>
      `<label><input type="radio" name="staff" value="${esc(s.subject)}"${n === 0 ? ' checked' : ''}> ${esc(s.name)}, ${esc(s.label)}</label>`,
  ).join('\n');
  return page(
    'Testovací přihlášení úředníků / Test staff sign-in',
    `<h1>Testovací přihlášení do konzole úřadu <span lang="en">/ Test sign-in to the authority's console</span></h1>
<p class="note">Toto není poskytovatel identity úřadu: vývojový a testovací poskytovatel portálu ROS. <span lang="en">This is not the authority's identity provider: the ROS portal's development and test provider.</span></p>
<form method="post" action="${base}/login">
<fieldset><legend>Testovací pracovník <span lang="en">/ Test staff member</span></legend>
${options}
</fieldset>
<button type="submit" name="action" value="login">Přihlásit <span lang="en">/ Sign in</span></button>
<button type="submit" name="action" value="abort" formaction="${base}/abort">Zrušit <span lang="en">/ Cancel</span></button>
</form>`,
  );
}

export const errorPage = (message: string): string =>
  page(
    'Testovací přihlášení úředníků – chyba / Test staff sign-in – error',
    `<h1>Chyba <span lang="en">/ Error</span></h1><p>${esc(message)}</p>`,
  );
