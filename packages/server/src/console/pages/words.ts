import { type RequestStatus, requestState, stateWords } from '@ros/domain';

/**
 * A status as a step of the applicant's timeline, in the words of @ros/domain statusWords.ts
 * (the status page, the PDF, the notifications): the clerk's pages and previews say what the
 * applicant will read.
 */
export const stepWords = (status: RequestStatus, viaNia: boolean): string =>
  stateWords('cs', requestState(status, viaNia ? 'nia' : 'pdf')).step;
