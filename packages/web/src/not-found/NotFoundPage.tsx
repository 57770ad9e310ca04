import { buttonClass } from '../components/Button';
import { LangLink } from '../shell/lang';
import { useHeaderTitle, usePageTitle } from '../shell/title';
import { useT } from '../shell/translate';

export function NotFoundPage() {
  const { t } = useT();
  // Its own title in the blue band (issue 28), not the request form's: the page belongs to no form.
  useHeaderTitle('NOT_FOUND.TITLE');
  usePageTitle('NOT_FOUND.TITLE');
  return (
    <div className="not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>{t('NOT_FOUND.TITLE')}</h1>
      <p className="lead">{t('NOT_FOUND.DESCRIPTION')}</p>
      <LangLink to="/" className={buttonClass('primary')}>
        {t('NOT_FOUND.HOME_LINK')}
      </LangLink>
    </div>
  );
}
