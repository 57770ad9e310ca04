import { displayToIso, parseReference } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import type { FieldError } from '../pages/Layout.js';
import { QueuePage, type QueueRowView, type SearchInput } from '../pages/QueuePage.js';
import { ConsoleQueryError, isQueueTab, type QueueTab, queueCounts, queuePage } from '../queue.js';
import { searchRequests } from '../search.js';
import { CONSOLE_PATH } from '../staff.js';
import { T } from '../texts.js';
import { auditConsole, type ConsoleDeps, frameOf, gate, sendMessage, sendPage } from './common.js';

/** Rows per page of the queue and of a search. */
export const PAGE_SIZE = 50;

type Query = Record<string, unknown>;
/** A query value as a bounded string ('' when absent or not a string: repeated keys are ignored). */
const text = (q: Query, key: string, max: number) => {
  const v = q[key];
  return typeof v === 'string' ? v.trim().slice(0, max) : '';
};

/** The ways to search, one at a time (console/search.ts), and each search field's control. */
const SEARCH_WAYS = ['reference', 'name', 'birthNumber'] as const;
const SEARCH_FIELD: Record<keyof SearchInput, string> = {
  reference: 'hledat-cislo',
  name: 'hledat-jmeno',
  birthDate: 'hledat-narozeni',
  birthNumber: 'hledat-rc',
};
const searchMessage = (field: string): string =>
  (field === 'reference'
    ? T.errors.searchReference
    : field === 'birthDate'
      ? T.errors.searchDate
      : field === 'birthNumber'
        ? T.errors.searchBirthNumber
        : T.errors.searchName) ?? '';

/** GET /urad: the queue of one status (`?stav=`), or a search's results (`?reference=&name=&birthDate=&birthNumber=`). */
export function queueRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get(CONSOLE_PATH, async (req, reply) => {
    const staff = await gate(deps, req, reply, 'look');
    if (!staff) return reply;
    const q = (req.query ?? {}) as Query;
    const search: SearchInput = {
      reference: text(q, 'reference', 40),
      name: text(q, 'name', 100),
      birthDate: text(q, 'birthDate', 20),
      birthNumber: text(q, 'birthNumber', 20),
    };
    const cursor = text(q, 'po', 200) || undefined;
    const searching = Object.values(search).some((v) => v !== '');
    const errors: FieldError[] = [];
    const reference = search.reference ? parseReference(search.reference) : null;
    if (search.reference && !reference)
      errors.push({ field: 'hledat-cislo', message: T.errors.searchReference ?? '' });
    const birthDate = search.birthDate ? displayToIso(search.birthDate) : null;
    if (search.birthDate && !birthDate)
      errors.push({ field: 'hledat-narozeni', message: T.errors.searchDate ?? '' });
    if (searching && !reference && !search.name && !search.birthNumber && errors.length === 0)
      errors.push({ field: 'hledat-jmeno', message: T.searchNeedsInput });
    // One way at a time (console/search.ts): a second of reference, name, birth number is refused
    // at its field, as is a birth date beside anything but a name.
    const ways = SEARCH_WAYS.filter((k) => search[k] !== '');
    if (ways.length > 1 && ways[1])
      errors.push({ field: SEARCH_FIELD[ways[1]], message: T.errors.searchOneWay ?? '' });
    else if (birthDate && ways.length === 1 && ways[0] !== 'name')
      errors.push({ field: 'hledat-narozeni', message: T.errors.searchDateWithName ?? '' });

    const stav = text(q, 'stav', 20);
    const tab: QueueTab | null = searching ? null : isQueueTab(stav) ? stav : 'paper_new';
    const counts = await queueCounts(deps.db);
    let rows: QueueRowView[] = [];
    let next: string | null = null;
    try {
      if (tab) {
        ({ rows, next } = await queuePage(deps.db, { tab, cursor, limit: PAGE_SIZE }));
      } else if (errors.length === 0) {
        ({ rows, next } = await searchRequests(deps.db, {
          ...(reference ? { reference } : {}),
          ...(search.name ? { name: search.name } : {}),
          ...(birthDate ? { birthDate } : {}),
          ...(search.birthNumber ? { birthNumber: search.birthNumber } : {}),
          cursor,
          limit: PAGE_SIZE,
        }));
      }
    } catch (err) {
      if (!(err instanceof ConsoleQueryError)) throw err;
      // A value the search does not take (a name with %, a birth number of letters): at its field.
      const field = err.field in SEARCH_FIELD ? SEARCH_FIELD[err.field as keyof SearchInput] : null;
      // A cursor that is not one of ours (edited by hand): the request is wrong, not the server.
      if (tab || !field) return sendMessage(reply, deps, staff, 'badRequest');
      errors.push({ field, message: searchMessage(err.field) });
    }
    // Who looked at which list: the tab or which fields were searched by, and how many rows (never the terms).
    const by = Object.entries(search)
      .filter(([, v]) => v !== '')
      .map(([k]) => k)
      .join('+');
    await auditConsole(
      deps,
      staff,
      tab ? 'queue' : 'search',
      rows.length === 1 && rows[0] ? rows[0].reference : null,
      errors.length > 0 ? 'invalid' : 'ok',
      tab ? `tab=${tab} rows=${rows.length}` : `by=${by} rows=${rows.length}`,
    );
    const here = new URLSearchParams(
      tab ? { stav: tab } : Object.fromEntries(Object.entries(search).filter(([, v]) => v !== '')),
    );
    const pageUrl = (c: string | null) => {
      const u = new URLSearchParams(here);
      if (c) u.set('po', c);
      return `${CONSOLE_PATH}?${u.toString()}`;
    };
    return sendPage(
      reply,
      errors.length > 0 ? 400 : 200,
      QueuePage({
        frame: frameOf(deps, staff, 'queue'),
        counts,
        tab,
        search,
        searchErrors: errors,
        rows,
        next: next ? pageUrl(next) : null,
        paged: cursor !== undefined,
        firstPage: pageUrl(null),
        now: new Date(),
      }),
    );
  });
}
