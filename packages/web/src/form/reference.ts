import type { CodeItem, Country, District, DuplicateType, Municipality } from '@ros/domain';
import { startTransition, useEffect, useState } from 'react';
import { apiGet } from '../api/client';
import { eachInItsTask } from '../shell/tasks';

// The lists' item shapes are the API contract's (@ros/domain, GET /api/ros/{list}).
export type { CodeItem, Country, District, DuplicateType, Municipality };

/**
 * Step 2's pick lists, fetched when step 2 opens. Not the 6,258 municipalities: those only
 * matter for a Czech birth and come with the municipality box (`useMunicipalities`).
 */
export interface ReferenceLists {
  countries: Country[];
  districts: District[];
  deliveryTypes: CodeItem[];
  documentTypes: CodeItem[];
  verificationTypes: CodeItem[];
  dialCodes: CodeItem[];
  activityTypes: CodeItem[];
  duplicateTypes: DuplicateType[];
}

const cache = new Map<string, Promise<ReferenceLists>>();
/** Counts clearReferenceCache(): a load of an earlier count makes no more calls. */
let generation = 0;

/** Each list's call (GET /api/ros/<path>), by its place in ReferenceLists. */
const LIST_PATHS = (lang: 'cs' | 'en'): { readonly [K in keyof ReferenceLists]: string } => ({
  countries: lang === 'en' ? '/countries?lang=en' : '/countries',
  districts: '/districts',
  deliveryTypes: '/delivery-types',
  documentTypes: '/document-types',
  verificationTypes: '/verification-types',
  dialCodes: '/dial-codes',
  activityTypes: '/activity-types',
  duplicateTypes: '/duplicate-types',
});

async function load(lang: 'cs' | 'en'): Promise<ReferenceLists> {
  // Each call starts in a task of its own (issue 37): all eight are on their way within
  // milliseconds, and no task of the load holds a phone's main thread for all of them. A call not
  // yet made when the cache is cleared (a test's end) is not made.
  const of = generation;
  const paths = LIST_PATHS(lang);
  const names = Object.keys(paths) as (keyof ReferenceLists)[];
  const answers = await eachInItsTask(names, (name) =>
    of === generation
      ? apiGet<unknown>(paths[name])
      : Promise.reject(new Error('the pick lists were cleared')),
  );
  // The answers' shapes are the API contract's (the server's answer schemas); each list by its name.
  return Object.fromEntries(names.map((name, i) => [name, answers[i]])) as unknown as ReferenceLists;
}

/**
 * The form's pick lists (loaded once per language); `error` when a list could not be loaded.
 * Nothing is fetched while `enabled` is false (the search step does not need them).
 */
export function useReferenceLists(
  lang: 'cs' | 'en',
  enabled = true,
): {
  lists: ReferenceLists | null;
  error: boolean;
  retry: () => void;
} {
  const [state, setState] = useState<{ lists: ReferenceLists | null; error: boolean }>({
    lists: null,
    error: false,
  });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void attempt;
    let p = cache.get(lang);
    if (!p) {
      p = load(lang);
      cache.set(lang, p);
      p.catch(() => cache.delete(lang));
    }
    p.then(
      // Step 2 renders when its lists are there: as a transition (issue 29), in slices of a few
      // milliseconds, not one long task on a slow phone.
      (lists) => live && startTransition(() => setState({ lists, error: false })),
      () => live && setState({ lists: null, error: true }),
    );
    return () => {
      live = false;
    };
  }, [lang, attempt, enabled]);
  return { ...state, retry: () => setAttempt((a) => a + 1) };
}

let municipalitiesLoad: Promise<Municipality[]> | null = null;

/**
 * The municipalities (6,258, ~0.5 MB of JSON), fetched once, when first asked for: the birth
 * municipality box asks when the birth country is the Czech Republic (issue 14). `error` when
 * they could not be loaded; `retry` tries again.
 */
export function useMunicipalities(): {
  municipalities: Municipality[] | null;
  error: boolean;
  retry: () => void;
} {
  const [state, setState] = useState<{ municipalities: Municipality[] | null; error: boolean }>({
    municipalities: null,
    error: false,
  });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    void attempt;
    if (!municipalitiesLoad) {
      const p = apiGet<Municipality[]>('/municipalities');
      municipalitiesLoad = p;
      p.catch(() => {
        if (municipalitiesLoad === p) municipalitiesLoad = null;
      });
    }
    municipalitiesLoad.then(
      // A transition (issue 29): 6,258 options made and shown in slices, not one long task.
      (municipalities) => live && startTransition(() => setState({ municipalities, error: false })),
      () => live && setState({ municipalities: null, error: true }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  return { ...state, retry: () => setAttempt((a) => a + 1) };
}

/** Clears the cache (tests). */
export function clearReferenceCache(): void {
  cache.clear();
  generation++;
  municipalitiesLoad = null;
}

/** The name of a coded item in the current language. */
export const itemName = (item: CodeItem, lang: 'cs' | 'en'): string =>
  lang === 'en' ? item.name_en : item.name_cz;
