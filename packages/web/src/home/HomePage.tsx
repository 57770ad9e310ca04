import { STATUS_PAGE_PATHS } from '@ros/domain';
import type { MouseEvent } from 'react';
import { buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { LangLink, useLang, useLangNavigate, withLang } from '../shell/lang';
import { useMetadata } from '../shell/metadata';
import { useHeaderTitle } from '../shell/title';
import { useT } from '../shell/translate';
import { formPath, ssoRedirectUrl } from './choices';

function List({ items }: { items: string[] }) {
  return (
    <ul className="checklist">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

function asList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Home: the two ways to apply (spec section 2), in normal or duplicate mode. */
export function HomePage({ duplicate }: { duplicate: boolean }) {
  const { t } = useT();
  const lang = useLang();
  const navigate = useLangNavigate();
  const { use_eid } = useMetadata();
  useHeaderTitle(duplicate ? 'TITLE.DUPLICATE' : 'TITLE.DEFAULT');

  const eidEnabled = use_eid !== 'NO';
  // With NIA switched off the first choice opens the form in its "identified" flavour (?eid=eid).
  const eidHref = eidEnabled
    ? ssoRedirectUrl(lang, duplicate)
    : withLang(formPath(duplicate, lang, true), lang);
  const onEid = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    if (eidEnabled) window.location.assign(ssoRedirectUrl(lang, duplicate));
    else navigate(formPath(duplicate, lang, true));
  };

  const mode = duplicate ? 'DUPLICATE' : 'DEFAULT';
  // With sign-in switched off the first card must not promise it: it offers the whole form.
  const first = eidEnabled ? 'EID' : 'EID_OFF';
  return (
    <div className="home">
      <h1>{t(`HOME.${mode}.HEADING`)}</h1>
      <p className="lead">{t(`HOME.${mode}.INTRO`)}</p>

      <div className="choices">
        <Card as="section" tone="primary" className="choice" aria-labelledby="choice-eid-title">
          <h2 id="choice-eid-title" className="choice__title">
            {t(`HOME.${first}.TITLE`)}
          </h2>
          <p className="choice__badge">{t(`HOME.${first}.BADGE`)}</p>
          <List items={asList(t(`HOME.${first}.POINTS_${mode}`, { returnObjects: true }))} />
          <a href={eidHref} onClick={onEid} className={buttonClass('primary', 'l')} data-testid="choice-eid">
            {t(`HOME.${first}.BUTTON`)}
          </a>
        </Card>
        <Card as="section" className="choice" aria-labelledby="choice-basic-title">
          <h2 id="choice-basic-title" className="choice__title">
            {t('HOME.BASIC.TITLE')}
          </h2>
          <p className="choice__badge choice__badge--neutral">{t('HOME.BASIC.BADGE')}</p>
          <List items={asList(t(`HOME.BASIC.POINTS_${mode}`, { returnObjects: true }))} />
          <LangLink
            to={formPath(duplicate, lang)}
            className={buttonClass('outlined', 'l')}
            data-testid="choice-basic"
          >
            {t('HOME.BASIC.BUTTON')}
          </LangLink>
        </Card>
      </div>

      <section className="home__needs" aria-labelledby="needs-title">
        <h2 id="needs-title">{t('HOME.NEEDS.TITLE')}</h2>
        <List items={asList(t(`HOME.NEEDS.ITEMS_${mode}`, { returnObjects: true }))} />
      </section>

      {/* Ways in for who applied already or holds a certificate (issue 36). */}
      <section className="home__needs" aria-labelledby="ways-in-title" data-testid="home-ways-in">
        <h2 id="ways-in-title">{t('HOME.WAYS_IN.TITLE')}</h2>
        <ul>
          <li>
            <LangLink to={STATUS_PAGE_PATHS[lang]} data-testid="home-status-link">
              {t('HOME.WAYS_IN.STATUS')}
            </LangLink>
          </li>
          <li>
            <LangLink to="/check" data-testid="home-check-link">
              {t('HOME.WAYS_IN.CHECK')}
            </LangLink>
          </li>
        </ul>
      </section>

      <p className="home__switch">
        {duplicate ? (
          <LangLink to="/">{t('HOME.SWITCH.TO_DEFAULT')}</LangLink>
        ) : (
          <LangLink to={lang === 'en' ? '/duplicate' : '/duplikat'}>{t('HOME.SWITCH.TO_DUPLICATE')}</LangLink>
        )}
      </p>
    </div>
  );
}
