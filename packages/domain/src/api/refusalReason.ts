import { z } from 'zod';
import { once } from '../once.js';

// The refusal reason of the validate answer, in a module of its own: the browser reads it (the
// confirmation dialog's dates) without the other answers' schemas (answers.ts, register.ts),
// which it then leaves out of its bundle whole (issue 37).

const day = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Which rule makes a new request probably refused, with its dates (refusal.ts, issue 28). */
export const refusalReasonSchema = once(() =>
  z
    .discriminatedUnion('rule', [
      z.object({
        rule: z.literal('renewal-window'),
        validUntil: day().meta({ description: 'The last day the certificate in force is valid' }),
        from: day().meta({ description: 'The first day a new request falls within the renewal window' }),
      }),
      z.object({
        rule: z.literal('repeat-request'),
        filedOn: day().meta({ description: 'The day the last new request for the person was filed' }),
        until: day().meta({ description: 'The first day after the repeat window' }),
      }),
    ])
    .meta({
      description:
        'Present when okDate is false: which rule applies. `renewal-window`: the certificate in force is valid beyond the renewal window (ROS_RENEWAL_WINDOW_DAYS); `repeat-request`: a new request for the person was filed within the repeat window (ROS_REPEAT_REQUEST_DAYS). Dates are YYYY-MM-DD, Europe/Prague.',
    }),
);
