import { isoToDisplay } from '@ros/domain';

/**
 * Times and dates as the console's pages show them (issue 38): the data services answer ISO
 * instants in UTC (console/queue.ts, requestView.ts); a clerk reads Prague time, summer or winter.
 */

const prague = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Prague',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** An ISO instant as 'dd.mm.yyyy HH:mm' in Prague ('' for what is not an instant). */
export function pragueTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const p = Object.fromEntries(prague.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}

/** An ISO date ('1990-07-05', a birth date: no time zone) as '05.07.1990' ('' for what is not a date). */
export function czechDate(isoDate: string | null): string {
  return isoDate === null ? '' : (isoToDisplay(isoDate) ?? '');
}
