/**
 * Reads the first-session walkthrough of docs/getting-started.md: the shell blocks marked
 * `<!-- walkthrough -->` (run in order in a second terminal), the server command marked
 * `<!-- walkthrough:server -->`, and the `# → …` lines that show what a step prints (`…` stands for
 * anything: ids, times).
 */

export interface Walkthrough {
  /** The walkthrough's shell blocks, in the page's order. */
  blocks: string[];
  /** The environment the page's server command sets before `npm start`. */
  serverEnv: Record<string, string>;
  /** The `# →` lines, in order: what the steps print, one output line each. */
  expected: string[];
}

const FENCE = /<!-- walkthrough(:server)? -->\s*\n```(?:sh|bash)\n([\s\S]*?)\n```/g;

export function parseWalkthrough(markdown: string): Walkthrough {
  const blocks: string[] = [];
  let server: string | undefined;
  for (const m of markdown.matchAll(FENCE)) {
    if (m[1]) server = m[2];
    else blocks.push(m[2]!);
  }
  if (!server) throw new Error('the page has no <!-- walkthrough:server --> block');
  const command = server.split('\n').find((line) => /\bnpm start\b/.test(line));
  if (!command) throw new Error('the walkthrough:server block does not run npm start');
  const serverEnv: Record<string, string> = {};
  for (const m of command.slice(0, command.indexOf('npm start')).matchAll(/([A-Z_][A-Z0-9_]*)=(?:'([^']*)'|(\S+))/g)) {
    serverEnv[m[1]!] = m[2] ?? m[3]!;
  }
  const expected = blocks.flatMap((b) => b.split('\n').filter((l) => l.startsWith('# → ')).map((l) => l.slice('# → '.length)));
  return { blocks, serverEnv, expected };
}

/** A `# →` line as a whole-line pattern: literal text, `…` matches anything. */
function pattern(line: string): RegExp {
  const parts = line.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/**
 * Checks that the output shows every expected line in order (other lines may come between). Returns the
 * first expected line not found after the previous match, or undefined when all are found.
 */
export function firstMissing(output: string, expected: string[]): string | undefined {
  const lines = output.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected) {
    const re = pattern(want);
    const found = lines.findIndex((l, i) => i >= at && re.test(l));
    if (found < 0) return want;
    at = found + 1;
  }
  return undefined;
}
