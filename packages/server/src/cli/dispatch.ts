/** Where a command writes its lines. */
export type Out = (line: string) => void;

/** Prints a group's usage, after the problem when there is one: exit 2 for a problem, 0 for help. */
export type Usage = (out: Out, problem?: string) => number;

export function usagePrinter(group: string, lines: readonly string[]): Usage {
  return (out, problem) => {
    if (problem) out(`ros-admin ${group}: ${problem}`);
    for (const line of lines) out(line);
    return problem ? 2 : 0;
  };
}

/**
 * Runs one command of a `ros-admin` group. No command or `help` prints the usage; an unknown
 * command, or options parseArgs refuses, print it after the problem (exit 2).
 */
export async function dispatch(
  args: string[],
  out: Out,
  usage: Usage,
  commands: Record<string, (rest: string[]) => number | Promise<number>>,
): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help') return usage(out);
  const fn = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!fn) return usage(out, `unknown command "${command}"`);
  try {
    return await fn(rest);
  } catch (err) {
    // parseArgs explains unknown or incomplete options.
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      return usage(out, err.message);
    }
    throw err;
  }
}
