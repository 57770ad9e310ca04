/**
 * Resolves in a later task (a zero-delay timer): what follows runs after the browser has had the
 * main thread, to paint, to handle input. Step 2's load is cut into tasks with it so that no one
 * of them holds a phone's main thread long (issue 37: Lighthouse's Total Blocking Time counts
 * every task's time past 50 ms).
 */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

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
