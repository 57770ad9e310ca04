/**
 * Resolves in a later task: what follows runs after the browser has had the main thread, to
 * handle input (and paint, when a frame is due). Step 2's load is cut into tasks with it so that
 * no one of them holds a phone's main thread long (issue 37: Lighthouse's Total Blocking Time
 * counts every task's time past 50 ms). A message to itself, as React's scheduler yields, not a
 * zero-delay timer: timers are clamped to 4 ms when nested, and a page's timers may run on a
 * test's paused clock (e2e shell.spec.ts "header title timing"), which would hold the start-up.
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * Runs `work` for each item, each in a task of its own, in order, without waiting for the one
 * before to finish: the step's pick lists are fetched this way (a fetch() call costs a phone a few
 * milliseconds of the main thread, eight of them were one long task).
 */
export function eachInItsTask<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  let turn = Promise.resolve();
  return Promise.all(
    items.map((item) => {
      turn = turn.then(nextTask);
      return turn.then(() => work(item));
    }),
  );
}
